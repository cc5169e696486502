#!/bin/sh
# rows2sql and schema objects beyond tables: routines created under
# ANSI_QUOTES,NO_BACKSLASH_ESCAPES (with comments and ;; in the body), an
# event with a start time in the server's zone, ordered triggers, a view
# with non-ASCII literals, a sequence's position, a latin1 database.
. "$(dirname "$0")/../lib.sh"
need_server

SRC=t2103_src DST=t2103_dst
sql -e "DROP DATABASE IF EXISTS $SRC; DROP DATABASE IF EXISTS $DST;
    CREATE DATABASE $SRC CHARACTER SET latin1"
sql --comments $SRC <<'SQL' || exit 1
SET NAMES utf8mb4;
CREATE SEQUENCE s1 START WITH 100 INCREMENT BY 5;
DO NEXTVAL(s1); DO NEXTVAL(s1);
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)) CHARSET utf8mb4;
SET sql_mode='ANSI_QUOTES,NO_BACKSLASH_ESCAPES';
DELIMITER //
CREATE PROCEDURE "p q"() COMMENT 'it''s'
BEGIN
  -- comment with 'quote
  SELECT 'a\b', "id" FROM t; /* block ;; */
END//
CREATE EVENT ev ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00' DISABLE
  DO BEGIN INSERT INTO t VALUES (1, 'é'); END//
CREATE FUNCTION f1(x INT) RETURNS VARCHAR(20) CHARSET latin1 DETERMINISTIC
  RETURN CONCAT('é', x)//
DELIMITER ;
SET sql_mode=DEFAULT;
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = CONCAT(NEW.v, '€');
CREATE TRIGGER tr2 BEFORE INSERT ON t FOR EACH ROW PRECEDES tr SET NEW.v = UPPER(NEW.v);
CREATE VIEW v1 AS SELECT 'é' AS c, t.* FROM t;
SQL

objects() {
	isql -e "
	    SELECT CONCAT('SHOW CREATE TABLE \`', table_name, '\`;') FROM
	    information_schema.tables WHERE table_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE ', routine_type, ' \`',
	    routine_name, '\`;') FROM information_schema.routines WHERE
	    routine_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE EVENT \`', event_name, '\`;')
	    FROM information_schema.events WHERE event_schema = '$1'
	    UNION ALL SELECT 'SELECT trigger_name, action_order FROM
	    information_schema.triggers WHERE trigger_schema = DATABASE()
	    ORDER BY 1;'
	    UNION ALL SELECT CONCAT('SHOW CREATE TRIGGER \`', trigger_name,
	    '\`;') FROM information_schema.triggers WHERE trigger_schema = '$1'
	    UNION ALL SELECT 'SELECT event_name, starts, time_zone, definer
	    FROM information_schema.events WHERE event_schema = DATABASE();'
	    UNION ALL SELECT 'SHOW CREATE DATABASE \`$1\`;'
	    ORDER BY 1" | sql "$1" | sed "s/$1/DB/g" |
	    awk -F '\t' '/TRIGGER/ && NF == 7 { NF = 6 } { print }' OFS='\t'
}
objects $SRC >src.obj
like "$(cat src.obj)" "comment with 'quote" "source procedure keeps its comment"

dbsnap $(CONN) -R -E $SRC >s.rp; is $? 0 "dbsnap"
rows2sql --rename-db $SRC=$DST s.rp >dump.sql; is $? 0 "rows2sql"
r2s-check <dump.sql >/dev/null; is $? 0 "trailer verifies"
sql --comments <dump.sql; is $? 0 "mariadb --comments loads it"
is_file "$(objects $DST >dst.obj; echo dst.obj)" src.obj "same objects, bodies, sql_mode, charsets, event start, trigger order"
# Like mysqldump: the first value not cached (what a restart would give),
# past 100 and 105, the values handed out.  The source's own NEXTVAL is
# not the measure: a table cache that evicts the sequence (tests beside
# this one open many tables) drops its cached values, and the source then
# jumps to the value not cached too (the loop's runs 12, 14, 16).  Only
# NEXTVAL changes next_not_cached_value, and none ran since the dump.
n=$(sql $DST -e 'SELECT NEXTVAL(s1)')
is "$n" "$(sql $SRC -e 'SELECT next_not_cached_value FROM s1')" "sequence continues at the source's first value not cached"
is "$(sql $SRC -e "SELECT $n > 105")" 1 "past every value handed out"
is "$(sql $DST -e 'SELECT f1(7)')" "é7" "restored function runs"

rows2sql --skip-definer s.rp >nodef.sql
is "$(grep -c 'DEFINER=[`"]' nodef.sql)" 0 "--skip-definer also drops ANSI-quoted definers"

# Objects created under an empty sql_mode keep it: the dump header's
# NO_AUTO_VALUE_ON_ZERO must not carry over (an INSERT of 0 changes meaning).
sql -e "DROP DATABASE IF EXISTS t2103_m; DROP DATABASE IF EXISTS t2103_m2;
    CREATE DATABASE t2103_m"
sql t2103_m -e "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY);
    SET sql_mode=''; CREATE PROCEDURE p() INSERT INTO t VALUES (0);
    CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @x = 1;
    CREATE EVENT ev ON SCHEDULE EVERY 1 DAY DISABLE DO INSERT INTO t VALUES (0)"
dbsnap $(CONN) -R -E t2103_m | rows2sql --rename-db t2103_m=t2103_m2 | sql
is "$(sql -e "SELECT CONCAT('[', sql_mode, ']') FROM information_schema.routines
    WHERE routine_schema = 't2103_m2' UNION ALL SELECT CONCAT('[', sql_mode, ']')
    FROM information_schema.triggers WHERE trigger_schema = 't2103_m2'
    UNION ALL SELECT CONCAT('[', sql_mode, ']') FROM information_schema.events
    WHERE event_schema = 't2103_m2'" | paste -sd' ')" "[] [] []" \
    "empty sql_mode of a procedure, trigger and event is kept"
is "$(sql t2103_m2 -e 'CALL p(); CALL p(); SELECT GROUP_CONCAT(id) FROM t')" "1,2" \
    "and the restored procedure behaves as the source's"

sql -e "DROP DATABASE $SRC; DROP DATABASE $DST; DROP DATABASE t2103_m;
    DROP DATABASE t2103_m2"
done_testing
