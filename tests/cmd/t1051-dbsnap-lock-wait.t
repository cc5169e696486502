#!/bin/sh
# dbsnap -j 2 behind a long statement: after a second it says what it
# waits for (the statement's id, user, time) and how many statements
# wait behind it; --lock-wait-timeout gives up with an error naming it.
# The long statement is a SLEEP that the test kills: no timing assumed
# beyond the 30 s deadlines.  The server is the test's own: a global
# read lock waits for every write of the server, and the statement it
# names is the longest running one, so other test files' statements on
# a shared server would both be blocked by it and be named by it.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --server-id=51
RP_SOCK=$OWN_SOCK
DB=t1051_db
fresh_db $DB
sql $DB -e "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1);
    CREATE TABLE w (v int)"

sleeping() {
	sleeper=$(sql -e "SELECT ID FROM information_schema.PROCESSLIST
	    WHERE INFO LIKE 'INSERT INTO w SELECT SLEEP(30)%'")
	[ -n "$sleeper" ]
}

# A long write holds FLUSH TABLES WITH READ LOCK back (MariaDB 10.11
# waits for running writes, not for running SELECTs).
sql $DB -e "INSERT INTO w SELECT SLEEP(30)" >/dev/null 2>&1 &
spid=$!
wait_for sleeping
ok $? "a long write is running (query $sleeper)"
: >err
dbsnap $(CONN) -j 2 $DB >out.rp 2>err &
dpid=$!
wait_for grep -q 'waiting' err
ok $? "after a second, dbsnap says it waits"
like "$(cat err)" "^dbsnap: waiting [0-9]+ s for the global read lock, for query $sleeper of root@localhost, running for [0-9.]+ s: INSERT INTO w SELECT SLEEP\(30\); [0-9]+ statements? of others wait behind it \(giving up after 60 s: --lock-wait-timeout\)$" \
    "... naming the query, its user and its time"
# A write of the application that now waits behind dbsnap's lock.
sql $DB -e "INSERT INTO t VALUES (2)" &
wpid=$!
sql -e "KILL QUERY $sleeper"
wait $dpid
is "$?" 0 "once the statement is gone, the dump goes on: exit 0"
framecat <out.rp >/dev/null
is "$?" 0 "... a complete stream"
wait $wpid
wait $spid

# --lock-wait-timeout: an error naming the statement, exit 1.
sql $DB -e "INSERT INTO w SELECT SLEEP(30)" >/dev/null 2>&1 &
spid=$!
wait_for sleeping
dbsnap $(CONN) -j 2 --lock-wait-timeout 2 $DB >out.rp 2>err
is "$?" 1 "--lock-wait-timeout 2: exit 1"
like "$(tail -1 err)" "^dbsnap: global read lock: not taken in 2 s \(--lock-wait-timeout\), waiting for query $sleeper of root@localhost, running for [0-9.]+ s: INSERT INTO w SELECT SLEEP\(30\)$" \
    "... the error names the statement"
framecat <out.rp >/dev/null 2>&1
isnt "$?" 0 "... and no complete stream"
sql -e "KILL QUERY $sleeper"
wait $spid
dbsnap --lock-wait-timeout 0 $DB >/dev/null 2>err
is "$?" 2 "--lock-wait-timeout 0: a usage error"
done_testing
