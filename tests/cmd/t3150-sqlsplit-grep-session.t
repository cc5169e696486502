#!/bin/sh
# sqlsplit --grep-table and --kind keep the session statements the kept
# ones depend on: a mariadb-dump file's SET TIME_ZONE (its TIMESTAMP rows
# are in UTC; the test server's zone is +05:30), its SET NAMES (a latin1
# dump), the COMMIT of --no-autocommit, a binary log's SET TIMESTAMP, and
# USE.  One table taken out of a dump loads as it loads from the whole
# file, through the mysql client and through sqlexec.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# rows DB: the table ev as id, seconds since the epoch, hex of the text
rows() {
	sql -e "SELECT id, UNIX_TIMESTAMP(at), HEX(txt) FROM \`$1\`.ev ORDER BY id"
}

fresh_db t3150_src
sql t3150_src -e "CREATE TABLE ev (id INT PRIMARY KEY, at TIMESTAMP NULL,
    txt VARCHAR(20) CHARACTER SET latin1);
    INSERT INTO ev VALUES (1, '2024-03-31 01:30:00', 'Malmö'),
        (2, '2024-10-27 23:59:59', 'Zoë'), (3, NULL, NULL);
    CREATE TABLE other (id INT PRIMARY KEY);
    INSERT INTO other VALUES (1), (2);" || exit 1
rows t3150_src >src.rows
is "$(wc -l <src.rows)" 3 "(the source has three rows)"

mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --no-autocommit \
    --default-character-set=latin1 t3150_src >dump.sql
like "$(grep -c "SET TIME_ZONE='+00:00'" dump.sql)" "^1$" \
    "(the dump sets the time zone to UTC once, at its top)"

# --print, loaded with the mysql client into another database
sqlsplit --print --grep-table ev dump.sql >ev.sql
is $? 0 "sqlsplit --print --grep-table ev"
is "$(grep -aci other ev.sql)" 0 "nothing of the other table"
like "$(cat ev.sql)" "SET TIME_ZONE='\\+00:00'" "the dump's SET TIME_ZONE is kept"
like "$(cat ev.sql)" "SET NAMES latin1" "and its SET NAMES"
like "$(cat ev.sql)" "^(COMMIT|commit);" "and the COMMIT after the rows"
fresh_db t3150_dst
sql t3150_dst <ev.sql
is $? 0 "the extracted statements load with the mysql client"
is_file "$(rows t3150_dst >dst.rows; echo dst.rows)" src.rows \
    "the same rows: timestamps not moved by the time zone, latin1 text whole"

# the frames, to sqlexec
fresh_db t3150_dst
sqlsplit --grep-table ev dump.sql | sqlexec $C t3150_dst 2>err
is $? 0 "sqlsplit --grep-table ev | sqlexec"
is_file "$(rows t3150_dst >dst.rows; echo dst.rows)" src.rows "the same rows"

# --kind insert into a table that is there
sql t3150_dst -e "DELETE FROM ev"
sqlsplit --kind insert --grep-table ev dump.sql | sqlexec $C t3150_dst 2>err
is $? 0 "--kind insert --grep-table ev | sqlexec into the existing table"
is_file "$(rows t3150_dst >dst.rows; echo dst.rows)" src.rows \
    "the same rows, under the dump's time zone"
sqlsplit --list --kind insert --grep-table ev dump.sql | cut -f4 | sort -u >kinds
is "$(tr '\n' ' ' <kinds)" "insert set transaction unlock " \
    "--list shows the INSERT and the session statements"
is "$(sqlsplit --list --kind set dump.sql | cut -f4 | sort -u)" "set" \
    "--kind set is the SET statements only"

# a binary log's SET TIMESTAMP before the rows it stamps
cat >binlog.sql <<'EOF'
SET TIMESTAMP=1700000000/*!*/;
INSERT INTO other VALUES (3)/*!*/;
SET TIMESTAMP=1700000123/*!*/;
INSERT INTO ev VALUES (9, NOW(), 'x')/*!*/;
EOF
sqlsplit --grep-table ev binlog.sql | sqlexec $C t3150_dst 2>err
is $? 0 "a binary log's rows of one table"
is "$(sql -e "SELECT UNIX_TIMESTAMP(at) FROM t3150_dst.ev WHERE id = 9")" \
    1700000123 "NOW() is the SET TIMESTAMP before its INSERT"

# --databases: USE is kept, and sqlexec --rename-db moves the table
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --databases t3150_src >db.sql
fresh_db t3150_dst
sqlsplit --grep-table t3150_src.ev db.sql |
    sqlexec $C --rename-db t3150_src=t3150_dst 2>err
is $? 0 "--grep-table db.table of a --databases dump, --rename-db"
is_file "$(rows t3150_dst >dst.rows; echo dst.rows)" src.rows "the same rows"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables
    WHERE table_schema = 't3150_dst'")" 1 "and only that table"

# Server-wide SETs are not the session's: --grep-table leaves them out
# (mysqldump --master-data/--gtid writes SET GLOBAL gtid_slave_pos; SET
# PASSWORD and DEFAULT ROLE change accounts), a session one, SET ROLE (the
# session's current role) and a user variable named @global stay.
cat >glob.sql <<'EOF2'
SET GLOBAL gtid_slave_pos='0-1-100';
/*!80000 SET @@GLOBAL.read_only = 0 */;
SET PASSWORD FOR app@'%' = PASSWORD('x');
SET DEFAULT ROLE r FOR app@'%';
SET ROLE r;
SET @@session.sql_mode = '', @global = 1;
USE t3150_src;
INSERT INTO ev VALUES (99, NOW());
EOF2
sqlsplit --list --grep-table ev glob.sql | cut -f2 >glob.lines
is "$(tr '\n' ' ' <glob.lines)" "5 6 7 8 " \
    "--grep-table: no server-wide SET, SET PASSWORD or DEFAULT ROLE"

# A --grep-table that matches no statement is a mistyped name (issue 25):
# exit 1, and the stream ends with an ABORT, so that sqlexec loads nothing
# of it as a success.
sqlsplit --grep-table t3150_src.nosuch dump.sql >nm.rp 2>err
is "$? $(cat err)" "1 sqlsplit: --grep-table t3150_src.nosuch matched no statement" \
    "--grep-table of no table exits 1, naming it"
framecat <nm.rp >/dev/null 2>err
like "$(cat err)" "aborted by the producer: sqlsplit: --grep-table" \
    "and the stream ends with an abort frame"
sqlsplit -p --grep-table nosuch dump.sql >/dev/null 2>err
is "$? $(cat err)" "1 sqlsplit: --grep-table nosuch matched no statement" \
    "--print too"

sql -e "DROP DATABASE t3150_src; DROP DATABASE t3150_dst"
done_testing
