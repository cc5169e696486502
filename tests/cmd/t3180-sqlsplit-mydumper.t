#!/bin/sh
# sqlsplit --mydumper and a real mydumper directory (issue 25): mydumper
# writes triggers, routines and events with BEGIN ... END bodies without
# DELIMITER (its -schema-triggers and -schema-post files), for myloader,
# which ends a statement at a line that ends with ";" (mydumper writes the
# body's own ";\n" as "; \n").  Read as the mysql client reads, such a body
# is cut at its first ";", and README's recipe failed after all rows were
# loaded.  With --mydumper, sqlsplit cuts as myloader does, and the
# directory, cat in myloader's order, restores whole: rows, a trigger, a
# procedure, a function and an event, each with a compound body.
. "$(dirname "$0")/../lib.sh"
need_server
command -v mydumper >/dev/null || skip_all "no mydumper"
C=$(CONN)
db=t3180

fresh_db $db
sql $db <<'X' || exit 1
CREATE TABLE t (id INT PRIMARY KEY, n INT, s VARCHAR(40));
INSERT INTO t VALUES (1, 1, 'a;'), (2, 2, 'b;\nc'), (3, 3, NULL);
CREATE TABLE log (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(40));
DELIMITER //
CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW BEGIN
  SET NEW.n = NEW.n + 1;
  INSERT INTO log (what) VALUES (CONCAT('insert;', NEW.id));
END//
CREATE PROCEDURE p(IN x INT) BEGIN
  INSERT INTO t (id, n, s) VALUES (x, x, 'from p;');
  SELECT COUNT(*) FROM t;
END//
CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC BEGIN
  DECLARE y INT;
  SET y = x * 2;
  RETURN y + 1;
END//
CREATE EVENT ev ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01' DISABLE DO BEGIN
  DELETE FROM log WHERE id < 0;
  UPDATE t SET n = n WHERE id = 0;
END//
DELIMITER ;
X
want_rows=$(sql -e "SELECT id, n, HEX(s) FROM $db.t ORDER BY id")

rm -rf dump
mydumper -S "$RP_SOCK" -u root -B $db -o dump -G -E -R >mydumper.out 2>&1
is $? 0 "(mydumper dumps the database)"
like "$(cat dump/$db.t-schema-triggers.sql)" "FOR EACH ROW BEGIN" \
    "(its trigger file holds a BEGIN ... END body)"
ok $(! grep -qi '^DELIMITER' dump/*.sql; echo $?) "(without DELIMITER)"

# the files in myloader's order, as README's recipe has them
dir() {
	(cd dump && { cat $db-schema-create.sql; echo "USE \`$db\`;"
	    cat $db.*-schema.sql
	    ls $db.*.sql | grep -v -- -schema | xargs cat
	    for f in $db.*-schema-view.sql $db.*-schema-triggers.sql \
		$db-schema-post.sql; do [ ! -e "$f" ] || cat "$f"; done; })
}

# Read as the mysql client reads it: the bodies are cut.
sql -e "DROP DATABASE $db"
dir | sqlsplit | sqlexec $C 2>err
is $? 1 "without --mydumper: the first body is cut, sqlexec fails"
like "$(cat err)" "ERROR 1064 .*\(a BEGIN \.\.\. END body cut at its first ';': the input has no DELIMITER, as mydumper writes .*: split the input with sqlsplit --mydumper, which cuts as myloader does, and restore it from the start\)$" \
    "... and says to split it with --mydumper"
is "$(grep -c 'resume with' err)" 0 "... with no resume line that runs the cut body again"

sql -e "DROP DATABASE $db"
dir | sqlsplit --mydumper --list >list.txt
is $? 0 "sqlsplit --mydumper reads the directory"
is "$(awk -F '\t' '$4 ~ /^create-(routine|trigger|event)$/ { print $4, $7 }' list.txt | sort | tr '\n' ' ')" \
    "create-event ev create-routine f create-routine p create-trigger t " \
    "one statement for each compound object"
dir | sqlsplit --mydumper | sqlexec $C -j 2 2>err
is $? 0 "dir | sqlsplit --mydumper | sqlexec -j 2: exit 0"
is "$(sql -e "SELECT id, n, HEX(s) FROM $db.t ORDER BY id")" "$want_rows" \
    "the same rows (a value with ';' and a newline included)"
is "$(sql $db -e "SELECT f(20)")" 41 "the function runs, its whole body"
sql $db -e "CALL p(10)" >/dev/null
is "$(sql $db -e "SELECT n, s FROM t WHERE id = 10")" "11	from p;" \
    "the procedure runs, and the trigger fires with its whole body"
is "$(sql $db -e "SELECT what FROM log")" "insert;10" \
    "the trigger's second statement ran too"
like "$(sql -e "SELECT EVENT_DEFINITION FROM information_schema.events
    WHERE event_schema = '$db' AND event_name = 'ev'")" \
    "DELETE FROM log WHERE id < 0;.*UPDATE t SET n = n WHERE id = 0;" \
    "the event has both statements of its body"

# a line that ends with ';' ends a statement, whatever it is in; the last
# statement needs no newline
printf "SELECT 'a\nb;\nSELECT 2;\nSELECT 3;" | sqlsplit --mydumper --list |
    cut -f2,8 >l.txt
is "$(tr '\t\n' '  ' <l.txt)" "1 11 3 8 4 8 " "--mydumper: cut at line ends with ';', as myloader"

sql -e "DROP DATABASE $db"
done_testing
