#!/bin/sh
# sqlexec: a duplicate key in the middle of a dump is reported with its
# statement number, line and table; the open batch is rolled back; the
# resume point is exact at -j 1 and -j 4; --force loads the rest.  A
# statement larger than the server's max_allowed_packet is reported as
# such before it is sent, not as "server has gone away".
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# statements: 1 DROP, 2 CREATE DATABASE, 3 USE, 4 CREATE TABLE, then
# INSERTs 5..404 of id = statement number, except statement 250 (line 251:
# a comment line shifts lines by one) repeats id 100.
mk() {
	echo "DROP DATABASE IF EXISTS $1;"
	echo "CREATE DATABASE $1;"
	echo "USE $1;"
	echo "-- the table"
	echo "CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(20));"
	n=5
	while [ $n -le 404 ]; do
		if [ $n -eq 250 ]; then
			echo "INSERT INTO orders VALUES (100, 'dup');"
		else
			echo "INSERT INTO orders VALUES ($n, 'row $n');"
		fi
		n=$((n + 1))
	done
	echo "CREATE TABLE after_all (id INT);"
}

for j in 1 4; do
	db=t4010_j$j
	mk $db | sqlexec-gen >d.rp
	sqlexec $C -j $j --commit-every 1000 <d.rp 2>err
	is $? 1 "-j $j: duplicate key exits 1"
	like "$(sed -n 1p err)" "^sqlexec: statement 250 \(line 251, table $db\.orders\): ERROR 1062 \(23000\): Duplicate entry '100' for key 'PRIMARY'$" \
	    "-j $j: error names statement, line, table, error number and SQLSTATE"
	token=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \(\1:[0-9a-f]\{16\}\)$/\2/p' err)
	like "$token" '^[0-9]+:[0-9a-f]{16}$' "-j $j: resume point printed, one number ($token)"
	resume=${token%%:*}
	# everything up to the resume point is there, nothing after it
	got=$(sql -e "SELECT COUNT(*), COALESCE(MAX(id), 4), COUNT(*) = COALESCE(MAX(id), 4) - 4 FROM $db.orders")
	is "$got" "$((resume - 4))	$resume	1" "-j $j: committed rows are exactly statements 5..$resume"
	ok $([ "$resume" -lt 250 ] && [ "$resume" -ge 4 ]; echo $?) "-j $j: resume point $resume before the failed statement"
	is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$db' AND table_name = 'after_all'")" 0 \
	    "-j $j: nothing after the error ran"
	# fix the row in the way, resume: the result is complete
	sql -e "DELETE FROM $db.orders WHERE id = 100"
	mk $db | sed 's/VALUES (100, .dup.)/VALUES (100, '"'row 100'"')/' | sqlexec-gen >fixed.rp
	sqlexec $C -j $j --skip-to $token <fixed.rp 2>err
	is $? 0 "-j $j: resume with --skip-to $resume succeeds"
	is "$(sql -e "SELECT COUNT(*), SUM(id) FROM $db.orders")" "399	$(( (5 + 404) * 400 / 2 - 250 ))" \
	    "-j $j: resumed restore is complete"
	is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$db' AND table_name = 'after_all'")" 1 \
	    "-j $j: the statements after the error ran"

	# --force: report, count, load the rest, exit 1
	mk $db | sqlexec-gen | sqlexec $C -j $j -f --commit-every 1000 2>err
	is $? 1 "-j $j --force: exits 1 when a statement failed"
	like "$(cat err)" "statement 250 \(line 251, table $db\.orders\): ERROR 1062" "-j $j --force: the error is reported"
	like "$(tail -1 err)" "^sqlexec: 40[0-9] statements, .*1 FAILED$" "-j $j --force: summary counts the failure"
	is "$(sql -e "SELECT COUNT(*) FROM $db.orders")" 399 "-j $j --force: every other row loaded"
	sql -e "DROP DATABASE $db"
done

# --force when the failed statement is in the first transaction into an
# empty table: MariaDB's bulk insert rolls back the whole transaction on
# an error, so sqlexec replays the unit statement by statement; the rows
# of the statements before the failed one must stay (as with mysql -f).
printf 'CREATE TABLE t (id INT PRIMARY KEY);\nSET UNIQUE_CHECKS=0;\nINSERT INTO t VALUES (1),(2);\nINSERT INTO t VALUES (2);\nINSERT INTO t VALUES (3);\n' |
    sqlexec-gen >f.rp
for j in 1 2; do
	fresh_db t4010_f
	sqlexec $C -f -j $j t4010_f <f.rp 2>err
	is $? 1 "-j $j --force in a bulk insert: exits 1"
	is "$(grep -c 'ERROR 1062' err)" 1 "-j $j --force in a bulk insert: the error is reported once"
	is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4010_f.t')" "1,2,3" \
	    "-j $j --force in a bulk insert: the statements around the failed one are kept"
done
sql -e "DROP DATABASE t4010_f"

# a failing barrier: resume point is the statement before it
printf 'CREATE TABLE x (id INT);\nINSERT INTO x VALUES (1);\nCREATE TABLE x (id INT);\nINSERT INTO x VALUES (2);\n' |
    sqlexec-gen >b.rp
fresh_db t4010_b
sqlexec $C -j 2 t4010_b <b.rp 2>err; is $? 1 "failing DDL exits 1"
like "$(cat err)" "statement 3 \(line 3, table t4010_b\.x\): ERROR 1050 \(42S01\)" "failing DDL reported"
like "$(cat err)" "resume with --skip-to 2" "failing DDL: resume point"
is "$(sql -e 'SELECT COUNT(*) FROM t4010_b.x')" 1 "rows before the DDL are committed"
sql -e "DROP DATABASE t4010_b"

# A statement of 17 MiB, more than the test server's max_allowed_packet
# (16M): reported with its size and the limit, before it is sent.
{
	echo "CREATE TABLE docs (id INT PRIMARY KEY, body LONGTEXT);"
	echo "INSERT INTO docs VALUES (1, 'before');"
	perl -e 'print "INSERT INTO docs VALUES (2, \x27", "x" x (17 << 20), "\x27);\n"'
	echo "INSERT INTO docs VALUES (3, 'after');"
	echo "CREATE TABLE after_big (id INT);"
} | sqlsplit >big.rp
big=$((29 + (17 << 20) + 2))
fresh_db t4010_p
sqlexec $C -j 2 --commit-every 1 t4010_p <big.rp 2>err
is $? 1 "too large a statement exits 1"
like "$(sed -n 1p err)" "^sqlexec: statement 3 \(line 3, table t4010_p\.docs\): $big bytes: too large for the server's max_allowed_packet \(16777216\): raise it on the server \(SET GLOBAL max_allowed_packet=18874368\) and resume$" \
    "too large a statement: statement, line, table, size and limit named"
like "$(tail -1 err)" "^sqlexec: statements 1-2 are committed; resume with --skip-to 2:[0-9a-f]{16}$" \
    "too large a statement: resume point"
ok $(grep -q 'gone away' err; [ $? -eq 1 ]; echo $?) "too large a statement: not sent"
is "$(sql -e 'SELECT GROUP_CONCAT(id) FROM t4010_p.docs')" 1 \
    "too large a statement: the statements before it committed, none after"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 't4010_p' AND table_name = 'after_big'")" 0 \
    "too large a statement: nothing after it ran"
fresh_db t4010_p
sqlexec $C -j 2 -f t4010_p <big.rp 2>err
is $? 1 "too large a statement, --force: exits 1"
like "$(sed -n 1p err)" "^sqlexec: statement 3 \(line 3, table t4010_p\.docs\): $big bytes: too large for the server's max_allowed_packet" \
    "too large a statement, --force: reported"
like "$(tail -1 err)" "^sqlexec: 5 statements, .*1 FAILED$" "too large a statement, --force: counted as failed"
is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4010_p.docs')" "1,3" \
    "too large a statement, --force: the statements after it ran"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 't4010_p' AND table_name = 'after_big'")" 1 \
    "too large a statement, --force: the barrier after it ran"
sql -e "DROP DATABASE t4010_p"

# A foreign key name another table of the database holds (they are per
# database): ERROR 1005 errno 121 says which name clashes and the way
# out, not only the resume point that meets it again (issue 25).
fresh_db t4010_k
sql t4010_k -e "CREATE TABLE p (id INT PRIMARY KEY);
    CREATE TABLE a (id INT, CONSTRAINT fk_p FOREIGN KEY (id) REFERENCES p (id))"
printf 'CREATE TABLE b (id INT, CONSTRAINT fk_p FOREIGN KEY (id) REFERENCES p (id));\n' |
    sqlsplit | sqlexec $C t4010_k 2>err
is "$? $(head -1 err)" "1 sqlexec: statement 1 (line 1, table t4010_k.b): ERROR 1005 (HY000): Can't create table \`t4010_k\`.\`b\` (errno: 121 \"Duplicate key on write or update\") (a foreign key of this table has a name that another table of the database holds: such names are per database; rename the key in the input, or drop the other table's, then run or resume)" \
    "errno 121: the clash of foreign key names is named, with the way out"
sql -e "DROP DATABASE t4010_k"
done_testing
