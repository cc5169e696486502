#!/bin/sh
# sqlexec: options, input checks, dry run, session state on every
# connection, LOCK TABLES skipped, INSERT-then-UPDATE order at -j 4.
. "$(dirname "$0")/../lib.sh"

# usage errors: exit 2 before any side effect
sqlexec -j 0 </dev/null 2>err; is $? 2 "-j 0 is a usage error"
like "$(cat err)" "^sqlexec: -j 0: too small" "-j 0 names the value"
sqlexec --commit-every 1X </dev/null 2>/dev/null; is $? 2 "bad --commit-every"
sqlexec --skip-to -3 </dev/null 2>/dev/null; is $? 2 "negative --skip-to"
sqlexec a b </dev/null 2>/dev/null; is $? 2 "two databases"

# not a frame stream: says what it is, exit 1
printf 'SELECT 1;\n' | sqlexec -n 2>err; is $? 1 "SQL text input fails"
like "$(cat err)" "^sqlexec: stdin: .*not a rowpipe stream" "SQL text is named"
sqlexec -n </dev/null 2>err; is $? 1 "empty input fails"
printf 'SELECT 1;\n' | sqlsplit -f | rows2json | sqlexec -n 2>err
is $? 1 "JSON Lines input fails"
like "$(cat err)" "^sqlexec: stdin: .*looks like JSON Lines .*json2rows" \
    "JSON Lines are named, and json2rows pointed to"

# dry run: the plan, no server needed
cat >plan.sql <<'SQL'
USE db;
SET NAMES latin1, FOREIGN_KEY_CHECKS = 0;
CREATE TABLE t (id INT PRIMARY KEY);
LOCK TABLES t WRITE;
INSERT INTO t VALUES (1);
INSERT INTO t VALUES (2);
INSERT INTO t SELECT 3;
UNLOCK TABLES;
SET GLOBAL general_log = 0;
SQL
sqlexec-gen <plan.sql >plan.rp
sqlexec -n --commit-every 1 <plan.rp >plan.out 2>err; is $? 0 "dry run exits 0"
cat >plan.want <<'OUT'
statement 1 (line 1): use: session, every connection
statement 2 (line 2): set: session, every connection
statement 3 (line 3, table db.t): create-table: barrier
statement 4 (line 4): lock: skipped (table locks)
statement 5 (line 5, table db.t): insert: parallel
unit 1: statements 5-5, 24 bytes: one transaction, alone (first into a table: bulk)
statement 6 (line 6, table db.t): insert: parallel
unit 2: statements 6-6, 24 bytes: one transaction
statement 7 (line 7, table db.t): insert: barrier (INSERT ... SELECT)
statement 8 (line 8): unlock: skipped (table locks)
statement 9 (line 9): set: barrier (a SET of more than the session)
OUT
is_file plan.out plan.want "dry run plan"

# --skip-to in the plan: statements up to N are skipped, except USE/SET
sqlexec -n --skip-to 5 <plan.rp >skip.out 2>err; is $? 0 "dry run with --skip-to"
cat >skip.want <<'OUT'
statement 1 (line 1): use: session, every connection (before --skip-to)
statement 2 (line 2): set: session, every connection (before --skip-to)
statement 3 (line 3, table db.t): create-table: skipped (--skip-to)
statement 4 (line 4): lock: skipped (--skip-to)
statement 5 (line 5, table db.t): insert: skipped (--skip-to)
statement 6 (line 6, table db.t): insert: parallel
OUT
sed -n 1,6p skip.out >skip.got
is_file skip.got skip.want "--skip-to plan keeps the session statements"

need_server
C=$(CONN)

# a frame stream of rows (dbsnap's), not of statements: its rows load
# (t4100 tests that path)
fresh_db t4000_r
sql t4000_r -e "CREATE TABLE r (id INT); INSERT INTO r VALUES (1)"
dbsnap $C t4000_r 2>/dev/null | sqlexec $C --no-create 2>err
is $? 0 "a snapshot stream is taken as one"
is "$(sql -e "SELECT COUNT(*) FROM t4000_r.r")" 2 "its rows loaded"
sql -e "DROP DATABASE t4000_r"

# Session state on every connection: the dump's time zone and character
# set must reach every worker, or TIMESTAMPs shift and bytes change.
mk_session() {
	echo "DROP DATABASE IF EXISTS $1;"
	echo "CREATE DATABASE $1;"
	echo "USE $1;"
	echo "CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP NULL, s VARCHAR(10) CHARACTER SET utf8mb4, v INT);"
	echo "/*!40103 SET TIME_ZONE='+00:00' */;"
	echo "/*!40101 SET NAMES latin1 */;"
	echo "SET @k = 7;"
	echo "LOCK TABLES t WRITE;"
	echo "/*!40000 ALTER TABLE t DISABLE KEYS */;"
	i=1
	while [ $i -le 300 ]; do
		printf "INSERT INTO t VALUES ($i,'2020-03-29 01:30:00','\351',@k);\n"
		i=$((i + 1))
	done
	echo "/*!40000 ALTER TABLE t ENABLE KEYS */;"
	echo "UNLOCK TABLES;"
	# rows2sql's large-value pattern: INSERT then UPDATE of the same row
	echo "INSERT INTO t VALUES (1000, NULL, 'a', 1);"
	echo "UPDATE t SET s = CONCAT(s, 'b') WHERE id = 1000;"
	echo "INSERT INTO t VALUES (1001, NULL, 'c', 1);"
	echo "UPDATE t SET s = CONCAT(s, 'd'), v = v + 1 WHERE id = 1000;"
}
mk_session t4000_a | sqlexec-gen >a.rp
sqlexec $C -j 4 --commit-every 200 <a.rp 2>err; is $? 0 "session test at -j 4"
is "$(sql -e "SELECT COUNT(*), COUNT(DISTINCT UNIX_TIMESTAMP(ts)),
    MIN(UNIX_TIMESTAMP(ts)), SUM(HEX(s) = 'C3A9'), SUM(v = 7)
    FROM t4000_a.t WHERE id <= 300")" "300	1	1585445400	300	300" \
    "time zone, SET NAMES and user variables reached every connection"
is "$(sql -e "SELECT s, v FROM t4000_a.t WHERE id = 1000")" "abd	2" \
    "UPDATE after INSERT of the same row kept its order"
like "$(cat err)" "^sqlexec: 31[0-9] statements, .* 2 skipped" "summary counts LOCK/UNLOCK as skipped"
# the same at -j 1 gives the same table
mk_session t4000_b | sqlexec-gen | sqlexec $C 2>/dev/null; is $? 0 "session test at -j 1"
is "$(checksums t4000_a)" "$(checksums t4000_b)" "-j 4 equals -j 1"

# A partitioned table at -j 4: with unique_checks=0 and foreign_key_checks=0
# MariaDB bulk-loads each empty partition under a table lock; sqlexec keeps
# unique_checks=1 with -j > 1, so the connections neither serialize nor
# deadlock (this used to wait for innodb_lock_wait_timeout and fail).
{
	echo "USE t4000_p;"
	echo "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;"
	echo "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;"
	echo "CREATE TABLE t (id INT PRIMARY KEY, v INT) PARTITION BY RANGE (id)
	    (PARTITION p0 VALUES LESS THAN (100), PARTITION p1 VALUES LESS THAN (200),
	    PARTITION p2 VALUES LESS THAN MAXVALUE);"
	i=0
	while [ $i -lt 300 ]; do
		echo "INSERT INTO t VALUES ($i, 1), ($((i + 1)), 1);"
		i=$((i + 2))
	done
	echo "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;"
} | sqlexec-gen >p.rp
fresh_db t4000_p
sqlexec $C -j 4 --commit-every 300 <p.rp 2>err
is $? 0 "partitioned table at -j 4"
is "$(sql -e 'SELECT COUNT(*) FROM t4000_p.t')" 300 "every row loaded"
sql -e "DROP DATABASE t4000_p"

# --no-binlog, DB argument, USE-less stream
printf 'CREATE TABLE nb (id INT);\nINSERT INTO nb VALUES (1);\n' | sqlexec-gen >nb.rp
fresh_db t4000_c
sqlexec $C --no-binlog t4000_c <nb.rp 2>err; is $? 0 "--no-binlog into the DB argument"
is "$(sql -e 'SELECT COUNT(*) FROM t4000_c.nb')" 1 "DB argument is the default database"
# Rows affected are the rows the statements changed: the server's count
# of CREATE DATABASE (1) and DROP DATABASE (its tables) is not rows (issue
# 25: a mysqldump --databases file of 522001 rows said 522002).  INSERT
# ... ON DUPLICATE KEY UPDATE counts 2 for a row it updates, as the server
# counts it (the mysql client says the same).
fresh_db t4000_r
sql t4000_r -e "CREATE TABLE a (id INT PRIMARY KEY); CREATE TABLE b (id INT);
    INSERT INTO a SELECT seq FROM seq_1_to_7; INSERT INTO b VALUES (1), (2)"
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --databases --add-drop-database \
    t4000_r >r.sql || exit 1
sql -e "DROP DATABASE t4000_r"
sqlsplit <r.sql | sqlexec $C 2>err
like "$?  $(tail -1 err)" "^0  sqlexec: [0-9]+ statements, 9 rows affected, " \
    "mysqldump --databases into a new database: 9 rows affected, the rows loaded"
sqlsplit <r.sql | sqlexec $C 2>err
like "$?  $(tail -1 err)" "^0  sqlexec: [0-9]+ statements, 9 rows affected, " \
    "... and over itself (DROP DATABASE of 2 tables): 9 rows affected"
printf 'INSERT INTO a VALUES (7) ON DUPLICATE KEY UPDATE id = 8;\n' | sqlsplit |
    sqlexec $C t4000_r 2>err
like "$(tail -1 err)" "^sqlexec: 1 statement, 2 rows affected, " \
    "an INSERT ... ON DUPLICATE KEY UPDATE that updates: 2, the server's count"
sql -e "DROP DATABASE t4000_r"

sql -e "DROP DATABASE t4000_a; DROP DATABASE t4000_b; DROP DATABASE t4000_c"
done_testing
