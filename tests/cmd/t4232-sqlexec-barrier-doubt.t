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
doubt_resume t4232 "statement 1: the statement" "1:[0-9a-f]{16}" "1 1,2 0," "the UPDATE"
sql -e "DROP DATABASE t4232"
done_testing
