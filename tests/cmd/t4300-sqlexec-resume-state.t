#!/bin/sh
# A resume runs the SET and USE statements before its point again, on new
# connections, and nothing else of them (newuser's findings 9, 9b, 9c).
# That rebuilds the session only when each of those SETs gives its value
# again: a SET from LAST_INSERT_ID() or a subquery, a user variable set
# inside UPDATE or SELECT ... INTO, a TEMPORARY TABLE still there do not
# come back, and the old sqlexec finished such an input with other values
# (or on the real table a temporary one shadowed), exit 0.  Now the
# failed run offers no resume and says why in one line; --skip-to and
# --checkpoint --resume at such a point refuse before running anything,
# exit 1.  An input of pure SETs (a mysqldump header, @k = @k + 1) still
# resumes, and gives every row as an uninterrupted mysql run does.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# rs.sql (finding 9), statement 6 reads LAST_INSERT_ID(), 12 fails
cat >rs.sql <<'SQL'
CREATE DATABASE IF NOT EXISTS t4300_rs; USE t4300_rs;
CREATE TABLE IF NOT EXISTS author (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50));
CREATE TABLE IF NOT EXISTS book (id INT AUTO_INCREMENT PRIMARY KEY, author_id INT, title VARCHAR(80));
INSERT INTO author (name) VALUES ('Ann');
SET @ann = LAST_INSERT_ID();
SET @cnt = (SELECT COUNT(*) FROM author);
SET @k = 1;
SET @k = @k + 1;
INSERT INTO book (author_id, title) VALUES (@ann, 'First');
INSERT INTO author (name) VALUES ('Bob');
INSERT INTO t4300_rs.needed (x) VALUES (1);
INSERT INTO book (author_id, title) VALUES (@ann, CONCAT('Second cnt=', @cnt, ' k=', @k));
SQL
# tt2.sql (9b): a TEMPORARY TABLE shadows the real stage; 7 fails
cat >tt2.sql <<'SQL'
CREATE DATABASE IF NOT EXISTS t4300_tt2; USE t4300_tt2;
CREATE TABLE IF NOT EXISTS stage (x INT);
INSERT INTO stage VALUES (100), (200);
CREATE TEMPORARY TABLE stage (x INT);
INSERT INTO stage VALUES (1);
INSERT INTO t4300_tt2.needed VALUES (1);
DELETE FROM stage;
SQL
# tt.sql (9b): the TEMPORARY TABLE is read after the failure
cat >tt.sql <<'SQL'
CREATE DATABASE IF NOT EXISTS t4300_tt; USE t4300_tt;
CREATE TABLE IF NOT EXISTS dest (x INT);
CREATE TEMPORARY TABLE tmp (x INT);
INSERT INTO tmp VALUES (1), (2);
INSERT INTO t4300_tt.needed VALUES (1);
INSERT INTO dest SELECT x FROM tmp;
SQL
# rs2.sql (9c): SELECT ... INTO @m, and @n set inside an UPDATE
cat >rs2.sql <<'SQL'
CREATE DATABASE IF NOT EXISTS t4300_rs2; USE t4300_rs2;
CREATE TABLE IF NOT EXISTS a (v INT);
CREATE TABLE IF NOT EXISTS r (k VARCHAR(5), v INT);
INSERT INTO a (v) VALUES (10), (20), (30);
SELECT MAX(v) INTO @m FROM a;
SET @n := 0;
UPDATE a SET v = v + (@n := @n + 1);
INSERT INTO t4300_rs2.needed VALUES (1);
INSERT INTO r VALUES ('m', @m), ('n', @n);
SQL
# rs3.sql (9c): rs2.sql without the SELECT ... INTO: @n set inside the UPDATE
grep -v 'INTO @m' rs2.sql | sed "s/rs2/rs3/g; s/('m', @m), //" >rs3.sql

# rs4.sql (9): LAST_INSERT_ID() read after the point, of an INSERT before
cat >rs4.sql <<'SQL'
CREATE DATABASE IF NOT EXISTS t4300_rs4; USE t4300_rs4;
CREATE TABLE IF NOT EXISTS author (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50));
CREATE TABLE IF NOT EXISTS book (id INT AUTO_INCREMENT PRIMARY KEY, author_id INT, title VARCHAR(80));
INSERT INTO author (name) VALUES ('Ann'), ('Bob');
INSERT INTO t4300_rs4.needed (x) VALUES (1);
INSERT INTO book (author_id, title) VALUES (LAST_INSERT_ID(), 'Bob book?');
SQL

# run NAME ARGS...: sqlsplit NAME.sql | sqlexec ARGS, stderr in err
run() {
	_f=$1
	shift
	sqlsplit "$_f.sql" >"$_f.rp" || return 99
	sqlexec $C --no-progress "$@" <"$_f.rp" 2>err
}
# hexes DB TABLE: every row of DB.TABLE as HEX, in order
hexes() {
	sql "$1" -e "SELECT CONCAT_WS(',', $(sql -e "SELECT GROUP_CONCAT(
	    CONCAT('HEX(\`', COLUMN_NAME, '\`)') ORDER BY ORDINAL_POSITION)
	    FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '$1' AND
	    TABLE_NAME = '$2'")) AS h FROM \`$2\` ORDER BY 1"
}
# point CK: the checkpoint's position:identity, as --skip-to takes it
point() {
	sql -e "SELECT CONCAT(position, ':', identity) FROM $1 WHERE id = 1"
}

# case NAME DB K WHAT TABLE: NAME.sql fails; its line says that it cannot
# resume past statement K, and why (WHAT, an ERE); --skip-to and
# --resume refuse, and TABLE is as the failed run left it
check() {
	_n=$1 _db=$2 _k=$3 _what=$4 _t=$5
	sql -e "DROP DATABASE IF EXISTS $_db; DROP DATABASE IF EXISTS t4300_ck;
	    CREATE DATABASE t4300_ck"
	run "$_n"
	is $? 1 "$_n: the failed run exits 1"
	_l=$(tail -1 err)
	like "$_l" "^sqlexec: statements 1-[0-9]+ are committed; the input \
cannot be resumed past statement $_k: statement $_k \(line [0-9]+\) \
$_what, which a resume on a new connection cannot rebuild; restore it \
from the start into an empty target$" "$_n: its last line says why it cannot resume"
	ok $(! grep -q -- '--skip-to\|--resume' err; echo $?) \
	    "$_n: it offers no --skip-to"
	# the same with --checkpoint, which gives the point to try
	sql -e "DROP DATABASE $_db"
	run "$_n" --checkpoint t4300_ck.ck
	is $? 1 "$_n --checkpoint: exits 1"
	like "$(tail -1 err)" "cannot be resumed past statement $_k: " \
	    "$_n --checkpoint: the same line"
	_p=$(point t4300_ck.ck)
	sql "$_db" -e "CREATE TABLE needed (x INT)"
	_before=$(hexes "$_db" "$_t")
	run "$_n" --skip-to "$_p"
	is $? 1 "$_n --skip-to $_p: exits 1"
	like "$(cat err)" "^sqlexec: --skip-to $_p: refused: statement $_k \
\(line [0-9]+\) $_what, which a resume on a new connection cannot rebuild: \
restore the input from the start into an empty target$" \
	    "$_n --skip-to: refused, naming statement $_k"
	run "$_n" --checkpoint t4300_ck.ck --resume
	is $? 1 "$_n --checkpoint --resume: exits 1"
	like "$(head -1 err)" "^sqlexec: --resume \(checkpoint t4300_ck.ck, \
at [0-9]+:[0-9a-f]+\): refused: statement $_k " "$_n --resume: refused"
	is "$(hexes "$_db" "$_t")" "$_before" \
	    "$_n: $_db.$_t is as the failed run left it"
	is "$(point t4300_ck.ck)" "$_p" "$_n: the checkpoint did not move"
}

check rs t4300_rs 6 'set @ann from LAST_INSERT_ID\(\)' book
check tt2 t4300_tt2 5 'made TEMPORARY TABLE t4300_tt2.stage' stage
check tt t4300_tt 4 'made TEMPORARY TABLE t4300_tt.tmp' dest
check rs2 t4300_rs2 6 'set @m by SELECT \.\.\. INTO' r
check rs3 t4300_rs3 7 'set @n inside a statement that is not a SET' r

# rs4: the point (5) is fine, but statement 7 reads what 5 left
sql -e "DROP DATABASE IF EXISTS t4300_rs4"
run rs4
is $? 1 "rs4: the failed run exits 1"
tok=$(sed -n 's/.*; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
like "$tok" '^5:[0-9a-f]{16}$' "rs4: it offers --skip-to 5"
sql t4300_rs4 -e "CREATE TABLE needed (x INT)"
run rs4 --skip-to "$tok"
is $? 1 "rs4 --skip-to $tok: exits 1"
like "$(cat err)" "^sqlexec: --skip-to $tok: refused: statement 7 \(line 6\) \
reads LAST_INSERT_ID\(\) before any statement after the resume point set it, \
and statement 5 before the point may have set it, which a resume on a new \
connection cannot rebuild: restore the input from the start into an empty \
target$" "rs4 --skip-to: refused at statement 7"
is "$(sql t4300_rs4 -e 'SELECT COUNT(*) FROM book')" 0 "rs4: book has no row"

# Pure SETs: a mysqldump header, @k = @k + 1, a per-connection variable
# set (as mysqlbinlog's output does), a TEMPORARY TABLE dropped before
# the point, LAST_INSERT_ID() after an INSERT after it; the resume gives
# every row the mysql client gives.
cat >p.sql <<'SQL'
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
CREATE DATABASE IF NOT EXISTS t4300_p; USE t4300_p;
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(200), m VARCHAR(200));
SET @k = 1;
SET @k = @k + 1;
SET @@session.pseudo_thread_id = 999;
INSERT INTO t (v, m) VALUES (CONCAT('k=', @k), @OLD_SQL_MODE);
CREATE TEMPORARY TABLE tmp (x INT);
INSERT INTO tmp VALUES (7);
INSERT INTO t (v) SELECT CONCAT('tmp=', x) FROM tmp;
DROP TEMPORARY TABLE tmp;
SET @k = @k * 10;
INSERT INTO t4300_p.needed VALUES (1);
INSERT INTO t (v) VALUES ('after');
INSERT INTO t (v, m) VALUES ('lid', LAST_INSERT_ID());
INSERT INTO t (v, m) VALUES (CONCAT('k=', @k, ' cs=', @OLD_CHARACTER_SET_CLIENT, ' uc=', @OLD_UNIQUE_CHECKS), CONCAT(@@sql_mode, '/', @OLD_SQL_MODE));
/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
INSERT INTO t (v, m) VALUES (@@sql_mode, @@unique_checks);
SQL
sql -e "DROP DATABASE IF EXISTS t4300_p; CREATE DATABASE t4300_p;
    CREATE TABLE t4300_p.needed (x INT)"
sql <p.sql
is $? 0 "pure: mysql runs it"
want=$(hexes t4300_p t)
sql -e "DROP DATABASE t4300_p"
run p --default-character-set=utf8mb4
is $? 1 "pure: the failed run exits 1"
tok=$(sed -n 's/.*; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
like "$tok" '^16:[0-9a-f]{16}$' "pure: it offers --skip-to after statement 16"
sql t4300_p -e "CREATE TABLE needed (x INT)"
run p --default-character-set=utf8mb4 --skip-to "$tok"
is $? 0 "pure: --skip-to $tok exits 0"
is "$(hexes t4300_p t)" "$want" "pure: HEX of every row as mysql's"
like "$want" "6B3D3230" "pure: (the row after the point has k=20)"

# A mariadb-dump dump with a trigger and procedures whose bodies set
# user variables (":=", SELECT ... INTO, CALL): definitions run none of
# that, and its header's SETs are pure: it still resumes.
sql <<'SQL'
DROP DATABASE IF EXISTS t4300_d; CREATE DATABASE t4300_d; USE t4300_d;
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT);
INSERT INTO t (v) VALUES (1), (2), (3);
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @c := IFNULL(@c, 0) + 1;
CREATE PROCEDURE q() SET @y = 1;
DELIMITER ;;
CREATE PROCEDURE p() BEGIN SELECT COUNT(*) INTO @x FROM t; CALL q(); END;;
DELIMITER ;
CREATE TABLE z (a INT);
SQL
is $? 0 "dump: its source made"
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers \
    t4300_d >d.sql
is $? 0 "dump: mariadb-dump exits 0"
ok $(grep -q 'INTO @x FROM t; CALL q()' d.sql && grep -q 'SET @c := ' d.sql;
    echo $?) "dump: it holds the bodies"
# a failure near its end, before its trailer
sed -i 's/^\/\*!40103 SET TIME_ZONE=@OLD_TIME_ZONE \*\/;/INSERT INTO t4300_n.needed VALUES (1);\nINSERT INTO t4300_d.z VALUES (9);\n&/' d.sql
sql -e "DROP DATABASE t4300_d; CREATE DATABASE t4300_d;
    DROP DATABASE IF EXISTS t4300_n; CREATE DATABASE t4300_n"
run d t4300_d
is $? 1 "dump: the failed run exits 1"
tok=$(sed -n 's/.*; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
like "$tok" '^[0-9]+:[0-9a-f]{16}$' "dump: it offers --skip-to"
sql t4300_n -e "CREATE TABLE needed (x INT)"
run d t4300_d --skip-to "$tok"
is $? 0 "dump: --skip-to $tok exits 0"
is "$(sql t4300_d -e 'SELECT a FROM z')" 9 "dump: the statement after the point ran"

sql -e "DROP DATABASE t4300_d; DROP DATABASE t4300_n; DROP DATABASE t4300_rs; DROP DATABASE t4300_tt2; DROP DATABASE t4300_tt;
    DROP DATABASE t4300_rs2; DROP DATABASE t4300_rs3; DROP DATABASE t4300_rs4; DROP DATABASE t4300_p; DROP DATABASE t4300_ck"
done_testing
