#!/bin/sh
# dbsnap on a stalled network (the packets go nowhere, the connection
# stays open: tests/tools/stallproxy after SIGUSR1): the read times out
# (--read-timeout), dbsnap exits 1 with one line naming the table and the
# chunk, and the rows2sql downstream reports the producer's ABORT with
# that reason, not a complete stream.  Issue 25: it hung forever.  Also
# the option's usage errors.  (TCP keepalive, which lib/conn sets on every
# connection, is read back in t0100: ss(8) showed no keepalive timer on
# the CI machine.)
# The server is the test's own: with a short --read-timeout, a set-up query
# of the shared server (BINLOG_GTID_POS over a binary log that the whole
# run has grown) could take 2 s without any stall; 5 s, which no query
# of this small server takes on a loaded machine, ends a stall in seconds.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --server-id=1140
RP_SOCK=$OWN_SOCK RP_PORT=$OWN_PORT
DB=t1140_src RT=5
fresh_db $DB
sql $DB -e "CREATE TABLE big (id int PRIMARY KEY, v varchar(100));
    INSERT INTO big SELECT seq, repeat('x', 90) FROM seq_1_to_300000" || exit 1

dbsnap --no-defaults -uroot -S "$RP_SOCK" --read-timeout=x $DB >/dev/null 2>err
is $? 2 "--read-timeout=x: exit 2"
like "$(cat err)" "^dbsnap: --read-timeout x: invalid$" "--read-timeout=x: the reason"
dbsnap --help 2>&1 | grep -q -- '--read-timeout=SECONDS'
ok $? "--help lists --read-timeout"

# stall J: dump with -j J through the proxy; the reader takes the first
# 64 KiB (dbsnap is then past its set-up, sending rows), the proxy
# stalls, and only then does the reader go on.
stall() {
	rm -f first go pport
	stallproxy 0 127.0.0.1 "$RP_PORT" >pport &
	proxy=$!
	wait_for test -s pport
	pp=$(cat pport)
	( dbsnap --no-defaults -uroot -h 127.0.0.1 -P "$pp" -j "$1" \
	    --chunk-rows=10000 --read-timeout=$RT $DB 2>derr; echo $? >drc ) |
	    { dd bs=64k count=1 iflag=fullblock of=head.rp 2>/dev/null
	      touch first
	      while [ ! -f go ]; do sleep 0.1; done
	      cat head.rp - | rows2sql >out.sql 2>rerr; echo $? >rrc; } &
	pipeline=$!
	wait_for test -f first
	ok $? "-j $1: dbsnap sends rows through the proxy"
	kill -USR1 $proxy
	touch go
	wait_for gone $pipeline
	ok $? "-j $1: the dump ends on the stalled network (deadline 30 s)"
	gone $pipeline || { kill -9 $pipeline; sleep 1; }
	is "$(cat drc)" 1 "-j $1: dbsnap exits 1"
	like "$(cat derr)" "^dbsnap: $DB\\.big: chunk [0-9]+: the server sent nothing for $RT s \\(--read-timeout\\): Lost connection .*\\(2013, HY000\\)$" \
	    "-j $1: the error names the table, the chunk and the timeout"
	is "$(wc -l <derr)" 1 "-j $1: one line"
	is "$(cat rrc)" 1 "-j $1: rows2sql fails"
	like "$(cat rerr)" "^rows2sql: aborted by the producer: dbsnap: $DB\\.big: chunk [0-9]+: the server sent nothing" \
	    "-j $1: ... on a stream that dbsnap ended with ABORT, naming why"
	kill $proxy
	wait $proxy
}
stall 1
stall 2
sql -e "DROP DATABASE $DB"
done_testing
