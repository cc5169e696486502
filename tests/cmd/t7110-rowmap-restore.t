#!/bin/bash
# rowmap on real snapshots, restored: a masked copy of sakila and of the
# shop generated here has the same row counts, every email changed and
# the unique keys intact; a dropped column is gone from its table and its
# indexes; --rename t=db2.t moves a table; the same key gives the same
# pseudonyms run after run.
. "$(dirname "$0")/../lib.sh"
need_server
set -o pipefail
A=$(CONN)
printf 'a key for the tests, 32 bytes..\n' >key

load_shop t7110_shop || exit 1
have_sakila=0
if have_sample sakila; then
	load_sample sakila t7110_sak && have_sakila=1
fi

# uniq_keys DB: every PRIMARY and UNIQUE key with its columns.
uniq_keys() {
	sql -e "SELECT table_name, index_name, GROUP_CONCAT(column_name ORDER BY
	    seq_in_index) FROM information_schema.statistics WHERE
	    table_schema = '$1' AND non_unique = 0 GROUP BY 1, 2 ORDER BY 1, 2"
}
counts() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema = '$1' AND table_type = 'BASE TABLE' ORDER BY 1"); do
		echo "$t $(sql -e "SELECT COUNT(*) FROM \`$1\`.\`$t\`")"
	done
}
restore() {	# restore DST: the stream on stdin into a fresh DST
	sql -e "DROP DATABASE IF EXISTS $1" &&
	rows2sql | sql
}

# mask SRC DST TABLE...: hash the email of each TABLE, restore, compare.
mask() {
	src=$1 dst=$2; shift 2
	args=
	for t in "$@"; do args="$args --hash $t.email:key"; done
	dbsnap $A -R -E $src | rowmap $args --rename-db $src=$dst | restore $dst
	is $? 0 "$src: dbsnap | rowmap --hash | rows2sql | mariadb"
	is_file "$(counts $dst >c2; echo c2)" "$(counts $src >c1; echo c1)" "$src: the same row counts"
	is_file "$(uniq_keys $dst >u2; echo u2)" "$(uniq_keys $src >u1; echo u1)" "$src: the same unique keys"
	for t in "$@"; do
		is "$(sql -e "SELECT COUNT(*) FROM $src.$t s JOIN $dst.$t d
		    USING ($(sql -e "SELECT column_name FROM information_schema.statistics
		    WHERE table_schema = '$src' AND table_name = '$t' AND
		    index_name = 'PRIMARY'")) WHERE d.email <=> s.email")" 0 \
		    "$src.$t: every email changed"
		is "$(sql -e "SELECT COUNT(DISTINCT email) FROM $dst.$t")" \
		    "$(sql -e "SELECT COUNT(DISTINCT email) FROM $src.$t")" \
		    "$src.$t: as many distinct emails"
	done
}

mask t7110_shop t7110_shop_m customer
is "$(sql -e "SELECT COUNT(*) FROM t7110_shop_m.orders o JOIN
    t7110_shop_m.customer c ON c.id = o.customer_id")" 2000 "shop: the orders still join their customers"
if [ $have_sakila = 1 ]; then
	mask t7110_sak t7110_sak_m customer staff
	is "$(sql t7110_sak_m -e "CALL film_in_stock(1, 1, @n); SELECT @n" | tail -1)" 4 \
	    "sakila: the masked copy's procedures run"
else
	sample_skip sakila 8
fi

# The same key, the same pseudonyms, run after run; and they are those of
# HMAC-SHA256 of the value.
dbsnap $A t7110_shop customer | rowmap --hash customer.email:key |
    rowmap --rename-db t7110_shop=t7110_shop_2 | restore t7110_shop_2
is "$(sql -e "SELECT COUNT(*) FROM t7110_shop_m.customer a JOIN t7110_shop_2.customer b
    USING (id) WHERE a.email = b.email")" 500 "a second run gives the same pseudonyms"
is "$(sql -e "SELECT email FROM t7110_shop_2.customer WHERE id = 1")" \
    "$(printf 'user1@example.com' | openssl dgst -sha256 -hmac "$(head -1 key)" -hex | sed 's/.*= //' | cut -c1-32)" \
    "the pseudonym is HMAC-SHA256 (openssl agrees)"

# --drop: the column leaves the table and its indexes.
for db in t7110_shop t7110_sak; do
	if [ $db = t7110_sak ] && [ $have_sakila = 0 ]; then
		sample_skip sakila 4
		continue
	fi
	case $db in
	t7110_shop) t=customer c=city; sql $db -e "ALTER TABLE customer ADD KEY k_city_name (city, name), ADD KEY k_city (city)" ;;
	*) t=staff c=username; sql $db -e "ALTER TABLE staff ADD KEY k_user (username), ADD KEY k_user_store (username, store_id)" ;;
	esac
	idx=$(sql -e "SELECT COUNT(*) FROM information_schema.statistics WHERE
	    table_schema = '$db' AND table_name = '$t' AND column_name = '$c'")
	dbsnap $A -R -E $db | rowmap --drop $t.$c --rename-db $db=${db}_d | restore ${db}_d
	is $? 0 "$db: --drop $t.$c restores"
	is "$(sql -e "SELECT COUNT(*) FROM information_schema.columns WHERE
	    table_schema = '${db}_d' AND table_name = '$t' AND column_name = '$c'")" 0 \
	    "$db: the column is gone"
	is "$(sql -e "SELECT COUNT(*) FROM information_schema.statistics WHERE
	    table_schema = '${db}_d' AND table_name = '$t' AND column_name = '$c'") $idx" "0 $idx" \
	    "$db: and from its $idx index entries"
	is "$(sql -e "CHECKSUM TABLE ${db}_d.$t" | cut -f2)" \
	    "$(sql ${db}_d -e "CREATE TEMPORARY TABLE x SELECT * FROM $db.$t; ALTER TABLE x DROP COLUMN $c;
	    ALTER TABLE x ENGINE=InnoDB; CHECKSUM TABLE x" | tail -1 | cut -f2)" \
	    "$db: the other columns are intact"
done

# --rename t=db2.t moves the table into db2 (created), with its rows.
sql -e "DROP DATABASE IF EXISTS t7110_other"
dbsnap $A -R t7110_shop | rowmap --rename bytes=t7110_other.bytes |
    rowmap --rename-db t7110_shop=t7110_shop_r | {
	sql -e "DROP DATABASE IF EXISTS t7110_shop_r"; rows2sql | sql; }
is $? 0 "--rename bytes=t7110_other.bytes restores"
is "$(sql -e "SELECT COUNT(*) FROM t7110_other.bytes") $(sql -e "SELECT COUNT(*)
    FROM information_schema.tables WHERE table_schema = 't7110_shop_r' AND
    table_name = 'bytes'")" "256 0" "the table is in the other database, not in its own"
is "$(sql -e "CHECKSUM TABLE t7110_other.bytes" | cut -f2)" \
    "$(sql -e "CHECKSUM TABLE t7110_shop.bytes" | cut -f2)" "with the same rows"

sql -e "DROP DATABASE t7110_shop; DROP DATABASE t7110_shop_m; DROP DATABASE t7110_shop_2;
    DROP DATABASE t7110_shop_d; DROP DATABASE t7110_shop_r; DROP DATABASE t7110_other;
    DROP DATABASE IF EXISTS t7110_sak; DROP DATABASE IF EXISTS t7110_sak_m;
    DROP DATABASE IF EXISTS t7110_sak_d"
done_testing
