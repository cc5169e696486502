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
like "$(cat s.err)" "^sqlsplit: quote.sql: damaged: unterminated string starting at line [0-9]+, offset [0-9]+, in a text that ends with its trailer line" \
    "sqlsplit: damaged, not truncated"
sql -e "DROP DATABASE $db"
sqlsplit quote.sql 2>/dev/null | sqlexec $C 2>x.err
is $? 1 "sqlexec of it: exit 1"
like "$(cat x.err)" "^sqlexec: input damaged \\(sqlsplit: quote.sql: damaged: unterminated string" \
    "sqlexec says damaged"
ok $(! grep -q -e 'resume with' -e 'skip-to' -e 'truncated' x.err; echo $?) \
    "no resume point, not truncated"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$db'")" 0 \
    "nothing of the damaged segment ran"
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
