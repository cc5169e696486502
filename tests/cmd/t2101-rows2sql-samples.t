#!/bin/sh
# A sample database (tests/gen-store's, and sakila when $RP_SHARED has it)
# round trip through dbsnap | rows2sql | mariadb: same rows (CHECKSUM
# TABLE, HEX of every column), same table DDL, and the same views,
# triggers, procedures and functions (SHOW CREATE output, bodies, sql_mode
# and character set context, trigger order).
. "$(dirname "$0")/../lib.sh"
need_server

# Every object's definition as SHOW CREATE gives it, the database name
# replaced by DB (trigger creation times left out).
objects() {
	isql -e "
	    SELECT CONCAT('SHOW CREATE TABLE \`', table_name, '\`;') FROM
	    information_schema.tables WHERE table_schema = '$1' AND
	    table_type = 'BASE TABLE'
	    UNION ALL SELECT CONCAT('SHOW CREATE VIEW \`', table_name, '\`;')
	    FROM information_schema.views WHERE table_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE ', routine_type, ' \`',
	    routine_name, '\`;') FROM information_schema.routines WHERE
	    routine_schema = '$1'
	    UNION ALL SELECT CONCAT('SELECT trigger_name, event_object_table,
	    action_timing, event_manipulation, action_order, definer FROM
	    information_schema.triggers WHERE trigger_schema = DATABASE()
	    ORDER BY 1;')
	    UNION ALL SELECT CONCAT('SHOW CREATE TRIGGER \`', trigger_name,
	    '\`;') FROM information_schema.triggers WHERE trigger_schema = '$1'
	    ORDER BY 1" | sql "$1" | sed "s/$1/DB/g" |
	    awk -F '\t' 'NF == 7 { NF = 6 } { print }' OFS='\t'
}

check_sample() {
	s=$1 SRC=t2101_$1 DST=t2101_$1_dst
	sql -e "DROP DATABASE IF EXISTS $DST"
	load_sample $s $SRC
	ok $? "$s: loaded"
	objects $SRC >src.obj
	db_sums $SRC >src.sum
	db_hex $SRC >src.hex
	is "$(grep -c 'CREATE ALGORITHM' src.obj)" "$(icount "views WHERE
	    table_schema = '$SRC'")" "$s: every view listed"
	is "$(grep -c 'TRIGGER' src.obj)" "$(icount "triggers WHERE
	    trigger_schema = '$SRC'")" "$s: every trigger listed"
	is "$(grep -c -E 'CREATE DEFINER=[^ ]+ (PROCEDURE|FUNCTION)' src.obj)" \
	    "$(icount "routines WHERE routine_schema = '$SRC'")" "$s: every routine listed"

	dbsnap $(CONN) -R -E $SRC >s.rp; is $? 0 "$s: dbsnap"
	rows2sql --rename-db $SRC=$DST s.rp >dump.sql; is $? 0 "$s: rows2sql"
	r2s-check <dump.sql >/dev/null; is $? 0 "$s: trailer verifies"
	sql <dump.sql; is $? 0 "$s: mariadb client loads it"
	is_file "$(db_sums $DST >dst.sum; echo dst.sum)" src.sum "$s: same CHECKSUM TABLE"
	is_file "$(db_hex $DST >dst.hex; echo dst.hex)" src.hex "$s: same HEX of every column"
	is_file "$(objects $DST >dst.obj; echo dst.obj)" src.obj "$s: same tables, views, routines, triggers"
	# a procedure that calls a function that reads the rows, on both
	case $s in store) proc=copies_in ;; sakila) proc=film_in_stock ;; esac
	call="CALL $proc(1, 1, @n); SELECT @n"
	is "$(sql $DST -e "$call" | tail -1)" "$(sql $SRC -e "$call" | tail -1)" \
	    "$s: a restored procedure runs ($proc) and finds the same"

	# Without definers the objects belong to the loading user and still load.
	rows2sql --skip-definer --rename-db $SRC=$DST s.rp >nodef.sql
	is "$(grep -c 'DEFINER=`' nodef.sql)" 0 "$s: --skip-definer drops every definer"
	sql <nodef.sql; is $? 0 "$s: and the text loads (over the copy)"
	is_file "$(db_sums $DST >dst2.sum; echo dst2.sum)" src.sum "$s: same rows again"

	sql -e "DROP DATABASE $SRC; DROP DATABASE $DST"
}

on_samples check_sample
done_testing
