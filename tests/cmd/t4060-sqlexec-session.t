#!/bin/sh
# sqlexec: with -j > 1 a SET runs on every connection; one that reads
# per-connection state (SET @id = LAST_INSERT_ID()) gets a value per
# connection, but only connection 1's is ever read: what reads a user
# variable runs there, in order (order.c, issue #24), so the script's
# result is the mysql client's and nothing is warned about.  Session
# statements, SELECT ... INTO @var, temporary tables.
. "$(dirname "$0")/../lib.sh"

# every form matched, in any case, also in an executable comment; the
# dry run needs no server
cat >forms.sql <<'SQL'
SET @a = LAST_INSERT_ID();
set @b = row_count();
SET @c=Found_Rows(), @x = 1;
/*!40101 SET @d = CONNECTION_ID() */;
SET @e = @@identity;
SET @f = @@SESSION.last_insert_id;
SET @g = @@local.IDENTITY;
SQL
sqlsplit <forms.sql >forms.rp
sqlexec -n -j 2 <forms.rp >plan 2>err; is $? 0 "dry run exits 0"
is "$(cat err)" "sqlexec: warning: statement 2 (line 2) reads ROW_COUNT() or FOUND_ROWS() and is not an INSERT: sqlexec's own statements may run between it and the statement before, so its value may differ from the mysql client's" \
    "only ROW_COUNT() is warned about, once: connection 1's values are the ones read"
is "$(grep -c 'set: session, every connection' plan)" 7 \
    "each SET still runs on every connection"

# words in literals and comments, user variables of the same name, a
# mysqldump header: no warning
cat >quiet.sql <<'SQL'
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
SET @saved_cs_client = @@character_set_client;
SET @s = 'LAST_INSERT_ID()', @t = "row_count()";
SET @u = 1 /* FOUND_ROWS() */;
SET @v = 2; -- CONNECTION_ID()
SET @identity = 3, @last_insert_id = 4, `row_count` = 5;
SQL
sqlsplit <quiet.sql | sqlexec -n -j 4 >/dev/null 2>err
is "$(cat err)" "" "no message for literals, comments, user variables, dump headers"

need_server
C=$(CONN)

# the script the warning was for: the client's result at -j 2
cat >script.sql <<'SQL'
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT);
CREATE TABLE u (tid INT);
INSERT INTO t (v) VALUES (1);
SET @id = LAST_INSERT_ID();
INSERT INTO u VALUES (@id);
SQL
sqlsplit <script.sql >script.rp
fresh_db t4060_a
sqlexec $C -j 2 --commit-every 1 t4060_a <script.rp 2>err; is $? 0 "-j 2 runs the script"
is "$(grep -c warning err)" 0 "-j 2: no warning"
is "$(sql -e 'SELECT tid FROM t4060_a.u')" 1 "-j 2: the script's id is right"
fresh_db t4060_a
sqlexec $C -j 1 t4060_a <script.rp 2>err; is $? 0 "-j 1 runs the script"
is "$(grep -c warning err)" 0 "-j 1: no warning"
is "$(sql -e 'SELECT tid FROM t4060_a.u')" 1 "-j 1: the script's id is right"

# SELECT ... INTO @var sets the variable on every connection, as SET:
# the INSERTs after it see it whichever connection runs them.
fresh_db t4060_into
sql t4060_into -e "CREATE TABLE t (id INT PRIMARY KEY, v INT);
    CREATE TABLE u (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 41)"
printf 'SELECT v INTO @m FROM t WHERE id = 1;\nINSERT INTO u VALUES (1, @m);\nINSERT INTO u VALUES (2, @m);\nINSERT INTO u VALUES (3, @m);\nINSERT INTO u VALUES (4, @m);\n' |
    sqlsplit | sqlexec $C -j 4 --commit-every 1 t4060_into 2>err
is $? 0 "SELECT ... INTO @m, then INSERTs at -j 4: exit 0"
is "$(sql -e "SELECT GROUP_CONCAT(id, ':', IFNULL(v, 'NULL') ORDER BY id) FROM t4060_into.u")" \
    "1:41,2:41,3:41,4:41" "every connection's INSERT sees @m"
is "$(grep -c warning err)" 0 "and no warning for it"
sql t4060_into -e "DELETE FROM u"
printf 'WITH c AS (SELECT 7 x) SELECT x FROM c INTO @v;\n(SELECT 8) INTO @w;\nINSERT INTO u VALUES (1, @v + @w);\nINSERT INTO u VALUES (2, @v + @w);\nINSERT INTO u VALUES (3, @v + @w);\n' |
    sqlsplit | sqlexec $C -j 4 --commit-every 1 t4060_into 2>err
is "$(sql -e "SELECT GROUP_CONCAT(IFNULL(v, 'NULL') ORDER BY id) FROM t4060_into.u")" \
    "15,15,15" "WITH ... INTO @v and (SELECT ...) INTO @w set them on every connection"
printf 'SELECT LAST_INSERT_ID() INTO @id;\n' | sqlsplit | sqlexec -n -j 2 >/dev/null 2>err
is "$(cat err)" "" "SELECT LAST_INSERT_ID() INTO @id: no warning, as the SET"
sql -e "DROP DATABASE t4060_into"

# CREATE TEMPORARY TABLE: the table lives on one connection, so from
# there on everything runs on that one.
fresh_db t4060_tmp
sql t4060_tmp -e "CREATE TABLE real_t (id INT PRIMARY KEY)"
printf 'CREATE TEMPORARY TABLE tmp (id INT PRIMARY KEY);\nINSERT INTO tmp VALUES (1);\nINSERT INTO tmp VALUES (2);\nINSERT INTO tmp VALUES (3);\nINSERT INTO real_t SELECT * FROM tmp;\n' |
    sqlsplit >tmp.rp
sqlexec $C -j 4 --commit-every 1 t4060_tmp <tmp.rp >/dev/null 2>err
is $? 0 "CREATE TEMPORARY TABLE and INSERTs into it at -j 4: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4060_tmp.real_t')" "1,2,3" \
    "every row went through the one temporary table"
like "$(cat err)" '^sqlexec: statement 1 \(line 1\): CREATE TEMPORARY TABLE \(it exists only on the connection that made it\): from here on one connection' \
    "and sqlexec says it runs on one connection from there"
sqlexec -n -j 4 <tmp.rp >plan 2>/dev/null
like "$(grep '^statement 2 ' plan)" 'barrier \(one connection from here on\)' \
    "dry run: the INSERT after it is not parallel"
# ... and session statements after it run there only (they may read it)
sql t4060_tmp -e "DELETE FROM real_t"
printf 'CREATE TEMPORARY TABLE tmp (a INT);\nINSERT INTO tmp VALUES (1),(2);\nSELECT COUNT(*) INTO @n FROM tmp;\nSET @m = (SELECT MAX(a) FROM tmp);\nINSERT INTO real_t VALUES (@n + 10),(@m);\n' |
    sqlsplit | sqlexec $C -j 4 t4060_tmp >/dev/null 2>err
is $? 0 "session statements that read the temporary table: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4060_tmp.real_t')" "2,12" \
    "and they read it on its connection"

# ... also when it is made inside the input's own transaction
sql t4060_tmp -e "DELETE FROM real_t"
printf 'BEGIN;\nCREATE TEMPORARY TABLE tmp (id INT PRIMARY KEY);\nCOMMIT;\nINSERT INTO tmp VALUES (1);\nINSERT INTO tmp VALUES (2);\nINSERT INTO real_t SELECT * FROM tmp;\n' |
    sqlsplit | sqlexec $C -j 4 --commit-every 1 t4060_tmp >/dev/null 2>err
is $? 0 "CREATE TEMPORARY TABLE inside BEGIN ... COMMIT, INSERTs after it: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(id ORDER BY id) FROM t4060_tmp.real_t')" "1,2" \
    "and the rows went through the temporary table"
sql -e "DROP DATABASE t4060_tmp"

# A session statement that calls a function with side effects (NEXTVAL,
# a stored function) runs once, as in the mysql client: from it on, one
# connection.
fresh_db t4060_fn
sql t4060_fn -e "CREATE SEQUENCE s; CREATE TABLE t (a INT)"
printf 'SELECT NEXTVAL(s) INTO @id;\nSET @r = RAND();\nINSERT INTO t VALUES (@id);\nINSERT INTO t VALUES (@id);\nINSERT INTO t SELECT NEXTVAL(s);\n' |
    sqlsplit | sqlexec $C -j 4 --commit-every 1 t4060_fn >/dev/null 2>err
is $? 0 "SELECT NEXTVAL(s) INTO @id at -j 4: exit 0"
is "$(sql -e 'SELECT GROUP_CONCAT(a ORDER BY a) FROM t4060_fn.t')" "1,1,2" \
    "the sequence moved once, as with the mysql client"
like "$(cat err)" 'statement 1 \(line 1\): a session statement calls NEXTVAL\(\): from here on one connection' \
    "and sqlexec says why it runs on one connection"
sql -e "DROP DATABASE t4060_fn"

# dumps: mariadb-dump (with routines and triggers, whose bodies may read
# LAST_INSERT_ID()) and rows2sql with large values set in pieces
fresh_db t4060_src
sql t4060_src <<'SQL'
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v LONGTEXT);
CREATE TABLE log (id INT, n INT);
INSERT INTO t (v) VALUES ('a'), (REPEAT('b', 100000)), (NULL);
CREATE TRIGGER t_ai AFTER INSERT ON t FOR EACH ROW
    INSERT INTO log VALUES (LAST_INSERT_ID(), ROW_COUNT());
CREATE PROCEDURE p() SELECT LAST_INSERT_ID(), FOUND_ROWS();
SQL
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers \
    t4060_src >dump.sql
fresh_db t4060_b
sqlsplit <dump.sql | sqlexec $C -j 4 t4060_b 2>err
is $? 0 "mariadb-dump output restores at -j 4"
is "$(grep -c warning err)" 0 "mariadb-dump output: no warning"
fresh_db t4060_c
dbsnap $C t4060_src 2>/dev/null |
    rows2sql --max-allowed-packet=64K --max-statement-size=8K \
    --rename-db t4060_src=t4060_c >r2s.sql
grep -q '^SET @' r2s.sql; ok $? "rows2sql output sets large values in pieces"
sqlsplit <r2s.sql | sqlexec $C -j 4 t4060_c 2>err
is $? 0 "rows2sql output restores at -j 4"
is "$(grep -c warning err)" 0 "rows2sql output: no warning"
sql -e "DROP DATABASE t4060_a; DROP DATABASE t4060_b; DROP DATABASE t4060_c; DROP DATABASE t4060_src"
done_testing
