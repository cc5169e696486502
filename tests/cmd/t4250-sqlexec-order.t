#!/bin/sh
# sqlexec -j N gives what the mysql client gives (issue #24): order-gen
# writes scripts whose result depends on the order of their statements
# and on one connection's state (AUTO_INCREMENT ids the server assigns,
# LAST_INSERT_ID(), user variables read and assigned in INSERTs and SETs,
# SET INSERT_ID, SELECT ... INTO @var, REPLACE and INSERT IGNORE of the
# same keys, the input's own transactions, DDL, procedures, a temporary
# table at the end), between ordinary INSERTs of explicit keys.  Each
# runs through the mysql client and through sqlsplit | sqlexec at -j 1,
# 2 and 4, at the default settings and with --commit-every 1: HEX() of
# every column of every row, the number of warnings and of failed
# statements are the client's.  Then the examples of the issue, and
# that a dump's INSERTs still go in parallel units.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4250_a b=t4250_b

for seed in 1 2; do
	order-gen -s $seed -n ${RP_ORDER_STEPS:-300} -T $a >o.sql
	ok $? "seed $seed: script generated"
	sed "s/^USE \`$a\`/USE \`$b\`/" o.sql >ob.sql
	fresh_db $a
	sql --force -vvv <o.sql >ref.out 2>ref.err
	db_hex $a >a.hex
	want=$(client_counts ref.out ref.err)
	for j in 1 2 4; do
		for ce in "" "--commit-every 1"; do
			fresh_db $b
			sqlsplit <ob.sql | sqlexec $C --force -j $j $ce $b 2>err
			db_hex $b >b.hex
			is_file b.hex a.hex "seed $seed, -j $j $ce: HEX() of every row"
			is "$(sqlexec_counts err)" "$want" \
			    "seed $seed, -j $j $ce: warnings and failed statements"
		done
	done
done

# The table of issue #24, at -j 2, default settings and --commit-every 1.
cat >ids.sql <<'SQL'
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5));
CREATE TABLE u (id INT, v VARCHAR(5));
INSERT INTO t (v) VALUES ('a');
INSERT INTO t (v) VALUES ('b');
INSERT INTO t (v) VALUES ('c');
INSERT INTO t (v) VALUES ('d');
INSERT INTO t (v) VALUES ('e');
INSERT INTO u VALUES (LAST_INSERT_ID(), 'x');
INSERT INTO t (v) VALUES ('f');
INSERT INTO u VALUES (LAST_INSERT_ID(), 'y');
SET @n := 0;
INSERT INTO u VALUES (@n := @n + 1, 'n');
INSERT INTO u VALUES (@n := @n + 1, 'n');
INSERT INTO u VALUES (@n := @n + 1, 'n');
SQL
{
	echo "CREATE TABLE m (id INT AUTO_INCREMENT PRIMARY KEY, v INT);"
	echo "CREATE TABLE l (tid INT, v INT);"
	i=1
	while [ $i -le 3000 ]; do
		echo "INSERT INTO m (v) VALUES ($i);"
		echo "INSERT INTO l VALUES (LAST_INSERT_ID(), $i);"
		i=$((i + 1))
	done
} >many.sql
for ce in "" "--commit-every 1"; do
	fresh_db $b
	sqlsplit <ids.sql | sqlexec $C -j 2 $ce $b 2>err
	is "$(sql -e "SELECT GROUP_CONCAT(id, v ORDER BY id) FROM t;
	    SELECT GROUP_CONCAT(id, v ORDER BY v, id) FROM u" $b | tr '\n' ' ')" \
	    "1a,2b,3c,4d,5e,6f 1n,2n,3n,5x,6y " \
	    "-j 2 $ce: ids in order, LAST_INSERT_ID() and @n as the client's"
	sqlsplit <many.sql | sqlexec $C -j 2 $ce $b 2>err
	is "$(sql -e "SELECT COUNT(*), SUM(id <> v) FROM m;
	    SELECT COUNT(*), SUM(tid <> v) FROM l" $b | tr '\n' ' ')" \
	    "3000	0 3000	0 " "-j 2 $ce: 3,000 pairs of INSERT and LAST_INSERT_ID()"
done

# Invisible columns: an INSERT without a column list gives the visible
# ones, so the AUTO_INCREMENT column's place is counted among those (iv),
# and an invisible AUTO_INCREMENT column is always assigned (ih).
{
	echo "CREATE TABLE iv (h INT INVISIBLE DEFAULT 7, id INT AUTO_INCREMENT PRIMARY KEY, v INT);"
	echo "CREATE TABLE ih (id INT AUTO_INCREMENT PRIMARY KEY INVISIBLE, v INT);"
	seq 400 | awk '{ print "INSERT INTO iv VALUES (NULL, " $1 ");";
	    print "INSERT INTO ih VALUES (" $1 ");" }'
} >inv.sql
fresh_db $b
sqlsplit <inv.sql | sqlexec $C -j 2 --commit-every 1 $b 2>err
is "$(sql -e "SELECT COUNT(*), SUM(id <> v), SUM(h <> 7) FROM iv;
    SELECT COUNT(*), SUM(id <> v) FROM ih" $b | tr '\n' ' ')" \
    "400	0	0 400	0 " "invisible columns: the ids the server assigns in order"

# A key whose DEFAULT is a sequence's next value is assigned in order too
# (breaker F10: ids in another order than the client's, exit 0); a
# column whose default is the clock is not order's.
{
	echo "SET FOREIGN_KEY_CHECKS=0;"
	echo "CREATE SEQUENCE s;"
	echo "CREATE TABLE sq (id BIGINT PRIMARY KEY DEFAULT NEXT VALUE FOR s, v INT,"
	echo "    at DATETIME DEFAULT CURRENT_TIMESTAMP);"
	echo "CREATE TABLE o (id INT PRIMARY KEY);"
	seq 300 | awk '{ print "INSERT INTO sq (v) VALUES (" $1 ");"; print "INSERT INTO o VALUES (" $1 ");" }'
} >seq.sql
fresh_db $b
sqlsplit <seq.sql | sqlexec $C -j 4 --commit-every 1 $b 2>err
is "$(sql -e "SELECT COUNT(*), SUM(id <> v) FROM sq" $b)" "$(printf '300\t0')" \
    "a key of DEFAULT NEXT VALUE FOR a sequence: the ids the server assigns in order"

# A dump (explicit keys, SET @OLD_...=@@... around it) keeps its units.
{
	echo "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;"
	echo "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;"
	echo "CREATE TABLE d (id INT AUTO_INCREMENT PRIMARY KEY, v INT);"
	seq 200 | awk '{ print "INSERT INTO d VALUES (" $1 ",1),(" $1 + 1000 ",2);" }'
	echo "/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;"
} >dump.sql
sqlsplit <dump.sql | sqlexec -n -j 2 --commit-every 1 >plan 2>err
is "$(grep -c ': insert: parallel' plan)" 200 "a dump's INSERTs stay parallel"
is "$(cat err)" "" "and nothing is said about them"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
