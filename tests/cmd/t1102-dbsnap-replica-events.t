#!/bin/sh
# Events dumped from a replica keep the status they have on the primary
# (#25).  Replication creates an ENABLE event as SLAVESIDE_DISABLED (SHOW
# CREATE EVENT: DISABLE ON SLAVE), and a dump of the replica (the
# --part/--at-gtid recipe) restored it so: an event that never runs.
# Now it is dumped ENABLE and named in a note (the replica has a DISABLE
# event of the primary as SLAVESIDE_DISABLED too: it cannot tell them
# apart), an event of the replica's own keeps its status, and
# --keep-replica-event-status keeps the replica's DISABLE ON SLAVE.  A
# primary and a replica of the test's own; restored into tests/run's
# server.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
DB=t1102_db
server_own P --server-id=111
server_own R --server-id=112
on() { _s=$1; shift; mariadb --no-defaults -uroot -S "$_s" --batch --skip-column-names "$@"; }
replicate "$P_SOCK" "$P_PORT" "$R_SOCK" || exit 1
on "$P_SOCK" <<SQL || exit 1
CREATE DATABASE $DB;
USE $DB;
CREATE TABLE t (id int PRIMARY KEY);
CREATE EVENT on_p ON SCHEDULE EVERY 1 DAY DO DELETE FROM t;
CREATE EVENT off_p ON SCHEDULE EVERY 1 DAY DISABLE DO DELETE FROM t;
CREATE EVENT \`DISABLE ON SLAVE\` ON SCHEDULE EVERY 1 DAY
    COMMENT 'DISABLE ON SLAVE' DO SELECT 'DISABLE ON SLAVE';
SQL
pos=$(on "$P_SOCK" -e "SELECT @@gtid_binlog_pos")
is "$(on "$R_SOCK" -e "SELECT MASTER_GTID_WAIT('$pos', 60)")" 0 \
    "the replica has the events"
# An event of the replica's own, disabled on it by hand.
on "$R_SOCK" $DB -e "SET sql_log_bin = 0;
    CREATE EVENT own_r ON SCHEDULE EVERY 1 DAY DISABLE ON SLAVE DO DELETE FROM t"
is "$(on "$R_SOCK" -e "SELECT GROUP_CONCAT(EVENT_NAME, '=', STATUS ORDER BY BINARY EVENT_NAME)
    FROM information_schema.EVENTS WHERE EVENT_SCHEMA = '$DB'")" \
    "DISABLE ON SLAVE=SLAVESIDE_DISABLED,off_p=SLAVESIDE_DISABLED,on_p=SLAVESIDE_DISABLED,own_r=SLAVESIDE_DISABLED" \
    "on the replica, the replicated events are SLAVESIDE_DISABLED, DISABLE ones too"

status() {
	sql -e "SELECT GROUP_CONCAT(EVENT_NAME, '=', STATUS ORDER BY BINARY EVENT_NAME)
	    FROM information_schema.EVENTS WHERE EVENT_SCHEMA = '$DB'"
}
sql -e "DROP DATABASE IF EXISTS $DB"
dbsnap --no-defaults -uroot -S "$R_SOCK" -E $DB >r.rp 2>err
is "$?" 0 "dbsnap -E of the replica: exit 0"
is "$(cat err)" "dbsnap: note: $DB: 3 events that replication disabled here dumped ENABLE, as on the primary (a replica cannot tell those DISABLE there; --keep-replica-event-status keeps DISABLE ON SLAVE): $DB.DISABLE ON SLAVE, $DB.off_p, $DB.on_p" \
    "... a note names the events it enabled"
sqlexec $(CONN) <r.rp 2>/dev/null
is "$?" 0 "... restored"
is "$(status)" \
    "DISABLE ON SLAVE=ENABLED,off_p=ENABLED,on_p=ENABLED,own_r=SLAVESIDE_DISABLED" \
    "... the replicated events are ENABLED (before: SLAVESIDE_DISABLED), the replica's own is kept"
is "$(sql -e "SELECT EVENT_COMMENT, EVENT_DEFINITION FROM information_schema.EVENTS
    WHERE EVENT_SCHEMA = '$DB' AND EVENT_NAME = 'DISABLE ON SLAVE'")" \
    "DISABLE ON SLAVE	SELECT 'DISABLE ON SLAVE'" \
    "... names, comments and bodies that read DISABLE ON SLAVE are kept"

sql -e "DROP DATABASE $DB"
dbsnap --no-defaults -uroot -S "$R_SOCK" -E --keep-replica-event-status $DB \
    | rows2sql | sqlsplit | sqlexec $(CONN) 2>/dev/null
is "$?" 0 "--keep-replica-event-status, through SQL text: exit 0"
is "$(status)" \
    "DISABLE ON SLAVE=SLAVESIDE_DISABLED,off_p=SLAVESIDE_DISABLED,on_p=SLAVESIDE_DISABLED,own_r=SLAVESIDE_DISABLED" \
    "... the replica's status is kept"
sql -e "DROP DATABASE $DB"
done_testing
