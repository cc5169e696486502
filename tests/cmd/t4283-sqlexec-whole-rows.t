#!/bin/sh
# sqlexec < stream, rows too large for a batch (issue 26):
# - a huge row's unit is the frame reader's buffer it was read into (it
#   was copied: the reader's and the unit's copy);
# - at -j 2 and more it goes whole by one bulk execute, where the server
#   does not expand it into the query text for its logs as it does for a
#   plain execute's parameters (18 ns a byte, 3.5x the server CPU of 60 MB
#   values): no COM_STMT_SEND_LONG_DATA; such a unit counts for two
#   connections (Connector/C's request is a second copy), so memory stays
#   the jobs x the largest row of sqlexec(1);
# - at -j 1 a huge row goes in pieces (one copy), a row over a batch
#   whose unit is not huge (1.5 MiB) whole.
# Every restore holds every value as the server had it.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
server_own OWN --max-allowed-packet=64M
RP_SOCK=$OWN_SOCK
C=$(CONN)
DB=t4283_src
fresh_db $DB
sql $DB -e "CREATE TABLE b (id int PRIMARY KEY, v LONGBLOB, n int);
    INSERT INTO b SELECT seq, REPEAT(UNHEX(MD5(seq)), 8 * 1048576 / 16), seq
    FROM seq_1_to_4;
    INSERT INTO b VALUES (5, NULL, 5), (6, x'00', NULL),
    (7, REPEAT(x'ff5c27001a', 1536 * 1024 / 5), 7)" || exit 1

plan 11
sums() { sql -e "SELECT id, MD5(v), n FROM $1.b ORDER BY id" | md5sum; }
pieces() { sql -e "SHOW GLOBAL STATUS LIKE 'Com_stmt_send_long_data'" | cut -f2; }
want=$(sums $DB)
dbsnap $C $DB >s.rp; is $? 0 "dbsnap"
sql -e "DROP DATABASE $DB"

# restore J PIECES MIB WHAT: at -j J, PIECES values sent in pieces, max
# RSS under MIB MiB (WHAT: the copies of a huge row)
restore() {
	p0=$(pieces)
	rss sqlexec $C -j $1 --no-progress <s.rp 2>err; is $? 0 "sqlexec -j $1"
	kb=$(tail -1 rss.txt)
	is "$(sums $DB)" "$want" "-j $1: every value restored"
	is "$(($(pieces) - p0))" $2 "-j $1: $2 pieces of values"
	rss_below sqlexec "$kb" $3 "-j $1: max RSS ${kb} KiB < $3 MiB (8 MiB rows: $4)"
	sql -e "DROP DATABASE $DB"
}
# every row whole
restore 2 0 30 "2 copies of one"
# 512 KiB pieces (half of --batch-bytes, 1 MiB): 16 a huge value, the
# 1.5 MiB one whole
restore 1 64 22 "1 copy"
rss sqlexec $C -j 4 --no-progress <s.rp 2>err; is $? 0 "sqlexec -j 4"
is "$(sums $DB)" "$want" "-j 4: every value restored"

done_testing
