#!/bin/sh
# sqlexec: an INSERT IGNORE that meets a duplicate key in the first unit
# into an empty table keeps its rows.  MariaDB's bulk load of an empty
# table (unique_checks=0 and foreign_key_checks=0, which sqlexec sets for
# the first unit into a table) loses every row of the transaction then
# (10.11.19); such a unit is not bulk-loaded, and the table holds what the
# mariadb client makes of the same statements.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4170_a b=t4170_b

cat >in.sql <<'SQL'
CREATE TABLE t (id INT PRIMARY KEY, v INT);
INSERT INTO t VALUES (1, 1), (2, 2);
INSERT IGNORE INTO t VALUES (3, 3), (3, 4), (2, 5);
INSERT LOW_PRIORITY IGNORE INTO t VALUES (4, 4), (4, 6);
CREATE TABLE u (id INT PRIMARY KEY);
INSERT IGNORE INTO u VALUES (1), (1);
SQL
fresh_db $a
sql $a <in.sql
ok $? "reference: the mariadb client"
for j in 1 3; do
	fresh_db $b
	sqlsplit <in.sql | sqlexec $C -j $j $b 2>err
	is $? 0 "-j $j: sqlsplit | sqlexec"
	is "$(sql -e "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM $b.t")" \
	    "$(sql -e "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM $a.t")" \
	    "-j $j: the rows of every statement, duplicates ignored"
	is "$(sql -e "SELECT COUNT(*) FROM $b.u")" 1 "-j $j: an IGNORE alone"
done
sqlsplit <in.sql | sqlexec -n 2>/dev/null | grep -c "bulk" >n.txt
is "$(cat n.txt)" 0 "no unit with INSERT IGNORE is planned as a bulk unit"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
