#!/bin/sh
# sqlexec and tables that are not transactional (MyISAM, Aria): ROLLBACK
# cannot undo their rows, so a unit rolled back and run again (warnings to
# show, --force after an error), or resumed after an error, would load
# them twice.  sqlexec runs each statement that writes such a table alone,
# in autocommit, and moves the resume point after it; snapshot streams
# load such a table's units alone.  Row counts and CHECKSUM TABLE against
# the source, and the summary's rows affected against the target.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
S=t4210_src D=t4210_dst

# The source: m (MyISAM) and n (Aria) without a key, so that a row loaded
# twice stays twice, and i (InnoDB, the largest: dbsnap dumps it first);
# 1500 rows each.
sql -e "DROP DATABASE IF EXISTS $S; CREATE DATABASE $S; USE $S;
    CREATE TABLE $S.m (id INT, v VARCHAR(20)) ENGINE=MyISAM;
    CREATE TABLE $S.n (id INT, v VARCHAR(20)) ENGINE=Aria;
    CREATE TABLE $S.i (id INT PRIMARY KEY, v VARCHAR(20),
        p CHAR(200) NOT NULL DEFAULT '') ENGINE=InnoDB;
    INSERT INTO $S.m SELECT seq, ELT(1 + seq % 3, 'United States', 'Chad',
        'Peru') FROM seq_1_to_1500;
    INSERT INTO $S.n SELECT * FROM $S.m;
    INSERT INTO $S.i SELECT id, v, REPEAT('p', 200) FROM $S.m;
    ANALYZE TABLE $S.i, $S.m, $S.n" >/dev/null
want="1500	1125750	1500"
# rows DB T: count, sum and distinct ids.
rows() {
	sql -e "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id) FROM $1.$2"
}
# same T: CHECKSUM TABLE of T in the target and the source agree.
same() {
	[ "$(sql -e "CHECKSUM TABLE $D.$1" | cut -f2)" = \
	    "$(sql -e "CHECKSUM TABLE $S.$1" | cut -f2)" ]
}
# affected: the summary's rows affected.
affected() {
	sed -n 's/^sqlexec: [0-9]* statements\{0,1\}, \([0-9]*\) rows\{0,1\} affected.*/\1/p' err
}
# narrow: the target tables exist, with a column too narrow for 'United
# States' (warnings in rows2sql's and mysqldump's non-strict sql_mode).
narrow() {
	sql -e "DROP DATABASE IF EXISTS $D; CREATE DATABASE $D;
	    CREATE TABLE $D.m (id INT, v VARCHAR(5)) ENGINE=MyISAM;
	    CREATE TABLE $D.n (id INT, v VARCHAR(5)) ENGINE=Aria;
	    CREATE TABLE $D.i (id INT PRIMARY KEY, v VARCHAR(5),
	        p CHAR(200) NOT NULL DEFAULT '') ENGINE=InnoDB"
}

# One INSERT per row, as mysqldump --skip-extended-insert writes: many
# statements a unit.
mysqldump --no-defaults -uroot -S "$RP_SOCK" --skip-extended-insert \
    --no-create-info $S m n i | sed "s/\`$S\`/\`$D\`/g" | sqlsplit >rows.rp
mysqldump --no-defaults -uroot -S "$RP_SOCK" --skip-extended-insert \
    $S m n i | sqlsplit >full.rp
nins=$(sqlexec -n <rows.rp | grep -c ': insert: parallel')
is "$nins" 4500 "the dump is one INSERT a row"

# 1. Warnings: the first units with warnings are rolled back and run
# again one statement a round trip, to show them.  Each table once.
for j in 1 3; do
	narrow
	sqlexec $C -j $j $D <rows.rp 2>err
	is $? 0 "-j $j: warnings: exit 0"
	for t in m n i; do
		is "$(rows $D $t)" "$want" "-j $j: warnings: $D.$t has each row once"
	done
	is "$(affected)" 4500 "-j $j: warnings: 4500 rows affected"
	like "$(cat err)" "Warning 1265: Data truncated" "-j $j: the warnings are shown"
done

# 2. --force after an error inside a unit: the unit is rolled back and
# run again statement by statement.  A bad INSERT in the middle of m's
# and of n's rows.
mysqldump --no-defaults -uroot -S "$RP_SOCK" --skip-extended-insert \
    --no-create-info $S m n i | sed "s/\`$S\`/\`$D\`/g" |
    awk -v d="$D" '{ print } /^INSERT INTO `[mn]` VALUES \(750,/ {
	t = substr($3, 2, 1)
	printf "INSERT INTO `%s` VALUES (1, 2, 3);\n", t }' | sqlsplit >bad.rp
is "$(sqlexec -n <bad.rp | grep -c ': insert: parallel')" 4502 \
    "the dump has 2 bad INSERTs more"
for j in 1 3; do
	narrow
	sql -e "ALTER TABLE $D.m MODIFY v VARCHAR(20); ALTER TABLE $D.n MODIFY v VARCHAR(20);
	    ALTER TABLE $D.i MODIFY v VARCHAR(20)"
	sqlexec $C -j $j --force $D <bad.rp 2>err
	is $? 1 "-j $j --force: a failed statement: exit 1"
	like "$(tail -1 err)" ", 2 FAILED$" "-j $j --force: 2 statements failed"
	like "$(cat err)" "ERROR 1136 \\(21S01\\): Column count doesn't match" \
	    "-j $j --force: the error is reported"
	for t in m n i; do
		is "$(rows $D $t)" "$want" "-j $j --force: $D.$t has each row once"
		ok $(same $t; echo $?) "-j $j --force: CHECKSUM TABLE $t is the source's"
	done
	is "$(affected)" 4500 "-j $j --force: 4500 rows affected"
done

# 3. --strict --force on the transactional table: the statements with
# warnings are rolled back; rows affected counts only what is committed.
narrow
sqlexec $C -j 2 --strict --force $D <rows.rp 2>err
is $? 1 "--strict --force: exit 1"
is "$(affected)" "$(sql -e "SELECT (SELECT COUNT(*) FROM $D.m) +
    (SELECT COUNT(*) FROM $D.n) + (SELECT COUNT(*) FROM $D.i)")" \
    "--strict --force: rows affected are the rows in the tables"
is "$(sql -e "SELECT COUNT(*), SUM(v = 'Unite') FROM $D.i")" "1000	0" \
    "--strict --force: InnoDB: the rows with warnings are not committed"
is "$(rows $D m)" "$want" "--strict --force: MyISAM: each row once (done when run)"
like "$(cat err)" "statement [0-9]+ \\(line [0-9]+, table $D\\.m\\): the table is MyISAM \\(not transactional\\): what the statement changed stays" \
    "--strict --force: a MyISAM statement with warnings is said to stay"

# 4. Resume after an error: an INSERT into a table that does not exist yet
# in the middle of m's rows stops the run; once it exists, the same input
# resumed from the resume point loads each row once.
mysqldump --no-defaults -uroot -S "$RP_SOCK" --skip-extended-insert \
    $S m n i | awk -v d="$D" '{ print } /^INSERT INTO `m` VALUES \(750,/ {
	printf "INSERT INTO `%s`.`later` VALUES (1);\n", d }' |
    sed "s/\`$S\`/\`$D\`/g" | sqlsplit >later.rp
for j in 1 3; do
	fresh_db $D
	sqlexec $C -j $j $D <later.rp 2>err
	is $? 1 "-j $j resume: the missing table stops the run"
	like "$(cat err)" "ERROR 1146 .*later' doesn't exist" "-j $j resume: the error"
	tok=$(sed -n 's/^sqlexec: statements 1-[0-9]* are committed; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
	ok $([ -n "$tok" ]; echo $?) "-j $j resume: a resume point ($tok)"
	sql -e "CREATE TABLE $D.later (id INT)"
	sqlexec $C -j $j --skip-to "$tok" $D <later.rp 2>err
	is $? 0 "-j $j resume: the resumed run: exit 0"
	for t in m n i; do
		is "$(rows $D $t)" "$want" "-j $j resume: $D.$t has each row once"
		ok $(same $t; echo $?) "-j $j resume: CHECKSUM TABLE $t is the source's"
	done
done

# 5. The same with --checkpoint and --resume.
CK=$D.ck
fresh_db $D
sqlexec $C -j 3 --checkpoint $CK $D <later.rp 2>err
is $? 1 "--checkpoint: the missing table stops the run"
sql -e "CREATE TABLE $D.later (id INT)"
sqlexec $C -j 3 --checkpoint $CK --resume $D <later.rp 2>err
is $? 0 "--checkpoint --resume: exit 0"
for t in m n i; do
	is "$(rows $D $t)" "$want" "--checkpoint --resume: $D.$t has each row once"
done
sqlexec $C -j 3 --checkpoint $CK --resume $D <later.rp 2>err
is $? 0 "--resume of a complete run: exit 0"
like "$(head -1 err)" "the run it records is complete \\(statements 1-[0-9]+\\): only the input's session statements \\(SET, USE\\) up to [0-9]+ run again" \
    "--resume of a complete run says what runs"
like "$(tail -1 err)" "^sqlexec: 0 statements, 0 rows affected, .* before --skip-to \\([0-9]+ SET or USE of them run again\\)" \
    "--resume of a complete run: the summary counts no statement run"
for t in m n i; do
	is "$(rows $D $t)" "$want" "--resume of a complete run: $D.$t unchanged"
done

# 6. A snapshot stream (dbsnap): m's and n's units wait for everything
# before them.  dbsnap writes i's first chunk, then n and m, then the rest
# of i.  The unit of i's first chunk is held by a row lock while the other
# connections could load n and m; then it fails (duplicate key).  Resumed
# after the cause is gone, each row is there once.
dbsnap $C --chunk-rows 500 $S i m n 2>/dev/null >snap.rp
like "$(sqlexec -n --commit-every 8K <snap.rp | grep '^unit' | cut -d' ' -f3 |
    tr '\n' ' ')" "^$S\\.i: $S\\.n: $S\\.m: " "frames: i's first rows come before n and m"
narrow
sql -e "ALTER TABLE $D.m MODIFY v VARCHAR(20); ALTER TABLE $D.n MODIFY v VARCHAR(20);
    ALTER TABLE $D.i MODIFY v VARCHAR(20)"
fifo=hold.in
mkfifo $fifo
# hold the row of id 1 (i's first unit) until told
(sql --unbuffered <$fifo >hold.out 2>&1) &
hold=$!
exec 3>$fifo
echo "START TRANSACTION; INSERT INTO $D.i (id, v) VALUES (1, 'x');
    SELECT 'held';" >&3
wait_for grep -q held hold.out
ok $? "frames: a row of i is held"
X="--no-create --commit-every 8K --rename-db $S=$D"
sqlexec $C -j 3 $X <snap.rp 2>err &
sx=$!
waiting() {
	[ "$(sql -e "SELECT COUNT(*) FROM information_schema.INNODB_TRX t JOIN
	    information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
	    WHERE t.trx_state = 'LOCK WAIT' AND p.ID <> CONNECTION_ID() AND
	    t.trx_query LIKE '%$D%i%'")" -gt 0 ]
}
wait_for waiting
ok $? "frames: the first unit of i waits for the held row"
# give the other connections a moment to load n (they must not)
n=0
while [ $n -lt 20 ] && [ "$(sql -e "SELECT COUNT(*) FROM $D.n")" -eq 0 ]; do
	sleep 0.1
	n=$((n + 1))
done
echo "COMMIT;" >&3
exec 3>&-
wait $hold
wait $sx
is $? 1 "frames: the duplicate key stops the run"
like "$(cat err)" "ERROR 1062" "frames: the error"
ok $(grep -q 1196 err; [ $? -ne 0 ]; echo $?) "frames: nothing was left behind by a ROLLBACK"
tok=$(sed -n 's/^sqlexec: frames\{0,1\} 1[-0-9]* \(are\|is\) committed.*; resume with --skip-to \(f[0-9,=]*:[0-9a-f]*\)$/\2/p' err)
ok $([ -n "$tok" ] || grep -q '^sqlexec: no frame is committed' err; echo $?) \
    "frames: a resume point (${tok:-none})"
sql -e "DELETE FROM $D.i WHERE id = 1"
sqlexec $C -j 3 $X ${tok:+--skip-to "$tok"} <snap.rp 2>err
is $? 0 "frames: the resumed run: exit 0"
for t in m n i; do
	is "$(rows $D $t)" "$want" "frames: $D.$t has each row once"
	ok $(same $t; echo $?) "frames: CHECKSUM TABLE $t is the source's"
done

# 7. An InnoDB table whose trigger writes a MyISAM table runs as one that
# is not transactional: the warnings' units are not run twice.
fresh_db $D
sql $D -e "CREATE TABLE i (id INT PRIMARY KEY, v VARCHAR(5)) ENGINE=InnoDB;
    CREATE TABLE log (id INT) ENGINE=MyISAM;
    CREATE TRIGGER tr AFTER INSERT ON i FOR EACH ROW INSERT INTO log VALUES (NEW.id)"
{ echo "SET sql_mode='';"
  seq 1 300 | sed "s/.*/INSERT INTO i VALUES (&, 'United States');/"; } |
    sqlsplit >trig.rp
sqlexec $C -j 2 $D <trig.rp 2>err
is $? 0 "a trigger into MyISAM: exit 0"
is "$(sql -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM $D.log")" "300	300" \
    "a trigger into MyISAM: each row of the log once"

# 8. A function that writes a MyISAM table: an INSERT that calls a
# function is ordered (order.c, issue #24): it runs alone, in autocommit,
# as the mysql client runs it, and is never rolled back or run again.
sql $D <<'EOF2'
DROP TRIGGER tr;
TRUNCATE TABLE log;
TRUNCATE TABLE i;
DELIMITER //
CREATE FUNCTION f(n INT) RETURNS INT DETERMINISTIC
BEGIN INSERT INTO log VALUES (n); RETURN n; END //
DELIMITER ;
EOF2
{ echo "SET sql_mode='';"
  seq 1 300 | sed "s/.*/INSERT INTO i VALUES (f(&), 'United States');/"; } |
    sqlsplit >func.rp
sqlexec $C -j 2 $D <func.rp 2>err
is $? 0 "a function into MyISAM: exit 0"
is "$(sql -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM $D.log;
    SELECT COUNT(*) FROM $D.i" | tr '\n' ' ')" "300	300 300 " \
    "a function into MyISAM: each row of the log once, as the client's"

# 9. --checkpoint: a MyISAM statement that fails part way (STRICT_ALL_TABLES
# stops a multi-row INSERT at its bad row, after the rows before it) stays
# pending: --resume refuses, and so does the next --resume; the token
# past it goes on.
fresh_db $D
sql -e "CREATE TABLE $D.m (id INT) ENGINE=MyISAM"
printf "SET sql_mode='STRICT_ALL_TABLES';\nINSERT INTO m VALUES (1),(2),(3);\nINSERT INTO m VALUES (4),(5),('x'),(6);\nINSERT INTO m VALUES (7);\n" |
    sqlsplit >part.rp
sqlexec $C --checkpoint $D.ck $D <part.rp 2>err
is $? 1 "--checkpoint: a MyISAM statement failed part way: exit 1"
like "$(cat err)" "statement 3 \\(line 3, table $D\\.m\\): the table is MyISAM \\(not transactional\\): what was written before it stopped stays there" \
    "--checkpoint: what stays is said"
for n in 1 2; do
	sqlexec $C --checkpoint $D.ck --resume $D <part.rp 2>err
	is $? 1 "--resume $n: refused"
	like "$(cat err)" "statement 3 had begun when the run stopped, and it is not transactional" \
	    "--resume $n: statement 3 is pending"
done
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $D.m")" "1,2,3,4,5" \
    "--resume twice: nothing ran again"
tok=$(sed -n 's/.*resume with --skip-to \(3:[0-9a-f]*\) if it took effect.*/\1/p' err)
sqlexec $C --checkpoint $D.ck --skip-to "$tok" $D <part.rp 2>err
is $? 0 "--skip-to past it: exit 0"
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $D.m")" "1,2,3,4,5,7" \
    "--skip-to past it: each row once"

# 10. The input's own transaction (mysqlbinlog writes BEGIN ... COMMIT
# round every one) that fails after a write to MyISAM: its ROLLBACK is
# checked too, so the run never says that nothing is committed, and the
# same input run again does not write the MyISAM rows twice.
sql $D -e "DROP TABLE IF EXISTS mn, bad; CREATE TABLE mn (id INT) ENGINE=MyISAM"
printf 'BEGIN;\nINSERT INTO mn VALUES (1),(2);\nINSERT INTO bad VALUES (1);\nCOMMIT;\n' |
    sqlsplit >tx.rp
sqlexec $C $D <tx.rp 2>err
is $? 1 "a failed input transaction after a MyISAM write: exit 1"
like "$(cat err)" "the transaction begun by statement 1: ROLLBACK: Warning 1196" \
    "its ROLLBACK says that it could not undo the MyISAM rows"
grep -Eq "run the same input again to restore|no statement is committed;" err
isnt $? 0 "and does not say that nothing is committed"
like "$(cat err)" "statement 1 left rows in a table that is not transactional \\(said above\\): remove them, or restore that table, before running the same input again" \
    "but that its rows must be removed first"
is "$(sql -e "SELECT GROUP_CONCAT(id ORDER BY id) FROM $D.mn")" "1,2" \
    "the MyISAM rows are there once"

# 11. An InnoDB table whose trigger writes another InnoDB table, which
# hits a duplicate key: the frame's statement fails and is rolled back
# whole; no table that is not transactional was written, and the run
# does not say so (before: "frame N left rows in a table that is not
# transactional").
fresh_db t4210_s11
sql t4210_s11 -e "CREATE TABLE a (id INT PRIMARY KEY) ENGINE=InnoDB;
    INSERT INTO a SELECT seq FROM seq_1_to_10"
dbsnap $C t4210_s11 >s11.rp
fresh_db t4210_d11
sql t4210_d11 -e "CREATE TABLE a (id INT PRIMARY KEY) ENGINE=InnoDB;
    CREATE TABLE l (id INT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO l VALUES (5);
    CREATE TRIGGER tr AFTER INSERT ON a FOR EACH ROW INSERT INTO l VALUES (NEW.id)"
sqlexec $C --no-create --rename-db t4210_s11=t4210_d11 <s11.rp 2>err
is $? 1 "a trigger's duplicate key in an InnoDB table: exit 1"
like "$(cat err)" "ERROR 1062" "... the duplicate key is the error"
is "$(grep -c 'left rows\|stays there' err)" 0 \
    "... no rows said to be left in a table that is not transactional"
like "$(cat err)" "the statement failed; its transaction was rolled back" \
    "... but that the statement was rolled back"
is "$(sql -e "SELECT COUNT(*) FROM t4210_d11.a; SELECT COUNT(*) FROM t4210_d11.l")" "0
1" "... and nothing of it is in either table"
sql -e "DROP DATABASE t4210_s11; DROP DATABASE t4210_d11"

sql -e "DROP DATABASE $S; DROP DATABASE $D"
done_testing
