#!/bin/sh
# sqlexec DB: a USE in the input that names another database is warned
# about (once), since what follows goes there and not into DB; and
# --rename-db OLD=NEW loads a dump of OLD into NEW: USE, CREATE
# DATABASE and the qualified names (in views' executable comments too),
# for mysqldump's output, rows2sql's, and snapshot streams.
. "$(dirname "$0")/../lib.sh"
need_server
A=t4080_a B=t4080_b
fresh_db $A
fresh_db $B
printf 'USE %s;\nCREATE TABLE t (i int);\nUSE %s;\nCREATE TABLE u (i int);\n' \
    $A $A >dump.sql

sqlsplit dump.sql | sqlexec $(CONN) $B 2>err
is "$?" 0 "USE of another database: exit 0"
is "$(grep -c warning err)" 1 "... one warning"
like "$(grep warning err)" "^sqlexec: warning: statement 1 \(line 1\): USE $A overrides the database argument $B: what follows goes into $A \(to load it into $B, give --rename-db $A=$B\)$" \
    "... naming both databases and the way out"
is "$(sql -e "SELECT table_schema FROM information_schema.tables WHERE table_name = 't' AND table_schema LIKE 't4080%'")" \
    "$A" "... and the table went where USE said, as with the mysql client"

fresh_db $A
sqlsplit dump.sql | sqlexec $(CONN) $A 2>err
is "$(cat err | grep -c warning)" 0 "USE of the database argument: no warning"
fresh_db $A
sqlsplit dump.sql | sqlexec $(CONN) 2>err
is "$(cat err | grep -c warning)" 0 "no database argument: no warning"
# --rename-db on a mysqldump --databases dump with a view, a routine and a
# trigger that name the database.
S=t4150_src N=t4150_new
fresh_db $S
sql -e "DROP DATABASE IF EXISTS $N"
sql $S <<'SQL' || exit 1
CREATE TABLE t (id int PRIMARY KEY, v varchar(20));
INSERT INTO t VALUES (1, 't4150_src.x'), (2, 'b');
CREATE TABLE log (n int);
CREATE VIEW v AS SELECT t4150_src.t.id, t.v FROM t4150_src.t;
CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW INSERT INTO t4150_src.log VALUES (NEW.id);
CREATE FUNCTION f() RETURNS int DETERMINISTIC RETURN (SELECT COUNT(*) FROM t4150_src.t);
SQL
src_objs=$(db_objects $S)
src_rows=$(sql $S -e "SELECT * FROM t ORDER BY id")
mysqldump --no-defaults -uroot -S "$RP_SOCK" --routines --databases $S >dump2.sql
sqlsplit dump2.sql | sqlexec $(CONN) --rename-db $S=$N 2>err
is "$?" 0 "mysqldump --databases | sqlexec --rename-db: exit 0"
like "$(sqlsplit --print dump2.sql | grep -c "^USE .$S.;")" "^[1-9]" "... a dump that says USE $S"
is "$(db_objects $N)" "$src_objs" "... every object in the new database, renamed within"
is "$(sql $N -e "SELECT * FROM t ORDER BY id")" "$src_rows" "... the rows (a string that names the database unchanged)"
is "$(sql $N -e "SELECT f()")" 2 "... the function counts the new database's rows"
sql $N -e "INSERT INTO t VALUES (3, 'c')"
is "$(sql $N -e "SELECT COUNT(*) FROM log") $(sql $S -e "SELECT COUNT(*) FROM log")" \
    "1 0" "... the trigger writes into the new database"
is "$(db_objects $S)" "$src_objs" "... the source database untouched"

# rows2sql's SQL and a snapshot stream, renamed by sqlexec.
dbsnap $(CONN) -R $S >snap.rp
sql -e "DROP DATABASE $N"
rows2sql <snap.rp | sqlsplit | sqlexec $(CONN) --rename-db $S=$N 2>err
is "$?" 0 "rows2sql | sqlsplit | sqlexec --rename-db: exit 0"
is "$(db_objects $N)" "$src_objs" "... the objects"
sql -e "DROP DATABASE $N"
sqlexec $(CONN) --rename-db $S=$N <snap.rp 2>err
is "$?" 0 "a snapshot stream, sqlexec --rename-db: exit 0"
is "$(db_objects $N)" "$src_objs" "... the objects"
is "$(sql $N -e "SELECT * FROM t ORDER BY id")" "$src_rows" "... the rows"

# --rename-db of a database the input never names is an error, as
# rows2sql's: a snapshot stream says so at its first table, before any
# table is created or loaded; SQL text at its end, with exit 1.
sql -e "DROP DATABASE IF EXISTS x_t4150"
sqlexec $(CONN) --rename-db nosuch=x_t4150 <snap.rp 2>err
is "$?" 1 "a snapshot stream, --rename-db nosuch=x: exit 1"
like "$(cat err)" "^sqlexec: --rename-db nosuch: no such database in the stream$" \
    "... naming the option"
is "$(grep -c 'resume with' err)" 0 "... and no resume line"
is "$(sql $S -e "SELECT * FROM t ORDER BY id")" "$src_rows" \
    "... nothing loaded into the source's name"
sql -e "DROP DATABASE $N"
rows2sql <snap.rp | sqlsplit | sqlexec $(CONN) --rename-db nosuch=x_t4150 \
    --rename-db $S=$N 2>err
is "$?" 1 "SQL text, --rename-db nosuch=x: exit 1"
like "$(cat err)" "^sqlexec: --rename-db nosuch: no such database in the stream$" \
    "... naming the option"
sql -e "DROP DATABASE IF EXISTS $N"

sqlexec --rename-db nonsense </dev/null 2>err
is "$?" 2 "--rename-db without =: exit 2"
like "$(cat err)" "^sqlexec: --rename-db nonsense: expected OLD=NEW" "... saying why"
done_testing
