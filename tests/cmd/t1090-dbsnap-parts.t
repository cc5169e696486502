#!/bin/sh
# dbsnap --plan N and --part I/N (#19): the plan is deterministic and
# balanced; the parts, loaded together by sqlexec --input, give the
# source's tables back (triggers created after every part's rows); parts
# of another plan or position, a missing part, a part given twice, a
# damaged plan file and one part alone are refused with exit 1.
# The source is a server of the test's own, so that its GTID position
# moves only when the test writes; the target is tests/run's server.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
DB=t1090_shop
TARGET_SOCK=$RP_SOCK
server_own SRC --server-id=90
src() { mariadb --no-defaults -uroot -S "$SRC_SOCK" --batch --skip-column-names "$@"; }
SC="--no-defaults -uroot -S $SRC_SOCK"
TC="--no-defaults -uroot -S $TARGET_SOCK"

src <<SQL >/dev/null || exit 1
CREATE DATABASE $DB;
USE $DB;
CREATE TABLE a (id int PRIMARY KEY, amt int NOT NULL, note varchar(40));
INSERT INTO a SELECT seq, 1000, CONCAT('row ', seq) FROM seq_1_to_30000;
CREATE TABLE b (id bigint PRIMARY KEY, amt int NOT NULL);
INSERT INTO b SELECT CAST(seq AS SIGNED) * 7 - 100000, seq FROM seq_1_to_20000;
CREATE TABLE c (k varchar(20) PRIMARY KEY, v int);
INSERT INTO c VALUES ('x', 1), ('y', 2), ('tab	key', 3);
CREATE TABLE nokey (v int);
INSERT INTO nokey VALUES (1), (1), (NULL);
CREATE TABLE empty_t (id int PRIMARY KEY);
CREATE TABLE log (id int AUTO_INCREMENT PRIMARY KEY, what varchar(20));
CREATE VIEW va AS SELECT COUNT(*) AS n FROM a;
CREATE TRIGGER a_ins AFTER INSERT ON a FOR EACH ROW
  INSERT INTO log (what) VALUES ('insert');
ANALYZE TABLE a, b, c, nokey, empty_t, log \G
SQL

dbsnap $SC --plan 3 $DB > plan.txt
is "$?" 0 "dbsnap --plan 3 exits 0"
dbsnap $SC --plan 3 $DB > plan2.txt
is_file plan2.txt plan.txt "the same catalogue gives the same plan, byte for byte"
is "$(head -1 plan.txt)" "rowpipe-plan	1" "the plan starts with its format line"
hash=$(awk -F'\t' '$1 == "hash" { print $2 }' plan.txt)
want=$(sed '$d' plan.txt | xxhsum -H3 2>/dev/null | sed 's/.* = //')
if command -v xxhsum >/dev/null 2>&1; then
	is "$hash" "$want" "its hash is the XXH3 of every line before it"
else
	skip 1 "no xxhsum -H3 here"
fi
awk -F'\t' '$1 == "unit" && $5 == "a" && NF == 8 { n++; p[$2] = 1 }
    END { for (i in p) k++; exit !(n >= 3 && k >= 2) }' plan.txt
ok $? "the largest table is cut into ranges, in more than one part"
# Balance: the largest part holds at most 1.5 times the smallest.
awk -F'\t' '$1 == "part" { if (min == "" || $3 < min) min = $3;
    if ($3 > max) max = $3 } END { exit !(max <= 1.5 * min) }' plan.txt
ok $? "the parts are balanced by estimated bytes"
is "$(awk -F'\t' '$1 == "unit" && $5 == "c"' plan.txt | wc -l | tr -d ' ')" 1 \
    "a table with a non-integer key is one unit"

for i in 1 2 3; do
	dbsnap $SC -j 2 --part $i/3 --plan-file plan.txt > p$i.rp
	is "$?" 0 "dbsnap --part $i/3 exits 0"
done
hdr=$(framecat < p2.rp | head -1)
like "$hdr" "plan=$hash part=2 parts=3" "part 2's header carries the plan's hash, I and N"
like "$hdr" "gtid_binlog_pos=0-90-" "and its position"
is "$(framecat < p2.rp | grep -c '^OBJECT')" 0 "part 2 carries no objects"
is "$(framecat < p1.rp | grep -c '^OBJECT	trigger')" 0 "part 1 carries no trigger"
is "$(framecat < p3.rp | grep -c '^OBJECT	trigger')" 1 "part 3 carries the trigger"
rows=0
for i in 1 2 3; do
	n=$(framecat < p$i.rp | sed -n 's/^TRAILER.* rows=\([0-9]*\).*/\1/p')
	rows=$((rows + n))
done
is "$rows" 50006 "the parts hold every row once"

sql -e "DROP DATABASE IF EXISTS $DB"
sqlexec $TC -j 2 --input p3.rp --input p1.rp --input p2.rp 2>err.txt
is "$?" 0 "sqlexec --input loads the three parts (given in any order)"
is_file "$(src -e "CHECKSUM TABLE $DB.a, $DB.b, $DB.c, $DB.nokey, $DB.empty_t, $DB.log" > s.txt; echo s.txt)" \
    "$(sql -e "CHECKSUM TABLE $DB.a, $DB.b, $DB.c, $DB.nokey, $DB.empty_t, $DB.log" > t.txt; echo t.txt)" \
    "every table has the source's checksum (the trigger did not fire)"
is "$(sql -e "SELECT n FROM $DB.va")" 30000 "the view was created"

# The refusals, before anything is loaded.
sql -e "DROP DATABASE IF EXISTS $DB"
sqlexec $TC --input p1.rp --input p3.rp 2>err.txt
is "$?" 1 "a missing part is refused"
like "$(cat err.txt)" "part 2 of 3 \\(plan $hash\\) is missing" "naming it"
sqlexec $TC --input p1.rp --input p2.rp --input p2.rp --input p3.rp 2>err.txt
is "$?" 1 "a part given twice is refused"
src -e "INSERT INTO $DB.c VALUES ('z', 4)"
dbsnap $SC --part 2/3 --plan-file plan.txt > p2later.rp
sqlexec $TC --input p1.rp --input p2later.rp --input p3.rp 2>err.txt
is "$?" 1 "a part of another position is refused"
like "$(cat err.txt)" "parts of different positions" "saying so"
src -e "CREATE TABLE $DB.extra (id int PRIMARY KEY)"
dbsnap $SC --part 2/3 $DB > p2other.rp	# the plan recomputed: it differs
sqlexec $TC --input p1.rp --input p2other.rp --input p3.rp 2>err.txt
is "$?" 1 "a part of another plan is refused"
like "$(cat err.txt)" "parts of different plans" "saying so"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '$DB'")" 0 \
    "nothing was created by the refused loads"
sqlexec $TC < p2.rp 2>err.txt
is "$?" 1 "one part alone on stdin is refused"
sed 's/^unit	1	/unit	2	/' plan.txt > badplan.txt
dbsnap $SC --part 1/3 --plan-file badplan.txt > /dev/null 2>err.txt
is "$?" 1 "a plan file whose text does not match its hash is refused"
done_testing
