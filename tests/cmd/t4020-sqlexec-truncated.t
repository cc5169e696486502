#!/bin/sh
# sqlexec: a statement stream cut at every 10th byte never exits 0, says
# "truncated", rolls back the open batch (the rows in the table are exactly
# those of the statements up to the printed resume point), and resuming
# from the whole stream at that point completes the restore.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t4020_d

# 1 DROP, 2 CREATE DATABASE, 3 USE, 4 CREATE TABLE t, 5.. INSERTs of
# id = statement number, with a barrier (CREATE TABLE u) in the middle.
{
	echo "DROP DATABASE IF EXISTS $db;"
	echo "CREATE DATABASE $db;"
	echo "USE $db;"
	echo "CREATE TABLE t (id INT PRIMARY KEY);"
	n=5
	while [ $n -le 16 ]; do
		if [ $n -eq 10 ]; then
			echo "CREATE TABLE u (id INT);"
		else
			echo "INSERT INTO t VALUES ($n);"
		fi
		n=$((n + 1))
	done
} | sqlexec-gen >full.rp
size=$(wc -c <full.rp)
all=$(seq 5 16 | grep -vx 10 | paste -sd, -)

cut=0 bad=0 badmsg=0 badrows=0 badresume=0 resumed=0
while [ $cut -lt "$size" ]; do
	head -c $cut full.rp | sqlexec $C -j 2 --commit-every 60 >/dev/null 2>err
	rc=$?
	if [ $rc -ne 1 ]; then
		bad=$((bad + 1)); diag "cut at $cut: exit $rc"
	fi
	if ! grep -Eq "^sqlexec: stdin: .*(truncated|empty)" err; then
		badmsg=$((badmsg + 1)); diag "cut at $cut: $(head -1 err)"
	fi
	# one number: the last committed statement is the one to skip to
	token=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \(\1:[0-9a-f]\{16\}\)$/\2/p
	    s/^sqlexec: statement 1 is committed; resume with --skip-to \(1:[0-9a-f]\{16\}\)$/\1/p' err)
	resume=${token%%:*}
	if [ -z "$token" ] && grep -q 'committed' err &&
	    ! grep -q '^sqlexec: no statement is committed' err; then
		badmsg=$((badmsg + 1)); diag "cut at $cut: $(grep committed err)"
	fi
	if grep -q 'after statement' err; then
		badmsg=$((badmsg + 1)); diag "cut at $cut: a second number: $(grep 'after statement' err)"
	fi
	resume=${resume:-0}
	want=$(seq 5 "$resume" | grep -vx 10 | paste -sd, -)
	got=$(sql -f -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $db.t;
	    DROP DATABASE IF EXISTS $db" 2>/dev/null)
	[ "$got" = NULL ] && got=
	if [ "$got" != "$want" ]; then
		badrows=$((badrows + 1)); diag "cut at $cut (resume $resume): rows $got"
	fi
	# cut again, then resume from the whole stream, every 50th byte
	if [ $((cut % 50)) -eq 0 ]; then
		resumed=$((resumed + 1))
		head -c $cut full.rp | sqlexec $C -j 2 --commit-every 60 >/dev/null 2>&1
		sqlexec $C -j 2 --commit-every 60 --skip-to "${token:-0}" <full.rp 2>err ||
		    { badresume=$((badresume + 1)); diag "resume at $resume: $(head -1 err)"; }
		got=$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $db.t;
		    DROP DATABASE $db")
		[ "$got" = "$all" ] ||
		    { badresume=$((badresume + 1)); diag "resume at $resume: rows $got"; }
	fi
	cut=$((cut + 10))
done
diag "$((size / 10 + 1)) cut points in a stream of $size bytes, $resumed resumed"
is $bad 0 "no cut stream exits other than 1"
is $badmsg 0 "every cut stream is reported as truncated, with one resume number"
is $badrows 0 "rows are exactly the statements up to the resume point"
is $badresume 0 "resuming from the whole stream completes the restore"
sqlexec $C -j 2 --commit-every 60 <full.rp 2>/dev/null; is $? 0 "the whole stream loads"
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $db.t")" "$all" "with every row"
sql -e "DROP DATABASE $db"
done_testing
