/*
 * Unit tests for sqlsplit's splitter (split.h, libsqlsplit.a): statement
 * boundaries as the mysql client draws them, classification, truncation
 * and the rows2sql trailer.
 * Every case is split three ways (whole, in 3-byte pieces, byte by byte)
 * and must give the same result each time.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <xxhash.h>

#include "buf.h"
#include "frame.h"
#include "sqltrailer.h"
#include "../../cmd/sqlsplit/split.h"

#define O_NBE	0x01
#define O_BIN	0x02
#define O_TRL	0x04	/* require trailer */
#define O_META	0x08	/* print kind, target and db */
#define O_LINE	0x10	/* print line and offset */

struct collect {
	struct buf	 out;
	int		 flags;
};

static int
collect(void *arg, const struct split_stmt *st)
{
	struct collect	*c = arg;

	if (c->out.len > 0)
		buf_adds(&c->out, " ## ");
	if (c->flags & O_LINE)
		buf_addf(&c->out, "%llu@%llu:", (unsigned long long)st->line,
		    (unsigned long long)st->offset);
	if (c->flags & O_META)
		buf_addf(&c->out, "%s %s.%s [%s] ", rp_stmt_kind_name(st->kind),
		    st->schema, st->table, st->db);
	buf_add(&c->out, st->text, st->len);
	return 0;
}

/* Split in pieces of chunk bytes (0: at once); the statements or "ERR: ". */
static char *
run(const char *in, size_t len, int flags, size_t chunk)
{
	struct split_opts o;
	struct collect	 c;
	struct split	*s;
	size_t		 i, k;
	int		 r = 0;

	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	o.no_backslash_escapes = !!(flags & O_NBE);
	o.binary_mode = !!(flags & O_BIN);
	o.require_trailer = !!(flags & O_TRL);
	c.flags = flags;
	assert_non_null(s = split_new(&o, collect, &c));
	if (chunk == 0)
		chunk = len ? len : 1;
	for (i = 0; i < len && r == 0; i += k) {
		k = len - i < chunk ? len - i : chunk;
		r = split_feed(s, in + i, k);
	}
	if (r == 0)
		r = split_finish(s);
	if (r == -1) {
		buf_reset(&c.out);
		buf_addf(&c.out, "ERR: %s", split_errstr(s));
	}
	split_free(s);
	buf_addc(&c.out, '\0');
	return buf_detach(&c.out, NULL);
}

static void
check_n(const char *in, size_t len, int flags, const char *want)
{
	char	*a, *b, *c;

	a = run(in, len, flags, 0);
	b = run(in, len, flags, 3);
	c = run(in, len, flags, 1);
	if (strncmp(want, "ERR: ", 5) == 0) {
		if (strstr(a, want + 5) == NULL)
			fail_msg("input %s\n got: %s\nwant: %s", in, a, want);
	} else if (strcmp(a, want) != 0)
		fail_msg("input %s\n got: %s\nwant: %s", in, a, want);
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	free(a);
	free(b);
	free(c);
}

static void
check(const char *in, int flags, const char *want)
{
	check_n(in, strlen(in), flags, want);
}

static void
t_basic(void **state)
{
	check("select 1;select 2", 0, "select 1 ## select 2");
	check("select 1;\nselect 2;\n", 0, "select 1 ## select 2");
	check(";;select 1;;; ;\n;", 0, "select 1");
	check("  \n\t select 1 ;  ", 0, "select 1 ");
	check("select 1\n\n", 0, "select 1");
	check("", 0, "");
	check("\n\n  \n", 0, "");
	check("select 1;\nselect 2;", O_LINE, "1@0:select 1 ## 2@10:select 2");
}

static void
t_quotes(void **state)
{
	check("select ';', \";\", `;`;x", 0, "select ';', \";\", `;` ## x");
	check("select 'it\"s', \"it's\", `it's`;x", 0,
	    "select 'it\"s', \"it's\", `it's` ## x");
	check("select 'a\\';b';x", 0, "select 'a\\';b' ## x");
	check("select 'a'';b';x", 0, "select 'a'';b' ## x");
	check("select \"a\"\";b\";x", 0, "select \"a\"\";b\" ## x");
	check("select `a``;b`;x", 0, "select `a``;b` ## x");
	/* a backslash at the end of a string */
	check("select 'a\\\\';x", 0, "select 'a\\\\' ## x");
	/* no escapes in backticks */
	check("select `a\\`;x", 0, "select `a\\` ## x");
	/* NO_BACKSLASH_ESCAPES */
	check("select 'a\\';x", O_NBE, "select 'a\\' ## x");
	check("select \"a\\\";x", O_NBE, "select \"a\\\" ## x");
	/* comment markers and DELIMITER inside strings */
	check("select '-- x;', '# y;', '/* z;';x", 0,
	    "select '-- x;', '# y;', '/* z;' ## x");
	check("select 'a\nDELIMITER //\n';x", 0,
	    "select 'a\nDELIMITER //\n' ## x");
	/* a newline right after a backslash in a string */
	check("select 'a\\\nb';x", 0, "select 'a\\\nb' ## x");
}

static void
t_comments(void **state)
{
	check("-- c;\nselect 1; # x;\n/* ; */select 2;", 0,
	    "select 1 ## select 2");
	check("--x\nselect 1;", 0, "select 1");
	check("select 1 --x\n;", 0, "select 1 --x\n");
	check("select 1 -- c;\n;", 0, "select 1 -- c;\n");
	check("select 1 #c;\n;", 0, "select 1 #c;\n");
	check("select 1 /* ; */ + 1;", 0, "select 1 /* ; */ + 1");
	check("select 1;\n-- end", 0, "select 1");
	check("select 1;\n--", 0, "select 1");
	check("select 1;\n#", 0, "select 1");
	check("select 1\n-- end", 0, "select 1\n-- end");
	check("select 1 /* it's */;x", 0, "select 1 /* it's */ ## x");
	check("select 1 -- it's\n;x", 0, "select 1 -- it's\n ## x");
	check("select 1-1;", 0, "select 1-1");
	check("select 1--1;", 0, "select 1--1");
	/* executable comments are statement text, ; inside ends it */
	check("/*!40101 SET NAMES utf8 */;", O_META,
	    "set . [] /*!40101 SET NAMES utf8 */");
	check("/*!40101 SET a=1; */;", 0, "/*!40101 SET a=1 ## */");
	check("/*M!100101 SET a=1 */;", 0, "/*M!100101 SET a=1 */");
	/* the sandbox line of mariadb-dump: \- is a client command */
	check("/*M!999999\\- enable the sandbox mode */ \n"
	    "/*!40101 SET NAMES utf8mb4 */;", O_META,
	    "set . [] /*M!999999 enable the sandbox mode */ \n"
	    "/*!40101 SET NAMES utf8mb4 */");
	/* a version comment opened inside a plain one keeps it open */
	check("/* a /*! b */ c */ select 1;", 0, "select 1");
}

static void
t_delimiter(void **state)
{
	check("DELIMITER //\nselect 1; select 2//\nDELIMITER ;\nselect 3;",
	    0, "select 1; select 2 ## select 3");
	check("DeLiMiTeR A;\nSELECT 1 A;\ndelimiter ;\n", 0, "SELECT 1 ");
	check("delimiter $$\nselect 1$$\n  delimiter ;\nselect 2;", 0,
	    "select 1 ## select 2");
	check("delimiter 'MySQL'\nselect 1MySQL\ndelimiter ;\n", 0,
	    "select 1");
	check("delimiter delimiter\nselect 1 delimiter\ndelimiter ;\n", 0,
	    "select 1 ");
	check("delimiter ; # reset\nselect 1;", 0, "select 1");
	check("delimiter\nselect 1;", 0, "select 1");
	check("select 1;\ndelimiter //", 0, "select 1");
	check("\\d //\nselect 1//\n\\d ;\nselect 2;", 0,
	    "select 1 ## select 2");
	check("--\nDELIMITER //\nselect 1//", 0, "select 1");
	/* a trigger body with nested BEGIN ... END */
	check("DELIMITER ;;\nCREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW "
	    "BEGIN\n  IF 1 THEN BEGIN SET @a = ';'; END; END IF;\nEND;;\n"
	    "DELIMITER ;\nselect 1;", O_META,
	    "create-trigger .t [] CREATE TRIGGER tr BEFORE INSERT ON t FOR "
	    "EACH ROW BEGIN\n  IF 1 THEN BEGIN SET @a = ';'; END; END IF;\n"
	    "END ## other . [] select 1");
	/*
	 * After a statement on the same line, DELIMITER swallows the next
	 * line into its argument, as in the client (checked against it)
	 */
	check("select 1; delimiter //\nselect 2;\nselect 3//select 4;", 0,
	    "select 1 ## select 3 ## 4;");
	check("select 1; DELIMITER //\r\nselect 2;\r\nselect 3//select 4;\n"
	    "select 5; delimiter ;;\nx\n", 0,
	    "select 1 ## select 3 ## 4;\nselect 5; delimiter ;;\nx");
	/* DELIMITER not at the start of a statement is SQL */
	check("select 1\nDELIMITER //\n;", 0, "select 1\nDELIMITER //\n");
}

static void
t_crlf_bom(void **state)
{
	check("select 1;\r\nselect 'a\r\nb';\r\n", 0,
	    "select 1 ## select 'a\nb'");
	check("select 1;\r\nselect 'a\r\nb';\r\n", O_BIN,
	    "select 1 ## select 'a\r\nb'");
	check("DELIMITER //\r\nselect 1//\r\n", 0, "select 1");
	check("\xEF\xBB\xBFselect 1;", O_LINE, "1@3:select 1");
	check("\xEF\xBB\xBF" "DELIMITER //\nselect 1//", 0, "select 1");
	check_n("select 1;\0", 10, 0, "ERR: NUL byte");
	check_n("select '\0';", 11, O_BIN, "select '\0'");
}

static void
t_client_commands(void **state)
{
	check("select 1\\g select 2\\G", 0, "select 1 ## select 2");
	check("select 1 \\c select 2;", 0, "select 2");
	check("select \\N;", 0, "select \\N");
	check("select 1;\nquit\nselect 2;", 0, "select 1");
	check("select 1;\nsource /nonexistent/x.sql\n", 0,
	    "ERR: source /nonexistent/x.sql: No such file");
	check("\\-\nsource /nonexistent/x.sql\n", 0,
	    "ERR: 'source' is not allowed in sandbox mode");
	check("select 1;\nsystem ls\n", 0, "ERR: 'system' is not");
	check("use foo\nselect 1;", O_META,
	    "use foo. [foo] use foo ## other . [foo] select 1");
	check("use `a b`;\nselect 1;", O_META,
	    "use a b. [a b] use `a b` ## other . [a b] select 1");
	check("\\u foo\nselect 1;", O_META,
	    "use foo. [foo] USE `foo` ## other . [foo] select 1");
	check("select 1 \\p;", 0, "select 1 ");
	check("select 1;\nstatus\nselect 2;", 0, "select 1 ## select 2");
	/* a backslash ending a line outside strings is dropped */
	check("select 1\\\n;", 0, "select 1\n");
}

static void
t_classify(void **state)
{
	check("/*!40000 ALTER TABLE `t` DISABLE KEYS */;", O_META,
	    "alter .t [] /*!40000 ALTER TABLE `t` DISABLE KEYS */");
	check("INSERT IGNORE INTO `db`.`t``x` VALUES (1);", O_META,
	    "insert db.t`x [] INSERT IGNORE INTO `db`.`t``x` VALUES (1)");
	check("REPLACE INTO t VALUES (1);", O_META,
	    "insert .t [] REPLACE INTO t VALUES (1)");
	check("-- c\n/* d */ CREATE TABLE IF NOT EXISTS t (a int);", O_META,
	    "create-table .t [] CREATE TABLE IF NOT EXISTS t (a int)");
	check("DROP TABLE IF EXISTS `a`, `b`;", O_META,
	    "drop .a [] DROP TABLE IF EXISTS `a`, `b`");
	check("LOCK TABLES `t` WRITE;UNLOCK TABLES;", O_META,
	    "lock .t [] LOCK TABLES `t` WRITE ## unlock . [] UNLOCK TABLES");
	check("TRUNCATE TABLE s.t;", O_META, "delete s.t [] TRUNCATE TABLE s.t");
	check("UPDATE LOW_PRIORITY t SET a=1;", O_META,
	    "update .t [] UPDATE LOW_PRIORITY t SET a=1");
	check("DELETE FROM s.t;", O_META, "delete s.t [] DELETE FROM s.t");
	check("LOAD DATA INFILE 'x' INTO TABLE t;", O_META,
	    "load .t [] LOAD DATA INFILE 'x' INTO TABLE t");
	check("CREATE DEFINER=`root`@`localhost` PROCEDURE p() BEGIN END;",
	    O_META, "create-routine .p [] CREATE DEFINER=`root`@`localhost` "
	    "PROCEDURE p() BEGIN END");
	check("/*!50001 CREATE ALGORITHM=UNDEFINED */\n/*!50013 DEFINER=`root`@"
	    "`localhost` SQL SECURITY DEFINER */\n/*!50001 VIEW `v` AS select "
	    "1 */;", O_META, "create-view .v [] /*!50001 CREATE ALGORITHM="
	    "UNDEFINED */\n/*!50013 DEFINER=`root`@`localhost` SQL SECURITY "
	    "DEFINER */\n/*!50001 VIEW `v` AS select 1 */");
	check("/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ "
	    "/*!50003 TRIGGER `tr` BEFORE INSERT ON `c` FOR EACH ROW SET "
	    "NEW.x = 1 */;", O_META, "create-trigger .c [] /*!50003 CREATE*/ "
	    "/*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER `tr` "
	    "BEFORE INSERT ON `c` FOR EACH ROW SET NEW.x = 1 */");
	check("CREATE DATABASE /*!32312 IF NOT EXISTS*/ `d`;", O_META,
	    "create-database d. [] CREATE DATABASE /*!32312 IF NOT EXISTS*/ "
	    "`d`");
	check("CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;", O_META,
	    "create-event .e [] CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO "
	    "SELECT 1");
	check("BEGIN;START TRANSACTION;COMMIT;ROLLBACK;", O_META,
	    "transaction . [] BEGIN ## transaction . [] START TRANSACTION ## "
	    "transaction . [] COMMIT ## transaction . [] ROLLBACK");
	check("BEGIN NOT ATOMIC SELECT 1; END", O_META,
	    "other . [] BEGIN NOT ATOMIC SELECT 1 ## other . [] END");
	check("USE d1;select 1;USE `d``2`;select 2;", O_META,
	    "use d1. [d1] USE d1 ## other . [d1] select 1 ## "
	    "use d`2. [d`2] USE `d``2` ## other . [d`2] select 2");
}

static void
t_sql_mode(void **state)
{
	check("SET sql_mode='NO_BACKSLASH_ESCAPES';\nselect 'a\\';\nselect 2;",
	    0, "SET sql_mode='NO_BACKSLASH_ESCAPES' ## select 'a\\' ## "
	    "select 2");
	check("/*!40101 SET @OLD=@@SQL_MODE, SQL_MODE='NO_BACKSLASH_ESCAPES' "
	    "*/;\nselect 'a\\';\n/*!40101 SET SQL_MODE=@OLD */;\n"
	    "select 'b\\';';", 0,
	    "/*!40101 SET @OLD=@@SQL_MODE, SQL_MODE='NO_BACKSLASH_ESCAPES' */"
	    " ## select 'a\\' ## /*!40101 SET SQL_MODE=@OLD */ ## "
	    "select 'b\\';'");
	check("SET sql_mode='ANSI';select \"a\\\";x", 0,
	    "SET sql_mode='ANSI' ## select \"a\\\" ## x");
	check("SET sql_mode='NO_BACKSLASH_ESCAPES';SET sql_mode=DEFAULT;"
	    "select 'a\\';';", 0, "SET sql_mode='NO_BACKSLASH_ESCAPES' ## "
	    "SET sql_mode=DEFAULT ## select 'a\\';'");
}

static void
t_truncated(void **state)
{
	check("select 1;\nselect 'abc", 0,
	    "ERR: truncated: unterminated string starting at line 2");
	check("select 1;\nselect `abc", 0,
	    "ERR: truncated: unterminated quoted identifier starting at line 2");
	check("select 1;\n\n/* abc", 0,
	    "ERR: truncated: unterminated comment starting at line 3");
	check("select 1 /* abc", 0,
	    "ERR: truncated: unterminated comment starting at line 1");
	check("select 1;\n\"a", 0, "ERR: line 2, offset 10");
	check("-- MariaDB dump 10.19\nselect 1;\n", 0,
	    "ERR: truncated: mysqldump output does not end");
	check("-- MariaDB dump 10.19\nselect 1;\n-- Dump completed on x\n", 0,
	    "select 1");
	check("select 1;", O_TRL, "ERR: truncated: no rowpipe trailer");
}

/* text + a rows2sql trailer line for it */
static char *
with_trailer(const char *text, uint64_t stmts, size_t *lenp)
{
	struct buf	 b = BUF_INIT;
	struct sqltrailer t;

	t.statements = stmts;
	t.bytes = strlen(text);
	t.xxh3 = XXH3_64bits(text, strlen(text));
	buf_adds(&b, text);
	sqltrailer_format(&b, &t);
	return buf_detach(&b, lenp);
}

static void
t_trailer(void **state)
{
	const char	*text = "SET NAMES utf8mb4;\nINSERT INTO `t` VALUES "
	    "(1,'a;b'),(2,'c\\'d');\nDELIMITER ;;\nCREATE PROCEDURE p() BEGIN "
	    "SELECT 1; END;;\nDELIMITER ;\n/* x */\nUSE `db`;\n";
	char		*in, *got;
	size_t		 len, cut;

	in = with_trailer(text, 4, &len);
	check_n(in, len, O_TRL, "SET NAMES utf8mb4 ## INSERT INTO `t` VALUES "
	    "(1,'a;b'),(2,'c\\'d') ## CREATE PROCEDURE p() BEGIN SELECT 1; "
	    "END ## USE `db`");
	/* every cut is caught */
	for (cut = 0; cut < len; cut++) {
		got = run(in, cut, O_TRL, 0);
		if (strncmp(got, "ERR: ", 5) != 0)
			fail_msg("cut at %zu accepted: %s", cut, got);
		free(got);
	}
	/* one damaged byte */
	in[30] ^= 0x01;
	check_n(in, len, 0, "ERR: trailer mismatch: xxh3");
	free(in);
	in = with_trailer(text, 5, &len);
	check_n(in, len, 0, "ERR: trailer mismatch: 4 statements, it says 5");
	free(in);
	/* a trailer that is not the last line is only a comment */
	check("select 1;\n-- rowpipe-trailer statements=9 bytes=1 "
	    "xxh3=0000000000000000\nselect 2;\n", 0, "select 1 ## select 2");
	check("select 1;\n-- rowpipe-trailer statements=1 bytes=10 xxh3=00", 0,
	    "ERR: malformed or cut rowpipe trailer");
}

/* Without a trailer, a cut of a mysqldump file is still always caught. */
static void
t_cut_mysqldump(void **state)
{
	const char	*in = "/*M!999999\\- enable the sandbox mode */ \n"
	    "-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB\n--\n"
	    "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='' */;\n"
	    "INSERT INTO `t` VALUES (1,'x;y'),\n(2,'z');\n"
	    "DELIMITER ;;\n/*!50003 CREATE*/ /*!50003 TRIGGER `tr` BEFORE "
	    "INSERT ON `t` FOR EACH ROW BEGIN SET NEW.a = 1; END */;;\n"
	    "DELIMITER ;\n\n-- Dump completed on 2026-11-30  0:37:03\n";
	char		*got;
	size_t		 len = strlen(in), cut;

	got = run(in, len, O_META, 0);
	assert_null(strstr(got, "ERR"));
	free(got);
	/*
	 * Up to the header line, a cut leaves a statement without its
	 * delimiter, which the client (and sqlsplit) runs; from there on,
	 * the missing "-- Dump completed" line gives it away.
	 */
	for (cut = strstr(in, "\n--\n") - in; cut < len; cut++) {
		got = run(in, cut, 0, 0);
		if (strncmp(got, "ERR: ", 5) != 0)
			fail_msg("cut at %zu accepted: %s", cut, got);
		free(got);
	}
}

/* source: the file is split in place, sharing delimiter, numbers and USE. */
static void
t_source(void **state)
{
	char	 path[] = "/tmp/sqlsplit-unit.XXXXXX", in[256];
	FILE	*f;
	int	 fd;

	assert_true((fd = mkstemp(path)) != -1);
	assert_non_null(f = fdopen(fd, "w"));
	fputs("select 2//\nuse inner_db\ndelimiter $$\nselect 3$$\n", f);
	fclose(f);
	snprintf(in, sizeof(in), "delimiter //\nselect 1//\nsource %s\n"
	    "select 4$$\n\\. %s\nselect 5;", path, path);
	/*
	 * The delimiter the first source leaves ($$) holds in the second,
	 * where "select 2//" no longer ends a statement.
	 */
	check(in, O_META | O_LINE, "2@13:other . [] select 1 ## "
	    "1@0:other . [] select 2 ## "
	    "2@11:use inner_db. [inner_db] use inner_db ## "
	    "4@37:other . [inner_db] select 3 ## "
	    "4@57:other . [inner_db] select 4 ## "
	    "1@0:other . [inner_db] select 2//\nuse inner_db\ndelimiter  ## "
	    "4@37:other . [inner_db] select 3 ## "
	    "6@97:other . [inner_db] select 5;");
	unlink(path);
}

/* A statement far larger than the read chunk, fed in big pieces. */
static void
t_large(void **state)
{
	size_t	 n = SPLIT_CHUNK * 3 + 12345, i;
	char	*in, *got;

	assert_non_null(in = malloc(n + 64));
	memcpy(in, "INSERT INTO t VALUES ('", 23);
	for (i = 23; i < n; i++)
		in[i] = "ab;c\\'\"-#/*"[i % 11] == '\\' ? 'x' :
		    "ab;c\\'\"-#/*"[i % 11] == '\'' ? 'y' : "ab;c\\'\"-#/*"[i % 11];
	memcpy(in + n, "');select 2;", 12);
	got = run(in, n + 12, 0, 1 << 20);
	assert_int_equal(strlen(got), n + 2 + 4 + 8);
	assert_memory_equal(got, in, n + 2);
	assert_string_equal(got + n + 2, " ## select 2");
	free(got);
	free(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_basic),
		cmocka_unit_test(t_quotes),
		cmocka_unit_test(t_comments),
		cmocka_unit_test(t_delimiter),
		cmocka_unit_test(t_crlf_bom),
		cmocka_unit_test(t_client_commands),
		cmocka_unit_test(t_classify),
		cmocka_unit_test(t_sql_mode),
		cmocka_unit_test(t_truncated),
		cmocka_unit_test(t_trailer),
		cmocka_unit_test(t_cut_mysqldump),
		cmocka_unit_test(t_source),
		cmocka_unit_test(t_large),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
