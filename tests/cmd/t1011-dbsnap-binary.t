#!/bin/sh
# dbsnap reads rows over the binary protocol and writes the text itself:
# every type whose binary form differs from its text form (integers with
# ZEROFILL, YEAR, TIME negative and past 24 h, each fractional precision,
# zero and invalid dates, TIMESTAMP in the +00:00 session zone, DECIMAL,
# BIT, ENUM, SET, JSON, GEOMETRY, UUID, INET4/6) comes out byte for byte
# as the server's text protocol sends it; DOUBLE text is the server's on
# random values; FLOAT text reads back to the same float on the server,
# as literals and as string parameters (numcheck); FLOAT/DOUBLE variants
# round-trip through rows2sql and sqlexec; keyset chunks on fractional
# temporal and DECIMAL keys take every row once.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1011_src
fresh_db $DB
sql $DB <<'SQL' >/dev/null || exit 1
SET time_zone = '+00:00';
SET sql_mode = 'ALLOW_INVALID_DATES';
CREATE TABLE tt (
  id int PRIMARY KEY,
  iz int(8) ZEROFILL, tz tinyint(3) ZEROFILL, bz bigint ZEROFILL,
  mz mediumint(4) ZEROFILL, sz smallint unsigned ZEROFILL, y year,
  i8 tinyint, u8 tinyint unsigned, i24 mediumint, u24 mediumint unsigned,
  dz decimal(8,2) ZEROFILL, de decimal(30,10),
  t0 time, t1 time(1), t2 time(2), t3 time(3), t4 time(4), t5 time(5),
  t6 time(6),
  d0 datetime, d1 datetime(1), d2 datetime(2), d3 datetime(3),
  d4 datetime(4), d5 datetime(5), d6 datetime(6),
  s0 timestamp NULL, s3 timestamp(3) NULL, s6 timestamp(6) NULL,
  dt date, e enum('a','b','c d'), st set('x','y','z'), j json,
  u uuid, i6 inet6, i4 inet4
);
INSERT INTO tt VALUES
 (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  '00:00:00', '00:00:00', '00:00:00', '00:00:00', '00:00:00', '00:00:00',
  '00:00:00', '0000-00-00', '0000-00-00', '0000-00-00', '0000-00-00',
  '0000-00-00', '0000-00-00', '0000-00-00', '0000-00-00 00:00:00',
  '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00', 'a', '',
  '{}', '00000000-0000-0000-0000-000000000000', '::', '0.0.0.0'),
 (2, 4294967295, 255, 18446744073709551615, 16777215, 65535, 2155, -128,
  255, -8388608, 16777215, 999999.99, -99999999999999999999.9999999999,
  '-838:59:59', '-838:59:59.9', '-838:59:59.99', '-838:59:59.999',
  '-838:59:59.9999', '-838:59:59.99999', '-838:59:59.999999',
  '9999-12-31 23:59:59', '9999-12-31 23:59:59.9', '9999-12-31 23:59:59.99',
  '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.9999',
  '9999-12-31 23:59:59.99999', '9999-12-31 23:59:59.999999',
  '2038-01-19 03:14:07', '2038-01-19 03:14:07.999', '2038-01-19 03:14:07.999999',
  '9999-12-31', 'c d', 'x,y,z', '{"a": [1, 2.50, "x"], "b": null}',
  'ffffffff-ffff-ffff-ffff-ffffffffffff', 'ffff::1', '255.255.255.255'),
 (3, 42, 7, 1, 99, 5, 1901, 127, 1, 8388607, 1, 0.5, 0.0000000001,
  '100:00:00', '-00:00:00.5', '24:00:00.01', '-00:00:00.001',
  '838:59:58.9999', '00:00:01.00001', '-00:00:00.000001',
  '2021-01-31 10:00:00', '2021-00-00 00:00:00.5', '2021-02-00 00:00:00.01',
  '2024-02-29 12:34:56.789', '1000-01-01 00:00:00.0001',
  '2021-04-30 00:00:00.00001', '2021-06-00 00:00:00.000001',
  '1970-01-01 00:00:01', '2024-10-27 01:30:00.5', '2024-03-31 01:59:59.999999',
  '2021-00-31', 'b', 'y', '[]',
  '123e4567-e89b-12d3-a456-426614174000', '2001:db8::ff00:42:8329', '10.0.0.1'),
 (4, NULL, NULL, NULL, NULL, NULL, 69, NULL, NULL, NULL, NULL, NULL, NULL,
  '12:34:56', NULL, NULL, NULL, NULL, NULL, '01:02:03.000004',
  NULL, NULL, NULL, NULL, NULL, NULL, '2000-01-01 00:00:00.000000', NULL,
  '2000-01-01 00:00:00.100', NULL, '2000-00-00', NULL, NULL, NULL, NULL,
  '::ffff:1.2.3.4', NULL);
-- Invalid dates (kept under ALLOW_INVALID_DATES) and BIT.
CREATE TABLE tinv (id int PRIMARY KEY, d date, dt datetime(2));
INSERT INTO tinv VALUES (1, '2021-02-31', '2021-04-31 23:59:59.99'),
  (2, '2021-06-31', '2021-02-30 00:00:00');
CREATE TABLE tb (id int PRIMARY KEY, b3 bit(3), b17 bit(17));
INSERT INTO tb VALUES (1, b'0', b'0'), (2, b'111', b'10000000000000001'),
  (3, b'101', b'1'), (4, NULL, NULL);
CREATE TABLE tf (
  id int PRIMARY KEY, f float, f74 float(7,4), fz float ZEROFILL,
  fu float unsigned, d double, d102 double(10,2), dz double(8,3) ZEROFILL
);
INSERT INTO tf VALUES (1, 243.234, 123.4567, 1.5, 0, 0.1, 1.5, 2.25),
  (2, 3.4028234e38, -999.9999, 0, 3.4028234e38, 1.7976931348623157e308,
   -99999999.99, 9999.999),
  (3, -1e-45, 0.0001, 16777217, 1e-45, 5e-324, 0.01, 0.001),
  (4, 1.17549435e-38, 0, 7e-10, 0.1, -2.2250738585072014e-308, 0, 0),
  (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE kdt (k datetime(6) PRIMARY KEY, v int);
INSERT INTO kdt SELECT '2020-01-01' + INTERVAL seq * 1234567 MICROSECOND, seq
  FROM seq_1_to_3000;
CREATE TABLE ktm (k time(3) PRIMARY KEY, v int);
INSERT INTO ktm SELECT SEC_TO_TIME((CAST(seq AS SIGNED) - 1500) * 1.001), seq
  FROM seq_1_to_3000;
CREATE TABLE kde (k decimal(20,10) PRIMARY KEY, v int);
INSERT INTO kde SELECT (CAST(seq AS SIGNED) - 1500) / 7, seq FROM seq_1_to_3000;
CREATE TABLE kcomp (a date, b time(6), v int, PRIMARY KEY (a, b));
INSERT INTO kcomp SELECT '2020-01-01' + INTERVAL seq % 5 DAY,
  SEC_TO_TIME(seq / 1000), seq FROM seq_1_to_3000;
ANALYZE TABLE kdt, ktm, kde, kcomp;
SQL

plan 20

dbsnap $(CONN) $DB tt tinv tb tf > out.rp
is "$?" 0 "dbsnap exits 0"
framecat -t < out.rp > out.txt
is "$?" 0 "the stream is complete"

# What the text protocol sends, NULL as framecat writes it.
rows() {	# table id, then the SELECT
	sql -r -e "SET time_zone = '+00:00'; $2" |
	    awk -F'\t' -v OFS='\t' -v id="$1" '{ for (i = 1; i <= NF; i++)
	        if ($i == "NULL") $i = "\\N"; print "ROW", id, $0 }'
}
tid() { awk -F'\t' -v t="$1" '$1 == "TABLE" && $4 == t { print $2 }' out.txt; }
grep -a "^ROW	$(tid tt)	" out.txt > got.txt
rows "$(tid tt)" "SELECT * FROM $DB.tt ORDER BY id" > want.txt
is_file got.txt want.txt "every value as the text protocol sends it"
like "$(grep -c '	-838:59:59.999999	' got.txt)" '^1$' "negative TIME with 6 digits"
grep "^ROW	$(tid tinv)	" out.txt > got.txt
rows "$(tid tinv)" "SELECT * FROM $DB.tinv ORDER BY id" > want.txt
is_file got.txt want.txt "invalid dates kept, as the text protocol sends them"
is "$(framecat < out.rp | grep "^ROW	$(tid tb)	" | cut -f4,5 | tr '\t\n' ', ')" \
    "00,000000 07,010001 05,000001 \\N,\\N " "BIT: the value's bytes"

# FLOAT and DOUBLE: the shortest text; the server's text differs for
# fixed decimals and ZEROFILL, so these are checked by restoring.
ftext() {	# column
	c=$(awk -F'\t' -v n="$1" '$1 == "COLUMN" && $4 == n { print $3 + 3 }' out.txt)
	grep "^ROW	$(tid tf)	" out.txt | cut -f3,$c | tr '\t\n' '= '
}
is "$(ftext f)" "1=243.234 2=3.4028234e38 3=-1e-45 4=1.1754944e-38 5=\\N " \
    "FLOAT: shortest text the server reads back"
is "$(ftext fz)" "1=1.5 2=0 3=16777216 4=0.0000000007 5=\\N " \
    "FLOAT ZEROFILL: no padding; the server's layout (7e-10 in fixed notation)"
is "$(ftext d102)" "1=1.5 2=-99999999.99 3=0.01 4=0 5=\\N " "DOUBLE(10,2): shortest text"
sql -e "DROP DATABASE IF EXISTS t1011_dst; CREATE DATABASE t1011_dst"
rows2sql --rename-db $DB=t1011_dst < out.rp | sql
is "$?" 0 "rows2sql output loads"
is "$(db_sums t1011_dst)" "$(db_sums $DB | grep -v '^k')" "rows2sql: same CHECKSUM TABLE (invalid dates included)"
is "$(db_hex t1011_dst)" "$(db_hex $DB | grep -v '^k')" "rows2sql: same HEX() of every value"
sql -e "DROP DATABASE t1011_dst; CREATE DATABASE t1011_dst"
rows2sql --rename-db $DB=t1011_dst < out.rp | sqlsplit | sqlexec $(CONN) 2>exec.err
is "$?" 0 "sqlsplit | sqlexec loads it"
is "$(db_hex t1011_dst)" "$(db_hex $DB | grep -v '^k')" "sqlexec: same HEX() of every value"

# The read-back rule: above FLT_MAX as a double is out of range.
sql -e "SET sql_mode = 'STRICT_ALL_TABLES'; CREATE TEMPORARY TABLE t1011_dst.x (f float);
    INSERT INTO t1011_dst.x VALUES (3.4028235e38)" 2>err.txt
like "$(cat err.txt)" "ERROR 1264" "3.4028235e38 (strtof's FLT_MAX) is out of range for the server"

# numfmt against the server, on random and edge values.
numcheck "$RP_SOCK" t1011_dst 20000 > nc.txt
is "$?" 0 "numcheck: every DOUBLE text is the server's, every FLOAT text reads back"
sed 's/^/# /' nc.txt

# Keyset chunks on keys whose text is formatted here.
keys() {	# -j
	dbsnap $(CONN) -j $1 --chunk-rows 100 $DB kdt ktm kde kcomp > k.rp &&
	    framecat -t < k.rp > k.txt || return 1
	for t in kdt ktm kde kcomp; do
		id=$(awk -F'\t' -v t="$t" '$1 == "TABLE" && $4 == t { print $2 }' k.txt)
		grep "^ROW	$id	" k.txt
		rows $id "SELECT * FROM $DB.$t ORDER BY $([ $t = kcomp ] && echo a, b || echo k)"
	done > k.both
	sort k.both | uniq -c | awk '$1 != 2' | head -5
}
is "$(keys 1)" "" "-j 1: keyset chunks on DATETIME(6), TIME(3), DECIMAL, (DATE, TIME(6)) keys: every row once"
is "$(keys 3)" "" "-j 3: the same"
# A prepared statement takes no ? from a --where condition.
dbsnap $(CONN) --where 'id = ?' $DB tt > /dev/null 2> err.txt
is "$?" 1 "--where with a ? placeholder: exit 1"
like "$(cat err.txt)" "^dbsnap: $DB\.tt: chunk 1: the query has a \? placeholder" \
    "... and says why"
sql -e "DROP DATABASE $DB; DROP DATABASE t1011_dst"
done_testing
