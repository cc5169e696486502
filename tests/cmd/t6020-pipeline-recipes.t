#!/bin/bash
# Every recipe of rowpipe(7) and the README, as a user would type it, with
# a second throwaway server as the "other server" and a local shell in
# place of ssh.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
set -o pipefail
SRC_SOCK=$RP_SOCK
A="--no-defaults -uroot -S $SRC_SOCK"

server_own DST
B="--no-defaults -uroot -S $DST_SOCK"
dsql() { mariadb $B --default-character-set=utf8mb4 --batch --skip-column-names "$@"; }
dsum() { dsql -e "CHECKSUM TABLE $1 EXTENDED" | cut -f2; }
ssum() { sql -e "CHECKSUM TABLE $1 EXTENDED" | cut -f2; }

db=t6020_shop
fresh_db $db || exit 1
sql $db -e "
  CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME NOT NULL,
    who VARCHAR(40) CHARACTER SET utf8mb4, total DECIMAL(10,2));
  INSERT INTO orders SELECT seq, '2025-01-01' + INTERVAL seq HOUR,
    CONCAT('Zoë ', seq, ' 🚀'), seq / 3 FROM seq_1_to_5000;
  CREATE TABLE items (order_id INT, line INT, sku CHAR(8),
    PRIMARY KEY (order_id, line));
  INSERT INTO items SELECT seq, 1, CONCAT('s', seq) FROM seq_1_to_5000;
  CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 500;
  CREATE PROCEDURE touch_order(IN i INT) UPDATE orders SET total = total + 1 WHERE id = i;
  CREATE EVENT nightly ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01' DISABLE
    DO DELETE FROM items WHERE order_id < 0;" || exit 1
db_objects $db >src.obj

# Full backup and restore.
dbsnap $A -j 2 --routines --events $db | rows2sql | lz -o shop.sql.lz4
is $? 0 "full backup: dbsnap -j 2 --routines --events | rows2sql | lz -o"
lz -d < shop.sql.lz4 | sqlsplit | sqlexec $B -j 2 2>/dev/null
is $? 0 "full restore on the other server: lz -d < | sqlsplit | sqlexec -j 2"
is "$(dsum $db.orders) $(dsum $db.items)" "$(ssum $db.orders) $(ssum $db.items)" \
    "restored tables have the same checksums"
dsql -e "SHOW CREATE EVENT $db.nightly" >/dev/null 2>&1
is $? 0 "the event was restored"
is "$(dsql -e "SELECT COUNT(*) FROM information_schema.routines
    WHERE routine_schema = '$db'") $(dsql -e "SELECT COUNT(*) FROM
    information_schema.views WHERE table_schema = '$db'")" "1 1" \
    "the procedure and the view were restored"

# Verify a backup without restoring it.
lz -t shop.sql.lz4 2>/dev/null; is $? 0 "verify: lz -t"
dbsnap $A --routines --events $db 2>/dev/null | lz -o shop.rp.lz4 && lz -t shop.rp.lz4
is $? 0 "verify: lz -t of a frame-stream backup"
lz -dc shop.rp.lz4 >shop.rp && rows2sql <shop.rp >/dev/null
is $? 0 "verify: rows2sql of an uncompressed stream"
head -c 5000 shop.rp | lz -o cutrp.lz4 2>/dev/null
is "$? $(ls cutrp.lz4 2>/dev/null)" "1 " "a cut stream: lz -o writes no file"
head -c 5000 shop.rp | lz --partial -o cutrp.lz4 && lz -t cutrp.lz4 2>/dev/null
isnt $? 0 "verify: lz -t fails on a cut frame stream"
lz -dc shop.sql.lz4 | sqlsplit --require-trailer >/dev/null
is $? 0 "verify: sqlsplit --require-trailer"
head -c $(( $(stat -c %s shop.sql.lz4) - 20 )) shop.sql.lz4 >cut.lz4
lz -t cut.lz4 2>/dev/null; isnt $? 0 "verify: lz -t fails on a cut file"
# (cut from a file: lz -dc | head would fail the pipeline by itself, EPIPE)
lz -dc shop.sql.lz4 >shop.sql
head -n 40 shop.sql | sqlsplit --require-trailer >/dev/null 2>split.err
is $? 1 "verify: sqlsplit --require-trailer fails on cut text"
like "$(cat split.err)" "^sqlsplit: stdin: truncated" "verify: and says it is cut"

# One table, some rows, to another server (upsert into its copy).
dsql $db -e "UPDATE orders SET total = 0 WHERE id > 4000; DELETE FROM orders WHERE id > 4900"
dbsnap $A $db orders --where 'total > 1000' |
    rows2sql --no-create --insert=upsert | sqlsplit | sqlexec $B 2>/dev/null
is $? 0 "one table with --where, upserted on the other server"
is "$(dsum $db.orders)" "$(ssum $db.orders)" "the other server's table caught up"

# Copy a table under a new name.
dbsnap $A $db orders | rows2sql --rename orders=orders_2025 | sqlsplit |
    sqlexec $A 2>/dev/null
is $? 0 "copy a table under a new name"
is "$(ssum $db.orders_2025)" "$(ssum $db.orders)" "the copy has the same rows"

# Stream over ssh: a local shell stands in for ssh.
dsql -e "DROP DATABASE $db"
dbsnap $A -j 2 --routines --events $db |
    sh -c "rows2sql | sqlsplit | sqlexec $B -j 2" 2>/dev/null
is $? 0 "stream over ssh (a local shell in its place)"
is "$(dsum $db.orders)" "$(ssum $db.orders)" "same rows on the far side"

# Stream over netcat on loopback.
dsql -e "DROP DATABASE $db"
port=$(free_port)
nc -l 127.0.0.1 "$port" | rows2sql | sqlsplit | sqlexec $B 2>nc.err &
recv=$!
n=0
until dbsnap $A $db 2>/dev/null | nc -N 127.0.0.1 "$port" 2>/dev/null ||
    [ $n -gt 50 ]; do
	sleep 0.1; n=$((n + 1))
done
wait $recv
is $? 0 "stream over netcat on loopback"
is "$(dsum $db.orders)" "$(ssum $db.orders)" "same rows through netcat"

# Restore a mariadb-dump file with sqlsplit | sqlexec.
mariadb-dump $A --routines --triggers --events --databases $db >dump.sql
dsql -e "DROP DATABASE $db"
sqlsplit dump.sql | sqlexec $B -j 2 2>/dev/null
is $? 0 "mariadb-dump file restored with sqlsplit | sqlexec -j 2"
is "$(dsum $db.orders) $(dsum $db.items)" "$(ssum $db.orders) $(ssum $db.items)" \
    "same rows as the source"

# Pick one table out of a big dump file.
sqlsplit --print --grep-table items dump.sql >items.sql
is $? 0 "sqlsplit --print --grep-table items"
is "$(grep -c 'orders' items.sql)" 0 "only the items table is in it"
# (with the dump's session statements: its USE too, so into $db)
dsql -e "DROP DATABASE $db; CREATE DATABASE $db"
dsql <items.sql
is $? 0 "the extracted statements load"
is "$(dsum $db.items)" "$(ssum $db.items)" "and give the same table"

# Restore a mydumper directory, its files in myloader's order.
if command -v mydumper >/dev/null; then
	rm -rf dump
	mydumper -S "$RP_SOCK" -u root -B $db -o dump -G -E -R >mydumper.out 2>&1
	is $? 0 "(mydumper dumps the database)"
	dsql -e "DROP DATABASE $db"
	(cd dump && { cat $db-schema-create.sql; echo "USE \`$db\`;"; cat $db.*-schema.sql
	    ls $db.*.sql | grep -v -- -schema | xargs cat
	    for f in $db.*-schema-view.sql $db.*-schema-triggers.sql $db-schema-post.sql
	    do [ ! -e "$f" ] || cat "$f"; done; } | sqlsplit --mydumper | sqlexec $B -j 2) 2>err
	is $? 0 "a mydumper directory: cat in myloader's order | sqlsplit --mydumper | sqlexec"
	is "$(dsum $db.orders) $(dsum $db.items)" "$(ssum $db.orders) $(ssum $db.items)" \
	    "the same rows"
	is "$(dsql -e "SELECT COUNT(*) FROM information_schema.views WHERE
	    table_schema = '$db'") $(dsql -e "SELECT COUNT(*) FROM
	    information_schema.routines WHERE routine_schema = '$db'")" "1 1" \
	    "its view and procedure"
else
	skip 4 "no mydumper"
fi

# Move databases to a new server, accounts included (ssh: a local shell).
sql -e "DROP USER IF EXISTS t6020_app@'%'; CREATE USER t6020_app@'%' IDENTIFIED BY 'pw';
    GRANT SELECT ON $db.* TO t6020_app@'%'"
dsql -e "DROP DATABASE IF EXISTS $db; DROP USER IF EXISTS t6020_app@'%'"
dbsnap $A --users --routines --events -B $db 2>/dev/null |
    sh -c "sqlexec $B -j 2" 2>/dev/null
is $? 0 "dbsnap --users --routines --events -B | sqlexec -j 2"
is "$(dsql -e "SHOW GRANTS FOR t6020_app@'%'")" "$(sql -e "SHOW GRANTS FOR t6020_app@'%'")" \
    "the account came along with its grants"
is "$(dsum $db.orders)" "$(ssum $db.orders)" "and the rows"
sql -e "DROP USER t6020_app@'%'"

# Restore a dump under another database name.
dsql -e "DROP DATABASE IF EXISTS t6020_test"
lz -d < shop.sql.lz4 | sqlsplit | sqlexec $B --rename-db $db=t6020_test 2>/dev/null
is $? 0 "lz -d | sqlsplit | sqlexec --rename-db"
is "$(dsum t6020_test.orders)" "$(ssum $db.orders)" "the rows went into the new name"

sql -e "DROP DATABASE $db"
done_testing
