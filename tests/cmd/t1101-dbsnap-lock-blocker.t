#!/bin/sh
# --lock-wait-timeout names the statement that blocks the global read
# lock, not one that waited behind it (#25).  After the lock fails, the
# statements queued behind it run; one that started before the blocker
# (a CALL that first waited for a user lock) had run longer, and the
# error, which looked at the processlist only then, named it.  Now the
# error names what the watcher saw while the lock waited.  The server is
# the test's own (t1051 says why); no timing decides a result: the user
# lock is released once dbsnap says it waits, and whether the CALL's
# INSERT then queues behind the lock or runs after its failure, it is
# the older statement either way.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --server-id=52
HOLDER=
trap '[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null; server_own_stop; rm -rf "$T_DIR"' EXIT
RP_SOCK=$OWN_SOCK
DB=t1101_db
fresh_db $DB
sql $DB <<'SQL' || exit 1
CREATE TABLE t (id int PRIMARY KEY);
CREATE TABLE w (v int);
DELIMITER ;;
CREATE PROCEDURE late()
BEGIN
  DO GET_LOCK('t1101', 120);
  INSERT INTO w SELECT SLEEP(60);
END;;
SQL
running() {
	_id=$(sql -e "SELECT ID FROM information_schema.PROCESSLIST
	    WHERE INFO LIKE '$1%' AND STATE = '$2'")
	[ -n "$_id" ] && echo "$_id"
}

# A session of the test holds the user lock, idle.
mkfifo hold.in
sql -n <hold.in >hold.out &
HOLDER=$!
exec 3>hold.in
echo "SELECT GET_LOCK('t1101', 0);" >&3
wait_for grep -q 1 hold.out
ok $? "the test holds a user lock"
# The older statement: waits for the user lock (not a write yet).
(exec 3>&-; sql $DB -e "CALL late()" >/dev/null 2>&1) &
cpid=$!
wait_for running "DO GET_LOCK" "User lock" >/dev/null
ok $? "a CALL waits for the user lock"
# The blocker: a write, which the global read lock waits for.
(exec 3>&-; sql $DB -e "INSERT INTO w SELECT SLEEP(30)" >/dev/null 2>&1) &
spid=$!
wait_for running "INSERT INTO w SELECT SLEEP(30)" "User sleep" >/dev/null
blocker=$(running "INSERT INTO w SELECT SLEEP(30)" "User sleep")
ok $? "a long write is running (query $blocker)"

: >err
(exec 3>&-; dbsnap $(CONN) -j 2 --lock-wait-timeout 3 $DB >out.rp 2>err) &
dpid=$!
wait_for grep -q 'waiting' err
ok $? "dbsnap says it waits"
like "$(head -1 err)" "for query $blocker of root@localhost" \
    "... for the blocker, not for the CALL waiting for a user lock"
echo "DO RELEASE_LOCK('t1101');" >&3
wait $dpid
is "$?" 1 "--lock-wait-timeout 3: exit 1"
like "$(tail -1 err)" "^dbsnap: global read lock: not taken in 3 s \(--lock-wait-timeout\), waiting for query $blocker of root@localhost, running for [0-9.]+ s: INSERT INTO w SELECT SLEEP\(30\)$" \
    "... the error names the blocker (before: the CALL's INSERT)"

exec 3>&-
wait $HOLDER
HOLDER=
for q in $(sql -e "SELECT ID FROM information_schema.PROCESSLIST
    WHERE INFO LIKE 'INSERT INTO w%' AND ID <> CONNECTION_ID()"); do
	sql -e "KILL $q" 2>/dev/null
done
wait $spid
wait $cpid

# Every connection waits at most --lock-wait-timeout for a table's
# metadata lock, not only the one that takes the global read lock: DDL
# queued behind a lock the dump holds makes later reads of that table
# queue behind the DDL, a wait the server does not see as a deadlock (its
# default lock_wait_timeout is a day).  Here an ALTER waits for a session
# that holds t, and dbsnap --no-lock -j 2, whose LIMIT 0 on t queues
# behind the ALTER, must give up after 2 s, not wait for the day.
mkfifo hold2.in
sql $DB -n <hold2.in >hold2.out &
HOLDER=$!
exec 3>hold2.in
echo "BEGIN; SELECT CONCAT('held ', COUNT(*)) FROM t;" >&3
wait_for grep -q held hold2.out
ok $? "a session holds t's metadata lock"
(exec 3>&-; sql $DB -e "ALTER TABLE t ADD COLUMN x int" >/dev/null 2>&1) &
apid=$!
wait_for running "ALTER TABLE t ADD" "Waiting for table metadata lock" >/dev/null
ok $? "an ALTER of t waits for it"
timeout 60 dbsnap $(CONN) -j 2 --no-lock --lock-wait-timeout 2 $DB t \
    >out2.rp 2>err2
is "$?" 1 "dbsnap --no-lock -j 2 --lock-wait-timeout 2 behind the ALTER: exit 1 (not a wait of 60 s)"
like "$(tail -1 err2)" "^dbsnap: t1101_db\\.t: its metadata lock not given in 2 s \\(--lock-wait-timeout\\): DDL on the table .* dump again when that DDL has run \\(Lock wait timeout exceeded" \
    "... naming the table, --lock-wait-timeout and the DDL, with the server's error"
echo "ROLLBACK;" >&3
exec 3>&-
wait $HOLDER
HOLDER=
wait $apid
is "$?" 0 "the ALTER then runs"
done_testing
