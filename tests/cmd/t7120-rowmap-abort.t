#!/bin/sh
# rowmap --drop of a column a view uses: the view comes after the rows in
# a snapshot stream, so rowmap finds it only when the rows are out.  Its
# output then ends with an ABORT frame (reason failed: the producer failed,
# the input is good; issue 25: it said "damaged ... restore it from a good
# copy"), not a cut: sqlexec says so once, names the tables loaded before
# it and prints no resume point (before that: "truncated" with a resume
# point that can never finish the copy); rows2sql and framecat say
# "aborted by the producer", and rows2sql ends its text with an abort line
# (checked by its xxh3) that sqlsplit passes on with its reason.  A
# transform that fails before the rows (a table's key needs the column)
# aborts the same way: nothing is loaded.  An ABORT on rowmap's input is passed
# on as it is.  A cut input still gives a cut output.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
src=t7120_src dst=t7120_dst

sql -e "DROP DATABASE IF EXISTS $src; CREATE DATABASE $src; USE $src;
    CREATE TABLE c (id INT PRIMARY KEY, name VARCHAR(30), city VARCHAR(30),
	UNIQUE KEY uk (city, id));
    INSERT INTO c SELECT seq, CONCAT('name ', seq), CONCAT('city ', seq)
	FROM seq_1_to_5000;
    CREATE TABLE o (id INT PRIMARY KEY, c_id INT);
    INSERT INTO o SELECT seq, seq FROM seq_1_to_100;
    CREATE VIEW v AS SELECT id, name FROM c"
dbsnap $C $src >s.rp
is "$?" 0 "a snapshot with a view"

# The view's column dropped: found after the rows.
rowmap --rename-db $src=$dst --drop $src.c.name s.rp >m.rp 2>err
is "$?" 1 "rowmap --drop of a view's column: exit 1"
like "$(cat err)" "^rowmap: frame [0-9]+ at offset [0-9]+: --drop $src.c.name: $src.v uses it$" \
    "naming the view"
like "$(framecat <m.rp 2>&1 >/dev/null)" "^framecat: aborted by the producer: rowmap: frame [0-9]+ at offset [0-9]+: --drop $src.c.name: $src.v uses it" \
    "the stream ends with an abort frame, not a cut"
ok $(! framecat <m.rp 2>&1 >/dev/null | grep -q truncated; echo $?) \
    "not called truncated"

sql -e "DROP DATABASE IF EXISTS $dst"
sqlexec $C -j 2 <m.rp 2>err
is "$?" 1 "sqlexec of it: exit 1"
like "$(cat err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: rowmap: frame [0-9]+ at offset [0-9]+: --drop $src.c.name: $src.v uses it$" \
    "sqlexec says the producer failed, with rowmap's reason"
like "$(cat err)" "sqlexec: nothing after the abort ran, but these tables hold what came before it: .*$dst\\.c.*: load again once the cause is fixed" \
    "and names the tables it loaded"
ok $(! sed 's/its bytes are not damaged//' err | grep -q 'damaged'; echo $?) "not called damaged"
ok $(! grep -q 'resume with' err; echo $?) "no resume point"
ok $(! grep -q 'truncated' err; echo $?) "not called truncated"

# the same through --input (sqlexec's parts path)
sql -e "DROP DATABASE IF EXISTS $dst"
sqlexec $C --input m.rp 2>err
is "$?" 1 "sqlexec --input of it: exit 1"
like "$(cat err)" "sqlexec: m.rp: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: rowmap: " \
    "--input: the producer failed"
ok $(! grep -q 'resume with' err; echo $?) "--input: no resume point"

rows2sql <m.rp >m.sql 2>err
is "$?" 1 "rows2sql of it: exit 1"
like "$(cat err)" "aborted by the producer: rowmap: .*--drop $src.c.name: $src.v uses it" \
    "rows2sql says the producer aborted"
like "$(tail -2 m.sql | head -1)" "^-- rowpipe-abort reason=3 xxh3=[0-9a-f]{16} rowmap: frame [0-9]+ at offset [0-9]+: --drop $src.c.name: $src.v uses it$" \
    "and its text ends with the abort, not cut"
like "$(tail -1 m.sql)" "^SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'rowpipe: this dump is incomplete: rowmap: " \
    "and the SIGNAL that stops the mysql client there"
is "$(tail -3 m.sql | head -1 | cut -c1-22)" "-- rowpipe-checkpoint " \
    "right after the checkpoint line of the last segment"
sql -e "DROP DATABASE IF EXISTS $dst"
sqlsplit m.sql 2>split.err | sqlexec $C -j 2 2>err
is "$?" 1 "sqlsplit | sqlexec of that text: exit 1"
like "$(cat split.err)" "^sqlsplit: m.sql: line [0-9]+: the text ends where its producer gave up \\(the dump failed when it was made; this is not a complete backup; its bytes are not damaged\\): rowmap: frame [0-9]+ at offset [0-9]+: --drop $src.c.name: $src.v uses it$" \
    "sqlsplit passes the reason on, with rowmap's message"
like "$(cat err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: rowmap: " \
    "sqlexec: the producer failed, as from the stream"
like "$(cat err)" "^sqlexec: nothing after the abort ran, but these tables hold what came before it: .*$dst\\.c" \
    "and names the tables loaded"
# One changed byte of the abort line is damage, not another reason or a cut.
sed '/^-- rowpipe-abort/s/reason=3/reason=4/' m.sql >m4.sql
sqlsplit m4.sql 2>split.err >/dev/null
like "$(cat split.err)" "^sqlsplit: m4.sql: damaged: line [0-9]+: damaged rowpipe abort line$" \
    "a changed reason: damaged"
for e in 's/^-- rowpipe-abort/-- rowpipe-abprt/' 's/^--/-x/' 's/^-- /--x/'; do
	sed "/^-- rowpipe-abort/$e" m.sql >mp.sql
	sqlsplit mp.sql 2>split.err >/dev/null
	like "$(cat split.err)" "^sqlsplit: mp.sql: damaged: line [0-9]+: damaged rowpipe (trailer or )?abort line" \
	    "a changed byte in its prefix ($e): damaged, not truncated"
done
ok $(! grep -q 'resume with' err; echo $?) "no resume point"

# The check before a load that rowmap(1) suggests: the schema alone.
dbsnap $C --no-data $src | rowmap --drop $src.c.name >nd.rp 2>err
is "$?" 1 "--no-data | rowmap --drop: exit 1, before anything is loaded"
like "$(cat err)" "--drop $src.c.name: $src.v uses it$" "naming the view"

# Before the rows: a unique key needs the column: nothing but the header,
# then the abort (reason damaged: nothing of it was written).
rowmap --drop $src.c.city s.rp >k.rp 2>err
is "$?" 1 "rowmap --drop of a key's column: exit 1"
sql -e "DROP DATABASE IF EXISTS $src"
sqlexec $C <k.rp 2>err
is "$?" 1 "sqlexec of it: exit 1"
like "$(cat err)" "^sqlexec: stdin: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: rowmap: .*--drop $src.c.city" \
    "sqlexec says the producer failed"
ok $(! grep -q 'these tables\|resume with' err; echo $?) "no table named, no resume point"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$src'")" 0 \
    "and nothing was created"

# An abort on rowmap's input is passed on (sqlsplit's, damaged).
printf 'SELECT 1;\n-- rowpipe-trailer statements=1 bytes=10 xxh3=0000000000000000\n' >bad.sql
sqlsplit bad.sql 2>/dev/null | rowmap >p.rp 2>err
like "$(cat err)" "aborted by the producer: sqlsplit: bad.sql: trailer mismatch" \
    "rowmap says its input was aborted"
like "$(framecat <p.rp 2>&1 >/dev/null)" "^framecat: aborted by the producer: sqlsplit: bad.sql: trailer mismatch" \
    "and passes the abort on, with the producer's message"

# A cut input: a cut output, no abort.
head -c 3000 s.rp | rowmap >cut.rp 2>err
is "$?" 1 "a cut input: exit 1"
like "$(framecat <cut.rp 2>&1 >/dev/null)" "^framecat: truncated" "a cut input: a cut output"

sql -e "DROP DATABASE IF EXISTS $src; DROP DATABASE IF EXISTS $dst"
done_testing
