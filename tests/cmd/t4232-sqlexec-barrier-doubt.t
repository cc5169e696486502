#!/bin/sh
# sqlexec: a statement that runs alone in autocommit (a barrier: UPDATE,
# DELETE, INSERT ... SELECT) whose answer is lost (the connection stalled,
# then closed by the interrupt) may have been committed by the server.
# Without --checkpoint the resume line names both points, as for a unit
# whose COMMIT got no answer, and resuming by what the target holds
# applies the statement exactly once.  Before: "no statement is
# committed; run the same input again", which applied it twice, exit 0.
. "$(dirname "$0")/../lib.sh"
need_server
[ -n "${RP_PORT:-}" ] || skip_all "no TCP port for the server"
sql -e "DROP DATABASE IF EXISTS t4232; CREATE DATABASE t4232;
    CREATE TABLE t4232.c (id int PRIMARY KEY, n int);
    INSERT INTO t4232.c VALUES (1, 0)" || exit 1
printf 'UPDATE c SET n = n + 1 WHERE id = 1 AND SLEEP(2) = 0;\nINSERT INTO c VALUES (2, 0);\n' |
    sqlsplit >in.rp || exit 1

stallproxy 0 127.0.0.1 "$RP_PORT" >pport &
proxy=$!
wait_for test -s pport
sqlexec --no-defaults -uroot -h 127.0.0.1 -P "$(cat pport)" -D t4232 <in.rp 2>err &
pid=$!
running() { sql -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST
    WHERE INFO LIKE 'UPDATE c SET n%'" | grep -qx 1; }
wait_for running
ok $? "the UPDATE runs"
kill -HUP $proxy		# its answer will never arrive
committed() { sql -e "SELECT n FROM t4232.c WHERE id = 1" | grep -qx 1; }
wait_for committed
ok $? "... and the server commits it"
kill -TERM $pid
wait $pid
is $? 1 "SIGTERM: exit 1"
kill $proxy 2>/dev/null; wait $proxy 2>/dev/null
line=$(grep 'got no answer' err)
like "$line" "^sqlexec: statement 1: the statement got no answer \\(.*\\(20[0-9][0-9]\\)\\): the server may have committed it or not: if the target holds its rows, resume with --skip-to 1:[0-9a-f]{16}; if not, run the same input again" \
    "the resume line names the statement in doubt and both ways on"
if grep -q "no statement is committed" err; then r=1; else r=0; fi
ok $r "... and does not say that nothing is committed"
tok=$(printf '%s\n' "$line" | sed -n 's/.*if the target holds its rows, resume with --skip-to \([^;]*\);.*/\1/p')
sqlexec --no-defaults -uroot -S "$RP_SOCK" -D t4232 --skip-to "$tok" <in.rp 2>err2
is $? 0 "resumed with the point for 'the target holds it': exit 0"
is "$(sql -e 'SELECT id, n FROM t4232.c ORDER BY id' | tr '\t\n' ' ,')" "1 1,2 0," \
    "... the UPDATE applied once, the INSERT after it once"
sql -e "DROP DATABASE t4232"
done_testing
