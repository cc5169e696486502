#!/bin/sh
# sqlexec: a message names the kind of object a statement is about:
# "statement 4 (line 4, event db.ev)", not "table db.ev", for DROP and
# ALTER (whose frame kind says only drop or alter), for the CREATEs of
# views, routines, events and sequences, with DEFINER, ALGORITHM and SQL
# SECURITY before the keyword and inside mysqldump's executable comments.
# CREATE TRIGGER and INDEX name the table they are on: "table".
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
DB=t4180_db
fresh_db $DB

# Each statement after the setup fails, so that -f reports each one.
# (No DROP SEQUENCE of a missing one: in one run of the whole suite it
# did not fail, once; not seen again.  CREATE SEQUENCE shows the kind.)
cat >in.sql <<EOF
USE $DB;
CREATE TABLE t (id INT);
CREATE VIEW v AS SELECT 1 AS one;
CREATE FUNCTION f() RETURNS INT DETERMINISTIC RETURN 1;
CREATE PROCEDURE p() SELECT 1;
CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;
CREATE SEQUENCE s;
DROP EVENT $DB.nosuch;
DROP PROCEDURE $DB.nosuch;
DROP FUNCTION $DB.nosuch;
DROP TRIGGER $DB.nosuch;
DROP VIEW $DB.nosuch;
DO 0;
DROP TABLE $DB.nosuch;
ALTER EVENT $DB.nosuch COMMENT 'x';
ALTER DEFINER=\`root\`@\`localhost\` SQL SECURITY INVOKER VIEW $DB.nosuch AS SELECT 1;
CREATE DEFINER=\`root\`@\`localhost\` EVENT $DB.e ON SCHEDULE EVERY 1 DAY DO SELECT 1;
CREATE OR REPLACE ALGORITHM=MERGE DEFINER=CURRENT_USER SQL SECURITY DEFINER VIEW $DB.v2 AS SELECT nosuch;
/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */ /*!50001 VIEW \`$DB\`.\`v3\` AS SELECT nosuch */;
CREATE DEFINER=\`root\`@\`localhost\` FUNCTION $DB.f() RETURNS INT DETERMINISTIC RETURN 1;
CREATE PROCEDURE $DB.p() SELECT 1;
CREATE SEQUENCE $DB.s;
CREATE TRIGGER $DB.tr BEFORE INSERT ON $DB.nosuch FOR EACH ROW SET @x = 1;
CREATE TABLE $DB.t (id INT);
EOF
sqlsplit <in.sql >in.rp
sqlexec $C -f <in.rp 2>err
is $? 1 "failed statements with -f: exit 1"
sed -n 's/^sqlexec: \(statement [0-9]* (line [0-9]*[^)]*)\): ERROR .*/\1/p' err >got
cat >want <<EOF
statement 8 (line 8, event $DB.nosuch)
statement 9 (line 9, procedure $DB.nosuch)
statement 10 (line 10, function $DB.nosuch)
statement 11 (line 11, trigger $DB.nosuch)
statement 12 (line 12, view $DB.nosuch)
statement 14 (line 14, table $DB.nosuch)
statement 15 (line 15, event $DB.nosuch)
statement 16 (line 16, view $DB.nosuch)
statement 17 (line 17, event $DB.e)
statement 18 (line 18, view $DB.v2)
statement 19 (line 19, view $DB.v3)
statement 20 (line 20, function $DB.f)
statement 21 (line 21, procedure $DB.p)
statement 22 (line 22, sequence $DB.s)
statement 23 (line 23, table $DB.nosuch)
statement 24 (line 24, table $DB.t)
EOF
is_file got want "each error names the kind of its object"
cmp -s got want || sed 's/^/t4180: /' err >&2	# kept by tests/run

# The plan of -n names them the same way.
sqlexec -n <in.rp >plan
like "$(grep '^statement 8 ' plan)" "^statement 8 \\(line 8, event $DB\\.nosuch\\): drop: barrier$" \
    "-n: DROP EVENT is about an event"
like "$(grep '^statement 20 ' plan)" "^statement 20 \\(line 20, function $DB\\.f\\): create-routine: barrier$" \
    "-n: CREATE FUNCTION is about a function"
like "$(grep '^statement 2 ' plan)" "^statement 2 \\(line 2, table $DB\\.t\\): create-table: barrier$" \
    "-n: CREATE TABLE is about a table"

sql -e "DROP DATABASE $DB"
done_testing
