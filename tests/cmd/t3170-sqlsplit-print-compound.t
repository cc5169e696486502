#!/bin/sh
# sqlsplit --print writes text the mysql client reads back statement for
# statement: a statement the client would cut inside (a procedure,
# function, trigger or event with BEGIN ... END, an anonymous compound
# block) goes between DELIMITER lines, as mysqldump writes it, with a
# delimiter its text does not hold; a statement that ends in a "--"
# comment gets a newline before its ";".  sqlsplit --print | mysql
# recreates what the dump holds.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
client() { mariadb --no-defaults --default-character-set=utf8mb4 -uroot -S "$RP_SOCK" "$@"; }

fresh_db t3170_src
client t3170_src <<'EOF' || exit 1
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40));
INSERT INTO t VALUES (1, 'a;b'), (2, ';;'), (3, '$$ // END;');
DELIMITER //
CREATE PROCEDURE p(IN n INT)
BEGIN
  DECLARE i INT DEFAULT 0; -- a comment; with a semicolon
  WHILE i < n DO SET i = i + 1; END WHILE;
  SELECT i, ';;', '$$', '//' AS `a;b`; /* and ; here */
END//
CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC
BEGIN
  DECLARE y INT; SET y = x * 2; RETURN y;
END//
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW
BEGIN
  IF NEW.v IS NULL THEN SET NEW.v = 'null;'; END IF;
END//
CREATE EVENT ev ON SCHEDULE EVERY 1 DAY DISABLE DO
BEGIN
  DELETE FROM t WHERE id < 0; UPDATE t SET v = v WHERE 0;
END//
DELIMITER ;
EOF
want=$(db_defs t3170_src)

# a mariadb-dump file (triggers in executable comments)
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers --events \
    t3170_src >dump.sql
sqlsplit --print dump.sql >dump.print
is $? 0 "sqlsplit --print of a mariadb-dump file"
is "$(grep -c '^DELIMITER ' dump.print)" 8 \
    "the four compound statements between DELIMITER lines"
fresh_db t3170_dst
client t3170_dst <dump.print
is $? 0 "sqlsplit --print | mysql loads it"
is "$(db_defs t3170_dst)" "$want" \
    "the procedure, function, trigger and event are recreated"
is "$(db_hex t3170_dst)" "$(db_hex t3170_src)" "and the rows"
is "$(client -N t3170_dst -e 'CALL p(3); SELECT f(21)' | tr '\t\n' ' |')" \
    '3 ;; $$ //|42|' "and they run"

# sqlsplit(1)'s example: the routines alone
fresh_db t3170_dst
sqlsplit --print --kind create-routine dump.sql | client t3170_dst
is $? 0 "sqlsplit --print --kind create-routine | mysql"
is "$(client -N t3170_dst -e 'SELECT f(4)')" 8 "the function is there"

# rows2sql's text, into another database
dbsnap $C --routines --events t3170_src 2>/dev/null |
    rows2sql --rename-db t3170_src=t3170_dst >r2s.sql
sqlsplit --print r2s.sql >r2s.print
is $? 0 "sqlsplit --print of rows2sql's text"
fresh_db t3170_dst
client t3170_dst <r2s.print
is $? 0 "sqlsplit --print | mysql loads it"
is "$(db_defs t3170_dst)" "$want" "the same procedure, function, trigger and event"
is "$(db_hex t3170_dst)" "$(db_hex t3170_src)" "and rows"

# a delimiter the text does not hold, a statement ending in a comment
cat >tricky.sql <<'EOF'
DELIMITER $$
BEGIN NOT ATOMIC
  SELECT ';;', '$$$', 1; SELECT 2;
END$$
DELIMITER ;
SELECT 'x;' AS a -- the end; of it
;
SELECT 3 # a hash comment
;
EOF
printf '%s' 'SELECT 5 -- and none at the end' >>tricky.sql
client -N <tricky.sql >client.out
is $? 0 "(the client reads the script)"
sqlsplit --print tricky.sql >tricky.print
is $? 0 "sqlsplit --print of it"
like "$(head -1 tricky.print)" "^DELIMITER //$" \
    "a delimiter that the body holds neither of"
client -N <tricky.print >print.out
is $? 0 "the client reads the printed text"
is_file print.out client.out "with the same results"
is "$(sqlsplit --print tricky.sql | sqlsplit --print)" "$(cat tricky.print)" \
    "and sqlsplit reads it back the same"
sqlsplit --print -0 tricky.sql | tr '\0' '|' | head -c 20 >out
is "$(cat out)" "BEGIN NOT ATOMIC
  S" "-0: the statements as they are, no DELIMITER"

# the backslash rules of the sql_mode in effect
cat >nbe.sql <<'EOF'
SET sql_mode = 'NO_BACKSLASH_ESCAPES';
SELECT 'a\', ';b' AS x;
SET sql_mode = DEFAULT;
SELECT 'c\';', 'd' AS y;
EOF
client -N <nbe.sql >client.out
sqlsplit --print nbe.sql >nbe.print
is "$(grep -c DELIMITER nbe.print)" 0 \
    "NO_BACKSLASH_ESCAPES followed: no DELIMITER for semicolons in strings"
client -N <nbe.print >print.out
is_file print.out client.out "and the client reads the same statements"

# a plain statement with semicolons only in strings: no DELIMITER
printf "INSERT INTO t VALUES (9, 'a;b;c');\n" | sqlsplit --print >out
is "$(cat out)" "INSERT INTO t VALUES (9, 'a;b;c');" \
    "semicolons in strings: no DELIMITER lines"

sql -e "DROP DATABASE t3170_src; DROP DATABASE IF EXISTS t3170_dst"
done_testing
