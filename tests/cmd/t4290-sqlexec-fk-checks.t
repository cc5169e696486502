#!/bin/sh
# sqlexec keeps the server's foreign_key_checks on a statement stream
# (newuser finding 8): a plain script's ON DELETE/UPDATE CASCADE and SET
# NULL fire and a row without its parent fails with 1452, as through the
# mysql client, at -j 1, 2 and 4 (HEX() of every row, exit status,
# warnings and failed statements).  While the checks are on, INSERTs run
# in order; a dump turns them off in its header (mysqldump, rows2sql),
# so its INSERTs still go in parallel units.  A snapshot stream loads
# with the checks off, and --keep-checks turns them back on for it.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4290_a b=t4290_b

cat >cas2.sql <<'SQL'
CREATE TABLE p (id INT PRIMARY KEY, v INT);
CREATE TABLE c (id INT AUTO_INCREMENT PRIMARY KEY, pid INT, n INT,
  FOREIGN KEY (pid) REFERENCES p(id) ON DELETE CASCADE ON UPDATE CASCADE);
CREATE TABLE s (id INT PRIMARY KEY, pid INT,
  FOREIGN KEY (pid) REFERENCES p(id) ON DELETE SET NULL ON UPDATE SET NULL);
INSERT INTO p VALUES (1, 1), (2, 2), (3, 3);
INSERT INTO c (pid, n) VALUES (1, 1), (2, 2), (3, 3), (1, 4);
INSERT INTO s VALUES (1, 1), (2, 2), (3, 3);
DELETE FROM p WHERE id = 1;
UPDATE p SET id = 20 WHERE id = 2;
REPLACE INTO p VALUES (3, 33);
INSERT INTO p VALUES (4, 4);
INSERT INTO s VALUES (4, 4);
INSERT INTO c VALUES (10, 4, 10);
SQL
# A child row before its parent, then one with no parent at all (1452).
cat >fk2.sql <<'SQL'
CREATE TABLE p (id INT PRIMARY KEY);
CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id));
INSERT INTO p VALUES (1);
INSERT INTO c VALUES (1, 1);
INSERT INTO c VALUES (2, 2);
INSERT INTO p VALUES (2);
INSERT INTO c VALUES (3, 1), (4, 99);
INSERT INTO c VALUES (5, 1);
SQL

for f in cas2 fk2; do
	for force in "" "--force"; do
		fresh_db $a
		sql $force -vvv $a <$f.sql >ref.out 2>ref.err
		rc0=$?
		db_hex $a >a.hex
		want=$(client_counts ref.out ref.err)
		for j in 1 2 4; do
			fresh_db $b
			sqlsplit $f.sql | sqlexec $C $force -j $j $b 2>err
			rc=$?
			db_hex $b >b.hex
			is_file b.hex a.hex "$f.sql -j $j $force: HEX() of every row"
			if [ -z "$force" ]; then
				is "$rc" "$rc0" "$f.sql -j $j: exit status as the client's"
				continue
			fi
			# with --force, the client exits 0 where sqlexec exits 1
			is "$(sqlexec_counts err)" "$want" \
			    "$f.sql -j $j $force: warnings and failed statements"
			is "$rc" "$([ "${want#* }" = 0 ] && echo 0 || echo 1)" \
			    "$f.sql -j $j $force: exit status 1 if one failed"
		done
	done
done
like "$(cat err)" "ERROR 1452" "fk2.sql: the orphan fails with 1452"

# The input's own SETs decide: with the checks off, the orphan loads.
{ echo "SET FOREIGN_KEY_CHECKS=0;"; cat fk2.sql; } >fk0.sql
fresh_db $b
sqlsplit fk0.sql | sqlexec $C -j 2 $b 2>err
is "$?" 0 "SET FOREIGN_KEY_CHECKS=0 in the input: it loads"
is "$(sql -e 'SELECT COUNT(*) FROM c' $b)" 5 "with every row, as the client"

# Plans: a script with the checks on orders its INSERTs; a mysqldump-like
# file of FK-related tables keeps its units, and so does rows2sql's text.
sqlsplit cas2.sql | sqlexec -n -j 2 >plan 2>&1
is "$(grep -c ': insert: parallel' plan)" 0 "checks on: no parallel INSERT"
like "$(cat plan)" "foreign_key_checks is on" "and the plan says why"
{
	echo "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;"
	echo "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;"
	echo "CREATE TABLE c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p(id));"
	echo "CREATE TABLE p (id INT PRIMARY KEY, v INT);"
	seq 300 | awk '{ print "INSERT INTO c VALUES (" $1 "," $1 ");" }'
	seq 300 | awk '{ print "INSERT INTO p VALUES (" $1 "," $1 ");" }'
	echo "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;"
	echo "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;"
	echo "INSERT INTO p VALUES (1000, 1);"
} >dump.sql
sqlsplit dump.sql | sqlexec -n -j 2 --commit-every 1 >plan 2>err
is "$(grep -c ': insert: parallel' plan)" 600 "a dump's INSERTs stay parallel"
fresh_db $b
sqlsplit dump.sql | sqlexec $C -j 2 --commit-every 1K $b 2>err
is "$?" 0 "the dump loads at -j 2, children before parents"
like "$(cat err)" " 5[0-9][0-9] by bulk execute" "its INSERTs by bulk execute"
is "$(sql -e 'SELECT COUNT(*) FROM c' $b)" 300 "with every row"
sql -e "INSERT INTO c VALUES (1001, 999)" $b 2>/dev/null
is "$?" 1 "the target's foreign key is there"

# rows2sql's text and the snapshot stream name the source database: each
# loads into a fresh one of that name.
fresh_db $a
sql $a <cas2.sql
db_hex $a >a.hex
dbsnap $C $a >snap.rp
ok $? "a snapshot of the tables"
rows2sql <snap.rp >snap.sql
sqlsplit snap.sql | sqlexec -n -j 2 >plan 2>err
is "$(grep -c ': insert: parallel' plan)" 3 "rows2sql's text: its INSERTs parallel"
fresh_db $a
sqlsplit snap.sql | sqlexec $C -j 2 2>err
is "$?" 0 "rows2sql's text loads at -j 2"
db_hex $a >b.hex
is_file b.hex a.hex "rows2sql's text: HEX() of every row"

# A snapshot stream: checks off (the child table c comes before p).
fresh_db $a
sqlexec $C -j 2 <snap.rp 2>err
is "$?" 0 "the snapshot stream loads at -j 2"
db_hex $a >b.hex
is_file b.hex a.hex "snapshot stream: HEX() of every row"
fresh_db $a
sqlexec $C --keep-checks <snap.rp 2>err
is "$?" 1 "--keep-checks on a snapshot stream: the checks are on"
like "$(cat err)" "ERROR 14(51|52)|ERROR 1005" "with a foreign key's error"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
