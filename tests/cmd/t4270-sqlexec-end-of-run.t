#!/bin/sh
# One end of run for every stream (run.c): the same failure of a snapshot
# stream (dbsnap's) and of the statement stream of the same dump
# (rows2sql | sqlsplit) gives the same exit status and the same shape of
# the last lines: the error, the summary, and a resume line only where
# something is left to resume (a failed object with and without --force,
# a cut stream, SIGINT while the input is silent, success, -q).  Before #23's run.c the two streams had
# two ends of run: with --force and a failed object the snapshot stream
# printed a resume line after its summary (a run that went to the end
# has nothing to resume) and the statement stream printed none.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

fresh_db t4270_src
sql t4270_src -e "
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40));
INSERT INTO t SELECT seq, REPEAT('x', 30) FROM seq_1_to_3000;
CREATE VIEW v AS SELECT id FROM t;"
dbsnap $C --chunk-rows 200 --no-progress t4270_src >snap.rp 2>err
is $? 0 "dbsnap: exit 0"
rows2sql --max-statement-size=4k <snap.rp | sqlsplit >stmt.rp
is $? 0 "rows2sql | sqlsplit: exit 0"

# load KIND ARGS...: stdin, the KIND stream, into a fresh t4270_dst
# whose table v is in the view's way (unless block=0); stderr to err.KIND
block=1
load() {
	_k=$1
	shift
	fresh_db t4270_dst
	[ $block = 0 ] || sql t4270_dst -e "CREATE TABLE v (a INT)"
	sqlexec $C -j 2 --no-progress --rename-db t4270_src=t4270_dst "$@" \
	    2>"err.$_k"
}
# shape KIND RC: what the end of the run says, without the numbers:
# "exit RC; summary, then resume" and the like
shape() {
	_e=err.$1
	_sum=$(grep -cE '^sqlexec: [0-9]+ (tables?|statements?), ' "$_e")
	_res=$(grep -cE 'resume with --skip-to |run the same input again' "$_e")
	# (a snapshot stream read from a pipe says after its resume line
	# that a resume takes the same stream: resume.c, not the end's shape)
	_last=$(grep -v '^sqlexec: that takes this same stream' "$_e" | tail -1)
	case $_last in
	*"resume with --skip-to "*|*"run the same input again"*) _l=resume ;;
	"sqlexec: "[0-9]*) _l=summary ;;
	*) _l=other ;;
	esac
	echo "exit $2; $_sum summary, $_res resume line, last: $_l"
}

# both SNAP STMT ARGS...: load both streams; their exits in r1 and r2
both() {
	_s=$1 _t=$2
	shift 2
	load snap "$@" <"$_s"; r1=$?
	load stmt "$@" <"$_t"; r2=$?
}
# same WANT WHAT: the snapshot stream ended as WANT says, and the
# statement stream as the snapshot stream
same() {
	is "$(shape snap $r1)" "$1" "$2, snapshot stream: $1"
	is "$(shape stmt $r2)" "$(shape snap $r1)" \
	    "$2: the statement stream ends as the snapshot stream"
}

# 1. The view cannot be created: the run stops there.
both snap.rp stmt.rp
same "exit 1; 1 summary, 1 resume line, last: resume" "a failed object"
like "$(cat err.snap)" "ERROR 1050" "snapshot stream: the server's error is said"
like "$(cat err.stmt)" "ERROR 1050" "statement stream: the server's error is said"

# 2. --force: the failure is counted, the run goes to the end: nothing to
# resume (the old snapshot path printed a resume line here).
both snap.rp stmt.rp --force
same "exit 1; 1 summary, 0 resume line, last: summary" "--force"
like "$(tail -1 err.snap)" "1 objects FAILED$" "--force, snapshot stream: counted as failed"
like "$(tail -1 err.stmt)" "1 FAILED$" "--force, statement stream: counted as failed"
is "$(sql -e 'SELECT COUNT(*) FROM t4270_dst.t')" 3000 \
    "--force: the rows are loaded after the failed object"

# 3. A cut stream: the reader's error, the summary, the resume line.
head -c $(($(wc -c <snap.rp) / 2)) snap.rp >cut.snap
head -c $(($(wc -c <stmt.rp) / 2)) stmt.rp >cut.stmt
both cut.snap cut.stmt
same "exit 1; 1 summary, 1 resume line, last: resume" "a cut stream"
like "$(cat err.snap)" "truncated" "a cut snapshot stream: said truncated"
like "$(cat err.stmt)" "truncated" "a cut statement stream: said truncated"

# 4. Success: the summary alone, exit 0, for both (and -q: nothing).
block=0
both snap.rp stmt.rp
same "exit 0; 1 summary, 0 resume line, last: summary" "success"
both snap.rp stmt.rp -q
is "$r1 $r2 $(cat err.snap err.stmt | wc -l)" "0 0 0" "-q: nothing said by either"

# 5. SIGINT while the input is silent (the first half sent, some units
# committed): interrupted, the summary, the resume line.
rows_in() { [ "$(sql -e 'SELECT COUNT(*) FROM t4270_dst.t' 2>/dev/null)" \
    -gt 0 ] 2>/dev/null; }
interrupt() {	# KIND CUT: CUT through a fifo held open, then SIGINT
	rm -f fifo
	mkfifo fifo
	exec 3<>fifo
	fresh_db t4270_dst
	sqlexec $C -j 2 --no-progress --rename-db t4270_src=t4270_dst \
	    --commit-every 16000 <fifo 2>"err.$1" &
	_p=$!
	cat "$2" >&3
	wait_for rows_in || diag "$1: no rows committed before the deadline"
	kill -INT $_p
	wait $_p
	_r=$?
	exec 3>&-
	return $_r
}
interrupt snap cut.snap; r1=$?
interrupt stmt cut.stmt; r2=$?
same "exit 1; 1 summary, 1 resume line, last: resume" "SIGINT"
like "$(cat err.snap)" "interrupted \(Interrupt" "SIGINT, snapshot stream: said interrupted"
like "$(cat err.stmt)" "interrupted \(Interrupt" "SIGINT, statement stream: said interrupted"

sql -e "DROP DATABASE t4270_src; DROP DATABASE t4270_dst"
done_testing
