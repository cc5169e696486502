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
like "$(cat err)" 'resume with --skip-to 2$' "resume point: before BEGIN"
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
like "$(cat err)" '^sqlexec: statement 3 \(line 3\): ROLLBACK outside BEGIN ... COMMIT' \
    "and says why"
is "$(sql -e 'SELECT COUNT(*) FROM t4070_rb.t')" 0 "nothing after it ran"

# COMMIT outside a transaction block (mysqldump --no-autocommit) is
# skipped, as before.
fresh_db t4070_na
printf 'CREATE TABLE t (id int PRIMARY KEY);\nset autocommit=0;\nINSERT INTO t VALUES (1),(2);\ncommit;\nINSERT INTO t VALUES (3);\ncommit;\n' |
    sqlsplit | sqlexec $C -j 2 t4070_na 2>err
is $? 0 "mysqldump --no-autocommit style: exit 0"
is "$(sql -e 'SELECT COUNT(*) FROM t4070_na.t')" 3 "every row loaded"

done_testing
