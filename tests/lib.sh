# tests/lib.sh: minimal TAP helpers for command tests; sourced, not run.
#
# Each test gets a scratch directory (its cwd) removed on exit.  $RP_BIN
# holds the binaries under test; with a server (tests/run starts one),
# $RP_SOCK is its socket and sql/dbname helpers below talk to it.
set -u
T_N=0 T_FAIL=0
RP_BIN=${RP_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/bin}
RP_TOP=${RP_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
RP_SHARED=${RP_SHARED:-$RP_TOP/../shared}
RP_TOOLS=${RP_TOOLS:-$RP_TOP/build/tests/tools}
PATH=$RP_BIN:$RP_TOOLS:$PATH
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/t.XXXXXX") || exit 1
trap 'rm -rf "$T_DIR"' EXIT
cd "$T_DIR" || exit 1

plan()      { echo "1..$1"; T_PLANNED=1; }
skip_all()  { echo "1..0 # SKIP $*"; exit 0; }
fail_all()  { echo "1..1"; echo "not ok 1 - $*"; exit 1; }
ok()        { T_N=$((T_N + 1)); if [ "$1" -eq 0 ]; then echo "ok $T_N - $2";
              else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi; }
is()        { [ "$1" = "$2" ]; r=$?; ok $r "$3";
              [ $r -eq 0 ] || printf '#   got: %s\n#  want: %s\n' "$1" "$2"; }
isnt()      { [ "$1" != "$2" ]; ok $? "$3"; }
# like TEXT ERE NAME: TEXT goes to grep as a here-document, not through a
# pipe: grep -q exits at the first match, and under `set -o pipefail' the
# writer of a pipe would then fail with EPIPE and fail the check (issue 17).
like()      { grep -Eq -- "$2" <<EOF
$1
EOF
              r=$?; ok $r "$3";
              [ $r -eq 0 ] || printf '#   got: %s\n#  want: /%s/\n' "$1" "$2"; }
# is_file GOT WANT NAME: the first 40 lines of the diff as diagnostics
# (sed reads all of it: no reader that exits early, see like).
is_file()   { diff -u "$2" "$1" | sed -n '1,40s/^/# /p'; cmp -s "$1" "$2"; ok $? "$3"; }
# skip N REASON: N tests that cannot run here, each an "ok # skip" line
# that tests/run counts in its summary.
skip()      { _i=0; while [ $_i -lt "$1" ]; do _i=$((_i + 1)); T_N=$((T_N + 1));
              echo "ok $T_N # skip $2"; done; }
diag()      { printf '# %s\n' "$*"; }
# put FILE OFFSET BYTES: overwrite FILE's bytes at OFFSET with BYTES, in place.
put() {
	perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, $ARGV[1], 0);
	    print F $ARGV[2]; close F' "$@"
}
# gone PID: true once process PID has ended (for wait_for gone PID).
gone()      { ! kill -0 "$1" 2>/dev/null; }
# wait_for CMD...: until CMD succeeds, at most 30 s; 1 if it never did.
wait_for()  { _n=0; until "$@"; do _n=$((_n + 1)); [ $_n -ge 300 ] && return 1;
              sleep 0.1; done; }
# checkpointed_dump SRC DST ROWS WHAT: database SRC made anew with tables
# t (ROWS rows "row N of the WHAT test") and u (2 rows), dumped by dbsnap |
# rows2sql --rename-db SRC=DST into dump.sql, and one test: the dump has
# three checkpoint lines or more (segments to damage).
checkpointed_dump() {
	sql -e "DROP DATABASE IF EXISTS $1; CREATE DATABASE $1; USE $1;
	    CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(60));
	    INSERT INTO t SELECT seq, CONCAT('row ', seq, ' of the $4 test')
	    FROM seq_1_to_$3; CREATE TABLE u (id INT PRIMARY KEY);
	    INSERT INTO u VALUES (1), (2)"
	dbsnap $(CONN) "$1" | rows2sql --rename-db "$1=$2" >dump.sql
	_nck=$(grep -c '^-- rowpipe-checkpoint ' dump.sql)
	ok $([ "$_nck" -ge 3 ]; echo $?) "the dump has $_nck checkpoint lines"
}
# tty_start CMD: the shell command CMD on a terminal of its own (script(1),
# in a new session), in the background (its pid in TTY_PID), its output in
# tty.out, its typed input written to fd 3 (the fifo tty.in, opened here);
# waits (wait_for) until a password prompt shows: 1 if none did.  tty.out
# is emptied first: the job truncates it only after it opened tty.in, and
# a prompt left from a last run would let input be typed before echo is
# off.  Close fd 3 (exec 3>&-) to end the input.
tty_start() {
	rm -f tty.in; mkfifo tty.in; : >tty.out
	setsid -w script -qec "$1" /dev/null <tty.in >tty.out 2>&1 &
	TTY_PID=$!
	exec 3>tty.in
	wait_for grep -q 'password for ' tty.out
}
done_testing() { [ -n "${T_PLANNED:-}" ] || echo "1..$T_N"; exit $((T_FAIL > 0)); }

# Server helpers.  need_server skips the whole test when run outside
# tests/run; under tests/run (make check) a server is always there.
need_server() { [ -n "${RP_SOCK:-}" ] || skip_all "no server (run through tests/run)"; }
# sql [DB] < text, or sql DB -e 'stmt': the real mysql client, batch mode.
sql()       { mariadb --no-defaults --default-character-set=utf8mb4 -uroot -S "$RP_SOCK" --batch --skip-column-names "$@"; }
# Connection options for rowpipe programs.
CONN() { echo "--no-defaults -uroot -S $RP_SOCK"; }
# fresh_db NAME: drop and create a database.
fresh_db()  { sql -e "DROP DATABASE IF EXISTS \`$1\`; CREATE DATABASE \`$1\`"; }
# isql ARGS: sql --raw, retried a few times: information_schema queries
# can fail while tests running beside this one do DDL (ER_NEED_REPREPARE).
isql() {
	_n=0
	until _out=$(sql --raw "$@"); do
		_n=$((_n + 1))
		[ $_n -lt 5 ] || return 1
		sleep 1
	done
	printf '%s\n' "$_out"
}
# icount WHAT: COUNT(*) of information_schema.WHAT ("views WHERE ...").
icount()    { sql -e "SELECT COUNT(*) FROM information_schema.$1"; }
# client_counts OUT ERR: "warnings errors" of a mariadb --force -vvv run
# (its stdout and stderr); sqlexec_counts ERR: the same from the summary
# in sqlexec's stderr.
client_counts() {
	w=$(sed -n 's/^Query OK, .*, \([0-9]*\) warnings*.*/\1/p' "$1" |
	    awk '{ s += $1 } END { print s + 0 }')
	e=$(grep -c '^ERROR' "$2")
	echo "$w $e"
}
sqlexec_counts() {
	l=$(grep '^sqlexec: [0-9]* statements' "$1" | tail -1)
	w=$(printf '%s\n' "$l" | sed -n 's/.*, \([0-9]*\) warnings*.*/\1/p')
	e=$(printf '%s\n' "$l" | sed -n 's/.*, \([0-9]*\) FAILED.*/\1/p')
	echo "${w:-0} ${e:-0}"
}

# db_sums DB: CHECKSUM TABLE of every base table, names of any bytes.
db_sums() {
	isql -e "SELECT CONCAT('CHECKSUM TABLE \`',
	    REPLACE(table_name, '\`', '\`\`'), '\` EXTENDED;') FROM
	    information_schema.tables WHERE table_schema = '$1' AND table_type
	    IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY table_name" |
	    sql --raw "$1" | sed "s/^$1\\.//"
}
# db_hex DB: one line per row, HEX() of every column (history rows of
# system-versioned tables included), sorted, per table.
db_hex() {
	isql -e "SELECT CONCAT('SELECT ', QUOTE(t.table_name),
	    ', CONCAT_WS(''|'', ', GROUP_CONCAT(CONCAT('IFNULL(HEX(\`',
	    REPLACE(c.column_name, '\`', '\`\`'), '\`),''N'')')
	    ORDER BY c.ordinal_position),
	    IF(t.table_type = 'SYSTEM VERSIONED',
	    ',HEX(ROW_START),HEX(ROW_END)', ''), ') AS r FROM \`',
	    REPLACE(t.table_name, '\`', '\`\`'), '\`',
	    IF(t.table_type = 'SYSTEM VERSIONED', ' FOR SYSTEM_TIME ALL', ''),
	    ' ORDER BY r;')
	    FROM information_schema.tables t JOIN information_schema.columns c
	    USING (table_schema, table_name) WHERE t.table_schema = '$1'
	    AND t.table_type IN ('BASE TABLE', 'SYSTEM VERSIONED')
	    GROUP BY t.table_name, t.table_type ORDER BY t.table_name" |
	    sql --raw "$1"
}
# db_objects DB: SHOW CREATE of every table, view, routine, trigger and
# event, the database name replaced by DB, trigger creation times left out.
db_objects() {
	isql -e "
	    SELECT CONCAT('SHOW CREATE TABLE \`', REPLACE(table_name, '\`',
	    '\`\`'), '\`;') FROM information_schema.tables WHERE table_schema
	    = '$1' AND table_type IN ('BASE TABLE', 'SYSTEM VERSIONED')
	    UNION ALL SELECT CONCAT('SHOW CREATE VIEW \`', table_name, '\`;')
	    FROM information_schema.views WHERE table_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE ', routine_type, ' \`',
	    routine_name, '\`;') FROM information_schema.routines WHERE
	    routine_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE EVENT \`', event_name, '\`;')
	    FROM information_schema.events WHERE event_schema = '$1'
	    UNION ALL SELECT CONCAT('SHOW CREATE TRIGGER \`', trigger_name,
	    '\`;') FROM information_schema.triggers WHERE trigger_schema = '$1'
	    ORDER BY 1" | sql --raw "$1" | sed -E "s/$1/DB/g;
	    s/\t[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\.[0-9]{2}\$//"
}
# db_defs DB: SHOW CREATE of every view, routine, trigger and event of DB
# (the definition columns: no creation times), in a fixed order.
db_defs() {
	for v in $(sql -e "SELECT table_name FROM information_schema.views
	    WHERE table_schema = '$1' ORDER BY 1"); do
		sql -e "SHOW CREATE VIEW \`$1\`.\`$v\`" | cut -f1-2
	done
	sql -e "SELECT routine_type, routine_name FROM information_schema.routines
	    WHERE routine_schema = '$1' ORDER BY 1, 2" |
	while IFS='	' read -r type name; do	# (a tab: "PACKAGE BODY")
		sql -e "SHOW CREATE $type \`$1\`.\`$name\`" | cut -f1-3
	done
	for t in $(sql -e "SELECT trigger_name FROM information_schema.triggers
	    WHERE trigger_schema = '$1' ORDER BY 1"); do
		sql -e "SHOW CREATE TRIGGER \`$1\`.\`$t\`" | cut -f1-3
	done
	for e in $(sql -e "SELECT event_name FROM information_schema.events
	    WHERE event_schema = '$1' ORDER BY 1"); do
		sql -e "SHOW CREATE EVENT \`$1\`.\`$e\`" | cut -f1-4
	done
}
# free_port: a free loopback TCP port.
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1,
	    LocalAddr => "127.0.0.1", LocalPort => 0)->sockport'
}
# checksums DB: "table checksum" for every base table, sorted (simple names).
checksums() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema='$1' AND table_type LIKE '%TABLE' ORDER BY 1"); do
		sql -e "CHECKSUM TABLE \`$1\`.\`$t\` EXTENDED" | sed "s/^$1\\.//"
	done
}
# Sample databases, each a schema file and a data file for the mysql
# client.  "store" is the project's own, generated by tests/gen-store: it
# is always there and has every kind of object the tests need.  "sakila",
# the real sample, is an optional extra from $RP_SHARED/data/sakila
# (README.md, "Building and testing"); tests run on every sample that is
# here and count the checks they could not run (sample_skip).
# have_sample NAME: true when NAME can be loaded here.
have_sample() {
	case $1 in
	store) return 0 ;;
	sakila) [ -r "$RP_SHARED/data/sakila/sakila-schema.sql" ] &&
	    [ -r "$RP_SHARED/data/sakila/sakila-data.sql" ] ;;
	*) return 1 ;;
	esac
}
# sample_sql NAME DB schema|data: that file of sample NAME, made to create
# and use database DB, on stdout.
sample_sql() {
	case $1 in
	store) "$RP_TOP/tests/gen-store" "$3" "$2" ;;
	sakila) have_sample sakila || return 1
		sed -E "s/\\bsakila\\b/$2/g" "$RP_SHARED/data/sakila/sakila-$3.sql" ;;
	*) return 1 ;;
	esac
}
# load_sample NAME DB: sample NAME as database DB, loaded by the client.
load_sample() {
	sql -e "DROP DATABASE IF EXISTS \`$2\`" &&
	sample_sql "$1" "$2" schema | sql && sample_sql "$1" "$2" data | sql
}
# on_samples FUNC: FUNC NAME for every sample here, store first; for one
# that is not here, as many skip lines as FUNC made checks on the store.
on_samples() {
	_n0=$T_N
	"$1" store
	_per=$((T_N - _n0))
	if have_sample sakila; then "$1" sakila; else sample_skip sakila $_per; fi
}
# sample_skip NAME N: N "ok # skip" lines for the checks of a sample that
# is not here, saying where it would come from.
sample_skip() {
	skip "$2" "no $1 sample (optional: $RP_SHARED/data/$1, see RP_SHARED in README.md; the store sample covers the same)"
}
# load_alltypes DB: tests/data/alltypes.sql into a fresh DB.
load_alltypes() {
	fresh_db "$1" && { echo "SET NAMES utf8mb4; SET SESSION sql_mode='';" \
	    "SET time_zone='+00:00';"; cat "$RP_TOP/tests/data/alltypes.sql"; } |
	    sql "$1"
}
# load_shop DB: tests/data/shop.sql (rows the server generates) into a fresh DB.
load_shop() { fresh_db "$1" && sql "$1" <"$RP_TOP/tests/data/shop.sql"; }
# rss CMD...: run CMD; its max RSS in KiB is the last line of rss.txt.
rss() { /usr/bin/time -o rss.txt -f %M "$@"; }
# sanitized FILE: true if program FILE is a sanitizer build (make asan).
sanitized() { ldd "$1" | grep -q libasan; }
# rss_below PROG KIB LIMIT_MIB NAME: ok if KIB is under LIMIT_MIB MiB;
# skipped if PROG is a sanitizer build, whose own memory (ASan's shadow
# and quarantine) would dominate.
rss_below() {
	if sanitized "$(command -v "$1")"; then
		skip 1 "a sanitizer build: memory not measured"
	else ok $(($2 >= $3 * 1024)) "$4"; fi
}
# doubt_resume DB WORK TOKEN WANT WHAT: the run's stderr (err) says that
# WORK ("statement 1: the statement") got no answer and names both
# points, TOKEN (a regex) the one with it; resumed from that one (in.rp
# on DB), DB.c's "id n" rows are WANT ("1 1,2 0,"): WHAT once.
doubt_resume() {
	_line=$(grep 'got no answer' err)
	like "$_line" "^sqlexec: $2 got no answer \\(.*\\(20[0-9][0-9]\\)\\): the server may have committed it or not: if the target holds its work \\(its rows, or what its DDL made\\), resume with --skip-to $3; if not, run the same input again" \
	    "the resume line names what is in doubt and both ways on"
	if grep -q "no statement is committed" err; then _r=1; else _r=0; fi
	ok $_r "... and does not say that nothing is committed"
	_tok=$(printf '%s\n' "$_line" | sed -n 's/.*if the target holds its work (its rows, or what its DDL made), resume with --skip-to \([^;]*\);.*/\1/p')
	sqlexec --no-defaults -uroot -S "$RP_SOCK" -D "$1" --skip-to "$_tok" <in.rp 2>err2
	is $? 0 "resumed with the point for 'the target holds it': exit 0"
	is "$(sql -e "SELECT id, n FROM $1.c ORDER BY id" | tr '\t\n' ' ,')" "$4" \
	    "... $5 applied once, the INSERT after it once"
}

