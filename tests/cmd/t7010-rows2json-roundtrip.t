#!/bin/bash
# The lossless round trip on real snapshots: dbsnap | rows2json | json2rows
# | rows2sql gives the very text of dbsnap | rows2sql, for sakila, the
# all-types fixture and a database generated here, with and without jq
# in the middle; and a jq mask of the customers' emails loads into a copy
# with the same rows, every email changed and the unique keys intact.
. "$(dirname "$0")/../lib.sh"
need_server
set -o pipefail
A=$(CONN)

# A shop generated here: keys, a unique email, utf8mb4 and latin1 text,
# blobs with every byte, decimals, doubles, NULLs, a view and a trigger.
make_shop() {
	fresh_db "$1" && sql "$1" <<'X'
CREATE TABLE customer (id INT PRIMARY KEY, email VARCHAR(80) NOT NULL,
  name VARCHAR(40) CHARACTER SET utf8mb4, city VARCHAR(30) CHARACTER SET latin1,
  UNIQUE KEY uk_email (email));
INSERT INTO customer SELECT seq, CONCAT('user', seq, '@example.com'),
  CONCAT('Zoë ', seq, IF(seq % 7 = 0, ' 🚀', '')), IF(seq % 3 = 0, NULL,
  CONVERT(CONCAT('Malmö ', seq) USING latin1)) FROM seq_1_to_500;
CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL,
  total DECIMAL(12,2), ratio DOUBLE, note BLOB, KEY (customer_id));
INSERT INTO orders SELECT seq, 1 + seq % 500, seq * 1.25, 1 / seq,
  IF(seq % 5 = 0, NULL, UNHEX(REPEAT(LPAD(HEX(seq % 256), 2, '0'), seq % 40)))
  FROM seq_1_to_2000;
CREATE TABLE bytes (b TINYINT UNSIGNED PRIMARY KEY, v VARBINARY(4));
INSERT INTO bytes SELECT seq, CHAR(seq) FROM seq_0_to_255;
CREATE VIEW big AS SELECT * FROM orders WHERE total > 1000;
CREATE TRIGGER ins_order BEFORE INSERT ON orders FOR EACH ROW SET NEW.total = NEW.total;
X
}

make_shop t7010_shop || exit 1
load_alltypes t7010_at || exit 1
have_sakila=0
if [ -r "$RP_SHARED/data/sakila/sakila-schema.sql" ]; then
	load_sakila t7010_sak && have_sakila=1
fi

for db in t7010_shop t7010_at t7010_sak; do
	if [ $db = t7010_sak ] && [ $have_sakila = 0 ]; then
		ok 0 "# SKIP no sakila in $RP_SHARED"
		ok 0 "# SKIP no sakila in $RP_SHARED"
		continue
	fi
	dbsnap $A -R -E $db >$db.rp || { ok 1 "dbsnap $db"; continue; }
	rows2sql $db.rp >$db.sql
	rows2json $db.rp | json2rows | rows2sql >$db.back.sql
	is_file $db.back.sql $db.sql "$db: rows2json | json2rows | rows2sql is byte-identical"
	rows2json $db.rp | jq -c . | json2rows | rows2sql >$db.jq.sql
	is_file $db.jq.sql $db.sql "$db: the same through jq -c ."
done

# Mask every customer's email with jq and load the copy.
dbsnap $A -R t7010_shop | rows2json |
    jq -c 'if .table == "customer" then .row.email = "c" + .row.id +
        "@staging.invalid" else . end' |
    json2rows | rows2sql --rename-db t7010_shop=t7010_mask >mask.sql
is $? 0 "jq masks the emails in the stream"
sql -e "DROP DATABASE IF EXISTS t7010_mask"
sql <mask.sql; is $? 0 "the masked copy loads"
for t in customer orders bytes; do
	is "$(sql -e "SELECT COUNT(*) FROM t7010_mask.$t")" \
	    "$(sql -e "SELECT COUNT(*) FROM t7010_shop.$t")" "$t: same row count"
done
is "$(sql -e "SELECT COUNT(*) FROM t7010_mask.customer m JOIN
    t7010_shop.customer s USING (id) WHERE m.email = s.email")" 0 \
    "every email changed"
is "$(sql -e "SELECT COUNT(DISTINCT email) FROM t7010_mask.customer")" 500 \
    "the emails are still unique"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.statistics WHERE
    table_schema = 't7010_mask' AND index_name = 'uk_email' AND non_unique = 0")" 1 \
    "the unique key is there"
is "$(sql -e "SELECT CONCAT(COUNT(*), ' ', SUM(name = CONCAT('Zoë ', id, IF(id % 7 = 0, ' 🚀', ''))))
    FROM t7010_mask.customer")" "500 500" "the other columns are untouched"

sql -e "DROP DATABASE t7010_shop; DROP DATABASE t7010_at; DROP DATABASE t7010_mask;
    DROP DATABASE IF EXISTS t7010_sak"
done_testing
