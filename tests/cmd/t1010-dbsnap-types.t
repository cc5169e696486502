#!/bin/sh
# dbsnap: every MariaDB column type comes out byte-exact, as the server
# stores it (checked against HEX() of the values in a UTC session), FLOAT
# at full precision, TIMESTAMP as UTC across a DST change, legacy
# multi-byte charsets with 0x5C second bytes untouched.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1010_src
fresh_db $DB
sql $DB <<'SQL' || exit 1
SET NAMES utf8mb4;
SET time_zone = 'Europe/Berlin';
CREATE TABLE ty (
  id int NOT NULL PRIMARY KEY,
  ti tinyint, tu tinyint unsigned, si smallint, su smallint unsigned,
  mi mediumint, mu mediumint unsigned, i int, iu int unsigned,
  bi bigint, bu bigint unsigned,
  de decimal(65,30), dn decimal(10,0) unsigned,
  f float, fu float(7,4), d double, bo bool, y year,
  b1 bit(1), b64 bit(64), b9 bit(9),
  dt date, dtt datetime, dt6 datetime(6), ts timestamp NULL DEFAULT NULL,
  ts6 timestamp(6) NULL DEFAULT NULL, tm time, tm6 time(6),
  c8 char(8), vc varchar(100), tx text, mt mediumtext,
  l1 varchar(20) CHARACTER SET latin1, sj varchar(20) CHARACTER SET sjis,
  gb varchar(20) CHARACTER SET gbk, b5 varchar(20) CHARACTER SET big5,
  cy varchar(20) CHARACTER SET cp1251,
  bn binary(4), vb varbinary(300), bl blob, lb longblob,
  en enum('a','b','it''s','ü'), st set('x','y','z'),
  js json, ge geometry, pt point REF_SYSTEM_ID=4326, uu uuid, i6 inet6,
  gv int AS (i DIV 2) VIRTUAL, gs varchar(20) AS (concat(left(vc, 10), '!')) STORED,
  inv int INVISIBLE
);
INSERT INTO ty (id) VALUES (1);
INSERT INTO ty (id, ti, tu, si, su, mi, mu, i, iu, bi, bu, de, dn, f, fu, d,
  bo, y, b1, b64, b9, dt, dtt, dt6, ts, ts6, tm, tm6, c8, vc, tx, mt, l1, sj,
  gb, b5, cy, bn, vb, bl, lb, en, st, js, ge, pt, uu, i6, inv) VALUES
 (2, -128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295,
  -9223372036854775808, 18446744073709551615,
  '-99999999999999999999999999999999999.999999999999999999999999999999',
  9999999999, 0.1, 123.4567, 2.2250738585072014e-308, 1, 1901, b'1',
  b'1111111111111111111111111111111111111111111111111111111111111111',
  b'100000001', '1000-01-01', '1000-01-01 00:00:00',
  '9999-12-31 23:59:59.999999', '2021-10-31 02:30:00',
  '2021-03-28 01:59:59.999999', '-838:59:59', '838:59:58.999999',
  'a', '', 'line\nbreak\ttab\\back''quote"dq', repeat('x', 70000),
  X'E9FF5C', X'955C835C', X'815C5C', X'A45CB35C', X'CFF0E8E2E5F2',
  X'00000000', X'', X'00', X'5C27220D0A1A00',
  'it''s', 'x,z', '{"a": [1, 2.50, "\\u00e9"], "b": null}',
  ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0))', 3857),
  ST_GeomFromText('POINT(1.5 -2.25)', 4326),
  '123e4567-e89b-12d3-a456-426614174000', '2001:db8::ff00:42:8329', -1),
 (3, 127, 0, 32767, 0, 8388607, 0, 2147483647, 0,
  9223372036854775807, 0,
  '99999999999999999999999999999999999.999999999999999999999999999999',
  0, 1.17549435e-38, -999.9999, 1.7976931348623157e308, 0, 2155, b'0',
  b'0', b'0', '9999-12-31', '0000-00-00 00:00:00', '0000-00-00 00:00:00',
  '1970-01-01 01:00:01', '2038-01-19 04:14:07.999999', '00:00:00',
  '-00:00:00.000001', 'abcdefgh', 'emoji 😀 ü', '', '', X'', X'', X'', X'',
  X'', X'FFFFFFFF', repeat(X'FF', 300), X'', X'', 'ü', '', '[]',
  ST_GeomFromText('POINT(0 0)'), ST_GeomFromText('POINT(0 0)', 4326),
  '00000000-0000-0000-0000-000000000000', '::', 0),
 (4, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0.000000000000000000000000000001, 1,
  3.4028234e+38, 0, -0.0, NULL, 0, NULL, NULL, NULL, '0000-00-00',
  '2021-10-31 03:30:00', NULL, '2021-10-31 03:30:00', NULL, '12:34:56',
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '::ffff:1.2.3.4', NULL);
INSERT INTO ty (id, f, d) VALUES (5, 16777217, 0.1), (6, -3.4028234e+38, NULL),
  (7, 1e-45, 5e-324), (8, 243.234, 1e15);
-- every byte value, in a blob and a varbinary
UPDATE ty SET bl = (SELECT group_concat(char(seq) SEPARATOR '') FROM seq_0_to_255),
  vb = (SELECT group_concat(char(255 - seq) SEPARATOR '') FROM seq_0_to_255)
  WHERE id = 1;
SQL

plan 16

dbsnap $(CONN) $DB ty > out.rp
is "$?" 0 "dbsnap exits 0"
framecat < out.rp > out.txt
is "$?" 0 "the stream is complete"

# Expected: the value bytes the server stores, in a UTC session, as hex.
# Numbers and temporal values as the server's text (CAST AS CHAR); BIT as
# its bytes; strings and binaries as stored.  FLOAT is dbsnap's own
# shortest text, checked below by value and by reading it back.
cols=$(sql -e "SELECT column_name, data_type, column_type FROM
    information_schema.columns WHERE table_schema='$DB' AND table_name='ty'
    ORDER BY ordinal_position")
expr=
echo "$cols" | {
	while IFS='	' read -r name type ctype; do
		case $type in
		float)	e="IF(\`$name\` IS NULL, NULL, 'float')";;
		bit)	m=$(echo "$ctype" | tr -dc 0-9)
			e="UNHEX(LPAD(HEX(\`$name\`), $(( (m + 7) / 8 * 2 )), '0'))";;
		uuid|inet6)
			e="CAST(\`$name\` AS CHAR CHARACTER SET utf8mb4)";;
		*int|decimal|double|year|date*|time*)
			e="CAST(\`$name\` AS CHAR)";;
		*)	e="\`$name\`";;
		esac
		expr="$expr, '	', IFNULL(HEX($e), '\\\\N')"
	done
	printf '%s\n' "SET NAMES binary; SET time_zone = '+00:00';
	    SELECT CONCAT('ROW	1'$expr) FROM $DB.ty ORDER BY id" > expect.sql
}
sql -r --binary-mode < expect.sql > expect.txt
# FLOAT columns masked in what dbsnap wrote, as in the expectation.
fcols=$(grep '^COLUMN	1	' out.txt | awk -F'\t' '$5 == 4 { printf "%s ", $3 + 3 }')
grep '^ROW' out.txt | awk -F'\t' -v OFS='\t' -v c="$fcols" '
    BEGIN { n = split(c, k, " ") }
    { for (i = 1; i <= n; i++) if ($k[i] != "\\N") $k[i] = "666C6F6174"; print }' > got.txt
is_file got.txt expect.txt "every value is byte-exact (hex of the stored bytes)"
ftext() {	# column: id=text of each row, FLOAT as dbsnap wrote it
	c=$(grep "^COLUMN	1	[0-9]*	$1	" out.txt | cut -f3)
	framecat -t < out.rp | grep -a '^ROW' | cut -f3,$((c + 3)) |
	    sed 's/\\N$/NULL/' | tr '\t\n' '= '
}

col() { grep "^COLUMN	1	[0-9]*	$1	" out.txt | cut -f5-; }
is "$(col id)" "3	0x61	63	0	int(11)" "int primary key: NOT_NULL|PRIMARY|NUMERIC"
is "$(col bu)" "8	0x42	63	0	bigint(20) unsigned" "bigint unsigned: UNSIGNED|NUMERIC"
is "$(col sj | cut -f3)" "$(sql -e "SELECT id FROM information_schema.collations WHERE collation_name='sjis_japanese_ci'")" \
    "sjis column carries its real collation id"
is "$(col vb | cut -f2,3)" "0x4	63" "varbinary: BINARY, charset 63"
is "$(col ge | cut -f2,5)" "0x4	geometry" "geometry: BINARY, coltype geometry"
is "$(col gv | cut -f2)" "0x48" "virtual column: GENERATED|NUMERIC"
is "$(col inv | cut -f2)" "0x50" "invisible column is dumped: INVISIBLE|NUMERIC"
is "$(col uu | cut -f5)" "uuid" "uuid coltype"
is "$(col fu | cut -f5)" "float(7,4)" "float(7,4) coltype"
is "$(ftext f)" "1=NULL 2=0.1 3=1.1754944e-38 4=3.4028234e38 5=16777216 6=-3.4028234e38 7=1e-45 8=243.234 " \
    "FLOAT: the shortest text the server reads back (not 3.4028235e38: above FLT_MAX)"
is "$(ftext fu)" "1=NULL 2=123.4567 3=-999.9999 4=0 5=NULL 6=NULL 7=NULL 8=NULL " \
    "FLOAT(7,4): the shortest text too"

# The FLOAT text dumped converts back to the very same float.
sql $DB -e "CREATE TABLE f2 (id int PRIMARY KEY, f float, fu float(7,4))"
fi=$(grep "^COLUMN	1	[0-9]*	f	" out.txt | cut -f3)
fui=$(grep "^COLUMN	1	[0-9]*	fu	" out.txt | cut -f3)
grep '^ROW' out.txt | awk -F'\t' -v a=$((fi + 3)) -v b=$((fui + 3)) '
    function v(x) { return x == "\\N" ? "NULL" : "UNHEX(\x27" x "\x27)" }
    { printf "INSERT INTO f2 VALUES (UNHEX(\x27%s\x27), %s, %s);\n", $3, v($a), v($b) }' |
    sql $DB
is "$(sql $DB -e "SELECT COUNT(*) FROM ty JOIN f2 USING (id) WHERE
    ty.f <=> f2.f AND ty.fu <=> f2.fu")" 8 "FLOAT values round-trip exactly"

# End to end: rows2sql's SQL restores the same table (CHECKSUM).
sql -e "DROP DATABASE IF EXISTS t1010_dst; CREATE DATABASE t1010_dst"
rows2sql < out.rp | sed "s/\`$DB\`/\`t1010_dst\`/g" | sql t1010_dst 2>err.txt
is "$(sql -e "CHECKSUM TABLE t1010_dst.ty EXTENDED" | cut -f2)" \
    "$(sql -e "CHECKSUM TABLE $DB.ty EXTENDED" | cut -f2)" \
    "dbsnap | rows2sql restores the same rows (CHECKSUM TABLE)"
sql -e "DROP DATABASE $DB; DROP DATABASE t1010_dst"
done_testing
