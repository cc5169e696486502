#!/bin/sh
# sqlexec -j 2: a SET of user variables only that is large (64 KiB or
# more: rows2sql's SET @rp_v1=CONCAT(...) pieces of a long value) runs on
# connection 1 alone, where what reads the variables runs (order.c), so
# the server parses each piece once, not once per connection (issue 26:
# server CPU 4.3-4.9 s against 2.7 s for 2 values of 60 MB).  What it set
# is stale on the other connections: a session statement of another kind
# that reads it makes the run serial; a SET on every connection makes the
# variable fresh again.  The server's general log counts what ran where.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --general-log=1 --log-output=TABLE
RP_SOCK=$OWN_SOCK
C=$(CONN)
DB=t4282_src
fresh_db $DB
sql $DB -e "CREATE TABLE b (id int PRIMARY KEY, v LONGBLOB);
    INSERT INTO b SELECT seq, REPEAT(UNHEX(MD5(seq)), 300 * 1024 / 16)
    FROM seq_1_to_2" || exit 1

plan 11
sums() { sql -e "SELECT id, MD5(v) FROM $1.b ORDER BY id" | md5sum; }
want=$(sums $DB)
dbsnap $C $DB | rows2sql --max-allowed-packet=128K >r.sql; is $? 0 "rows2sql with a 128 KiB packet"
pieces=$(grep -c '^SET @rp_v1=' r.sql)
nulls=$(grep -c '^SET @rp_v1=NULL;' r.sql)
pieces=$((pieces - nulls))
ok $((pieces < 4)) "the 300 KiB values are set in pieces ($pieces)"

sqlsplit <r.sql >r.rp
sqlexec -n -j 2 <r.rp >plan
is "$(grep -c 'session, connection 1 only' plan)" "$pieces" \
    "dry run: every piece runs on connection 1 only"

sql -e "DROP DATABASE $DB; TRUNCATE mysql.general_log"
sqlexec $C -j 2 --no-progress <r.rp 2>err; is $? 0 "sqlexec -j 2 of the pieces"
is "$(sql -e "SELECT COUNT(*), COUNT(DISTINCT thread_id) FROM mysql.general_log
    WHERE command_type = 'Query' AND argument LIKE 'SET @rp\\_v1=%'
    AND argument NOT LIKE 'SET @rp\\_v1=NULL%'")" "$pieces	1" \
    "the server ran each piece once, on one connection"
is "$(sums $DB)" "$want" "every value restored"
like "$(cat err)" '^sqlexec: [0-9]+ statements' "and nothing said but the summary"

# a large SET, then a SET of time_zone from it: @tz is stale on
# connection 2, so the run goes serial (on connection 2 it would be NULL)
pad=$(head -c 70000 /dev/zero | tr '\0' x)
sql -e "CREATE DATABASE t4282_tz; CREATE TABLE t4282_tz.t (id int PRIMARY KEY, ts TIMESTAMP NULL)"
{
	echo "SET @tz = '+03:00', @pad = '$pad';"
	echo "SET time_zone = @tz;"
	for i in 1 2 3 4 5 6; do echo "INSERT INTO t VALUES ($i, '2020-01-01 00:00:00');"; done
} >tz.sql
sqlsplit <tz.sql | sqlexec $C -j 2 --commit-every 1 t4282_tz 2>err
is $? 0 "a session SET reading a stale variable: exit 0"
like "$(cat err)" 'statement 2 \(line 2\): a session statement reads a user variable that a statement on one connection may have set: from here on one connection' \
    "and the run is serial from it"
is "$(sql -e "SELECT GROUP_CONCAT(UNIX_TIMESTAMP(ts)) FROM t4282_tz.t")" \
    "1577826000,1577826000,1577826000,1577826000,1577826000,1577826000" \
    "every row read in +03:00, as the mysql client reads it"

# set again on every connection (small, reading nothing): fresh, so
# the SET of time_zone runs on every connection and the INSERTs in units
sql -e "DELETE FROM t4282_tz.t"
{
	echo "SET @tz = '+03:00', @pad = '$pad';"
	echo "SET @tz = '+03:00';"
	echo "SET time_zone = @tz;"
	for i in 1 2 3 4 5 6; do echo "INSERT INTO t VALUES ($i, '2020-01-01 00:00:00');"; done
} >fresh.sql
sqlsplit <fresh.sql | sqlexec $C -j 2 --commit-every 1 t4282_tz 2>err
is "$(grep -c 'one connection' err)/$(sql -e "SELECT GROUP_CONCAT(DISTINCT UNIX_TIMESTAMP(ts)) FROM t4282_tz.t")" \
    "0/1577826000" "set again on every connection: not serial, rows read in +03:00"
done_testing
