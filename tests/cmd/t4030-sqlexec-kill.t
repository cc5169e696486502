#!/bin/sh
# sqlexec: a restore whose connection is killed (KILL CONNECTION, found in
# information_schema.PROCESSLIST) exits 1 with the server's error and a
# resume point; resuming with --skip-to ends identical to an uninterrupted
# restore.  A SLEEP() inside one INSERT makes the kill land mid-unit.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

mk() {
	echo "DROP DATABASE IF EXISTS $1;"
	echo "CREATE DATABASE $1;"
	echo "USE $1;"
	echo "/*!40103 SET TIME_ZONE='+00:00' */;"
	echo "CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP, pad VARCHAR(40));"
	echo "CREATE TABLE u (id INT PRIMARY KEY, n INT);"
	n=1
	while [ $n -le 600 ]; do
		echo "INSERT INTO t VALUES ($n, '2021-03-28 02:30:00', REPEAT('x', 30));"
		[ $n -eq 400 ] && echo "INSERT INTO t VALUES (100000, '2021-01-01', SLEEP(3));"
		n=$((n + 1))
	done
	echo "INSERT INTO u SELECT id, 1 FROM t;"
	echo "CREATE TABLE v (id INT);"
}

for j in 1 3; do
	ref=t4030_ref$j db=t4030_k$j
	mk $ref | sed 's/SLEEP(3)/0/' | sqlexec-gen | sqlexec $C -j $j 2>/dev/null
	is $? 0 "-j $j: uninterrupted restore"
	mk $db | sqlexec-gen >d.rp
	sqlexec $C -j $j --commit-every 2000 <d.rp 2>err &
	pid=$!
	id= n=0
	while [ -z "$id" ] && [ $n -lt 300 ]; do
		id=$(sql -e "SELECT id FROM information_schema.PROCESSLIST
		    WHERE id <> CONNECTION_ID() AND info LIKE '%SLEEP(3)%' LIMIT 1")
		[ -n "$id" ] || sleep 0.1
		n=$((n + 1))
	done
	ok $([ -n "$id" ]; echo $?) "-j $j: found the connection running the unit"
	[ -n "$id" ] && sql -e "KILL CONNECTION $id"
	wait $pid
	is $? 1 "-j $j: killed restore exits 1"
	like "$(cat err)" "^sqlexec: statement [0-9]+ \(line [0-9]+, table $db\.t\): ERROR (2013|2006|1927) " \
	    "-j $j: the lost connection is reported with the statement"
	resume=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \(\1:[0-9a-f]\{16\}\)$/\2/p' err)
	like "$resume" '^[0-9]+:[0-9a-f]{16}$' "-j $j: resume point printed ($resume)"
	sqlexec $C -j $j --commit-every 2000 --skip-to "${resume:-0}" <d.rp 2>err
	is $? 0 "-j $j: resumed restore exits 0"
	is "$(checksums $db)" "$(checksums $ref)" "-j $j: resumed restore equals the uninterrupted one"
	is "$(sql -e "SELECT COUNT(*), SUM(n) FROM $db.u")" "601	601" "-j $j: INSERT ... SELECT saw every row"
	sql -e "DROP DATABASE $db"

	# SIGINT: kill the running statements, roll back, print the resume
	# point (t4080 tests the interrupt itself)
	sqlexec $C -j $j --commit-every 2000 <d.rp 2>err &
	pid=$!
	id= n=0
	while [ -z "$id" ] && [ $n -lt 300 ]; do
		id=$(sql -e "SELECT id FROM information_schema.PROCESSLIST
		    WHERE id <> CONNECTION_ID() AND info LIKE '%SLEEP(3)%' LIMIT 1")
		[ -n "$id" ] || sleep 0.1
		n=$((n + 1))
	done
	kill -INT $pid
	wait $pid
	is $? 1 "-j $j: interrupted restore exits 1"
	like "$(cat err)" "^sqlexec: interrupted \(Interrupt\): " "-j $j: interruption reported"
	resume=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \(\1:[0-9a-f]\{16\}\)$/\2/p' err)
	like "$resume" '^[0-9]+:[0-9a-f]{16}$' "-j $j: resume point printed ($resume)"
	sqlexec $C -j $j --commit-every 2000 --skip-to "${resume:-0}" <d.rp 2>err
	is $? 0 "-j $j: resumed restore exits 0"
	is "$(checksums $db)" "$(checksums $ref)" "-j $j: resumed restore equals the uninterrupted one"
	sql -e "DROP DATABASE $ref; DROP DATABASE $db"
done
done_testing
