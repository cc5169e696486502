#!/bin/bash
# The transform recipes of rowpipe(7), as a user would type them, from the
# server of the run to a second throwaway server, on the shop the server
# generates (tests/data/shop.sql).
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
set -o pipefail
SRC_SOCK=$RP_SOCK
A="--no-defaults -uroot -S $SRC_SOCK"

server_own DST
B="--no-defaults -uroot -S $DST_SOCK"
dsql() { mariadb $B --default-character-set=utf8mb4 --batch --skip-column-names "$@"; }

shop=t7200_shop
load_shop $shop || exit 1
# same_but COL...: the other server's customer rows equal the source's,
# the columns named left out of the comparison.
same_but() {
	cols=$(sql -e "SELECT GROUP_CONCAT(column_name ORDER BY ordinal_position)
	    FROM information_schema.columns WHERE table_schema = '$shop' AND
	    table_name = 'customer' AND column_name NOT IN ('$(echo "$*" |
	    sed "s/ /','/g")')")
	q="SELECT MD5(GROUP_CONCAT(CONCAT_WS('|', $cols) ORDER BY id)) FROM $shop.customer"
	[ "$(sql -e "$q")" = "$(dsql -e "$q")" ]
}
orders_join() {
	dsql -e "SELECT COUNT(*) FROM $shop.orders o JOIN $shop.customer c ON c.id = o.customer_id"
}

# Mask emails for a staging copy.
openssl rand -hex 32 > mask.key
dbsnap $A $shop | rowmap --hash customer.email:mask.key |
    sqlexec $B 2>err
is $? 0 "mask emails: dbsnap | rowmap --hash | sqlexec"
is "$(dsql -e "SELECT COUNT(*) FROM $shop.customer WHERE email LIKE '%@example.com'")" 0 \
    "mask emails: no email is left"
is "$(dsql -e "SELECT COUNT(DISTINCT email) FROM $shop.customer")" 500 "mask emails: all distinct, the unique key held"
same_but email; is $? 0 "mask emails: every other column as it was"
is "$(orders_join)" 2000 "mask emails: the orders join their customers"

# Drop a column.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop | rowmap --drop customer.phone |
    rows2sql | sqlsplit | sqlexec $B 2>err
is $? 0 "drop a column: dbsnap | rowmap --drop | ..."
is "$(dsql -e "SELECT COUNT(*) FROM information_schema.columns WHERE
    table_schema = '$shop' AND column_name = 'phone'") $(dsql -e "SELECT
    COUNT(*) FROM information_schema.statistics WHERE table_schema = '$shop'
    AND index_name = 'k_phone'")" "0 0" "drop a column: the column and its index are gone"
same_but phone; is $? 0 "drop a column: the rest as it was"

# Copy some columns to another server; compute one on the source.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop customer --columns customer:id,email,city |
    sqlexec $B 2>err
is $? 0 "copy some columns: dbsnap --columns | sqlexec"
is "$(dsql -e "SELECT GROUP_CONCAT(column_name ORDER BY ordinal_position) FROM
    information_schema.columns WHERE table_schema = '$shop'")" "id,email,city" \
    "copy some columns: the copy has them only"
q="SELECT MD5(GROUP_CONCAT(CONCAT_WS('|', id, email, HEX(city)) ORDER BY id)) FROM $shop.customer"
is "$(dsql -e "$q")" "$(sql -e "$q")" "copy some columns: with their values"
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop customer --columns customer:id,email,city \
    --select "customer.email=CONCAT('c', id, '@example.invalid')" |
    sqlexec $B 2>err
is $? 0 "compute a column on the source: dbsnap --select | sqlexec"
is "$(dsql -e "SELECT COUNT(*) FROM $shop.customer WHERE email = CONCAT('c', id, '@example.invalid')")" \
    500 "compute a column: every email is the expression's"

# Pseudonymize, then restore.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop | rowmap --key-file mask.key --hash customer.email \
    --hash customer.name --null customer.phone | lz > masked.rp.lz4
is $? 0 "pseudonymize: the masked snapshot is kept as a file"
lz -d < masked.rp.lz4 | sqlexec $B 2>err
is $? 0 "pseudonymize, then restore it"
is "$(dsql -e "SELECT COUNT(*), COUNT(phone), COUNT(DISTINCT email),
    SUM(name LIKE 'Zo%') FROM $shop.customer")" "500	0	500	0" \
    "restore: names and emails pseudonyms, phones NULL"
dbsnap $A $shop customer | rowmap --key-file mask.key --hash customer.email |
    rows2sql | grep -o "'[0-9a-f]\{32\}'" | sort >again
dsql -e "SELECT CONCAT('''', email, '''') FROM $shop.customer" | sort >restored
is_file again restored "the next snapshot gets the same pseudonyms"
is "$(orders_join)" 2000 "restore: the orders join their customers"

# Transform rows with jq.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop | rows2json |
    jq -c 'if .table == "customer"
        then .row.email = "c" + .row.id + "@example.invalid"
        else . end' |
    json2rows | sqlexec $B 2>err
is $? 0 "jq: dbsnap | rows2json | jq | json2rows | sqlexec"
is "$(dsql -e "SELECT COUNT(*) FROM $shop.customer WHERE email = CONCAT('c', id, '@example.invalid')")" \
    500 "jq: every email rewritten"
same_but email; is $? 0 "jq: every other column as it was"

# Transform rows with awk.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop customer | rows2json |
    awk '/^\{"type":"row","db":"'$shop'","table":"customer",/ {
        sub(/"phone":"[^"]*"/, "\"phone\":\"000\"") } { print }' |
    json2rows | sqlexec $B 2>err
is $? 0 "awk: dbsnap | rows2json | awk | json2rows | ..."
is "$(dsql -e "SELECT COUNT(*) FROM $shop.customer WHERE phone = '000'")" 500 "awk: every phone rewritten"
same_but phone; is $? 0 "awk: every other column as it was"

# A filter that drops the non-row lines is refused, and nothing loads.
dsql -e "DROP DATABASE $shop"
dbsnap $A $shop | rows2json | jq -c 'select(.table == "customer")' |
    json2rows 2>err | sqlexec $B 2>/dev/null
isnt $? 0 "jq: a filter that drops the header fails the pipeline"
like "$(cat err)" "json2rows: line 1: not rows2json output" "and json2rows says why"
is "$(dsql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$shop'")" 0 \
    "nothing was loaded"

sql -e "DROP DATABASE $shop"
done_testing
