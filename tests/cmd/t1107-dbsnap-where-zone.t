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
sql -e "DROP DATABASE $DB"
done_testing
