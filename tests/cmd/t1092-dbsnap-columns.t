#!/bin/bash
# dbsnap --columns and --select: only the named columns are read and the
# stream's CREATE TABLE has only them (with their keys); an expression is
# computed on the server, so the stored value never leaves it; names that
# match nothing, and columns a key needs, are errors (exact codes).  On
# the shop the server generates and on sakila.
. "$(dirname "$0")/../lib.sh"
need_server
set -o pipefail
A=$(CONN)
db=t1092_shop
load_shop $db || exit 1

dbsnap $A $db customer --columns customer:id,email,city >c.rp
is $? 0 "--columns"
is "$(framecat <c.rp | awk -F '\t' '$1 == "COLUMN" { printf "%s ", $4 }')" "id email city " \
    "the TABLE frame has the columns named"
is "$(framecat <c.rp | awk -F '\t' '$1 == "OBJECT" && $2 == "table" { print $5 }')" \
    'CREATE TABLE `customer` (\n  `id` int(11) NOT NULL,\n  `email` varchar(80) NOT NULL,\n  `city` varchar(30) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,\n  PRIMARY KEY (`id`),\n  UNIQUE KEY `uk_email` (`email`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci' \
    "the CREATE TABLE has them and their keys, not the others'"
sql -e "DROP DATABASE IF EXISTS ${db}_c"
rowmap --rename-db $db=${db}_c <c.rp | sqlexec $A 2>err
is $? 0 "the stream loads"
q="SELECT MD5(GROUP_CONCAT(CONCAT_WS('|', id, email, HEX(city)) ORDER BY id)) FROM"
is "$(sql -e "$q ${db}_c.customer")" "$(sql -e "$q $db.customer")" "with the very values of those columns"

dbsnap $A $db customer --columns customer:id,emial >/dev/null 2>err
is $? 1 "--columns with an unknown column exits 1"
is "$(cat err)" "dbsnap: --columns customer:id,emial: $db.customer has no column emial" "and names it"
dbsnap $A $db customer --columns nosuch:id >/dev/null 2>err
is $? 1 "--columns of a table not dumped exits 1"
is "$(cat err)" "dbsnap: --columns nosuch:id: no such table is dumped" "and says so"
dbsnap $A $db customer --columns customer:id,name >out.rp 2>err
is $? 0 "leaving out a column of a single-column unique key drops the key"
sql -e "ALTER TABLE $db.customer ADD UNIQUE KEY uk_name_city (name, city)"
dbsnap $A $db customer --columns customer:id,name >out.rp 2>err
is $? 1 "leaving out part of a unique key exits 1"
is "$(cat err)" "dbsnap: --columns customer:id,name: $db.customer: column city is left out, but unique key \`uk_name_city\` would no longer be unique without it" \
    "and names the key"
like "$(framecat <out.rp 2>&1 >/dev/null)" "^framecat: aborted by the producer: dbsnap: --columns customer:id,name: " \
    "and writes nothing but the abort of its stream, with the reason"
sql -e "ALTER TABLE $db.customer DROP KEY uk_name_city"
dbsnap $A $db --columns orders:id,total >/dev/null 2>err
is $? 1 "leaving out a foreign key's column exits 1"
like "$(cat err)" "foreign key \`fk_order_customer\` needs it" "and names the constraint"

# --select: the expression's value, in the column's character set.
dbsnap $A $db customer --select "customer.email=CONCAT('c', id, '@example.invalid')" \
    --select "customer.city=_utf8mb4'Zürich'" >s.rp
is $? 0 "--select"
is "$(framecat -t <s.rp | grep -ac '@example.com')" 0 "no stored email leaves the server"
sql -e "DROP DATABASE IF EXISTS ${db}_s"
rowmap --rename-db $db=${db}_s <s.rp | sqlexec $A 2>err
is $? 0 "the stream loads"
is "$(sql -e "SELECT COUNT(*) FROM ${db}_s.customer WHERE email = CONCAT('c', id, '@example.invalid')
    AND HEX(city) = '5AFC72696368'")" 500 "every row has the expression's value, latin1 in the latin1 column"
q="SELECT MD5(GROUP_CONCAT(CONCAT_WS('|', id, name, phone) ORDER BY id)) FROM"
is "$(sql -e "$q ${db}_s.customer")" "$(sql -e "$q $db.customer")" "the other columns as stored"
dbsnap $A $db customer --select "customer.id=id+1" >/dev/null 2>err
is $? 1 "--select of a key column exits 1"
dbsnap $A $db customer --select "customer.mail=1" >/dev/null 2>err
is $? 1 "--select of an unknown column exits 1"
is "$(cat err)" "dbsnap: --select customer.mail=1: $db.customer has no column mail" "and names it"
dbsnap $A $db customer --select "customer=1" </dev/null >/dev/null 2>err
is $? 2 "--select without table.column exits 2"

# sakila: a copy of customer's id and email, emails computed on the server.
if have_sample sakila && load_sample sakila t1092_sak; then
	sql -e "DROP DATABASE IF EXISTS t1092_sak_c"
	dbsnap $A t1092_sak customer --columns customer:customer_id,store_id,address_id,email \
	    >/dev/null 2>err
	is $? 1 "sakila: leaving out a column a trigger sets exits 1"
	is "$(cat err)" "dbsnap: --columns: t1092_sak.customer_create_date: trigger uses column create_date of customer, which is left out" \
	    "sakila: and names the trigger"
	dbsnap $A t1092_sak customer --columns customer:customer_id,store_id,address_id,email,create_date \
	    --select "customer.email=CONCAT(LOWER(first_name), '@example.invalid')" |
	    rowmap --rename-db t1092_sak=t1092_sak_c | sqlexec $A 2>err
	is $? 0 "sakila: --columns and --select load"
	is "$(sql -e "SELECT GROUP_CONCAT(column_name ORDER BY ordinal_position) FROM
	    information_schema.columns WHERE table_schema = 't1092_sak_c'")" \
	    "customer_id,store_id,email,address_id,create_date" "sakila: the copy has the five columns, in the table's order"
	is "$(sql -e "SELECT COUNT(*) FROM t1092_sak_c.customer c JOIN t1092_sak.customer s
	    USING (customer_id) WHERE c.email = CONCAT(LOWER(s.first_name), '@example.invalid')
	    AND c.store_id = s.store_id")" 599 "sakila: every row, with the computed email"
	is "$(sql -e "SELECT COUNT(*) FROM information_schema.statistics WHERE
	    table_schema = 't1092_sak_c' AND index_name IN ('PRIMARY', 'idx_fk_store_id', 'idx_fk_address_id')")" 3 \
	    "sakila: the keys of the columns read are kept"
	sql -e "DROP DATABASE t1092_sak; DROP DATABASE t1092_sak_c"
else
	sample_skip sakila 6
fi

sql -e "DROP DATABASE $db; DROP DATABASE ${db}_c; DROP DATABASE ${db}_s"
done_testing
