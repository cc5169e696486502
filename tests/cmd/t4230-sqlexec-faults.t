#!/bin/sh
# sqlexec, the server fault test of issue 23: a restore interrupted in
# every way a restore is, then resumed exactly as sqlexec printed, gives
# the source's rows back exactly once, every time (CHECKSUM TABLE and row
# counts compared with the source after each resume).
#
# The source (tests/run's server) has four tables: one with a secondary
# index, one without any key (a row loaded twice shows), one MyISAM, one
# with a composite key.  It is dumped three ways: `dbsnap -j 2' and
# `dbsnap -j 4' (the frames of several tables interleaved) and the SQL
# text path (dbsnap | rows2sql | sqlsplit).  The target is a server of
# the test's own, so that it can be killed.  The faults: the stream cut
# at 14 points (head -c), SIGINT, SIGKILL of sqlexec with --checkpoint,
# kill -9 of the target server (restarted on its datadir), and a stalled
# connection (tests/tools/stallproxy) followed by SIGTERM.  Every fault
# waits on a condition (rows committed on the target), never on a time.
#
# Before issue 23's fix (30713d1), resuming an interleaved stream (dbsnap
# -j N, N > 1) as printed failed with ERROR 1062 or loaded rows twice.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
DB=t4230_src
CK=t4230_ck.pos

TGT_OPTS="--server-id=4230 --innodb-buffer-pool-size=64M --innodb-log-file-size=48M"
server_own TGT $TGT_OPTS
trap 'kill "${proxy:-}" 2>/dev/null; server_own_stop; rm -rf "$T_DIR"' EXIT
tgt() { mariadb --no-defaults -uroot -S "$TGT_SOCK" --batch --skip-column-names "$@"; }
TC="--no-defaults -uroot -S $TGT_SOCK"

fresh_db $DB
sql $DB <<'SQL' || exit 1
CREATE TABLE orders (id int PRIMARY KEY, cust int NOT NULL,
    note varchar(60), KEY (cust));
INSERT INTO orders SELECT seq, seq % 97, CONCAT('order ', seq)
    FROM seq_1_to_2400;
CREATE TABLE raw_import (v int, s varchar(40));
INSERT INTO raw_import SELECT seq % 500, REPEAT('r', seq % 40)
    FROM seq_1_to_1500;
CREATE TABLE legacy (id int PRIMARY KEY, v varchar(30)) ENGINE=MyISAM;
INSERT INTO legacy SELECT seq, CONCAT('l', seq) FROM seq_1_to_500;
CREATE TABLE items (o int, n int, qty int, PRIMARY KEY (o, n), KEY (qty));
INSERT INTO items SELECT seq DIV 4, seq % 4, seq % 13 FROM seq_1_to_1600;
SQL
TABLES="items legacy orders raw_import"

# sums SQLFN: CHECKSUM TABLE and COUNT(*) of every table, through SQLFN.
sums() {
	for t in $TABLES; do
		"$1" -e "CHECKSUM TABLE $DB.$t EXTENDED; SELECT COUNT(*) FROM $DB.$t"
	done
}
WANT=$(sums sql)
committed() {
	_sum=0
	for t in $TABLES; do
		_c=$(tgt -e "SELECT COUNT(*) FROM $DB.$t" 2>/dev/null) || _c=0
		_sum=$((_sum + ${_c:-0}))
	done
	echo $_sum
}
# ready N: at least N rows committed on the target, and legacy either
# whole or empty (MyISAM rows are not transactional: a fault in the
# middle of them is named, not resumed; t4210 tests that).
legacy() { tgt -e "SELECT COUNT(*) FROM $DB.legacy" 2>/dev/null || echo 0; }
ready() {
	case $(legacy) in 0|500) ;; *) return 1 ;; esac
	[ "$(committed)" -ge "$1" ]
}

# (dbsnap's stderr: its warning that legacy is MyISAM)
dbsnap --no-defaults -uroot -S "$RP_SOCK" --chunk-rows=200 -j 2 $DB \
    >j2.rp 2>dump.err &&
dbsnap --no-defaults -uroot -S "$RP_SOCK" --chunk-rows=200 -j 4 $DB \
    >j4.rp 2>dump.err &&
{ dbsnap --no-defaults -uroot -S "$RP_SOCK" $DB 2>dump.err; } | rows2sql |
    sqlsplit >sql.rp || fail_all "dumping the source failed: $(cat dump.err)"

fresh_target() {
	tgt -e "DROP DATABASE IF EXISTS $DB; DROP DATABASE IF EXISTS t4230_ck;
	    CREATE DATABASE t4230_ck" || return 1
}

# in_doubt: a unit whose COMMIT got no answer (the server died or
# stalled) is named with two resume points: if the target holds its work
# (its table has at least its last row: a table's units commit in
# order), the first, else the second; sets _tok, or _fresh when the
# second is "run the same input again".
in_doubt() {
	_fresh=
	_line=$(grep "its COMMIT got no answer" err | tail -1)
	[ -n "$_line" ] || return 0
	_t=$(printf '%s\n' "$_line" |
	    sed -n "s/^sqlexec: $DB\\.\([a-z_]*\): rows [0-9]*-\([0-9]*\) (frames .*/\1 \2/p")
	set -- $_t
	if [ $# -ne 2 ]; then
		diag "in doubt, and not a table's rows: $_line"
		return 0
	fi
	if [ "$(tgt -e "SELECT COUNT(*) FROM $DB.$1")" -ge "$2" ]; then
		_tok=$(printf '%s\n' "$_line" | sed -n 's/.*if the target holds its work (its rows, or what its DDL made), resume with --skip-to \([^;]*\);.*/\1/p')
	else
		_tok=$(printf '%s\n' "$_line" | sed -n 's/.*; if not, with --skip-to \([^ ]*\) .*/\1/p')
		printf '%s\n' "$_line" | grep -q "if not, run the same input again" &&
		    _fresh=1
	fi
	diag "in doubt: $DB.$1 rows to $2, target has $(tgt -e "SELECT COUNT(*) FROM $DB.$1"): ${_tok:-from the start}"
}

# the first run's stderr as diagnostics: where it said to resume, what
# it left
first_run() { sed -n '1,10s/^/#   first run: /p' err; }
# resume NAME STREAM ARGS...: run sqlexec again as the stderr of the
# first run (err) said, on the whole stream, then compare with the
# source.  ARGS are the first run's options (without the fault).
resume() {
	_name=$1 _in=$2
	shift 2
	_tok=$(sed -n 's/^sqlexec: .* committed.*; resume with --skip-to \([^ ]*\)$/\1/p' err | tail -1)
	in_doubt
	# The fault can land in legacy's MyISAM rows after all (they may
	# start right after ready() saw none): sqlexec names what it left
	# there, and its advice is to remove it before resuming.
	if grep -q "not transactional" err && [ "$(legacy)" != 0 ]; then
		diag "$_name: the fault came in legacy's rows, named: $(grep -m1 'not transactional' err)"
		tgt -e "DELETE FROM $DB.legacy"
	fi
	if grep -q "resume with --resume (checkpoint $CK records it)" err; then
		_how="--resume"
		sqlexec $TC "$@" --resume <"$_in" 2>err2
	elif [ -n "$_tok" ]; then
		_how="--skip-to $_tok"
		sqlexec $TC "$@" --skip-to "$_tok" <"$_in" 2>err2
	elif [ -n "$_fresh" ] || grep -Eq "no (frame|statement) is committed; run the same input again" err; then
		_how="from the start"
		sqlexec $TC "$@" <"$_in" 2>err2
	else
		ok 1 "$_name: a resume point is printed"
		sed -n '1,6s/^/#   /p' err
		return
	fi
	_rc=$?
	ok $_rc "$_name: resume ($_how) exits 0"
	# on a failure, the resume's stderr and then the first run's
	[ $_rc -eq 0 ] || { sed -n '1,4s/^/#   resume: /p' err2
	    first_run; }
	_got=$(sums tgt)
	[ "$_got" = "$WANT" ]
	ok $? "$_name: the target equals the source"
	[ "$_got" = "$WANT" ] || { printf '%s\n' "$_got" | diff want.txt - |
	    sed -n '1,12s/^/#   /p'
	    first_run; }
}
printf '%s\n' "$WANT" >want.txt


# 1. The stream cut (head -c) at points spread over it; sqlexec exits 1
# and prints the resume point.  j4.rp at 8 points, j2.rp at 4, the SQL
# statement stream at 3.
cuts() {
	_in=$1 _n=$2
	_size=$(wc -c <"$_in")
	_i=1
	while [ $_i -le "$_n" ]; do
		_at=$((_size * _i / (_n + 1)))
		_j=$((_i % 2 ? 2 : 4))
		fresh_target
		head -c $_at "$_in" |
		    sqlexec $TC -j $_j --commit-every 8K 2>err
		is $? 1 "$_in cut at $_at of $_size, -j $_j: exit 1"
		resume "$_in cut at $_at, -j $_j" "$_in" -j $_j --commit-every 8K
		_i=$((_i + 1))
	done
}
cuts j4.rp 8
cuts j2.rp 4
cuts sql.rp 2

# feed STREAM: on stdout, the first two thirds of STREAM, then the rest
# once the file "go" exists, so that a fault lands in the middle of the
# run.  (Units commit in the order of the stream: in its first third, a
# unit of every table waits for frames still to come.)
feed() {
	_s=$(wc -c <"$1")
	head -c $((_s * 2 / 3)) "$1"
	while [ ! -f go ]; do sleep 0.05; done
	tail -c +$((_s * 2 / 3 + 1)) "$1"
}
# start STREAM ARGS...: sqlexec ARGS on the target, fed by feed; waits
# until 1000 rows are committed (deadline 30 s), then lets the rest come,
# unless legacy's rows are still to come (then the fault lands while
# sqlexec waits for them; ended lets them come).
start() {
	_in=$1
	shift
	rm -f go
	fresh_target
	feed "$_in" | sqlexec "$@" 2>err &
	pid=$!
	wait_for ready 1000
	ok $? "$_in: rows are committed before the fault"
	[ "$(legacy)" = 0 ] || touch go
}
# ended NAME: the run ends (deadline 30 s), exit status in $rc.
ended() {
	touch go
	wait_for gone $pid
	ok $? "$1: sqlexec ends"
	gone $pid || kill -9 $pid
	wait $pid
	rc=$?
}

# 2. SIGINT in the middle of the run.
for c in "j4.rp 4" "sql.rp 2"; do
	set -- $c
	start $1 $TC -j $2 --commit-every 8K
	kill -INT $pid
	ended "SIGINT $1 -j $2"
	is $rc 1 "SIGINT $1 -j $2: exit 1"
	resume "SIGINT $1 -j $2" $1 -j $2 --commit-every 8K
done

# 3. SIGKILL of sqlexec with --checkpoint, then --resume.
for c in "j2.rp 2" "sql.rp 4"; do
	set -- $c
	start $1 $TC -j $2 --commit-every 8K --checkpoint $CK
	kill -KILL $pid
	ended "SIGKILL $1 -j $2"
	# SIGKILL leaves no message: the way on is --checkpoint's --resume
	echo "sqlexec: killed; resume with --resume (checkpoint $CK records it)" >err
	resume "SIGKILL $1 -j $2" $1 -j $2 --commit-every 8K --checkpoint $CK
done

# 4. kill -9 of the target server, which is then started again on its
# datadir; once with --skip-to, once with --checkpoint.
for c in "j4.rp 2 " "j2.rp 4 --checkpoint=$CK"; do
	set -- $c
	start $1 $TC -j $2 --commit-every 8K ${3:-}
	kill -9 "$TGT_PID"
	ended "kill -9 of the server, $1 -j $2 ${3:-}"
	is $rc 1 "kill -9 of the server, $1 -j $2: exit 1"
	wait "$TGT_PID" 2>/dev/null
	server_restart TGT "$T_DIR/tgt" $TGT_OPTS >/dev/null
	ok $? "the server starts again on its datadir"
	resume "kill -9 of the server, $1 -j $2 ${3:-}" $1 -j $2 \
	    --commit-every 8K ${3:-}
done

# 5. A stalled connection (the proxy forwards nothing, the sockets stay
# open), then SIGTERM: sqlexec ends with its resume point; the proxy is
# ended before the resume, so that the server rolls back what its
# connections left open.
for c in "j2.rp 2 " "sql.rp 2 --checkpoint=$CK"; do
	set -- $c
	rm -f pport
	stallproxy 0 127.0.0.1 "$TGT_PORT" >pport &
	proxy=$!
	wait_for test -s pport
	start $1 --no-defaults -uroot -h 127.0.0.1 -P "$(cat pport)" -j $2 \
	    --commit-every 8K ${3:-}
	kill -USR1 $proxy
	kill -TERM $pid
	ended "stalled, SIGTERM, $1 -j $2 ${3:-}"
	is $rc 1 "stalled, SIGTERM, $1 -j $2: exit 1"
	kill $proxy
	wait $proxy
	proxy=
	resume "stalled, SIGTERM, $1 -j $2 ${3:-}" $1 -j $2 --commit-every 8K \
	    ${3:-}
done

sql -e "DROP DATABASE $DB"
done_testing
