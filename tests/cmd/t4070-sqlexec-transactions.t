#!/bin/sh
# sqlexec: the input's own transactions.  BEGIN ... COMMIT/ROLLBACK runs
# as the mysql client runs it, at -j 1 and -j 4: a ROLLBACK undoes its
# transaction, an input that ends inside one has it rolled back (with a
# warning); a ROLLBACK outside one is an error, not silently ignored.
. "$(dirname "$0")/../lib.sh"
C=$(CONN)

cat >tx.sql <<'SQL'
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1,1);
BEGIN;
INSERT INTO t VALUES (2,2);
DELETE FROM t WHERE id = 1;
ROLLBACK;
INSERT INTO t VALUES (3,3);
START TRANSACTION;
INSERT INTO t VALUES (4,4);
SAVEPOINT s1;
INSERT INTO t VALUES (5,5);
ROLLBACK TO SAVEPOINT s1;
UPDATE t SET v = 30 WHERE id = 3;
COMMIT;
INSERT INTO t VALUES (6,6);
begin work;
INSERT INTO t VALUES (7,7);
SQL
sqlsplit <tx.sql >tx.rp

fresh_db t4070_mysql
sql t4070_mysql <tx.sql
want=$(sql -e "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM t4070_mysql.t")
is "$want" "1:1,3:30,4:4,6:6" "the mysql client's result (the reference)"

for j in 1 4; do
	fresh_db t4070_j$j
	sqlexec $C -j $j t4070_j$j <tx.rp >/dev/null 2>err
	is $? 0 "-j $j: exit 0"
	is "$(sql -e "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM t4070_j$j.t")" \
	    "$want" "-j $j: ROLLBACK, SAVEPOINT and COMMIT as the mysql client"
	like "$(cat err)" 'warning: the input ends inside the transaction begun by statement 16: rolled back' \
	    "-j $j: the open transaction at the end is named"
done

# XA transactions likewise.
cat >xa.sql <<'SQL'
CREATE TABLE t (id int PRIMARY KEY);
XA START 'a';
INSERT INTO t VALUES (1);
INSERT INTO t VALUES (2);
XA END 'a';
XA ROLLBACK 'a';
XA START 'b';
INSERT INTO t VALUES (3);
XA END 'b';
XA PREPARE 'b';
XA COMMIT 'b';
INSERT INTO t VALUES (4);
SQL
fresh_db t4070_xa
sqlsplit <xa.sql | sqlexec $C -j 4 --commit-every 1 t4070_xa 2>err
is $? 0 "XA transactions at -j 4: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4070_xa.t')" "3,4" \
    "XA ROLLBACK undoes its rows, XA COMMIT keeps them, as the mysql client"

# What the dry run says.
sqlexec -n -j 2 <tx.rp >plan 2>/dev/null
like "$(grep '^statement 3 ' plan)" "^statement 3 \(line 3\): transaction: barrier \(the input's transaction begins" \
    "dry run: BEGIN is a barrier"
like "$(grep '^statement 4 ' plan)" "^statement 4 .*: in the input's transaction" \
    "dry run: the statements after it run in it"

# A failure inside: nothing of the transaction stays, the resume point is
# before BEGIN.
fresh_db t4070_fail
printf 'CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1);\nBEGIN;\nINSERT INTO t VALUES (2);\nINSERT INTO t VALUES (1);\nCOMMIT;\n' |
    sqlsplit | sqlexec $C -j 2 t4070_fail >/dev/null 2>err
is $? 1 "a duplicate key inside the transaction: exit 1"
like "$(cat err)" 'statement 5 \(line 5, table t4070_fail.t\): ERROR 1062' "and names the statement"
like "$(cat err)" 'statements 1-2 are committed; resume with --skip-to 2:[0-9a-f]{16}$' \
    "resume point: before BEGIN"
is "$(sql -e 'SELECT GROUP_CONCAT(id) FROM t4070_fail.t')" 1 \
    "the transaction's first INSERT is rolled back"

# ROLLBACK outside BEGIN ... COMMIT (after SET autocommit=0, say): its
# meaning cannot be kept; stop, also with --force.
fresh_db t4070_rb
sql t4070_rb -e "CREATE TABLE t (id int PRIMARY KEY)"
printf 'SET autocommit=0;\nINSERT INTO t VALUES (1);\nROLLBACK;\nINSERT INTO t VALUES (2);\n' |
    sqlsplit >rb.rp
sqlexec $C --force t4070_rb <rb.rp >/dev/null 2>err
is $? 1 "ROLLBACK outside BEGIN ... COMMIT: exit 1, also with --force"
like "$(cat err)" '^sqlexec: statement 3 \(line 3\): ROLLBACK after SET autocommit=0, outside BEGIN ... COMMIT' \
    "and says why"
is "$(sql -e 'SELECT COUNT(*) FROM t4070_rb.t WHERE id = 2')" 0 "nothing after it ran"

# ... and so is ROLLBACK AND CHAIN or ROLLBACK TO SAVEPOINT there
for rb in "ROLLBACK AND CHAIN" "SAVEPOINT s1;\nROLLBACK TO SAVEPOINT s1"; do
	fresh_db t4070_rb
	sql t4070_rb -e "CREATE TABLE t (id int PRIMARY KEY)"
	printf "SET autocommit=0;\nINSERT INTO t VALUES (1);\n$rb;\nINSERT INTO t VALUES (2);\nCOMMIT;\n" |
	    sqlsplit | sqlexec $C t4070_rb >/dev/null 2>err
	is $? 1 "$(echo "$rb" | sed 's/.n/; /') after SET autocommit=0: exit 1"
done
# With autocommit on, a ROLLBACK outside a transaction does nothing, as
# at the end of every mysqlbinlog output: skipped.
fresh_db t4070_ac
printf 'CREATE TABLE t (id int PRIMARY KEY);\nINSERT INTO t VALUES (1);\nROLLBACK /* added by mysqlbinlog */;\n' |
    sqlsplit | sqlexec $C -j 2 t4070_ac 2>err
is $? 0 "ROLLBACK with autocommit on: exit 0, as the mysql client"
is "$(sql -e 'SELECT COUNT(*) FROM t4070_ac.t')" 1 "and the row stays"

# Inside the input's transaction: a session statement reads its
# uncommitted rows (so the rest of the run is serial); LOCK TABLES stays
# skipped (no lock left behind); a DDL commits implicitly, and the resume
# point moves past it.
fresh_db t4070_in
printf 'CREATE TABLE t (a int PRIMARY KEY);\nCREATE TABLE u (id int AUTO_INCREMENT PRIMARY KEY, n int);\nBEGIN;\nINSERT INTO t VALUES (1),(2),(3);\nSELECT COUNT(*) INTO @n FROM t;\nCOMMIT;\nINSERT INTO u (n) VALUES (@n);\nINSERT INTO u (n) VALUES (@n);\nINSERT INTO u (n) VALUES (@n);\n' |
    sqlsplit | sqlexec $C -j 4 --commit-every 1 t4070_in >/dev/null 2>err
is $? 0 "SELECT ... INTO @n inside BEGIN ... COMMIT at -j 4: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(n) FROM t4070_in.u')" "3,3,3" \
    "every INSERT after it sees the value the transaction saw"
fresh_db t4070_lk
printf 'CREATE TABLE t (a int);\nBEGIN;\nLOCK TABLES t WRITE;\nINSERT INTO t VALUES (1);\nCOMMIT;\nINSERT INTO t VALUES (2);\nINSERT INTO t VALUES (3);\nUNLOCK TABLES;\nINSERT INTO t VALUES (4);\n' |
    sqlsplit | timeout 60 sqlexec $C -j 4 --commit-every 1 t4070_lk >/dev/null 2>err
is $? 0 "LOCK TABLES inside BEGIN ... COMMIT at -j 4: exit 0, no hang"
is "$(sql -e 'SELECT GROUP_CONCAT(a ORDER BY a) FROM t4070_lk.t')" "1,2,3,4" "every row loaded"
fresh_db t4070_ddl
# (foreign_key_checks off: the INSERTs after the DDL go into a unit)
printf 'SET foreign_key_checks=0;\nCREATE TABLE t (a int);\nBEGIN;\nINSERT INTO t VALUES (1);\nCREATE TABLE u (b int);\nINSERT INTO t VALUES (2);\nINSERT INTO t VALUES (3) ;\n' |
    sqlsplit >ddl.rp
head -c $(( $(wc -c <ddl.rp) - 40 )) ddl.rp | sqlexec $C -j 2 t4070_ddl >/dev/null 2>err
is $? 1 "cut after a DDL inside BEGIN: exit 1"
got=$(sed -n 's/.*resume with --skip-to \([^ ]*\)$/\1/p' err)
is "${got%%:*}" 5 "the resume point is past the DDL, which committed the INSERT before it"
is "$(sql -e 'SELECT GROUP_CONCAT(a ORDER BY a) FROM t4070_ddl.t')" "1" \
    "and the open batch after it is rolled back"
sqlexec $C -j 2 --skip-to "$got" t4070_ddl <ddl.rp 2>err
is $? 0 "resume with --skip-to $got: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(a ORDER BY a) FROM t4070_ddl.t')" "1,2,3" \
    "and the table is as the mysql client leaves it, nothing twice"

# mariadb-binlog output (point-in-time recovery): BEGIN ... COMMIT per
# transaction, SET of session state inside, \C charset commands, a
# numeric sql_mode, a ROLLBACK at the end; replayed as the client does.
fresh_db t4070_bl
sql -e "FLUSH BINARY LOGS"
sql t4070_bl -e "CREATE TABLE t (id int PRIMARY KEY, v varchar(20));
    INSERT INTO t VALUES (1, 'a'), (2, 'ü');
    SET SESSION binlog_format = STATEMENT;
    INSERT INTO t VALUES (3, 'c'); UPDATE t SET v = 'x' WHERE id = 1;
    BEGIN; INSERT INTO t VALUES (4, 'd'); COMMIT;"
logf=$(sql -e "SHOW MASTER STATUS" | cut -f1)
sql -e "FLUSH BINARY LOGS"
# -d: only this test's events (others run beside it), renamed
mariadb-binlog -d t4070_bl --rewrite-db='t4070_bl->t4070_bl2' \
    "$(sql -e 'SELECT @@datadir')$logf" >bl.sql
grep -q 'use `t4070_bl2`' bl.sql; ok $? "mariadb-binlog wrote the events"
fresh_db t4070_bl2
sqlsplit <bl.sql | sqlexec $C -j 2 2>err
is $? 0 "sqlsplit | sqlexec -j 2 replays mariadb-binlog output"
is "$(sql -e "SELECT GROUP_CONCAT(id, v ORDER BY id) FROM t4070_bl2.t")" \
    "1x,2ü,3c,4d" "with the rows the source has"
sql -e "DROP DATABASE t4070_bl; DROP DATABASE t4070_bl2"

# COMMIT outside a transaction block (mysqldump --no-autocommit) is
# skipped, as before.
fresh_db t4070_na
printf 'CREATE TABLE t (id int PRIMARY KEY);\nset autocommit=0;\nINSERT INTO t VALUES (1),(2);\ncommit;\nINSERT INTO t VALUES (3);\ncommit;\n' |
    sqlsplit | sqlexec $C -j 2 t4070_na 2>err
is $? 0 "mysqldump --no-autocommit style: exit 0"
is "$(sql -e 'SELECT COUNT(*) FROM t4070_na.t')" 3 "every row loaded"

done_testing
