#!/bin/sh
# dbsnap -w runs its condition in the dump's session, time_zone +00:00
# (#25: it was not documented): a TIMESTAMP column compares with UTC
# times, as in mysqldump with its default --tz-utc, whatever the
# server's zone (tests/run's is +05:30); NOW() - INTERVAL is right in any
# zone; a DATETIME compares as written.  dbsnap(1) says so.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1107_db
fresh_db $DB
is "$(sql -e "SELECT @@global.time_zone")" "+05:30" "the server's zone is not UTC"
# 10:00 at +05:30 is 04:30 UTC; the DATETIME holds 10:00 as written.
sql $DB -e "SET time_zone = '+05:30';
    CREATE TABLE t (id int PRIMARY KEY, ts timestamp NULL, dt datetime);
    INSERT INTO t VALUES (1, '2024-01-01 10:00:00', '2024-01-01 10:00:00'),
        (2, NOW(), NOW())" || exit 1
# ids COND: the ids of the rows dumped (framecat writes values in hex).
ids() {
	dbsnap $(CONN) -w "$1" $DB t 2>/dev/null | framecat |
	    perl -ne 'print pack("H*", (split /\t/)[2]), " " if /^ROW\t/'
}
is "$(ids "ts < '2024-01-01 05:00:00'")" "1 " \
    "a TIMESTAMP compares in UTC: 04:30 UTC < 05:00"
is "$(ids "ts < '2024-01-01 10:00:00' AND ts >= '2024-01-01 04:30:00'")" "1 " \
    "... not in the server's zone (10:00 there)"
is "$(ids "ts > NOW() - INTERVAL 1 HOUR")" "2 " "NOW() - INTERVAL: right in any zone"
is "$(ids "dt = '2024-01-01 10:00:00'")" "1 " "a DATETIME compares as written"
like "$(mandoc -Tascii "$RP_TOP/man/man1/dbsnap.1" | col -b | tr -s '[:space:]' ' ')" \
    "It runs in the dump's session, whose time_zone is \+00:00" "dbsnap(1) says so"

# A condition that keeps no row of a table is named, with the table, on
# stderr (issue 25: silent, as in mysqldump); not an error: a filter on
# time may keep nothing on a quiet day.  One that keeps a row: nothing.
sql $DB -e "CREATE TABLE u (id int PRIMARY KEY); INSERT INTO u VALUES (1)"
dbsnap $(CONN) -w "u:id = 9" $DB >w.rp 2>err
is "$? $(cat err)" "0 dbsnap: warning: $DB.u: no row matches --where: (id = 9)" \
    "-w TABLE:COND that keeps no row: exit 0, a warning naming the table"
is "$(framecat <w.rp | grep -c '^TABLE_END')" 2 "... and the table is in the dump"
dbsnap $(CONN) -w "id >= 1" $DB >w.rp 2>err
is "$? $(cat err)" "0 " "a condition that keeps rows of every table: nothing said"
like "$(mandoc -Tascii "$RP_TOP/man/man1/dbsnap.1" | col -b | tr -s '[:space:]' ' ')" \
    "A table of which it keeps no row is named in a warning" "dbsnap(1) says so"
sql -e "DROP DATABASE $DB"
done_testing
