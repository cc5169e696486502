#!/bin/sh
# --defer-indexes decides by size (issue 26): a table the stream
# estimates at fewer than 1,000 rows (dbsnap's rows_estimate on its
# OBJECT frame) is created with its indexes, since an ALTER TABLE ...
# ADD KEY costs it more than the sorted build saves (about 2 ms a table:
# 5,000 small tables paid 2-4 s); a larger one is created without its
# non-unique keys and gets one ALTER after its rows.  Both end with the
# source's SHOW CREATE TABLE and rows.  The ALTERs are those of the
# server's slow log at long_query_time=0.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
src=t4260_src

fresh_db $src || exit 1
sql $src -e "CREATE TABLE small (id INT PRIMARY KEY, v INT, w VARCHAR(20),
        KEY kv (v), UNIQUE KEY uw (w), KEY kvw (v, w));
    INSERT INTO small SELECT seq, seq % 3, seq FROM seq_1_to_10;
    CREATE TABLE big (id INT PRIMARY KEY, v INT, KEY kv (v));
    INSERT INTO big SELECT seq, seq % 7 FROM seq_1_to_3000;
    ANALYZE TABLE small, big" >/dev/null || exit 1
db_objects $src >want.objs
db_sums $src >want.sums
dbsnap $C $src >s.rp 2>err
is $? 0 "dbsnap"
framecat <s.rp >s.txt
like "$(grep '^OBJECT	table	.*	small	' s.txt)" "rows_estimate=10( |$)" \
    "the table object carries its row estimate"

old=$(sql -e "SELECT @@slow_query_log, @@slow_query_log_file, @@long_query_time, @@log_output")
set -- $old
sql -e "SET GLOBAL slow_query_log_file = '$T_DIR/slow.log';
    SET GLOBAL log_output = 'FILE'; SET GLOBAL long_query_time = 0;
    SET GLOBAL slow_query_log = 1" || exit 1
sql -e "DROP DATABASE $src"
sqlexec $C -j 2 <s.rp 2>err
rc=$?
sql -e "SET GLOBAL long_query_time = $3; SET GLOBAL slow_query_log = $1;
    SET GLOBAL slow_query_log_file = '$2'; SET GLOBAL log_output = '$4'"
is "$rc" 0 "sqlexec restores"
grep "^ALTER TABLE \`$src\`" "$T_DIR/slow.log" >alters
is "$(wc -l <alters | tr -d ' ')" 1 "one ALTER TABLE"
like "$(cat alters)" "^ALTER TABLE \`$src\`.\`big\` ADD KEY \`kv\`" \
    "for the big table's key"
like "$(awk '/^CREATE TABLE `small`/ { on = 1 } /^# / { on = 0 } on' \
    "$T_DIR/slow.log" | tr -d '\n')" \
    "KEY \`kvw\`" "the small table is created with its keys"
db_objects $src >got.objs
is_file got.objs want.objs "SHOW CREATE TABLE of both as the source's"
db_sums $src >got.sums
is_file got.sums want.sums "CHECKSUM TABLE of both as the source's"

sql -e "DROP DATABASE $src"
done_testing
