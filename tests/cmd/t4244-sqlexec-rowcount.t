#!/bin/sh
# ROW_COUNT() and FOUND_ROWS() read what the statement before did.  An
# INSERT that reads them runs right after that statement on connection 1
# (ordered.c): in the transaction of the ordered INSERT before it, or
# taking the INSERT before it out of the unit being filled, or after a
# barrier with no START TRANSACTION, COMMIT or look-up of sqlexec's in
# between.  So the values are the mysql client's, at -j 1, 2 and 4, at
# the default settings and with --commit-every 1 (but after an INSERT
# that filled its unit).  Before, most of them
# were 0 (a unit's COMMIT) or -1 (sqlexec's own information_schema query).
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4244_a b=t4244_b
plan 10

# foreign_key_checks off, as a dump: else every INSERT is ordered, and the
# first into a table (its engine's look-up) comes after the statement before
cat >rc.sql <<'EOF2'
SET FOREIGN_KEY_CHECKS=0;
CREATE TABLE t (id INT PRIMARY KEY, v INT);
CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT);
CREATE TABLE log (k VARCHAR(4), n INT);
INSERT INTO t VALUES (1,1),(2,2),(3,3);
INSERT INTO log VALUES ('s1', ROW_COUNT());
UPDATE t SET v = v + 1;
INSERT INTO log VALUES ('s2', ROW_COUNT());
INSERT INTO log VALUES ('s3', ROW_COUNT());
DELETE FROM t WHERE id = 1;
INSERT INTO log VALUES ('s4', ROW_COUNT());
SELECT SQL_CALC_FOUND_ROWS * FROM t LIMIT 1;
INSERT INTO log VALUES ('s5', FOUND_ROWS());
INSERT INTO a (v) VALUES (1), (2);
INSERT INTO log VALUES ('s6', ROW_COUNT());
INSERT INTO t VALUES (7,7),(8,8);
INSERT INTO t VALUES (9,9);
INSERT INTO log VALUES ('s7', ROW_COUNT());
INSERT IGNORE INTO t VALUES (10,10),(11,11);
INSERT INTO log VALUES ('s8', ROW_COUNT());
INSERT INTO t VALUES (10,0) ON DUPLICATE KEY UPDATE v = 11;
INSERT INTO log VALUES ('s9', ROW_COUNT());
EOF2
fresh_db $a
sql $a <rc.sql >/dev/null
want=$(sql $a -e "SELECT GROUP_CONCAT(k, '=', n ORDER BY k) FROM log")
is "$want" "s1=3,s2=3,s3=1,s4=1,s5=2,s6=2,s7=1,s8=2,s9=2" "(the client's values)"
# (with --commit-every 1 an INSERT of literals fills its unit, whose
# COMMIT comes before s1, s7, s8 and s9: sqlexec(1) CAVEATS)
for j in 1 2 4; do
	for ce in "" "--commit-every 1"; do
		fresh_db $b
		sqlsplit rc.sql | sqlexec $C -j $j $ce $b 2>err
		st=$? w=$want
		[ -z "$ce" ] || w=s2=3,s3=1,s4=1,s5=2,s6=2
		is "$st $(sql $b -e "SELECT GROUP_CONCAT(k, '=', n ORDER BY k)
		    FROM log WHERE '$ce' = '' OR k BETWEEN 's2' AND 's6'")" "0 $w" \
		    "-j $j $ce: ROW_COUNT(), FOUND_ROWS() as the client's"
	done
done
is "$(grep -c 'ROW_COUNT' err)" 0 "and no warning about them"
fresh_db $b
sqlsplit rc.sql | sqlexec $C -j 2 $b 2>err
db_hex $a >a.hex
db_hex $b >b.hex
is_file b.hex a.hex "-j 2: every row as the client's"

# What is not an INSERT still gets the warning: a SELECT ... INTO @v runs
# on every connection.
printf 'SELECT ROW_COUNT() INTO @r;\n' | sqlsplit | sqlexec -n -j 2 >/dev/null 2>err
like "$(cat err)" "statement 1 \\(line 1\\) reads ROW_COUNT\\(\\) or FOUND_ROWS\\(\\) and is not an INSERT" \
    "a SELECT ... INTO @r that reads ROW_COUNT(): the warning"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
