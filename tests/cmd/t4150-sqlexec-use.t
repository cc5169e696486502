#!/bin/sh
# sqlexec DB: a USE in the input that names another database is warned
# about (once), since what follows goes there and not into DB.
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
done_testing
