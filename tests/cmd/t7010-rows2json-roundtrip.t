#!/bin/bash
# The lossless round trip on real snapshots: dbsnap | rows2json | json2rows
# | rows2sql gives the very text of dbsnap | rows2sql, for sakila, the
# all-types fixture, the store sample and the shop (both generated here), with and without jq
# in the middle; and a jq mask of the customers' emails loads into a copy
# with the same rows, every email changed and the unique keys intact.
. "$(dirname "$0")/../lib.sh"
need_server
set -o pipefail
A=$(CONN)

load_shop t7010_shop || exit 1
load_alltypes t7010_at || exit 1
load_sample store t7010_store || exit 1
have_sakila=0
if have_sample sakila; then
	load_sample sakila t7010_sak && have_sakila=1
fi

for db in t7010_shop t7010_at t7010_store t7010_sak; do
	if [ $db = t7010_sak ] && [ $have_sakila = 0 ]; then
		sample_skip sakila 2
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
    DROP DATABASE t7010_store;
    DROP DATABASE IF EXISTS t7010_sak"
done_testing
