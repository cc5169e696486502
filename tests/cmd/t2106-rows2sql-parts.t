#!/bin/sh
# One part of a dbsnap plan (--part I/N, header key part) is not a dump:
# rows2sql refuses it (exit 1, nothing written) unless --part-ok, which
# writes a header line saying what it is and warns on stderr (and
# sqlsplit warns when it reads that line); rowmap
# keeps the part keys, so that sqlexec still refuses one part alone after
# it.  Before, a part through rows2sql gave SQL text that looked like a
# whole dump.  Issue 19.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t2106_src

sql -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db; USE $db;
    CREATE TABLE a (id INT PRIMARY KEY, note VARCHAR(20));
    INSERT INTO a SELECT seq, CONCAT('a ', seq) FROM seq_1_to_3000;
    CREATE TABLE b (id INT PRIMARY KEY, note VARCHAR(20));
    INSERT INTO b SELECT seq, CONCAT('b ', seq) FROM seq_1_to_2000;
    ANALYZE TABLE a, b" >/dev/null
dbsnap $C --plan 2 $db >plan.txt
is "$?" 0 "a plan of 2 parts"
hash=$(awk -F'\t' '$1 == "hash" { print $2 }' plan.txt)
dbsnap $C --part 1/2 --plan-file plan.txt >p1.rp
is "$?" 0 "part 1 of 2"
dbsnap $C $db >whole.rp

rows2sql <p1.rp >p1.sql 2>err
is "$?" 1 "rows2sql refuses a part: exit 1"
like "$(cat err)" "^rows2sql: .*the input is part 1 of 2 of dbsnap plan $hash, not a whole dump: load the parts together with sqlexec --input FILE for each, or give --part-ok to convert this part alone$" \
    "saying what it is and what to do"
is "$(wc -l <p1.sql | tr -d ' ') $(cut -c1-25 p1.sql | head -1) $(sed -n 2p p1.sql | cut -c1-23)" \
    "2 -- rowpipe-abort reason=3 SIGNAL SQLSTATE '45000'" \
    "and writes no SQL, only its abort line (the producer failed) and the SIGNAL after it"

rows2sql --part-ok <p1.rp >p1.sql 2>err
is "$?" 0 "--part-ok converts it"
like "$(cat err)" "^rows2sql: warning: the input is part 1 of 2 of dbsnap plan $hash: the text holds this part only$" \
    "with a warning on stderr"
is "$(sed -n 3p p1.sql)" "-- rowpipe-part: PART 1 OF 2 of dbsnap plan $hash: not a whole dump; load every part" \
    "and a header line that says it is one part"
like "$(head -20 p1.sql)" "-- part: 1" "the header's part key is a comment too"
sqlsplit p1.sql >/dev/null 2>err
is "$?" 0 "the part's text is checked as any rows2sql text"
is "$(cat err)" "sqlsplit: p1.sql: warning: line 3: rowpipe-part: PART 1 OF 2 of dbsnap plan $hash: not a whole dump; load every part" \
    "and sqlsplit warns that it is one part"

rows2sql <whole.rp >whole.sql 2>err
is "$?" 0 "a whole dump converts as before"
is "$(cat err)" "" "without a warning"
ok $(! grep -q 'rowpipe-part' whole.sql; echo $?) "and without the part line"
sqlsplit whole.sql >/dev/null 2>err
is "$(cat err)" "" "and sqlsplit does not warn"

# sqlexec refuses one part alone as the only --input too.
sqlexec $C --input p1.rp 2>err
is "$?" 1 "sqlexec --input of one part alone: exit 1"
like "$(cat err)" "part 2 of 2 \\(plan $hash\\) is missing" "naming the missing part"

# rowmap keeps the part keys: sqlexec and rows2sql still see a part.
rowmap --drop $db.a.note <p1.rp >p1m.rp
is "$?" 0 "rowmap maps a part"
like "$(framecat <p1m.rp | head -1)" "plan=$hash part=1 parts=2" \
    "and keeps its plan, part and parts"
rows2sql <p1m.rp >/dev/null 2>err
is "$?" 1 "rows2sql refuses the mapped part too"
sql -e "DROP DATABASE IF EXISTS $db"
sqlexec $C <p1m.rp 2>err
is "$?" 1 "sqlexec refuses one mapped part alone"
like "$(cat err)" "part 1 of 2 of a dbsnap plan: load every part at once" "saying so"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$db'")" 0 \
    "and loads nothing"

sql -e "DROP DATABASE IF EXISTS $db"
done_testing
