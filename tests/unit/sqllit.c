/*
 * Unit tests for lib/sqllit: the literals of INSERT ... VALUES, one table
 * row per rule.  Each row is a statement, a lexer mode and what
 * sqllit_cut() must make of it: "-" (not a statement of literals), or
 * its tuples' values, written KIND:value (N null, S string with NUL as
 * \0, B bytes in
 * hex, C(cs) introduced bytes in hex, I int64, U uint64, D decimal text,
 * F double as %.17g), tuples separated by " | ".  Every row is one TAP
 * test.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "frame.h"
#include "sqllit.h"
#include "sqlset.h"
#include "sqltok.h"
#include "table.h"

#define NBE	SQLTOK_NBE
#define ANSIQ	SQLTOK_ANSIQ

struct row {
	const char	*name;
	const char	*text;
	int		 mode;
	const char	*want;
};

static const struct row rows[] = {
	/* integers: Item_int, Item_uint, and past uint64 Item_decimal */
	{ "integers", "INSERT INTO t VALUES (0, 1, -1, +5, 007)", 0,
	    "I:0 I:1 I:-1 I:5 I:7" },
	{ "int64 limits", "INSERT t VALUES (9223372036854775807,"
	    "-9223372036854775808)", 0,
	    "I:9223372036854775807 I:-9223372036854775808" },
	{ "above int64", "INSERT t VALUES (9223372036854775808,"
	    "18446744073709551615)", 0,
	    "U:9223372036854775808 U:18446744073709551615" },
	{ "beyond uint64", "INSERT t VALUES (18446744073709551616,"
	    "-9223372036854775809)", 0,
	    "D:18446744073709551616 D:-9223372036854775809" },
	{ "decimals", "INSERT t VALUES (1.50, -.5, 5., -0.000)", 0,
	    "D:1.50 D:-.5 D:5. D:-0.000" },
	{ "doubles", "INSERT t VALUES (1e3, -2.5E-3, 1E+2, 5e-324)", 0,
	    "F:1000 F:-0.0025000000000000001 F:100 F:4.9406564584124654e-324" },
	{ "double out of range", "INSERT t VALUES (1e309)", 0, "-" },
	{ "true false null", "INSERT t VALUES (TRUE, false, NULL, null)", 0,
	    "I:1 I:0 N N" },
	/* strings */
	{ "string", "INSERT t VALUES ('a', \"b\", '')", 0, "S:a S:b S:" },
	{ "escapes", "INSERT t VALUES ('\\n\\t\\0\\Z\\\\\\'\\x')", 0,
	    "S:\n\t\\0\032\\'x" },
	{ "percent and underscore keep the backslash",
	    "INSERT t VALUES ('\\%\\_')", 0, "S:\\%\\_" },
	{ "doubled quotes", "INSERT t VALUES ('it''s', \"a\"\"b\")", 0,
	    "S:it's S:a\"b" },
	{ "no backslash escapes", "INSERT t VALUES ('a\\n')", NBE,
	    "S:a\\n" },
	{ "ansi quotes: an identifier", "INSERT t VALUES (\"a\")", ANSIQ,
	    "-" },
	{ "adjacent strings", "INSERT t VALUES ('a' 'b')", 0, "-" },
	{ "national string", "INSERT t VALUES (N'a')", 0, "-" },
	{ "collate", "INSERT t VALUES ('a' COLLATE utf8mb4_bin)", 0, "-" },
	{ "a sign before a string", "INSERT t VALUES (-'1')", 0, "-" },
	/* hex and bit literals */
	{ "hex", "INSERT t VALUES (0x41, X'4142', x'', 0xABC)", 0,
	    "B:41 B:4142 B: B:0ABC" },
	{ "odd X'' is an error", "INSERT t VALUES (X'F')", 0, "-" },
	{ "bits", "INSERT t VALUES (0b1, b'101', B'', 0b100000001)", 0,
	    "B:01 B:05 B: B:0101" },
	{ "negative hex", "INSERT t VALUES (-0x41)", 0, "-" },
	/* introducers */
	{ "binary", "INSERT t VALUES (_binary 'a', _binary 0x41, _binary'')", 0,
	    "B:61 B:41 B:" },
	{ "latin1", "INSERT t VALUES (_latin1 'a\xe9', _latin1 X'E9')", 0,
	    "C(latin1):61E9 C(latin1):E9" },
	{ "utf8mb4", "INSERT t VALUES (_utf8mb4'\xc3\xbc')", 0,
	    "C(utf8mb4):C3BC" },
	{ "not a charset: a word", "INSERT t VALUES (_utf8mb3X'41')", 0, "-" },
	{ "introducer with collate", "INSERT t VALUES (_latin1 'a' COLLATE "
	    "latin1_bin)", 0, "-" },
	/* the statement */
	{ "tuples", "INSERT INTO t (a, b) VALUES (1, 'x'), (NULL, 2.5)", 0,
	    "I:1 S:x | N D:2.5" },
	{ "replace and value", "REPLACE t VALUE (1)", 0, "I:1" },
	{ "ignore", "INSERT IGNORE INTO db.t VALUES (1)", 0, "I:1" },
	{ "arity differs", "INSERT t VALUES (1), (1, 2)", 0, "-" },
	{ "expression", "INSERT t VALUES (1 + 1)", 0, "-" },
	{ "function", "INSERT t VALUES (NOW())", 0, "-" },
	{ "variable", "INSERT t VALUES (@a)", 0, "-" },
	{ "default", "INSERT t VALUES (DEFAULT)", 0, "-" },
	{ "on duplicate key update", "INSERT t VALUES (1) ON DUPLICATE KEY "
	    "UPDATE a = 2", 0, "-" },
	{ "select", "INSERT t SELECT 1", 0, "-" },
	{ "set", "INSERT t SET a = 1", 0, "-" },
	{ "not an insert", "UPDATE t SET a = 1", 0, "-" },
	{ "executable comment", "INSERT t VALUES /*!40000 (1) */", 0, "-" },
	{ "string not closed", "INSERT t VALUES ('a", 0, "-" },
	{ "empty tuple", "INSERT t VALUES ()", 0, "-" },
};

static void
hexs(struct buf *b, const char *p, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		buf_addf(b, "%02X", (unsigned char)p[i]);
}

/* What sqllit_cut() made of r, in the notation of the table. */
static void
values(const struct row *r, struct buf *b)
{
	struct sqllit_insert s;
	const struct sqllit *v;
	const char	*p;
	size_t		 i, k;

	memset(&s, 0, sizeof(s));
	if (sqllit_cut(&s, r->text, strlen(r->text), r->mode) != 1) {
		buf_adds(b, "-");
		sqllit_release(&s);
		return;
	}
	assert_int_equal(s.nv, s.arity * s.ntuples);
	for (i = 0; i < s.nv; i++) {
		v = &s.v[i];
		p = s.bytes.p != NULL ? s.bytes.p + v->off : "";
		if (i > 0)
			buf_adds(b, i % s.arity == 0 ? " | " : " ");
		switch (v->kind) {
		case SQLLIT_NULL:
			buf_adds(b, "N");
			break;
		case SQLLIT_STR:
			buf_adds(b, "S:");
			for (k = 0; k < v->len; k++)
				if (p[k] == '\0')
					buf_adds(b, "\\0");
				else
					buf_addc(b, p[k]);
			break;
		case SQLLIT_BIN:
			buf_adds(b, "B:");
			hexs(b, p, v->len);
			break;
		case SQLLIT_CS:
			buf_addf(b, "C(%.*s):", (int)v->cslen, v->cs);
			hexs(b, p, v->len);
			break;
		case SQLLIT_INT:
			buf_addf(b, "I:%lld", (long long)(int64_t)v->u);
			break;
		case SQLLIT_UINT:
			buf_addf(b, "U:%llu", (unsigned long long)v->u);
			break;
		case SQLLIT_DEC:
			buf_adds(b, "D:");
			buf_add(b, p, v->len);
			break;
		case SQLLIT_DBL:
			buf_addf(b, "F:%.17g", v->d);
			break;
		}
	}
	sqllit_release(&s);
}

TABLE_ROW_TEST(test_row, values)

/* sqllit_target(): the table and the column list of the prefix. */
static void
test_target(void **state)
{
	static const char q[] = "INSERT LOW_PRIORITY IGNORE INTO `d`.`t` "
	    "(a, `b`) VALUES (1, 2)";
	static const char np[] = "INSERT t PARTITION (p0) VALUES (1)";
	struct sqllit_insert s;
	const char	*tb, *te, *cb, *ce;

	memset(&s, 0, sizeof(s));
	assert_int_equal(sqllit_cut(&s, q, strlen(q), 0), 1);
	assert_int_equal(sqllit_target(&s, 0, &tb, &te, &cb, &ce), 0);
	assert_int_equal((int)(te - tb), 7);
	assert_memory_equal(tb, "`d`.`t`", 7);
	assert_int_equal((int)(ce - cb), 6);
	assert_memory_equal(cb, "a, `b`", 6);
	assert_int_equal(sqllit_cut(&s, np, strlen(np), 0), 1);
	assert_int_equal(sqllit_target(&s, 0, &tb, &te, &cb, &ce), -1);
	sqllit_release(&s);
}

/* sqllit_to_utf8(): what an introduced string is in UTF-8. */
static void
test_to_utf8(void **state)
{
	struct buf	 b = BUF_INIT;

	buf_adds(&b, "");
	assert_int_equal(sqllit_to_utf8(&b, "latin1", 6, "a\xe9\x80\x81", 4,
	    0), 0);
	assert_string_equal(b.p, "a\xc3\xa9\xe2\x82\xac\xc2\x81");
	buf_reset(&b);
	assert_int_equal(sqllit_to_utf8(&b, "ascii", 5, "ab", 2, 0), 0);
	assert_int_equal(sqllit_to_utf8(&b, "ascii", 5, "\xe9", 1, 0), -1);
	assert_string_equal(b.p, "ab");
	buf_reset(&b);
	assert_int_equal(sqllit_to_utf8(&b, "UTF8MB4", 7, "\xf0\x9f\x98\x80",
	    4, 0), 0);
	assert_int_equal(b.len, 4);
	/* a four-byte character does not fit a utf8mb3 client or source */
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb4", 7, "\xf0\x9f\x98\x80",
	    4, 1), -1);
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb3", 7, "\xf0\x9f\x98\x80",
	    4, 0), -1);
	/* bytes the server would warn about: not converted here */
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb4", 7, "\xff", 1, 0), -1);
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb4", 7, "\xc0\x80", 2, 0),
	    -1);
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb4", 7, "\xed\xa0\x80", 3,
	    0), -1);
	assert_int_equal(sqllit_to_utf8(&b, "utf8mb4", 7, "\xc3", 1, 0), -1);
	assert_int_equal(sqllit_to_utf8(&b, "cp1251", 6, "a", 1, 0), -1);
	assert_int_equal(b.len, 4);
	buf_release(&b);
}

/* sqllit_quick(): what passes without the lexer, and the AI column. */
static void
test_quick(void **state)
{
	static const struct {
		const char	*text;
		long		 col;
		int		 quick, nonzero, mode;
	} q[] = {
		{ "INSERT INTO t VALUES (1,'a'),(2,'b')", 0, 1, 1, 0 },
		{ "INSERT INTO t VALUES (1,'a'),(0,'b')", 0, 1, 0, 0 },
		{ "INSERT INTO t VALUES (-5, 'x'), ( 7 ,'y')", 0, 1, 1, 0 },
		{ "INSERT INTO t VALUES (NULL,'a')", 0, 1, 0, 0 },
		{ "INSERT INTO t VALUES ('3','a')", 0, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1.5,'a')", 0, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1,'a')", 1, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1)", 1, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1,'it''s @x (y)')", -1, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1,'a\\'(b')", -1, 1, 0, 0 },
		{ "INSERT INTO t VALUES (1,_binary 'x',X'41',0x41)", 0, 1, 1, 0 },
		{ "INSERT INTO t VALUES (1,2) ON DUPLICATE KEY UPDATE v = "
		    "VALUES(v) + 1", 0, 1, 1, 0 },
		{ "INSERT INTO t VALUES (@a)", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (LAST_INSERT_ID())", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (f (1))", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES ((SELECT 1))", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (1) /* @x */", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (1) -- x", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (1) # x", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES ('open)", -1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (1", -1, 0, 0, 0 },
		/* the lexer mode of the statement: no escapes, "" a name */
		{ "INSERT INTO t VALUES ('a\\', @n := 1 /* ' */)", -1, 0, 0,
		    SQLTOK_NBE },
		{ "INSERT INTO t VALUES ('a\\', @n := 1 /* ' */)", -1, 1, 0, 0 },
		{ "INSERT INTO t VALUES ('C:\\', 1), ('D:\\', 2)", 1, 1, 1,
		    SQLTOK_NBE },
		{ "INSERT INTO t VALUES ('C:\\', 1), ('D:\\', 2)", 1, 0, 0, 0 },
		{ "INSERT INTO t VALUES (\"a\\\", 5)", 1, 1, 1, SQLTOK_ANSIQ },
		{ "INSERT INTO t VALUES (\"a\\\", 5)", 1, 0, 0, 0 },
	};
	size_t		 i, from;
	int		 nz;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		from = (size_t)(strstr(q[i].text, "VALUES") - q[i].text) + 6;
		nz = -1;
		if (sqllit_quick(q[i].text, strlen(q[i].text), from, q[i].col,
		    q[i].mode, &nz) != q[i].quick || (q[i].quick &&
		    nz != q[i].nonzero))
			print_message("# %s (mode %d): got nonzero %d\n",
			    q[i].text, q[i].mode, nz);
		assert_int_equal(sqllit_quick(q[i].text, strlen(q[i].text),
		    from, q[i].col, q[i].mode, &nz), q[i].quick);
		if (q[i].quick)
			assert_int_equal(nz, q[i].nonzero);
	}
}

/* sqlset_kind(): session SET, server-wide SET, or a statement. */
static void
test_set_kind(void **state)
{
	static const struct {
		const char	*text;
		int		 mode, kind;
	} q[] = {
		{ "SET sql_mode = 'ANSI'", 0, STK_SET },
		{ "SET @a = 1, @b := 2", 0, STK_SET },
		{ "SET @global = 1", 0, STK_SET },
		{ "SET @a = @@GLOBAL.max_connections", 0, STK_SET },
		{ "SET @a = (SELECT 1), b = 2", 0, STK_SET },
		{ "SET NAMES utf8mb4 COLLATE utf8mb4_bin", 0, STK_SET },
		{ "SET CHARACTER SET latin1", 0, STK_SET },
		{ "SET ROLE r", 0, STK_SET },
		{ "SET ROLE NONE", 0, STK_SET },
		{ "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", 0, STK_SET },
		{ "SET SESSION TRANSACTION READ ONLY", 0, STK_SET },
		{ "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE */", 0, STK_SET },
		{ "SET @@SESSION.SQL_LOG_BIN = 0", 0, STK_SET },
		{ "SET global_x = 1", 0, STK_SET },
		{ "SET GLOBAL gtid_slave_pos = '0-1-100'", 0, STK_SET_SERVER },
		{ "/*!80000 SET @@GLOBAL.read_only = 0 */", 0, STK_SET_SERVER },
		{ "SET @a = 1, @@global.x = 2", 0, STK_SET_SERVER },
		{ "SET PERSIST max_connections = 10", 0, STK_SET_SERVER },
		{ "SET @@PERSIST_ONLY.x = 1", 0, STK_SET_SERVER },
		{ "SET GLOBAL TRANSACTION READ ONLY", 0, STK_SET_SERVER },
		{ "SET PASSWORD FOR app@'%' = PASSWORD('x')", 0, STK_SET_SERVER },
		{ "SET PASSWORD = 'x'", 0, STK_SET_SERVER },
		{ "SET DEFAULT ROLE r FOR app@'%'", 0, STK_SET_SERVER },
		{ "SET STATEMENT max_statement_time = 1 FOR INSERT INTO t "
		    "VALUES (1)", 0, STK_OTHER },
		{ "SELECT 1", 0, STK_OTHER },
		/* what is a string, by the mode */
		{ "SET @a = 'x\\', @@global.y = 1 /* ' */", SQLTOK_NBE,
		    STK_SET_SERVER },
		{ "SET @a = 'x\\', @@global.y = 1 /* ' */", 0, STK_SET },
	};
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (sqlset_kind(q[i].text, strlen(q[i].text), q[i].mode) !=
		    q[i].kind)
			print_message("# %s\n", q[i].text);
		assert_int_equal(sqlset_kind(q[i].text, strlen(q[i].text),
		    q[i].mode), q[i].kind);
	}
}

/*
 * max_lit: a literal whose text is longer makes the cut 0 before its
 * bytes are copied (sqlexec's lit.c: one too large for a bulk execute);
 * one of that length still cuts, after an introducer too.
 */
static void
test_max_lit(void **state)
{
	static const struct {
		const char	*text;
		int		 cut;
	} q[] = {
		{ "INSERT INTO t VALUES (1,'abcdefgh')", 1 },	/* 10: at the limit */
		{ "INSERT INTO t VALUES (1,'abcdefghi')", 0 },
		{ "INSERT INTO t VALUES (1,0x01020304),(2,0x0102030405)", 0 },
		{ "INSERT INTO t VALUES (1,_binary 'abcdefgh')", 1 },
		{ "INSERT INTO t VALUES (1,_binary 'abcdefghi')", 0 },
		{ "INSERT INTO t VALUES (12345678901,'a')", 0 },
	};
	struct sqllit_insert s;
	size_t		 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.max_lit = 10;
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (sqllit_cut(&s, q[i].text, strlen(q[i].text), 0) != q[i].cut)
			print_message("# %s\n", q[i].text);
		assert_int_equal(sqllit_cut(&s, q[i].text, strlen(q[i].text),
		    0), q[i].cut);
		if (!q[i].cut)
			assert_true(s.bytes.len <= 10);
	}
	s.max_lit = 0;
	assert_int_equal(sqllit_cut(&s, q[1].text, strlen(q[1].text), 0), 1);
	sqllit_release(&s);
}

int
main(void)
{
	return TABLE_RUN("sqllit", rows, test_row,
	    cmocka_unit_test(test_max_lit),
	    cmocka_unit_test(test_target),
	    cmocka_unit_test(test_to_utf8),
	    cmocka_unit_test(test_quick),
	    cmocka_unit_test(test_set_kind));
}
