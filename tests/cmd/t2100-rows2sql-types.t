#!/bin/sh
# rows2sql round trip of every column type with edge values:
# dbsnap | rows2sql loaded with the mariadb client into another database
# has the same CHECKSUM TABLE, the same HEX() of every column and the same
# SHOW CREATE TABLE; also under a hostile sql_mode (ANSI_QUOTES,
# NO_BACKSLASH_ESCAPES, strict, NO_ZERO_DATE) and with --no-hex-blob.
. "$(dirname "$0")/../lib.sh"
need_server
# information_schema queries can fail while other tests run DDL
# (ER_NEED_REPREPARE): retry them a few times.
isql() {
	_n=0
	until _out=$(sql --raw "$@"); do
		_n=$((_n + 1))
		[ $_n -lt 5 ] || return 1
		sleep 1
	done
	printf '%s\n' "$_out"
}

SRC=t2100_src
fresh_db $SRC || exit 1
cat >types.sql <<'SQL'
CREATE TABLE t (
 id INT PRIMARY KEY,
 ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,
 mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED,
 bi BIGINT, biu BIGINT UNSIGNED,
 de DECIMAL(65,30), de0 DECIMAL(10,0) UNSIGNED,
 f FLOAT, d DOUBLE, fu FLOAT(7,3),
 b1 BIT(1), b5 BIT(5), b64 BIT(64),
 dt DATE, tm TIME(6), tm0 TIME, dtt DATETIME(6), dt0 DATETIME, ts TIMESTAMP(6) NULL DEFAULT NULL, y YEAR,
 c CHAR(10), vc VARCHAR(300), tx TEXT, mtx MEDIUMTEXT,
 l1 VARCHAR(300) CHARACTER SET latin1, cp VARCHAR(100) CHARACTER SET cp1251,
 sj VARCHAR(100) CHARACTER SET sjis, gb VARCHAR(100) CHARACTER SET gbk,
 b5c VARCHAR(100) CHARACTER SET big5, u2 VARCHAR(50) CHARACTER SET ucs2,
 u16 VARCHAR(50) CHARACTER SET utf16, u32 VARCHAR(50) CHARACTER SET utf32,
 bn BINARY(16), vb VARBINARY(300), bl BLOB, lb LONGBLOB,
 e ENUM('a','b','é'), el ENUM('x','ÿ') CHARACTER SET latin1, st SET('x','y','z'),
 j JSON, g GEOMETRY, pt POINT REF_SYSTEM_ID=4326,
 u UUID, i6 INET6, i4 INET4,
 gv INT AS (i + 1) VIRTUAL, gs VARCHAR(40) AS (LEFT(vc, 10)) STORED,
 inv INT INVISIBLE
) DEFAULT CHARSET=utf8mb4;
INSERT INTO t (id, ti, tiu, si, siu, mi, miu, i, iu, bi, biu, de, de0, f, d, fu,
 b1, b5, b64, dt, tm, tm0, dtt, dt0, ts, y, c, vc, tx, mtx, l1, cp, sj, gb, b5c, u2, u16, u32,
 bn, vb, bl, lb, e, el, st, j, g, pt, u, i6, i4, inv) VALUES
(1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,
 -99999999999999999999999999999999999.999999999999999999999999999999, 0,
 -3.40282e38, -1.7976931348623157e308, -9999.999,
 0, 0, 0, '0000-00-00', '-838:59:59.000000', '-838:59:59', '0000-00-00 00:00:00.000000', '0000-00-00 00:00:00', '1970-01-01 00:00:01.000000', 0,
 '', '', '', '',
 '', '', '', '', '', '', '', '',
 0x00, '', '', '', 'a', 'x', '', '[]', ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('POINT(1 2)', 4326),
 '00000000-0000-0000-0000-000000000000', '::', '0.0.0.0', -1),
(2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, 18446744073709551615,
 99999999999999999999999999999999999.999999999999999999999999999999, 9999999999,
 3.40282e38, 1.7976931348623157e308, 9999.999,
 1, b'11111', 0xFFFFFFFFFFFFFFFF, '9999-12-31', '838:59:59.000000', '838:59:59', '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59', '2038-01-19 03:14:07.999999', 2155,
 'abcdefghij', CONCAT('é😀', REPEAT('x', 290)), REPEAT('long text ', 1000), REPEAT('m', 70000),
 UNHEX('000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF'),
 _cp1251 0xC0C1C2E0E1E2FF5C27,
 _sjis 0x835C955C8A5C5C27, _gbk 0x815CD55C5C27, _big5 0xA45CA55C5C27,
 _ucs2 0x00E9005C0027, _utf16 0xD83DDE00005C, _utf32 0x0001F600,
 0x00FF5C27220A0D1A00000000000000FF, UNHEX('000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF'),
 0xC328FFFE80BF5C00, REPEAT(0xDEADBEEF5C27, 2000),
 'é', 'ÿ', 'x,y,z', '{"a": "\\u00e9 \\\\ \\" x", "n": 1e308, "s": "😀"}',
 ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0))', 3857), ST_GeomFromText('POINT(-179.999999 89.123456789)', 4326),
 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '255.255.255.255', 2147483647),
(3, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0.000000000000000000000000000001, 1,
 -0e0, -0e0, -0.0,
 1, b'10101', 0x8000000000000001, '2024-02-29', '00:00:00.000001', '-00:00:01', '2024-03-31 01:59:59.500000', '1000-01-01 00:00:00', '2024-03-31 01:30:00.123456', 1901,
 'a\'b"c\\d', CONCAT('q\'', CHAR(0), '\n\r\t', CHAR(26), '\\%_', CHAR(0x7F)), 'tab\there\nnl', CONCAT('\\', 'N'),
 'plain ascii', 'ascii', 'ascii', 'ascii', 'ascii', 'ascii', 'ascii', 'ascii',
 'bin', '', '', 0x00, 'b', 'x', '', 'null', ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))'), NULL,
 '123e4567-e89b-12d3-a456-426655440000', '::ffff:1.2.3.4', '10.0.0.1', 0),
(4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1.5, 2,
 3.14159274, 0.1, 0.001,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
(5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 1.17549435e-38, 4.9406564584124654e-324, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 'NULL', 'null', 'N', '\\N', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
(6, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 1e-45, 2.2250738585072014e-308, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE nopk (a INT, b VARCHAR(10)) DEFAULT CHARSET=latin1;
INSERT INTO nopk VALUES (1,'x'),(1,'x'),(1,'x'),(NULL,NULL),(NULL,NULL),(2,_latin1 0xFF);
CREATE TABLE empty_t (a INT PRIMARY KEY);
CREATE TABLE `we``ird "n'a\me` (`sel``ect` INT PRIMARY KEY, `ü col` VARCHAR(10), `order` INT);
INSERT INTO `we``ird "n'a\me` VALUES (1,'ü',2);
CREATE TABLE ver (id INT PRIMARY KEY, x VARCHAR(10)) WITH SYSTEM VERSIONING;
SET timestamp=1600000000.123456; INSERT INTO ver VALUES (1,'a'),(2,'b');
SET timestamp=1600000100.5; UPDATE ver SET x='a2' WHERE id=1;
SET timestamp=1600000200; DELETE FROM ver WHERE id=2;
SET timestamp=DEFAULT;
CREATE TABLE part (id INT PRIMARY KEY, v INT) PARTITION BY HASH(id) PARTITIONS 3;
INSERT INTO part VALUES (1,1),(2,2),(3,3),(4,4);
CREATE TABLE `new
line\\` (`a
b` INT, `select` INT);
INSERT INTO `new
line\\` VALUES (1,2),(1,2);
SET time_zone='+00:00';
CREATE TABLE tsdst (id INT PRIMARY KEY, ts TIMESTAMP(6) NULL);
INSERT INTO tsdst VALUES (1,'2024-10-27 00:30:00'),(2,'2024-10-27 01:30:00'),
 (3,'2024-03-31 01:30:00.5'),(4,'2024-03-31 00:59:59.999999');
SQL
# tsdst holds both instants that read 02:30 in Europe/Berlin on 2024-10-27.
{ echo "SET NAMES utf8mb4; SET SESSION sql_mode=''; SET time_zone='+00:00';"; cat types.sql; } |
    sql $SRC || exit 1

# One line per row: HEX() of every column (history rows included), per table.
hexdump() {
	isql -e "SELECT CONCAT('SELECT ', QUOTE(t.table_name),
	    ', CONCAT_WS(''|'', ', GROUP_CONCAT(CONCAT('IFNULL(HEX(\`',
	    REPLACE(c.column_name, '\`', '\`\`'), '\`),''N'')')
	    ORDER BY c.ordinal_position),
	    IF(t.table_type = 'SYSTEM VERSIONED',
	    ',HEX(ROW_START),HEX(ROW_END)', ''), ') AS r FROM \`',
	    REPLACE(t.table_name, '\`', '\`\`'), '\`',
	    IF(t.table_type = 'SYSTEM VERSIONED', ' FOR SYSTEM_TIME ALL', ''),
	    ' ORDER BY r;')
	    FROM information_schema.tables t JOIN information_schema.columns c
	    USING (table_schema, table_name) WHERE t.table_schema = '$1'
	    AND t.table_type IN ('BASE TABLE', 'SYSTEM VERSIONED')
	    GROUP BY t.table_name, t.table_type ORDER BY t.table_name" |
	    sql --raw "$1"
}
# CHECKSUM TABLE of every base table (names of any bytes).
sums() {
	isql -e "SELECT CONCAT('CHECKSUM TABLE \`',
	    REPLACE(table_name, '\`', '\`\`'), '\` EXTENDED;') FROM
	    information_schema.tables WHERE table_schema = '$1' AND table_type
	    IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY table_name" |
	    sql --raw "$1" | sed "s/^$1\\.//"
}
ddl() {
	isql -e "SELECT CONCAT('SHOW CREATE TABLE \`',
	    REPLACE(table_name, '\`', '\`\`'), '\`;') FROM
	    information_schema.tables WHERE table_schema = '$1' ORDER BY
	    table_name" | sql --raw "$1"
}
# Row values as the source had them, once.
hexdump $SRC >src.hex
sums $SRC >src.sum
ddl $SRC >src.ddl
like "$(grep -c . src.hex)" '^[1-9][0-9]+$' "source rows dumped for comparison"
like "$(cat src.hex)" "835C955C8A5C5C27" "source holds sjis text with 0x5C second bytes"

dbsnap $(CONN) $SRC >s.rp; is $? 0 "dbsnap"

check() {	# check DST what
	is_file "$(hexdump $1 >$1.hex; echo $1.hex)" src.hex "$2: HEX() of every column"
	is_file "$(sums $1 >$1.sum; echo $1.sum)" src.sum "$2: CHECKSUM TABLE"
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
