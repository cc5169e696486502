#!/bin/sh
# rows2sql and large values: a 12 MiB BLOB (24 MiB of hex, more than the
# server's 16M max_allowed_packet) restores; with a small
# --max-allowed-packet, big text and binary values of a table without a key
# restore in pieces; extended INSERTs stay within --max-statement-size.
. "$(dirname "$0")/../lib.sh"
need_server

SRC=t2102_src DST=t2102_dst
fresh_db $SRC || exit 1
sql -e "DROP DATABASE IF EXISTS $DST"
sql $SRC <<'SQL' || exit 1
SET NAMES utf8mb4;
CREATE TABLE big (id INT PRIMARY KEY, b LONGBLOB, t LONGTEXT) DEFAULT CHARSET=utf8mb4;
INSERT INTO big VALUES (1, REPEAT(0x00FF5C27, 3 * 1024 * 1024), 'small');
INSERT INTO big VALUES (2, NULL, CONCAT(REPEAT('é\'\\', 100000), '😀'));
CREATE TABLE nokey (a MEDIUMBLOB, l MEDIUMTEXT CHARACTER SET latin1, n INT) ;
INSERT INTO nokey VALUES (REPEAT(0xAB, 300000), REPEAT(_latin1 0xE95C, 100000), 1);
INSERT INTO nokey VALUES (REPEAT(0xAB, 300000), REPEAT(_latin1 0xE95C, 100000), 1);
INSERT INTO nokey VALUES (NULL, '', 2);
CREATE TABLE many (id INT PRIMARY KEY, v VARCHAR(200));
SQL
sql $SRC -e "INSERT INTO many SELECT seq, REPEAT(CHAR(65 + seq % 26), seq % 200) FROM seq_1_to_20000"
sums() {
	for t in big nokey many; do sql -e "CHECKSUM TABLE $1.$t EXTENDED" |
	    sed "s/^$1\\.//"; done
}
sums $SRC >src.sum

dbsnap $(CONN) $SRC >s.rp; is $? 0 "dbsnap"
rows2sql --rename-db $SRC=$DST s.rp >dump.sql; is $? 0 "rows2sql with the default --max-allowed-packet (16M)"
is "$(LC_ALL=C awk 'length($0) > 16 * 1024 * 1024 - 1024' dump.sql | wc -l)" 0 "no statement over 16M"
like "$(grep -c "^SET @rp_v1=IFNULL(CONCAT(@rp_v1,\(0x\|_binary'\)" dump.sql)" '^[1-9]' "the 12 MiB value is written in pieces"
is "$(LC_ALL=C awk '/^INSERT/ && length($0) > 1048576' dump.sql | wc -l)" 0 "extended INSERTs within the 1 MiB default"
sql <dump.sql; is $? 0 "mariadb loads it"
is_file "$(sums $DST >dst.sum; echo dst.sum)" src.sum "same CHECKSUM TABLE"

sql -e "DROP DATABASE $DST"
rows2sql --max-allowed-packet=64K --max-statement-size=8K --rename-db $SRC=$DST s.rp >small.sql
is $? 0 "rows2sql with --max-allowed-packet=64K --max-statement-size=8K"
is "$(LC_ALL=C awk 'length($0) > 64 * 1024' small.sql | wc -l)" 0 "no statement over 64K"
is "$(LC_ALL=C awk '/^INSERT/ && length($0) > 8192' small.sql | wc -l)" 0 "no INSERT over 8K"
sql <small.sql; is $? 0 "mariadb loads it"
is_file "$(sums $DST >dst2.sum; echo dst2.sum)" src.sum "same CHECKSUM TABLE, table without a key included"

# --insert modes against existing rows.
sql $DST -e "UPDATE many SET v = 'changed' WHERE id <= 10; DELETE FROM many WHERE id > 19990"
rows2sql --tables=many --no-create --insert=ignore --rename-db $SRC=$DST s.rp | sql
is "$(sql $DST -e "SELECT COUNT(*), SUM(v = 'changed') FROM many")" "20000	10" "--insert=ignore adds missing rows, keeps others"
rows2sql --tables=many --no-create --insert=upsert --rename-db $SRC=$DST s.rp | sql
is "$(sql -e "CHECKSUM TABLE $DST.many EXTENDED" | cut -f2)" "$(grep '^many' src.sum | cut -f2)" "--insert=upsert restores changed rows"
sql $DST -e "UPDATE many SET v = 'changed' WHERE id <= 10"
rows2sql --tables=many --no-create --insert=replace --rename-db $SRC=$DST s.rp | sql
is "$(sql -e "CHECKSUM TABLE $DST.many EXTENDED" | cut -f2)" "$(grep '^many' src.sum | cut -f2)" "--insert=replace restores changed rows"
rows2sql --tables=many --no-create --rename-db $SRC=$DST s.rp | sql 2>err
isnt "$?" 0 "plain INSERT over existing rows fails"

# A value larger than the server's own max_allowed_packet (16M) cannot be
# built there: the load must fail, not store NULL.
sql -e "DROP DATABASE $DST"
printf 'HEADER\tproducer=test\nOBJECT\tdatabase\t%s\t%s\tCREATE DATABASE `%s`\nOBJECT\ttable\t%s\thuge\tCREATE TABLE `huge` (`id` int, `b` longblob)\nTABLE\t1\t%s\thuge\t2\nCOLUMN\t1\t0\tid\t3\t0x40\t63\t0\tint\nCOLUMN\t1\t1\tb\t252\t0x4\t63\t0\tlongblob\nROW\t1\t31\t@17825792:AB\nTABLE_END\t1\t1\nTRAILER\n' \
    $DST $DST $DST $DST $DST | r2s-gen | rows2sql >huge.sql
is $? 0 "a 17 MiB value converts"
sql <huge.sql 2>err; is $? 1 "loading it fails"
like "$(cat err)" 'ERROR 1242' "with the guard's error, not a silent NULL"
is "$(sql $DST -e 'SELECT COUNT(*) FROM huge')" 0 "and no row with a NULL in its place"
sql -e "DROP DATABASE $DST"
sqlsplit <huge.sql | sqlexec $(CONN) 2>err; is $? 1 "sqlexec: loading it fails"
like "$(cat err)" "ERROR 1242 .*rows2sql's guard: a value larger than the server's max_allowed_packet, 16777216; raise it" \
    "sqlexec names the guard and the limit"
is "$(sql $DST -e 'SELECT COUNT(*) FROM huge')" 0 "and no row with a NULL in its place"

sql -e "DROP DATABASE $SRC; DROP DATABASE $DST"
done_testing
