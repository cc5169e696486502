#!/bin/sh
# sakila round trip through dbsnap | rows2sql | mariadb: same rows
# (CHECKSUM TABLE, HEX of every column), same table DDL, and the same
# views, triggers, procedures and functions (SHOW CREATE output, bodies,
# sql_mode and character set context, trigger order).
. "$(dirname "$0")/../lib.sh"
need_server
SRC=t2101_src DST=t2101_dst
sql -e "DROP DATABASE IF EXISTS $DST"
load_sakila $SRC || exit 1

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
db_sums $SRC >src.sum
db_hex $SRC >src.hex
is "$(grep -c 'CREATE ALGORITHM' src.obj)" 7 "source has 7 views"
is "$(grep -c 'TRIGGER' src.obj)" 6 "source has 6 triggers"
is "$(grep -c -E 'CREATE DEFINER=[^ ]+ (PROCEDURE|FUNCTION)' src.obj)" 6 "source has 6 routines"

dbsnap $(CONN) -R -E $SRC >s.rp; is $? 0 "dbsnap"
rows2sql --rename-db $SRC=$DST s.rp >dump.sql; is $? 0 "rows2sql"
r2s-check <dump.sql >/dev/null; is $? 0 "trailer verifies"
sql <dump.sql; is $? 0 "mariadb client loads it"
is_file "$(db_sums $DST >dst.sum; echo dst.sum)" src.sum "same CHECKSUM TABLE"
is_file "$(db_hex $DST >dst.hex; echo dst.hex)" src.hex "same HEX of every column"
is_file "$(objects $DST >dst.obj; echo dst.obj)" src.obj "same tables, views, routines, triggers"
is "$(sql $DST -e "CALL film_in_stock(1, 1, @n); SELECT @n" | tail -1)" 4 "a restored procedure runs"

# Without definers the objects belong to the loading user and still load.
rows2sql --skip-definer --rename-db $SRC=$DST s.rp >nodef.sql
is "$(grep -c 'DEFINER=`' nodef.sql)" 0 "--skip-definer drops every definer"
sql <nodef.sql; is $? 0 "and the text loads (over the copy)"
is_file "$(db_sums $DST >dst2.sum; echo dst2.sum)" src.sum "same rows again"

sql -e "DROP DATABASE $SRC; DROP DATABASE $DST"
done_testing
