#!/bin/sh
# rowmap filters that leave nothing of a stream that has tables (issue 25):
# --exclude '*', or --tables and --exclude that cancel out, were silent
# (exit 0, a header and a trailer) while a pattern that matches nothing is
# an error.  Now they are an error too, ending the output with an abort
# (the input is good), unless --allow-empty says that empty is expected,
# as sqlexec --allow-empty does for an empty stream.  rowmap has no
# --where (dbsnap --where selects rows): it is a usage error, not silence.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t7301

fresh_db $db
sql $db -e "CREATE TABLE a (id INT PRIMARY KEY); INSERT INTO a VALUES (1), (2);
    CREATE TABLE b (id INT PRIMARY KEY); CREATE VIEW v AS SELECT id FROM a" ||
    exit 1
dbsnap $C $db >s.rp || exit 1

for f in "--exclude=*" "--exclude=$db.*" "--tables=$db.a --exclude=$db.a"; do
	rowmap $f <s.rp >o.rp 2>err
	is $? 1 "rowmap $f: exit 1"
	is "$(cat err)" "rowmap: --tables and --exclude leave nothing of the stream: each of its tables and objects is left out (--allow-empty if that is expected)" \
	    "rowmap $f: says so in one line"
	like "$(framecat <o.rp 2>&1 >/dev/null)" "^framecat: aborted by the producer: rowmap: --tables and --exclude leave nothing" \
	    "rowmap $f: the output ends with an abort, not a trailer"
done
fresh_db ${db}_dst
rowmap --exclude='*' <s.rp 2>/dev/null | sqlexec $C ${db}_dst 2>err
is $? 1 "rowmap --exclude='*' | sqlexec: exit 1"
like "$(cat err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: rowmap: --tables and --exclude leave nothing" \
    "sqlexec names rowmap's failure"

rowmap --allow-empty --exclude='*' <s.rp >o.rp 2>err
is "$? $(cat err)" "0 " "--allow-empty --exclude='*': exit 0, nothing said"
is "$(framecat <o.rp | cut -f1 | tr '\n' ' ')" "HEADER TRAILER " \
    "a header and a trailer"
rowmap --allow-empty --exclude='*' <s.rp | sqlexec --allow-empty $C ${db}_dst 2>err
is $? 0 "... which sqlexec --allow-empty loads"

rowmap --exclude=$db.b <s.rp >o.rp 2>err
is "$? $(cat err)" "0 " "a filter that leaves something: exit 0"
is "$(framecat <o.rp | grep -c '^TABLE	')" 1 "(one table of two)"
rowmap --exclude=nosuch </dev/null 2>err
is $? 1 "an empty input: exit 1 (as before)"

rowmap --where 1=0 <s.rp >o.rp 2>err
is "$? $(head -1 err)" "2 rowmap: unrecognized option '--where'" \
    "--where is no rowmap option: a usage error, exit 2"
is "$(wc -c <o.rp | tr -d ' ')" 0 "... and nothing written"

sql -e "DROP DATABASE $db; DROP DATABASE ${db}_dst"
done_testing
