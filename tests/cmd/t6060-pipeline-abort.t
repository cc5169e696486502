#!/bin/sh
# One ABORT vocabulary through the pipeline (issue 25): the first failure
# is named once, and the programs after it say what it was ("the dump
# failed when it was made; this is not a complete backup; its bytes are
# not damaged": it read as "the backup is fine" when it said "the producer
# failed, the input is good"; "damaged", "cannot split") instead of adding
# their own misleading one ("empty input: not a rowpipe stream",
# "truncated" with a resume point that cannot help).  And an input of no
# statement is an error for sqlexec unless --allow-empty.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t6060
fresh_db $db

# dbsnap fails before its stream begins: no server on that port.
dbsnap --no-defaults -h 127.0.0.1 -P 1 -u nobody shop >d.rp 2>d.err
is $? 1 "dbsnap with no server: exit 1"
framecat <d.rp >/dev/null 2>err
like "$(cat err)" "^framecat: aborted by the producer: dbsnap: " \
    "its output is a stream that ends with an abort, not an empty input"
rows2sql <d.rp >d.sql 2>r.err
is $? 1 "rows2sql of it: exit 1"
ok $(! grep -q 'empty input\|not a rowpipe stream' r.err; echo $?) \
    "rows2sql does not call it an empty input"
like "$(cat r.err)" "^rows2sql: aborted by the producer: dbsnap: " \
    "rows2sql names dbsnap's failure"
sqlsplit d.sql 2>s.err | sqlexec $C $db 2>x.err
is $? 1 "sqlsplit | sqlexec of that text: exit 1"
like "$(cat x.err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: dbsnap: " \
    "sqlexec says the producer failed, with dbsnap's message"
is "$(grep -vc '^sqlexec: [0-9]* statements, ' x.err)" 1 \
    "in one line (and the summary)"
ok $(! sed 's/its bytes are not damaged//' x.err | grep -q -e 'resume with' -e 'skip-to' -e 'truncated' -e 'damaged'; echo $?) \
    "not truncated, not damaged, no resume point"
sqlexec $C $db <d.rp 2>x.err
like "$(cat x.err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: dbsnap: " \
    "the same from the stream itself"

# A quote that a changed byte opened in a complete rows2sql text: the
# text ends with its trailer line, so this is damage, not a cut.
fresh_db $db
sql $db -e "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(20));
    INSERT INTO t VALUES (1, 'abcdef'), (2, 'ghijkl')" || exit 1
dbsnap $C $db | rows2sql >whole.sql
sed "s/'ghijkl'/'ghi'kl'/" whole.sql >quote.sql
is "$(cmp -l whole.sql quote.sql | wc -l)" 1 "(one byte changed)"
sqlsplit quote.sql 2>s.err >/dev/null
is $? 1 "sqlsplit of it: exit 1"
like "$(cat s.err)" "^sqlsplit: quote.sql: damaged: a byte of the segment that starts at line 1, byte 0 \\(the first\\), was changed: it left a string open to the end of a text that ends with its trailer line \\(the one still open starts at line [0-9]+, offset [0-9]+\\); none of the statements from 1 on was passed on$" \
    "sqlsplit: damaged, not truncated"
sql -e "DROP DATABASE $db"
sqlsplit quote.sql 2>/dev/null | sqlexec $C 2>x.err
is $? 1 "sqlexec of it: exit 1"
like "$(cat x.err)" "^sqlexec: input damaged \\(sqlsplit: quote.sql: damaged: a byte of the segment" \
    "sqlexec says damaged"
ok $(! grep -q -e 'resume with' -e 'skip-to' -e 'truncated' x.err; echo $?) \
    "no resume point, not truncated"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$db'")" 0 \
    "nothing of the damaged segment ran"
# The same in the second of three segments: a quote changed there opens
# a string that swallows the checkpoint lines after it, and the one left
# open at the end starts in the last segment.  The message names the
# segment after the last checkpoint line that matched, not the place of
# the open string; no row after the first segment is committed.
fresh_db $db
sql $db -e "CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(100));
    INSERT INTO t SELECT seq, repeat(char(97 + seq % 26), 90)
    FROM seq_1_to_30000" || exit 1
dbsnap $C $db | rows2sql >three.sql
ck=$(grep -a -b -n '^-- rowpipe-checkpoint ' three.sql | sed -n 1p)
ck_line=${ck%%:*}
ck_end=$(($(echo "$ck" | cut -d: -f2) + $(echo "$ck" | cut -d: -f3- | wc -c)))
ck_stmts=$(echo "$ck" | sed 's/.*statements=\([0-9]*\).*/\1/')
is "$(grep -a -c '^-- rowpipe-checkpoint ' three.sql)" 3 "(three segments)"
# the first quote 1000 bytes into the second segment becomes a 0xa7
at=$(($(tail -c +$((ck_end + 1000)) three.sql | grep -a -b -o "'" | sed -n 1p | cut -d: -f1) + ck_end + 999))
cp three.sql q3.sql
printf '\247' | dd of=q3.sql bs=1 seek=$at conv=notrunc 2>/dev/null
is "$(cmp -l three.sql q3.sql | wc -l)" 1 "(one byte changed)"
sqlsplit q3.sql 2>s.err >/dev/null
like "$(cat s.err)" "^sqlsplit: q3.sql: damaged: a byte of the segment that starts at line $((ck_line + 1)), byte $ck_end \\(after the last checkpoint line that matched\\), was changed: .*none of the statements from $((ck_stmts + 1)) on was passed on$" \
    "sqlsplit names the second segment, where the byte was changed"
open_at=$(sed 's/.*the one still open starts at line [0-9]*, offset \([0-9]*\)).*/\1/' s.err)
ok $([ "$open_at" -gt $((ck_end + 1048576)) ]; echo $?) \
    "(the string still open starts segments later, at offset $open_at)"
sql -e "DROP DATABASE $db"
sqlsplit q3.sql 2>/dev/null | sqlexec $C 2>x.err
is $? 1 "sqlexec of it: exit 1"
first=$(head -n "$ck_line" three.sql | grep -a -o '),(' | wc -l)
ins=$(head -n "$ck_line" three.sql | grep -a -c '^INSERT')
n=$(sql $db -e "SELECT COUNT(*) FROM t")
ok $([ "$n" -le $((first + ins)) ]; echo $?) \
    "no row of the damaged segment is committed ($n of the first's $((first + ins)))"

# The same text cut inside that string is still a cut.
head -c $(($(grep -b "'ghijkl'" whole.sql | cut -d: -f1) + 4)) whole.sql >cut.sql
sqlsplit cut.sql 2>s.err >/dev/null
like "$(cat s.err)" "^sqlsplit: cut.sql: truncated" "a text cut inside a string: truncated"

# Empty inputs: a zero-byte text, a comment-only text, a header-only
# snapshot stream.
fresh_db $db
: >empty.sql
sqlsplit empty.sql | sqlexec $C $db 2>x.err
is "$? $(head -1 x.err)" "1 sqlexec: stdin: empty input: the stream holds no statement and no object (--allow-empty if that is expected)" \
    "sqlsplit of an empty file | sqlexec: exit 1, empty input"
printf -- '-- nothing here\n/* nor here */\n' >comments.sql
sqlsplit comments.sql | sqlexec $C $db 2>x.err
is $? 1 "a comment-only text: exit 1"
sqlsplit empty.sql | sqlexec $C --allow-empty $db 2>x.err
is $? 0 "--allow-empty: exit 0"
printf 'HEADER\tproducer=dbsnap\nTRAILER\n' | r2s-gen >hdr.rp
sqlexec $C $db <hdr.rp 2>x.err
like "$(cat x.err)" "^sqlexec: stdin: empty input: " "a header-only snapshot stream: empty input"
sqlexec $C --input hdr.rp 2>x.err
is $? 1 "--input of it: exit 1"
sqlexec $C --dry-run <hdr.rp >/dev/null 2>x.err
is $? 1 "--dry-run of it: exit 1"

sql -e "DROP DATABASE $db"
done_testing
