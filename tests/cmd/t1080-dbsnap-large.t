#!/bin/sh
# dbsnap: a value close to max_allowed_packet (16 MiB on the test server),
# an empty table, a partitioned table and a table with duplicate rows and
# no key come out whole, and restore through rows2sql.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1080_src
DST=t1080_dst
fresh_db $DB
sql $DB <<'SQL' >/dev/null || exit 1
CREATE TABLE big (id int PRIMARY KEY, b longblob, t longtext);
INSERT INTO big VALUES (1, REPEAT(X'00FF5C27', 3 * 1024 * 1024 + 1000), 'x');
INSERT INTO big VALUES (2, X'', REPEAT('é', 2 * 1024 * 1024));
CREATE TABLE empty (id int PRIMARY KEY, v text);
CREATE TABLE part (id int, d date, PRIMARY KEY (id, d))
  PARTITION BY RANGE (YEAR(d)) (PARTITION p0 VALUES LESS THAN (2000),
  PARTITION p1 VALUES LESS THAN MAXVALUE);
INSERT INTO part SELECT seq, '1990-01-01' + INTERVAL seq DAY FROM seq_1_to_20000;
CREATE TABLE dup (a int, b varchar(5));
INSERT INTO dup VALUES (1, 'x'), (1, 'x'), (1, 'x'), (NULL, NULL), (NULL, NULL);
SQL

plan 6
dbsnap $(CONN) -j 2 --chunk-rows 3000 $DB > out.rp
is "$?" 0 "dbsnap exits 0"
framecat < out.rp > out.txt
is "$?" 0 "the stream is complete"
is "$(grep '^TABLE_END' out.txt | cut -f3 | sort -n | tr '\n' ' ')" "0 2 5 20000 " \
    "row counts: empty, big, dup, part"
bid=$(awk -F'\t' '$1 == "TABLE" && $4 == "big" { print $2 }' out.txt)
is "$(grep "^ROW	$bid	31	" out.txt | cut -f4 | wc -c)" $((2 * (4 * (3 * 1024 * 1024 + 1000)) + 1)) \
    "the 12 MiB value is whole"
sql -e "DROP DATABASE IF EXISTS $DST"
rows2sql --rename-db=$DB=$DST < out.rp | sql --max-allowed-packet=64M
is "$?" 0 "rows2sql's SQL loads"
is "$(checksums $DST)" "$(checksums $DB)" "same CHECKSUM TABLE for every table"
sql -e "DROP DATABASE $DB; DROP DATABASE IF EXISTS $DST"
done_testing
