#!/bin/sh
# sakila round trip through dbsnap | rows2sql | mariadb: same rows
# (CHECKSUM TABLE, HEX of every column), same table DDL, and the same
# views, triggers, procedures and functions (SHOW CREATE output, bodies,
# sql_mode and character set context, trigger order).
. "$(dirname "$0")/../lib.sh"
need_server
# information_schema queries can fail while other tests run DDL
# (ER_NEED_REPREPARE): retry them a few times.
isql() {
	_n=0
	until _out=$(sql --raw "$@"); do
		_n=$((_n + 1))
		[ $_n -lt 5 ] || return 1
		sleep 1
	done
	printf '%s\n' "$_out"
}
SAK=$RP_SHARED/data/sakila
[ -r "$SAK/sakila-schema.sql" ] || skip_all "no sakila in $SAK"

SRC=t2101_src DST=t2101_dst
sql -e "DROP DATABASE IF EXISTS $SRC; DROP DATABASE IF EXISTS $DST"
sed -E "s/(SCHEMA( IF EXISTS)?|USE) sakila;/\1 $SRC;/; s/sakila\./$SRC./g" \
    "$SAK/sakila-schema.sql" | sql || exit 1
sed -E "s/^USE sakila;/USE $SRC;/" "$SAK/sakila-data.sql" | sql || exit 1

sums() {
	isql -e "SELECT CONCAT('CHECKSUM TABLE \`',
	    REPLACE(table_name, '\`', '\`\`'), '\` EXTENDED;') FROM
	    information_schema.tables WHERE table_schema = '$1' AND table_type
	    = 'BASE TABLE' ORDER BY table_name" | sql --raw "$1" |
	    sed "s/^$1\\.//"
}
hexdump() {
	isql -e "SELECT CONCAT('SELECT ', QUOTE(t.table_name),
	    ', CONCAT_WS(''|'', ', GROUP_CONCAT(CONCAT('IFNULL(HEX(\`',
	    REPLACE(c.column_name, '\`', '\`\`'), '\`),''N'')')
	    ORDER BY c.ordinal_position), ') AS r FROM \`',
	    REPLACE(t.table_name, '\`', '\`\`'), '\` ORDER BY r;')
	    FROM information_schema.tables t JOIN information_schema.columns c
	    USING (table_schema, table_name) WHERE t.table_schema = '$1'
	    AND t.table_type = 'BASE TABLE'
	    GROUP BY t.table_name ORDER BY t.table_name" | sql --raw "$1"
}
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

objects $SRC >src.obj
sums $SRC >src.sum
hexdump $SRC >src.hex
is "$(grep -c 'CREATE ALGORITHM' src.obj)" 7 "source has 7 views"
is "$(grep -c 'TRIGGER' src.obj)" 6 "source has 6 triggers"
is "$(grep -c -E 'CREATE DEFINER=[^ ]+ (PROCEDURE|FUNCTION)' src.obj)" 6 "source has 6 routines"

dbsnap $(CONN) -R -E $SRC >s.rp; is $? 0 "dbsnap"
rows2sql --rename-db $SRC=$DST s.rp >dump.sql; is $? 0 "rows2sql"
r2s-check <dump.sql >/dev/null; is $? 0 "trailer verifies"
sql <dump.sql; is $? 0 "mariadb client loads it"
is_file "$(sums $DST >dst.sum; echo dst.sum)" src.sum "same CHECKSUM TABLE"
is_file "$(hexdump $DST >dst.hex; echo dst.hex)" src.hex "same HEX of every column"
is_file "$(objects $DST >dst.obj; echo dst.obj)" src.obj "same tables, views, routines, triggers"
is "$(sql $DST -e "CALL film_in_stock(1, 1, @n); SELECT @n" | tail -1)" 4 "a restored procedure runs"

# Without definers the objects belong to the loading user and still load.
rows2sql --skip-definer --rename-db $SRC=$DST s.rp >nodef.sql
is "$(grep -c 'DEFINER=`' nodef.sql)" 0 "--skip-definer drops every definer"
sql <nodef.sql; is $? 0 "and the text loads (over the copy)"
is_file "$(sums $DST >dst2.sum; echo dst2.sum)" src.sum "same rows again"

sql -e "DROP DATABASE $SRC; DROP DATABASE $DST"
done_testing
