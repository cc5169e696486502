#!/bin/sh
# Point-in-time recovery (#27, rowpipe(7) "Point-in-time recovery"): a
# dbsnap snapshot at position P, more writes on the source (inserts,
# updates, deletes, DDL, a multi-table transaction, row and statement
# events, a binary log rotated on the way), then the snapshot restored
# into a target and the binary logs replayed from P with
#     mariadb-binlog --start-position=P ... | sqlsplit | sqlexec
# up to a later position S, given as a GTID, as a file offset and as a
# time: each time the target equals the source as it was at S (CHECKSUM
# TABLE and HEX() of every row), and nothing written after S is there.
# P is taken from what dbsnap --print-position printed, the user's
# command, not assembled by the test; it agrees with the stream's header.
# Source and target are servers of the test's own: the replay sets the
# source's GTIDs on the target, which must not touch tests/run's server.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
DB=t6070_pitr
server_own SRC --server-id=70 --binlog-format=MIXED
server_own TGT --server-id=71 --skip-log-bin
src() { mariadb --no-defaults -uroot -S "$SRC_SOCK" --batch --skip-column-names "$@"; }
tgt() { mariadb --no-defaults -uroot -S "$TGT_SOCK" --batch --skip-column-names "$@"; }
SC="--no-defaults -uroot -S $SRC_SOCK"
TC="--no-defaults -uroot -S $TGT_SOCK"
BINLOGS=$T_DIR/src/data
# state SOCK: CHECKSUM TABLE and HEX() of every row of $DB on that server
state() { RP_SOCK=$1; { db_sums "$DB"; db_hex "$DB"; }; RP_SOCK=$TARGET; }
TARGET=$RP_SOCK
# the event times: fixed, a minute apart, so that --stop-datetime has a
# boundary that does not depend on the clock (TZ=UTC for mariadb-binlog)
T1=1893456000		# 2030-01-01 00:00:00 UTC: before S
T2=1893456120		# 2030-01-01 00:02:00 UTC: after S
STOP_TIME='2030-01-01 00:01:00'

src <<SQL || exit 1
CREATE DATABASE $DB;
USE $DB;
CREATE TABLE acct (id int PRIMARY KEY, owner varchar(40), bal decimal(12,2),
  raw varbinary(16), at datetime(6));
INSERT INTO acct SELECT seq, CONCAT('owner ', seq), seq * 10.5,
  UNHEX(CONCAT('00275C', HEX(seq))), '2026-01-01 10:00:00.123456'
  FROM seq_1_to_500;
CREATE TABLE moves (id int AUTO_INCREMENT PRIMARY KEY, acct int, amt decimal(12,2));
INSERT INTO moves (acct, amt) SELECT seq % 50 + 1, seq FROM seq_1_to_300;
CREATE TABLE gone (k varchar(10) PRIMARY KEY);
INSERT INTO gone VALUES ('a'), ('b');
SQL

dbsnap $SC --print-position $DB > snap.rp 2> pos.err
ok $? "dbsnap --print-position dumps"
P_GTID=$(src -e 'SELECT @@gtid_binlog_pos')
line=$(grep 'position:' pos.err)
like "$line" "^dbsnap: position: binlog\\.[0-9]+ [0-9]+, GTID $P_GTID; replay after a restore: mariadb-binlog --start-position=$P_GTID binlog\\.[0-9]+ \\.\\.\\. \\| sqlsplit \\| sqlexec\$" \
    "it prints the position (file, offset, GTID) and the replay command"
START=$(printf '%s\n' "$line" | sed -n 's/.*mariadb-binlog \(--start-position=[^ ]*\) .*/\1/p')
P_FILE=$(printf '%s\n' "$line" | sed -n 's/^dbsnap: position: \([^ ]*\) \([0-9]*\),.*/\1/p')
P_OFF=$(printf '%s\n' "$line" | sed -n 's/^dbsnap: position: \([^ ]*\) \([0-9]*\),.*/\2/p')
hdr=$(rows2sql < snap.rp | sed -n '/^-- binlog_file/p;/^-- binlog_pos/p;/^-- gtid_binlog_pos/p')
is "$hdr" "-- binlog_file: $P_FILE
-- binlog_pos: $P_OFF
-- gtid_binlog_pos: $P_GTID" "the stream's header holds the same position"

# Up to S: row and statement events, DDL, a multi-table transaction, a
# rolled-back one (not logged), a rotated binary log.
src $DB <<SQL || exit 1
SET TIMESTAMP = $T1;
INSERT INTO acct VALUES (501, 'new', 1.25, 0x00FF5C27, '2026-02-02 02:02:02.000002');
UPDATE acct SET bal = bal * 2, owner = CONCAT(owner, ' it''s') WHERE id % 7 = 0;
DELETE FROM acct WHERE id BETWEEN 100 AND 120;
SET SESSION binlog_format = STATEMENT;
UPDATE moves SET amt = amt + 1 WHERE acct = 3;
SET SESSION binlog_format = ROW;
FLUSH BINARY LOGS;
ALTER TABLE acct ADD COLUMN note text AFTER owner;
UPDATE acct SET note = REPEAT('n\\\\', id % 5) WHERE id < 50;
CREATE TABLE later (id int PRIMARY KEY, v json);
INSERT INTO later VALUES (1, '{"a": [1, 2]}'), (2, NULL);
DROP TABLE gone;
BEGIN;
INSERT INTO moves (acct, amt) VALUES (501, -1.25);
UPDATE acct SET bal = bal - 1.25 WHERE id = 501;
DELETE FROM later WHERE id = 2;
COMMIT;
BEGIN;
DELETE FROM acct;
ROLLBACK;
SQL
WANT=$(state "$SRC_SOCK")
S_GTID=$(src -e 'SELECT @@gtid_binlog_pos')
S_OFF=$(src -e 'SHOW MASTER STATUS' | cut -f2)
isnt "$S_GTID" "$P_GTID" "the source moved on from P"

# After S: what the replay must leave out.
src $DB <<SQL || exit 1
SET TIMESTAMP = $T2;
DELETE FROM acct WHERE id > 10;
ALTER TABLE moves DROP COLUMN amt;
INSERT INTO later VALUES (3, '[]');
SQL
NOW=$(state "$SRC_SOCK")
isnt "$NOW" "$WANT" "the source changed after S"

# restore_replay NAME WANT MARIADB-BINLOG-ARGS...: restore the snapshot
# into a fresh target database, replay the source's binary logs with those
# arguments, compare the target with WANT (the source's state).
restore_replay() {
	_name=$1 _want=$2
	shift 2
	tgt -e "DROP DATABASE IF EXISTS $DB" || exit 1
	sqlexec $TC < snap.rp 2> restore.err
	ok $? "$_name: the snapshot restores"
	isnt "$(state "$TGT_SOCK")" "$_want" "$_name: the snapshot alone is not that"
	(cd "$BINLOGS" && TZ=UTC mariadb-binlog "$@" binlog.[0-9]*) \
	    > replay.sql 2> binlog.err
	ok $? "$_name: mariadb-binlog reads the logs"
	sqlsplit < replay.sql | sqlexec $TC $J 2> replay.err
	ok $? "$_name: sqlsplit | sqlexec replays them"
	got=$(state "$TGT_SOCK")
	is "$got" "$_want" "$_name: the target equals the source there"
}

J=
restore_replay "GTID $S_GTID" "$WANT" "$START" --stop-position="$S_GTID"
restore_replay "offset $S_OFF" "$WANT" --start-position="$P_OFF" \
    --stop-position="$S_OFF"
J="-j 2"		# its SETs of session state keep the replay serial
restore_replay "time $STOP_TIME" "$WANT" "$START" --stop-datetime="$STOP_TIME"
restore_replay "to the end" "$NOW" "$START"

# Without binary logging there is no position: --print-position says so.
dbsnap $TC --print-position $DB > /dev/null 2> nolog.err
ok $? "dbsnap --print-position on a server without binary logs"
is "$(cat nolog.err)" "dbsnap: position: none: binary logging is off on the server, no binary log to replay after this snapshot" \
    "it says there is no position to replay from"
done_testing
