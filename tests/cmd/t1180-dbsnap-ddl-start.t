#!/bin/sh
# DDL that runs while dbsnap starts never gives a dump whose definitions
# do not match its rows with exit 0.  A server-side loop swaps two tables
# of different columns (RENAME TABLE a TO tmp, b TO a, tmp TO b, as
# pt-online-schema-change's cut-over) and adds and drops a column of a
# third and rebuilds it (ALTER TABLE ... FORCE: a rebuild after the
# snapshot began is error 1412 on reading it), while dbsnap dumps the
# tables named, or the whole database, again and again (-j 1 and -j 2).
# A table left out of a dump (listed as the swap ran: review, 13 of 20
# whole-database dumps exited 0 with a or b missing) is a wrong dump.
# Each dump either fails saying which table changed while the dump
# started, or restores (rows2sql) to tables whose definitions hold their
# rows: the table with column x holds a's 50 rows (x = id), the one with
# y and z b's 40 (y = CONCAT('b', id), z = 2 * id), and c its 30 rows
# (w = 7 where it has w).  Before, a definition read before the DDL went
# with the rows read after it (review: 5 dumps of 30): a restore that
# failed, or a dump that failed with another error.  A dump that meets no
# DDL passes as well: the verdict is the same whichever way each race
# falls.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1180_db
DST=t1180_dst
fresh_db $DB
sql $DB <<'SQL' || exit 1
CREATE TABLE a (id int PRIMARY KEY, x int NOT NULL);
CREATE TABLE b (id int PRIMARY KEY, y varchar(20) NOT NULL, z int NOT NULL);
CREATE TABLE c (id int PRIMARY KEY, v int NOT NULL);
INSERT INTO a SELECT seq, seq FROM seq_1_to_50;
INSERT INTO b SELECT seq, CONCAT('b', seq), 2 * seq FROM seq_1_to_40;
INSERT INTO c SELECT seq, seq FROM seq_1_to_30;
CREATE TABLE ctl (id int PRIMARY KEY, stop int, ops bigint);
INSERT INTO ctl VALUES (1, 0, 0);
DELIMITER ;;
CREATE PROCEDURE ddl()
BEGIN
  DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
  SET SESSION lock_wait_timeout = 1;
  WHILE (SELECT stop FROM ctl WHERE id = 1) = 0 DO
    RENAME TABLE a TO tmp, b TO a, tmp TO b;
    ALTER TABLE c ADD COLUMN w int NOT NULL DEFAULT 7;
    ALTER TABLE c DROP COLUMN w;
    ALTER TABLE c FORCE;
    UPDATE ctl SET ops = ops + 1 WHERE id = 1;
  END WHILE;
END;;
SQL

# information_schema leaves out a table that DDL holds (warning 1684,
# no error) when the connection reading it holds locks, as dbsnap's does
# once it has locked the tables listed: the loop below lost table a so (1
# dump in ~440 exited 0 without it).  Made to happen at once here: the
# dump waits for t's lock (LOCK TABLES ... WRITE in another session)
# after listing the tables; then n is created and a RENAME of n and of a
# table of another database, whose lock a transaction holds, takes n's
# lock and waits; t is unlocked, and the list dbsnap reads again under
# its locks skips n.  The dump fails naming n, not exit 0 without it.
sql $DB -e "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)"
fresh_db ${DB}_o
sql ${DB}_o -e "CREATE TABLE o (id int)"
# sessions whose statement is LIKE $1 (waiting, when $2 is "waiting")
sessions() {
	sql -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE
	    '$1' AND ID <> CONNECTION_ID()
	    ${2:+AND STATE = 'Waiting for table metadata lock'}"
}
running() { [ -n "$(sessions "$@")" ]; }
stop_sleep() { sessions "$1" | while read -r id; do sql -e "KILL QUERY $id"; done; }
# skipped ARGS: the dump (dbsnap ARGS, its status in $rc, err) made to
# meet information_schema's skip of n as above.
skipped() {
	# the sleeping sessions end with the test, whatever stops it
	trap "stop_sleep 'SELECT %t1180_z%'; stop_sleep 'SELECT %t1180_y%'" EXIT
	sql $DB -e "LOCK TABLES t WRITE; SELECT 't1180_z', SLEEP(120)" >/dev/null 2>&1 &
	z=$!
	wait_for running 'SELECT %t1180_z%'
	dbsnap $(CONN) -j 1 --ignore-table=$DB.ctl "$@" >out.rp 2>err &
	d=$!
	wait_for running "SELECT * FROM \`$DB\`.\`t\` LIMIT 0" waiting
	ok $? "$*: the dump lists the tables, then waits for t's lock"
	sql $DB -e "CREATE TABLE n (id int); INSERT INTO n VALUES (1)"
	sql ${DB}_o -e "BEGIN; SELECT * FROM o; SELECT 't1180_y', SLEEP(120)" >/dev/null 2>&1 &
	y=$!
	wait_for running 'SELECT %t1180_y%'
	sql -e "RENAME TABLE $DB.n TO $DB.n2, ${DB}_o.o TO ${DB}_o.o2" &
	rn=$!
	wait_for running "RENAME TABLE $DB.n TO %" waiting
	ok $? "$*: the RENAME holds n's lock and waits for o's"
	stop_sleep 'SELECT %t1180_z%'
	wait $d
	rc=$?
	stop_sleep 'SELECT %t1180_y%'
	wait $z $y $rn
	sql -e "DROP TABLE $DB.n2; RENAME TABLE ${DB}_o.o2 TO ${DB}_o.o"
	trap - EXIT
}
skipped $DB
is "$rc" 1 "the dump whose second list skips n exits 1"
like "$(cat err)" "^dbsnap: $DB: changed while the dump started \\(Table '$DB'\\.'n' was skipped" \
    "it names n, which information_schema left out"
# n is not in this dump: its skip loses nothing (ALTER of a table that a
# dump leaves out does not fail it)
skipped --ignore-table=$DB.n $DB
is "$rc" 0 "--ignore-table n: the dump whose second list skips n exits 0"
is "$(framecat <out.rp | grep -c '^TABLE	')" "$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '$DB' AND TABLE_NAME NOT IN ('ctl', 'n2')")" \
    "... with every other table"
sql -e "DROP DATABASE ${DB}_o; DROP TABLE $DB.t"

sql $DB -e "CALL ddl()" &
loop=$!
trap 'sql $DB -e "UPDATE ctl SET stop = 1" 2>/dev/null; wait $loop' EXIT
rounds() { [ "$(sql $DB -e 'SELECT ops FROM ctl')" -gt "$1" ]; }
wait_for rounds 5
ok $? "the DDL loop runs"

# The columns of restored table $1, as "id,x".
cols() {
	sql -e "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION)
	    FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '$DST'
	    AND TABLE_NAME = '$1'"
}
# "" if restored table $1 holds rows its definition fits, else why not.
fits() {
	case $(cols "$1") in
	id,x)	want=50 cond='x = id' ;;
	id,y,z)	want=40 cond="y = CONCAT('b', id) AND z = 2 * id" ;;
	id,v)	want=30 cond='v = id' ;;
	id,v,w)	want=30 cond='v = id AND w = 7' ;;
	*)	echo "$1: columns $(cols "$1")"; return ;;
	esac
	n=$(sql -e "SELECT COUNT(*) FROM \`$DST\`.\`$1\`")
	m=$(sql -e "SELECT COUNT(*) FROM \`$DST\`.\`$1\` WHERE $cond")
	[ "$n" = "$want" ] && [ "$m" = "$want" ] ||
	    echo "$1 ($(cols "$1")): $n rows, $m where $cond, want $want"
}

N=${T1180_DUMPS:-40}
bad=0 failed=0 changed=0 i=0
while [ $i -lt $N ]; do
	i=$((i + 1))
	j=$((1 + i % 2))
	# named tables, or the whole database (listed, as a swap runs)
	case $((i % 4)) in
	0|1)	dbsnap $(CONN) -j $j $DB a b c >out.rp 2>err ;;
	*)	dbsnap $(CONN) -j $j --ignore-table=$DB.ctl $DB >out.rp 2>err ;;
	esac
	rc=$?
	if [ $rc -ne 0 ]; then
		# A table named that was not there when the tables were
		# listed (mid-RENAME), before the snapshot: nothing was read.
		if [ $rc -eq 1 ] &&
		    grep -Eq "^dbsnap: $DB\.(a|b|c|tmp): (changed while the dump started|no such table$)" err; then
			failed=$((failed + 1))
			grep -q 'changed while' err && changed=$((changed + 1))
		else
			bad=$((bad + 1))
			diag "dump $i (-j $j): exit $rc: $(tail -1 err)"
		fi
		continue
	fi
	sql -e "DROP DATABASE IF EXISTS $DST"
	if ! rows2sql --rename-db=$DB=$DST <out.rp | sql 2>rerr; then
		bad=$((bad + 1))
		diag "dump $i (-j $j): the restore fails: $(tail -1 rerr)"
		continue
	fi
	why="$(fits a)$(fits b)$(fits c)"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		diag "dump $i (-j $j): $why"
	fi
done
ops=$(sql $DB -e 'SELECT ops FROM ctl')
diag "$N dumps: $failed failed naming the table that changed ($changed once locked, the others as listed), $((N - failed - bad)) restored right, $bad wrong; $ops rounds of DDL"
is "$bad" 0 "every dump of $N under the DDL loop restores right or fails saying what changed"
sql $DB -e "UPDATE ctl SET stop = 1"
wait $loop
is "$?" 0 "the DDL loop ends"
trap - EXIT
sql -e "DROP DATABASE $DB; DROP DATABASE IF EXISTS $DST"
done_testing
