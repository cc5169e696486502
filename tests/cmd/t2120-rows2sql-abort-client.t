#!/bin/sh
# An aborted rows2sql text loaded with the mysql client (issue 25, newuser
# finding 5): its abort line is a comment to the client, so the text loaded
# with exit 0 and a partial database.  rows2sql now writes, after the abort
# line, a SIGNAL that stops the client there with ERROR 1644 naming the
# abort; sqlsplit still ends the text at the abort line with the producer's
# reason (not a syntax error, not the SIGNAL), a damaged abort line before
# the SIGNAL is still damage, and lz still knows the text as aborted.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
src=t2120_src dst=t2120_dst
client() { mariadb --no-defaults --default-character-set=utf8mb4 -uroot -S "$RP_SOCK" "$@"; }

sql -e "DROP DATABASE IF EXISTS $src; CREATE DATABASE $src; USE $src;
    CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20));
    CREATE TABLE b (id INT PRIMARY KEY, aid INT);
    INSERT INTO a VALUES (1, 'x'), (2, 'y'); INSERT INTO b VALUES (1, 1);
    CREATE VIEW v AS SELECT a.id FROM a JOIN b ON b.aid = a.id" || exit 1

# a dump that failed before its header: no such database
dbsnap $C t2120_nosuch 2>/dev/null | rows2sql >nodb.sql 2>/dev/null
client <nodb.sql >out 2>err
is "$?" 1 "the mysql client stops at a dump that failed at once: exit 1"
like "$(cat err)" "^ERROR 1644 \(45000\) at line 2: rowpipe: this dump is incomplete: dbsnap: t2120_nosuch: no such database$" \
    "with an error naming the abort"

# a dump that failed after rows: a view uses the table left out
dbsnap $C $src | rowmap --exclude b 2>/dev/null | rows2sql --rename $src=$dst \
    >ex.sql 2>/dev/null
sql -e "DROP DATABASE IF EXISTS $dst"
client <ex.sql >out 2>err
is "$?" 1 "the mysql client stops at a dump that failed after rows: exit 1"
n=$(wc -l <ex.sql | tr -d ' ')
like "$(cat err)" "^ERROR 1644 \(45000\) at line $n: rowpipe: this dump is incomplete: rowmap: .*$src\.v: view uses $src\.b, which is left out" \
    "on the text's last line, naming the abort"
like "$(sed -n "$((n - 1))p" ex.sql)" '^-- rowpipe-abort reason=3 xxh3=[0-9a-f]{16} rowmap: ' \
    "the abort line is the line before it"

# sqlsplit reports the producer's abort, as before
sqlsplit ex.sql >ex.rp 2>err
is "$?" 1 "sqlsplit: exit 1"
like "$(cat err)" "^sqlsplit: ex\.sql: line $((n - 1)): the text ends where its producer gave up \(.*\): rowmap: " \
    "sqlsplit ends the text at the abort line, with the producer's reason"
sqlexec $C --dry-run <ex.rp >/dev/null 2>err
like "$(head -1 err)" "^sqlexec: stdin: .*rowmap: .*which is left out" \
    "and sqlexec names the producer's failure, not the SIGNAL"
! grep -q 1644 err; ok $? "the SIGNAL never reaches sqlexec"

# one changed byte of the abort line: damage, named at the line
sed 's/^-- rowpipe-abort/-- rowpipe-ab0rt/' ex.sql >dmg.sql
sqlsplit dmg.sql >/dev/null 2>err
is "$? $(cat err)" "1 sqlsplit: dmg.sql: damaged: line $((n - 1)): damaged rowpipe abort line" \
    "a changed abort line before the SIGNAL is damage"

# lz knows the text as aborted
lz -o ex.sql.lz4 <ex.sql 2>err
is "$? $(cat err)" "1 lz: ex.sql.lz4: not written: the input is a rows2sql text that ends with its abort line (--partial to take it)" \
    "lz -o writes no file of it"
lz -o nodb.sql.lz4 <nodb.sql 2>err
is "$? $(cat err)" "1 lz: nodb.sql.lz4: not written: the input is a rows2sql text that ends with its abort line (--partial to take it)" \
    "nor of the one that failed before its header"

# a message with quotes and a backslash, and a long one: still one valid
# statement, its MESSAGE_TEXT at most 128 characters (MySQL's limit)
long=$(printf 'n%.0s' $(seq 150))
dbsnap $C $src | rows2sql --tables "$src.no'such\\x$long" >q.sql 2>/dev/null
client <q.sql >out 2>err
is "$?" 1 "a message with a quote and a backslash: the client stops"
msg=$(sed -n 's/^ERROR 1644 (45000) at line [0-9]*: //p' err)
like "$msg" "^rowpipe: this dump is incomplete: rows2sql: .*no'such\?xn+\.\.\.$" \
    "with the message, its quote kept, cut with ..."
is "$(printf '%s' "$msg" | wc -m | tr -d ' ')" 128 "at 128 characters"

# --tables that matches nothing: found at the end of the stream (a view,
# after the rows, may match), as rows2sql(1) says; --no-data checks first
dbsnap $C $src >s.rp
rows2sql --tables $src.v <s.rp >v.sql 2>err
is "$? $(grep -c 'VIEW' v.sql)" "0 2" "--tables naming a view alone matches it"
head -c $(($(wc -c <s.rp) - 40)) s.rp | rows2sql --tables nosuch >/dev/null 2>err
like "$(cat err)" "^rows2sql: truncated" "a no-match is found at the end: a cut stream is called cut"
dbsnap $C --no-data $src | rows2sql --tables nosuch >/dev/null 2>err
is "$? $(cat err)" "1 rows2sql: --tables nosuch matched no table of the stream" \
    "a dump of the schema alone checks the names"

done_testing
