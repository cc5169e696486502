#!/bin/sh
# A failed restore names the way out (issue 25, newuser findings 7b, 7c):
# - a mysqldump file made without --databases has no USE: restored with
#   no database named, it stopped at "ERROR 1046 (3D000): No database
#   selected" and a resume point that only works with a database named;
#   the error line now says so, and the resume with DB works;
# - --checkpoint DB.TBL that holds an unfinished run, without --resume:
#   the message gives the statement that deletes the row.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
src=t6092_src dst=t6092_dst ck=t6092_ops

sql -e "DROP DATABASE IF EXISTS $src; CREATE DATABASE $src; USE $src;
    CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO a VALUES (1, 'x'), (2, 'y')" || exit 1
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" $src >nouse.sql || exit 1
! grep -q '^USE ' nouse.sql; ok $? "the dump has no USE"

sqlsplit nouse.sql | sqlexec $C 2>err
is "$?" 1 "restored with no database: exit 1"
like "$(cat err)" "^sqlexec: statement [0-9]+ \(line [0-9]+, table a\): ERROR 1046 \(3D000\): No database selected \(the input has no USE and no database is named: name it, sqlexec \.\.\. DB, to load it or to resume\)$" \
    "the error names the way out, on its line"
point=$(sed -n 's/.*resume with --skip-to \([0-9]*:[0-9a-f]*\).*/\1/p' err)
isnt "$point" "" "and a resume point follows"
fresh_db $dst
sqlsplit nouse.sql | sqlexec $C --skip-to "$point" $dst 2>err
is "$?" 0 "the resume with the database named loads it"
is "$(sql -e "SELECT GROUP_CONCAT(v ORDER BY id) FROM $dst.a")" "x,y" "all of it"
sqlsplit nouse.sql | sqlexec $C $dst 2>err
! grep -q "no USE" err; ok $? "with a database named, no such hint (a duplicate key is another error)"

# --checkpoint: an unfinished run without --resume
sql -e "DROP DATABASE IF EXISTS $ck; CREATE DATABASE $ck"
fresh_db $dst
printf 'CREATE TABLE t (id INT PRIMARY KEY);\nINSERT INTO t VALUES (1);\nINSERT INTO nosuch VALUES (1);\nINSERT INTO t VALUES (2);\n' >ck.sql
sqlsplit ck.sql | sqlexec $C --checkpoint $ck.c $dst 2>err
is "$?" 1 "a run that fails, with --checkpoint: exit 1"
sqlsplit ck.sql | sqlexec $C --checkpoint $ck.c $dst 2>err
is "$?" 1 "the next run without --resume is refused: exit 1"
like "$(cat err)" "^sqlexec: checkpoint $ck\.c: holds an unfinished run \(statements 1-2 committed\): continue it with --resume, or delete its row to start again \(DELETE FROM \`$ck\`\.\`c\` WHERE id = 1\)$" \
    "naming the statement that deletes its row"
stmt=$(sed -n 's/.*(\(DELETE FROM .* WHERE id = 1\))$/\1/p' err)
sql -e "$stmt"
is "$?" 0 "which runs as given"
fresh_db $dst
sql -e "CREATE TABLE $dst.nosuch (id INT)"
sqlsplit ck.sql | sqlexec $C --checkpoint $ck.c $dst 2>err
is "$?" 0 "and then a run starts again"

sql -e "DROP DATABASE $src; DROP DATABASE $dst; DROP DATABASE $ck"
done_testing
