#!/bin/sh
# What dbsnap --plan and --part say (#25): the warning about a table that
# is not transactional (MyISAM) comes once from --plan and once from the
# part that reads its rows (before: from every part), and sqlexec's
# summary of the parts counts tables, not the (table, part) pieces of
# the tables cut across parts (before: "4 tables" for 3).  The source is
# a server of the test's own (its position moves only when the test
# writes, t1090 says why); the target is tests/run's server.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
DB=t1105_db
server_own SRC --server-id=105
SC="--no-defaults -uroot -S $SRC_SOCK"
mariadb $SC <<SQL >/dev/null || exit 1
CREATE DATABASE $DB;
USE $DB;
CREATE TABLE a (id int PRIMARY KEY, note varchar(40));
INSERT INTO a SELECT seq, CONCAT('row ', seq) FROM seq_1_to_30000;
CREATE TABLE c (k varchar(20) PRIMARY KEY, v int);
INSERT INTO c VALUES ('x', 1), ('y', 2);
CREATE TABLE m (id int PRIMARY KEY) ENGINE=MyISAM;
INSERT INTO m VALUES (1), (2);
ANALYZE TABLE a, c, m;
SQL
warned() { grep -c "warning: $DB\.m: engine MyISAM is not transactional" "$@"; }

dbsnap $SC --plan 2 $DB >plan.txt 2>plan.err
is "$?" 0 "--plan 2: exit 0"
is "$(warned plan.err)" 1 "... warns once about the MyISAM table"
awk -F'\t' '$1 == "unit" && $5 == "a" { p[$2] = 1 } END { exit !(length(p) == 2) }' plan.txt
ok $? "... table a is cut across both parts"
for i in 1 2; do
	dbsnap $SC --part $i/2 --plan-file plan.txt >p$i.rp 2>p$i.err
	is "$?" 0 "--part $i/2: exit 0"
done
is "$(cat p1.err p2.err | warned)" 1 \
    "the parts warn once, from the part with its rows (before: each part)"

sql -e "DROP DATABASE IF EXISTS $DB"
sqlexec $(CONN) --input p1.rp --input p2.rp 2>load.err
is "$?" 0 "sqlexec loads the parts"
like "$(tail -1 load.err)" "^sqlexec: 3 tables, 30004 rows, " \
    "... its summary counts 3 tables (before: 4, a's pieces)"
sql -e "DROP DATABASE $DB"
done_testing
