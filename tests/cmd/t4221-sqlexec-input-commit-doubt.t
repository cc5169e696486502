#!/bin/sh
# sqlexec: the COMMIT of the input's own BEGIN ... COMMIT whose answer is
# lost (the server committed it, then the connection stalled and the
# interrupt closed it) leaves the transaction in doubt, as a unit's
# COMMIT: without --checkpoint the resume line names both points, and
# resuming by what the target holds applies it exactly once.  Before:
# "no statement is committed; run the same input again", which applied
# the transaction twice.  The COMMIT is held on the server by a FLUSH
# TABLES WITH READ LOCK of another session until the proxy has stalled;
# on a server of the test's own: on the shared one that lock held other
# files' statements, and their COMMITs counted with this one's.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --server-id=54
RP_SOCK=$OWN_SOCK RP_PORT=$OWN_PORT
[ -n "${RP_PORT:-}" ] || skip_all "no TCP port for the server"
sql -e "DROP DATABASE IF EXISTS t4221; CREATE DATABASE t4221;
    CREATE TABLE t4221.c (id int PRIMARY KEY, n int);
    INSERT INTO t4221.c VALUES (1, 0)" || exit 1
printf '%s\n' "BEGIN;" "UPDATE c SET n = n + 1 WHERE id = 1;" \
    "DO GET_LOCK('t4221', 60);" "COMMIT;" "INSERT INTO c VALUES (2, 0);" |
    sqlsplit >in.rp || exit 1

# two sessions of the test's, fed through fifos
mkfifo hold.in lock.in || exit 1
sql -n <hold.in >hold.out 2>&1 &
hold=$!
exec 3>hold.in
sql -n <lock.in >lock.out 2>&1 &
lock=$!
exec 4>lock.in
echo "SELECT GET_LOCK('t4221', 60);" >&3
held() { sql -e "SELECT IS_USED_LOCK('t4221') IS NOT NULL" | grep -qx 1; }
wait_for held
ok $? "the test holds the user lock"

stallproxy 0 127.0.0.1 "$RP_PORT" >pport 3>&- 4>&- &
proxy=$!
wait_for test -s pport
sqlexec --no-defaults -uroot -h 127.0.0.1 -P "$(cat pport)" -D t4221 <in.rp 2>err 3>&- 4>&- &
pid=$!
stmt_is() { sql -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST
    WHERE INFO LIKE '$1'" | grep -qx 1; }
wait_for stmt_is "DO GET_LOCK(%"
ok $? "the transaction waits for the user lock, its UPDATE done"
echo "FLUSH TABLES WITH READ LOCK; SELECT 'locked';" >&4
wait_for grep -q locked lock.out
ok $? "another session holds the read lock"
echo "DO RELEASE_LOCK('t4221');" >&3
wait_for stmt_is "COMMIT"
ok $? "the transaction's COMMIT waits for the read lock"
kill -HUP $proxy		# its answer will never arrive
echo "UNLOCK TABLES;" >&4
committed() { sql -e "SELECT n FROM t4221.c WHERE id = 1" | grep -qx 1; }
wait_for committed
ok $? "... and the server commits it"
kill -TERM $pid
wait $pid
is $? 1 "SIGTERM: exit 1"
kill $proxy 2>/dev/null; wait $proxy 2>/dev/null
exec 3>&- 4>&-
wait $hold $lock
doubt_resume t4221 "statements 1-4 \\(the input's transaction\\): its COMMIT" "4:[0-9a-f]{16}" "1 1,2 0," "the transaction"
sql -e "DROP DATABASE t4221"
done_testing
