#!/bin/sh
# sqlexec --checkpoint DB.TABLE records the committed position in the
# target, in the same transaction as each unit, and --resume continues
# from it exactly once: after SIGINT, and after kill -9 of sqlexec at any
# moment (a table without a key shows any row loaded twice).  A statement
# that is not transactional and was running when the run died is named,
# with the two ways to go on.  Issue 15 item 2.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
CK=t4130_ck.pos

# mk DB: a table without a key, 1200 INSERTs of one row each (every 10th
# sleeps 20 ms, so that a run takes a few seconds), a DDL in the middle;
# SQL text.
mk() {
	awk -v db="$1" 'BEGIN {
		printf "DROP DATABASE IF EXISTS %s;\nCREATE DATABASE %s;\n", db, db
		printf "USE %s;\nCREATE TABLE t (id INT, v INT);\n", db
		for (n = 1; n <= 1200; n++) {
			if (n == 600)
				print "CREATE TABLE u (id INT);"
			printf "INSERT INTO t VALUES (%d, %s);\n", n,
			    n % 10 ? "0" : "SLEEP(0.02)"
		}
	}'
}
# rows DB: count, sum and distinct ids of t.
rows() {
	sql -e "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id) FROM $1.t"
}
# wait_rows DB N: until t has at least N rows (deadline 30 s).
# settled: the server has ended the sessions of a killed sqlexec.  A
# statement it had sent (an ordered INSERT runs alone, in autocommit)
# still commits after the kill: counting rows before that races with it.
settled() {
	[ "$(sql -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST
	    WHERE ID <> CONNECTION_ID() AND DB LIKE 't4130%'")" = 0 ]
}

wait_rows() {
	n=0
	while [ $n -lt 300 ]; do
		[ "$(sql -e "SELECT COUNT(*) FROM $1.t" 2>/dev/null || echo 0)" \
		    -ge "$2" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
ckpt() {
	sql -e "SELECT state, position, pending IS NULL FROM $CK"
}

sql -e "DROP DATABASE IF EXISTS t4130_ck; CREATE DATABASE t4130_ck"
mk t4130_a | sqlexec-gen >a.rp
want="1200	$((1200 * 1201 / 2))	1200"

# Usage errors.
sqlexec $C --resume <a.rp 2>err
is $? 2 "--resume without --checkpoint: exit 2"
sqlexec $C --checkpoint $CK --resume --skip-to 3 <a.rp 2>err
is $? 2 "--resume with --skip-to: exit 2"
sqlexec $C --checkpoint nodot <a.rp 2>err
is $? 2 "--checkpoint without db.table: exit 2"
sqlexec $C --checkpoint $CK --resume <a.rp 2>err
is $? 1 "--resume with no run recorded: exit 1"
like "$(cat err)" "no run recorded: nothing to resume" "--resume with no run: the reason"

# SIGINT, then --resume.
sqlexec $C -j 3 --commit-every 300 --checkpoint $CK <a.rp 2>err &
pid=$!
wait_rows t4130_a 300
kill -INT $pid
wait $pid
is $? 1 "SIGINT: exit 1"
like "$(tail -1 err)" "^sqlexec: statements 1-[0-9]+ are committed; resume with --resume \\(checkpoint $CK records it\\)$" \
    "SIGINT: resume with --resume"
like "$(ckpt)" "^running	[0-9]+	1$" "SIGINT: the checkpoint says running, at a position"
sqlexec $C -j 3 --commit-every 300 --checkpoint $CK <a.rp 2>err
is $? 1 "a fresh run over an unfinished checkpoint: exit 1"
like "$(cat err)" "holds an unfinished run \\(statements 1-[0-9]+ committed\\): continue it with --resume" \
    "a fresh run over an unfinished checkpoint: the reason"
sqlexec $C -j 3 --commit-every 300 --checkpoint $CK --resume <a.rp 2>err
is $? 0 "SIGINT, --resume: exit 0"
is "$(rows t4130_a)" "$want" "SIGINT, --resume: every row exactly once"
like "$(ckpt)" "^done	1205	1$" "the checkpoint says done, at the last statement"
sqlexec $C -j 3 --checkpoint $CK --resume <a.rp 2>err
is $? 0 "--resume of a complete run: exit 0"
is "$(rows t4130_a)" "$want" "--resume of a complete run: nothing runs again"

# kill -9 at three moments, each followed by --resume (which may itself be
# killed): exactly once, whatever was in flight.
for at in 150 400 900; do
	sql -e "DROP DATABASE IF EXISTS t4130_a"
	sqlexec $C -j 3 --commit-every 200 --checkpoint $CK <a.rp 2>/dev/null &
	pid=$!
	wait_rows t4130_a $at
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_for settled
	got=$(sql -e "SELECT COUNT(*) FROM t4130_a.t")
	sqlexec $C -j 3 --commit-every 200 --checkpoint $CK --resume <a.rp 2>err
	r=$?
	# killed during the DDL (CREATE TABLE u): follow the advice given
	if [ $r -eq 1 ] && grep -q 'had begun when the run stopped' err; then
		diag "killed during CREATE TABLE u: $(cat err)"
		if [ "$(sql -e "SELECT COUNT(*) FROM information_schema.tables
		    WHERE table_schema = 't4130_a' AND table_name = 'u'")" = 1 ]
		then
			tok=$(sed -n 's/.*resume with --skip-to \([0-9]*:[0-9a-f]*\) if it took effect.*/\1/p' err)
		else
			tok=$(sed -n 's/.* or --skip-to \([0-9]*:[0-9a-f]*\) if not.*/\1/p' err)
		fi
		sqlexec $C -j 3 --commit-every 200 --checkpoint $CK \
		    --skip-to "$tok" <a.rp 2>err
		r=$?
	fi
	is $r 0 "kill -9 after $got rows, --resume: exit 0"
	[ $r -eq 0 ] || sed 's/^/# /' err
	is "$(rows t4130_a)" "$want" "kill -9 after $got rows: every row exactly once"
	sql -e "DELETE FROM $CK"
done

# A different input on --resume: refused by its identity.
sql -e "DROP DATABASE IF EXISTS t4130_a"
sqlexec $C -j 3 --commit-every 200 --checkpoint $CK <a.rp 2>/dev/null &
pid=$!
wait_rows t4130_a 300
kill -KILL $pid
wait $pid 2>/dev/null
wait_for settled
mk t4130_a | sed 's/VALUES (7, 0)/VALUES (7, 1)/' | sqlexec-gen >other.rp
before=$(rows t4130_a)
sqlexec $C --checkpoint $CK --resume <other.rp 2>err
is $? 1 "--resume with another input: exit 1"
like "$(head -1 err)" "^sqlexec: --resume \\(checkpoint $CK, at [0-9]+:[0-9a-f]{16}\\): this input is not the one the resume point was made from" \
    "--resume with another input: refused by its identity, naming --resume"
is "$(rows t4130_a)" "$before" "--resume with another input: nothing of it ran"
sql -e "DELETE FROM $CK"

# running_sleep: until a DO SLEEP(20) runs (deadline 30 s).
running_sleep() {
	n=0
	until [ "$(sql -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST
	    WHERE info = 'DO SLEEP(20)'")" -gt 0 ] || [ $n -ge 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
# kill_sleep: end it.
kill_sleep() {
	for id in $(sql -e "SELECT id FROM information_schema.PROCESSLIST
	    WHERE info = 'DO SLEEP(20)'"); do
		sql -e "KILL QUERY $id"
	done
}
{ printf 'DROP DATABASE IF EXISTS t4130_d;\nCREATE DATABASE t4130_d;\n'
  printf 'USE t4130_d;\nCREATE TABLE t (id INT);\nINSERT INTO t VALUES (1);\n'
  printf 'DO SLEEP(20);\nINSERT INTO t VALUES (2);\n'; } | sqlexec-gen >d.rp

# Two runs on one checkpoint: the second is refused while the first runs
# (it waits 2 s for the lock; the first sleeps 20 s until killed).
sqlexec $C --checkpoint $CK <d.rp 2>/dev/null &
pid=$!
running_sleep
sqlexec $C --checkpoint $CK <a.rp 2>err
is $? 1 "a second run on the same checkpoint: exit 1"
like "$(cat err)" "checkpoint $CK: in use by another sqlexec" "a second run: the reason"
kill_sleep
wait $pid
is $? 0 "the first run completes"
sql -e "DELETE FROM $CK"

# A connection of an earlier run that the server has not ended yet (kill
# -9 of sqlexec leaves a statement running, or a COMMIT that reached the
# server, which writes the checkpoint row): it holds its connection's
# lock on the checkpoint, as each connection of a run does (here a client
# holds lock 2 as such a connection would).  A run on the checkpoint
# waits for it, naming its id, and begins only once it has ended: the
# row is then the whole truth, and the killed run's row locks are gone.
h=$(printf %s "$CK" | xxhsum -H3 | sed 's/.* = //')
lock2="rowpipe-checkpoint-$h-2"
sql -e "SELECT GET_LOCK('$lock2', 0); SELECT SLEEP(60)" >/dev/null 2>&1 &
holder=$!
held() { [ -n "$(sql -e "SELECT IS_USED_LOCK('$lock2')" | grep -v NULL)" ]; }
wait_for held
id=$(sql -e "SELECT IS_USED_LOCK('$lock2')")
sql -e "DROP DATABASE IF EXISTS t4130_d"
sqlexec $C -j 2 --checkpoint $CK <d.rp 2>err &
pid=$!
said() { grep -q "waiting for connection" err; }
wait_for said
like "$(cat err)" "^sqlexec: checkpoint $CK: waiting for connection $id of an earlier run of it to end on the server \\(a statement of that run still runs or rolls back; KILL it to end it sooner\\)$" \
    "a run waits for a connection of an earlier one, naming it"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 't4130_d'")" 0 \
    "nothing of the input ran meanwhile"
sql -e "KILL $id"
wait $holder 2>/dev/null
running_sleep
kill_sleep
wait $pid
is $? 0 "once it has ended, the run goes on and completes"
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM t4130_d.t")" "1,2" \
    "every row once"
sql -e "DELETE FROM $CK"

# Killed while a DDL runs: the checkpoint names it as pending, --resume
# says how to go on instead of guessing, and either token continues.
sqlexec $C --checkpoint $CK <d.rp 2>/dev/null &
pid=$!
running_sleep
kill -KILL $pid
wait $pid 2>/dev/null
wait_for settled
kill_sleep
like "$(ckpt)" "^running	5	0$" "killed during a DDL: position 5, statement 6 pending"
sqlexec $C --checkpoint $CK --resume <d.rp 2>err
is $? 1 "--resume with a pending DDL: exit 1"
like "$(cat err)" "statement 6 had begun when the run stopped, and it is not transactional \\(DDL[^)]*\\): check the target for its effect, then resume with --skip-to 6:[0-9a-f]{16} if it took effect, or --skip-to 5:[0-9a-f]{16} if not" \
    "--resume with a pending DDL: both ways named"
tok=$(sed -n 's/.* or --skip-to \(5:[0-9a-f]*\) if not.*/\1/p' err)
sqlexec $C --checkpoint $CK --skip-to "$tok" <d.rp 2>err
is $? 0 "--skip-to the position before the DDL, with --checkpoint: exit 0"
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM t4130_d.t")" "1,2" \
    "every row exactly once"
like "$(ckpt)" "^done	7	1$" "the checkpoint says done"

# A snapshot stream (dbsnap's frames, loaded by sqlexec itself), into a
# table without a key: kill -9, --resume, every row exactly once.
sql -e "DELETE FROM $CK; DROP DATABASE IF EXISTS t4130_sn; CREATE DATABASE
    t4130_sn; USE t4130_sn; CREATE TABLE s (id INT, v VARCHAR(20));
    INSERT INTO s SELECT seq, CONCAT('value ', seq) FROM seq_1_to_150000"
dbsnap $C t4130_sn >sn.rp
swant=$(sql -e "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id) FROM t4130_sn.s")
sqlexec $C -j 2 --commit-every 1 --checkpoint $CK <sn.rp 2>/dev/null &
pid=$!
n=0	# until rows have committed: frames 1-3 are the objects and the table
until pos=$(sql -e "SELECT position FROM $CK" 2>/dev/null);
    [ "${pos:-0}" -gt 3 ] || [ $n -ge 300 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -KILL $pid
wait $pid 2>/dev/null
wait_for settled
got=$(sql -e "SELECT COUNT(*) FROM t4130_sn.s")
like "$(ckpt)" "^running	[0-9]+	1$" "snapshot, kill -9 after $got rows: the checkpoint is a run"
sqlexec $C -j 2 --commit-every 1 --checkpoint $CK --resume <sn.rp 2>err
r=$?
is $r 0 "snapshot, kill -9, --resume: exit 0"
[ $r -eq 0 ] || sed 's/^/# /' err
is "$(sql -e "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id) FROM t4130_sn.s")" \
    "$swant" "snapshot, kill -9, --resume: every row exactly once"

# A live snapshot stream (dbsnap | sqlexec) that fails: a new dbsnap run
# is another snapshot, which --resume refuses (naming --resume), so the
# resume line says what works: start over, or resume from a saved copy.
# The load fails under --strict on a value too wide for the target.
sql -e "DELETE FROM $CK; DROP DATABASE IF EXISTS t4130_l;
    DROP DATABASE IF EXISTS t4130_m; CREATE DATABASE t4130_l;
    CREATE DATABASE t4130_m; USE t4130_l;
    CREATE TABLE w (id INT PRIMARY KEY, c VARCHAR(40));
    INSERT INTO w SELECT seq, IF(seq = 99000, 'United States', 'Chad')
    FROM seq_1_to_100000;
    CREATE TABLE t4130_m.w (id INT PRIMARY KEY, c VARCHAR(5))"
live() {
	f=$1
	shift
	dbsnap $C t4130_l | tee -p "$f" | rowmap --rename-db t4130_l=t4130_m |
	    sqlexec $C --no-create --strict --commit-every 10K "$@"
}
live saved.rp --checkpoint $CK 2>err
is $? 1 "live stream, --checkpoint: the load fails"
like "$(cat err)" "^sqlexec: frames 1-[0-9]+ are committed; resume with --resume \\(checkpoint $CK records it\\)$" \
    "live stream: the resume line"
like "$(tail -1 err)" "^sqlexec: that takes this same stream: if it came straight from dbsnap, a new dbsnap run is another snapshot, which --resume refuses: then start over \\(DELETE FROM $CK, then empty the tables this run loaded \\(with --no-create they are not created again, and their rows would be loaded twice: [^()]*w\\), then the same pipeline\\); to be able to resume, save the stream as it loads \\(dbsnap ... \\| tee -p FILE \\| sqlexec ...\\) and resume from FILE$" \
    "live stream: what works instead of a new dbsnap run (--no-create: the loaded tables emptied first)"
before=$(sql -e "SELECT COUNT(*) FROM t4130_m.w")
ok $([ "$before" -gt 0 ] && [ "$before" -lt 99000 ]; echo $?) \
    "live stream: $before rows before the failed unit are committed"
live again.rp --checkpoint $CK --resume 2>err
is $? 1 "live stream, a new dbsnap run, --resume: exit 1"
like "$(head -1 err)" "^sqlexec: --resume \\(checkpoint $CK, at f[0-9]+(,[0-9]+=[0-9]+)*:[0-9a-f]{16}\\): this input is not the one the resume point was made from: its frames 1-[0-9]+ differ; resume only with the same input \\(a new dbsnap run is another snapshot: to start over, DELETE FROM $CK, then empty the tables the earlier run loaded \\(with --no-create they are not created again, and their rows would be loaded twice\\), then run without --resume\\)$" \
    "live stream, a new dbsnap run: refused, naming --resume and what works"
is "$(sql -e "SELECT COUNT(*) FROM t4130_m.w")" "$before" \
    "live stream, a new dbsnap run: nothing of it ran"
# What the advice says works: the copy tee saved resumes.
sql -e "ALTER TABLE t4130_m.w MODIFY c VARCHAR(40)"
rowmap --rename-db t4130_l=t4130_m <saved.rp |
    sqlexec $C --no-create --strict --commit-every 10K --checkpoint $CK \
    --resume 2>err
is $? 0 "live stream: --resume from the copy tee saved: exit 0"
is "$(sql -e "SELECT COUNT(*), SUM(c = 'United States') FROM t4130_m.w")" \
    "100000	1" "live stream: resumed from the copy: every row"

# A run stopped before its first commit (a signal just after it wrote
# 'running' at position 0, the window the early handler's "run the same
# command again" covers): the same command starts again; a row at 0 with
# a statement pending is still an unfinished run.
sql -e "UPDATE $CK SET state = 'running', position = 0, marks = NULL,
    pending = NULL, pending_identity = NULL, pending_marks = NULL"
sqlexec $C -j 3 --commit-every 300 --checkpoint $CK <a.rp 2>err
is $? 0 "a row at position 0, nothing pending: the same command runs: exit 0"
is "$(rows t4130_a)" "$want" "a row at position 0: every row exactly once"
sql -e "UPDATE $CK SET state = 'running', position = 0, pending = 5,
    pending_identity = '0000000000000000'"
sqlexec $C --checkpoint $CK <a.rp 2>err
is $? 1 "a row at position 0 with a statement pending: refused, exit 1"
like "$(cat err)" "holds an unfinished run \\(statements 1-0 committed\\)" \
    "a row at position 0 with a statement pending: the reason"

sql -e "DROP DATABASE t4130_a; DROP DATABASE t4130_d; DROP DATABASE t4130_ck;
    DROP DATABASE t4130_sn; DROP DATABASE t4130_l; DROP DATABASE t4130_m"
done_testing
