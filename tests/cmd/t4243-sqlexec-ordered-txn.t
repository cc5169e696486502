#!/bin/sh
# INSERTs that the order rule sends to connection 1 (ids the server
# assigns, LAST_INSERT_ID(), user variables), one after another, run in
# one transaction of about --commit-every bytes there (ordered.c), not
# one COMMIT each: the binary log counts the transactions.  Their values,
# warnings and failures stay the mysql client's (also with a failing
# statement in the middle, --force); a stop commits what ran, as the
# client has it, and the resume point says exactly what is committed.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4243_a b=t4243_b

# Transactions of the binary log since file $1 position $2 that write
# table $3 (db.t): Gtid ... Xid groups with a Table_map of it.
binlog_txns() {
	sql -e "SHOW BINARY LOGS" | cut -f1 | awk -v f="$1" '$1 >= f' |
	while read -r log; do
		if [ "$log" = "$1" ]; then from=" FROM $2"; else from=; fi
		sql -e "SHOW BINLOG EVENTS IN '$log'$from"
	done | awk -F'\t' -v t="($3)" '
	    $3 == "Gtid" { w = 0 }
	    $3 == "Table_map" && index($6, t) { w = 1 }
	    $3 == "Xid" && w { n++; w = 0 }
	    END { print n + 0 }'
}
pos() { sql -e "SHOW MASTER STATUS" | cut -f1,2; }

awk 'BEGIN {
	print "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT);"
	for (i = 1; i <= 2000; i++)
		printf "INSERT INTO t (v) VALUES (%d);\n", i
}' >ids.sql
for ce in "" "--commit-every 1"; do
	fresh_db $b
	set -- $(pos)
	sqlsplit ids.sql | sqlexec $C -j 2 $ce $b 2>err
	is "$? $(sql $b -e 'SELECT COUNT(*), SUM(id <> v) FROM t')" "0 2000	0" \
	    "2,000 INSERTs of server-assigned ids, -j 2 $ce: ids in order"
	n=$(binlog_txns "$1" "$2" "$b.t")
	if [ -z "$ce" ]; then
		[ "$n" -le 2 ]; ok $? "... in $n transaction(s), not 2,000"
	else
		is "$n" 2000 "... with --commit-every 1: one transaction each"
	fi
done

# As the client: LAST_INSERT_ID(), @n, a duplicate key in the middle
# (--force: it fails alone, the rest of the transaction goes on), a
# warning, and a unit of explicit keys between them.
cat >mix.sql <<'EOF2'
SET sql_mode = '';
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT UNIQUE, s VARCHAR(3));
CREATE TABLE l (tid INT, n INT, PRIMARY KEY (tid, n));
SET @n := 0;
INSERT INTO t (v, s) VALUES (1, 'a');
INSERT INTO l VALUES (LAST_INSERT_ID(), @n := @n + 1);
INSERT INTO t (v, s) VALUES (2, 'b');
INSERT INTO t (v, s) VALUES (1, 'dup');
INSERT INTO l VALUES (LAST_INSERT_ID(), @n := @n + 1);
INSERT INTO t (v, s) VALUES (3, 'long');
INSERT INTO l VALUES (100, 1), (101, 1);
INSERT INTO t (v, s) VALUES (NULL, 'c');
INSERT INTO l VALUES (LAST_INSERT_ID(), @n := @n + 1);
INSERT INTO t VALUES (0, 4, 'd');
INSERT INTO l VALUES (LAST_INSERT_ID(), @n := @n + 1);
EOF2
fresh_db $a
sql --force -vvv $a <mix.sql >ref.out 2>ref.err
db_hex $a >a.hex
want=$(client_counts ref.out ref.err)
is "$want" "1 1" "(the client: 1 warning, 1 failed statement)"
for j in 1 2; do
	fresh_db $b
	sqlsplit mix.sql | sqlexec $C --force -j $j $b 2>err
	db_hex $b >b.hex
	is_file b.hex a.hex "-j $j --force: HEX() of every row as the client's"
	is "$(sqlexec_counts err)" "$want" "-j $j --force: warnings and failures"
done

# Without --force: the failing statement fails alone, what ran before it
# is committed, as the client (which stops there) has it, and the resume
# point says so.
fresh_db $a
sql $a <mix.sql >/dev/null 2>&1
db_hex $a >a.hex
fresh_db $b
sqlsplit mix.sql >mix.rp
sqlexec $C -j 2 $b <mix.rp 2>err
is "$?" 1 "a duplicate key without --force: exit 1"
like "$(cat err)" "statements 1-7 are committed" "... and statements 1-7 are committed"
db_hex $b >b.hex
is_file b.hex a.hex "... with the rows the client leaves when it stops there"

# A stop inside the transaction (the input cut, here) commits what ran:
# the ids the server gave are not given back by a rollback, so a resume
# gives each row the id one whole run gives (issue #24: resume and -j N
# as serial).
sqlsplit ids.sql >ids.rp
size=$(wc -c <ids.rp)
for cut in $((size / 3)) $((size / 2)) $((size - 100)); do
	fresh_db $b
	head -c $cut ids.rp | sqlexec $C -j 2 $b 2>err
	st=$?
	tok=$(sed -n 's/.* resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
	sqlexec $C -j 2 --skip-to "$tok" $b <ids.rp 2>err2
	is "$st $? $(sql $b -e 'SELECT COUNT(*), SUM(id <> v), MAX(id) FROM t')" \
	    "1 0 2000	0	2000" "cut at byte $cut of $size, resumed at $tok: every id as one run gives"
done
done_testing
