#!/bin/sh
# dbsnap: chunked reads return every row once, in primary-key order, with
# any -j: integer keys by ranges (negative, gaps, unsigned near 2^64),
# string and composite keys by keyset pagination in the key's collation,
# tables without a key whole (duplicate rows kept); --where, --ignore-table
# and table arguments select what is dumped.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1040_src
fresh_db $DB
sql $DB <<'SQL' >/dev/null || exit 1
CREATE TABLE ints (id int PRIMARY KEY, v varchar(20));
INSERT INTO ints SELECT CAST(seq AS SIGNED) * 7 - 20000, concat('v', seq) FROM seq_1_to_6000;
CREATE TABLE ubig (id bigint unsigned PRIMARY KEY, v int);
INSERT INTO ubig SELECT 18446744073709551615 - seq * 1000003, seq FROM seq_0_to_2999;
INSERT INTO ubig VALUES (0, -1);
CREATE TABLE strs (k varchar(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci
  PRIMARY KEY, v int);
INSERT INTO strs SELECT concat(IF(seq % 2, 'a', 'B'), seq, IF(seq % 3, 'é', 'E'), '\\'), seq
  FROM seq_1_to_3000;
CREATE TABLE comp (a int, b varchar(10), c date, v int, PRIMARY KEY (b, a, c));
INSERT INTO comp SELECT seq % 7, concat('x', seq % 11), '2020-01-01' + INTERVAL seq DAY, seq
  FROM seq_1_to_3000;
CREATE TABLE intcomp (a int, b int, v int, PRIMARY KEY (a, b));
INSERT INTO intcomp SELECT seq % 50, seq, seq FROM seq_1_to_3000;
CREATE TABLE nokey (a int, b int);
INSERT INTO nokey SELECT seq % 10, 1 FROM seq_1_to_3000;
INSERT INTO nokey SELECT seq % 10, 1 FROM seq_1_to_3000;
CREATE TABLE uniq (a int NOT NULL, b int, UNIQUE KEY (a));
INSERT INTO uniq SELECT 3000 - seq, seq FROM seq_1_to_3000;
ANALYZE TABLE ints, ubig, strs, comp, intcomp, nokey, uniq;
SQL

# Rows of table T as framecat prints them, from the server, in key order.
expect() {
	cols=$(sql -e "SELECT GROUP_CONCAT(CONCAT('IFNULL(HEX(CAST(\`', column_name,
	    '\` AS CHAR)), ''\\\\\\\\N'')') ORDER BY ordinal_position SEPARATOR ', ''\t'', ')
	    FROM information_schema.columns WHERE table_schema='$DB' AND table_name='$1'")
	sql -r --binary-mode -e "SET NAMES binary; SELECT CONCAT('ROW	', $2, '	', $cols)
	    FROM $DB.\`$1\` $3"
}
got() {
	id=$(awk -F'\t' -v t="$1" '$1 == "TABLE" && $4 == t { print $2 }' out.txt)
	grep "^ROW	$id	" out.txt
}
check() {	# table, -j, order by, where
	got "$1" > got.txt
	expect "$1" "$id" "$3 ${4:-}" > want.txt
	[ -s want.txt ] || diag "$1: no rows expected"
	is_file got.txt want.txt "$1 -j $2: every row once, in key order"
}

plan 26
for j in 1 3; do
	dbsnap $(CONN) -j $j --chunk-rows 500 $DB > out.rp
	is "$?" 0 "-j $j: dbsnap exits 0"
	framecat < out.rp > out.txt
	is "$?" 0 "-j $j: the stream is complete"
	check ints $j "ORDER BY id"
	check ubig $j "ORDER BY id"
	check strs $j "ORDER BY k"
	check comp $j "ORDER BY b, a, c"
	check intcomp $j "ORDER BY a, b"
	check uniq $j "ORDER BY a"
	is "$(got nokey | sort | uniq -c | awk '{ print $1 }' | sort -u)" 600 \
	    "nokey -j $j: duplicate rows kept"
done

dbsnap $(CONN) -j 2 --chunk-rows 500 --where 'v % 100 = 0' \
    --where 'strs:k LIKE "b1%"' --ignore-table $DB.nokey $DB ints strs > out.rp
is "$?" 0 "--where and --ignore-table: exits 0"
framecat < out.rp > out.txt
is "$(grep -c '^TABLE	.*	nokey	' out.txt)" 0 "--ignore-table leaves the table out"
is "$(grep -c '^OBJECT	table	.*	nokey	' out.txt)" 0 "... and its CREATE TABLE"
check ints 2 "WHERE v % 100 = 0" "ORDER BY id"
check strs 2 "WHERE v % 100 = 0 AND k LIKE 'b1%'" "ORDER BY k"

dbsnap $(CONN) $DB uniq ubig > out.rp
framecat < out.rp > out.txt
is "$(grep '^TABLE	' out.txt | cut -f4 | sort | tr '\n' ' ')" "ubig uniq " \
    "table arguments select tables"
dbsnap $(CONN) $DB nosuch > out.rp 2>err.txt
is "$?" 1 "a missing table: exit 1"
is "$(cat err.txt)" "dbsnap: $DB.nosuch: no such table" "... saying which"
sql -e "DROP DATABASE $DB"
done_testing
