#!/bin/sh
# rows2sql round trip of every column type with edge values:
# dbsnap | rows2sql loaded with the mariadb client into another database
# has the same CHECKSUM TABLE, the same HEX() of every column and the same
# SHOW CREATE TABLE; also under a hostile sql_mode (ANSI_QUOTES,
# NO_BACKSLASH_ESCAPES, strict, NO_ZERO_DATE) and with --no-hex-blob.
. "$(dirname "$0")/../lib.sh"
need_server

SRC=t2100_src
load_alltypes $SRC || exit 1

ddl() {
	isql -e "SELECT CONCAT('SHOW CREATE TABLE \`',
	    REPLACE(table_name, '\`', '\`\`'), '\`;') FROM
	    information_schema.tables WHERE table_schema = '$1' ORDER BY
	    table_name" | sql --raw "$1"
}
# Row values as the source had them, once.
db_hex $SRC >src.hex
db_sums $SRC >src.sum
ddl $SRC >src.ddl
like "$(grep -c . src.hex)" '^[1-9][0-9]+$' "source rows dumped for comparison"
like "$(cat src.hex)" "835C955C8A5C5C27" "source holds sjis text with 0x5C second bytes"

dbsnap $(CONN) $SRC >s.rp; is $? 0 "dbsnap"

check() {	# check DST what
	is_file "$(db_hex $1 >$1.hex; echo $1.hex)" src.hex "$2: HEX() of every column"
	is_file "$(db_sums $1 >$1.sum; echo $1.sum)" src.sum "$2: CHECKSUM TABLE"
	is_file "$(ddl $1 >$1.ddl; echo $1.ddl)" src.ddl "$2: SHOW CREATE TABLE"
}

rows2sql --rename-db $SRC=t2100_dst s.rp >dump.sql; is $? 0 "rows2sql"
r2s-check <dump.sql >/dev/null; is $? 0 "trailer verifies"
sql -e "DROP DATABASE IF EXISTS t2100_dst"
sql <dump.sql; is $? 0 "mariadb client loads it"
check t2100_dst "plain load"

rows2sql --rename-db $SRC=t2100_dst2 s.rp >dump2.sql
sql -e "DROP DATABASE IF EXISTS t2100_dst2"
sql --init-command="SET SESSION sql_mode='ANSI_QUOTES,NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE,PAD_CHAR_TO_FULL_LENGTH,ONLY_FULL_GROUP_BY', time_zone='America/New_York'" <dump2.sql
is $? 0 "loads under ANSI_QUOTES,NO_BACKSLASH_ESCAPES,strict and another time zone"
check t2100_dst2 "hostile sql_mode"

rows2sql --no-hex-blob --rename-db $SRC=t2100_dst3 s.rp >dump3.sql
sql -e "DROP DATABASE IF EXISTS t2100_dst3"
sql <dump3.sql; is $? 0 "--no-hex-blob loads"
like "$(grep -c "_binary'" dump3.sql)" '^[1-9]' "--no-hex-blob writes escaped binary strings"
check t2100_dst3 "--no-hex-blob"

# The other loader: sqlsplit | sqlexec.
rows2sql --rename-db $SRC=t2100_dst4 s.rp >dump4.sql
sql -e "DROP DATABASE IF EXISTS t2100_dst4"
sqlsplit <dump4.sql | timeout 300 sqlexec $(CONN) 2>err; is $? 0 "sqlsplit | sqlexec loads it"
check t2100_dst4 "sqlsplit | sqlexec"

for d in t2100_src t2100_dst t2100_dst2 t2100_dst3 t2100_dst4; do sql -e "DROP DATABASE $d"; done
done_testing
