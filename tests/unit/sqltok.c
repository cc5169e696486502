/*
 * Unit tests for lib/sqltok: MariaDB's lexical rules, one table row per
 * rule.  Each row is a text, a mode and the tokens it must give, written
 * as KIND:text (W word, N number, S string, I quoted identifier, P
 * punctuation, D delimiter, C comment; a ! after the kind marks a token
 * that does not end, a + one inside an executable comment).  Every row
 * is one TAP test.  cmocka, TAP output.
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
#include "sqltok.h"
#include "table.h"

#define NBE	SQLTOK_NBE
#define ANSIQ	SQLTOK_ANSIQ
#define CMT	SQLTOK_COMMENTS

struct row {
	const char	*name;
	const char	*text;
	int		 mode;
	const char	*delim;		/* or NULL */
	const char	*want;
};

static const struct row rows[] = {
	/* blanks and words */
	{ "blanks", " \t\n\v\f\rSELECT\t1\r\n", 0, NULL, "W:SELECT N:1" },
	{ "words", "a_b $x \xc3\xa9t\xc3\xa9 t1", 0, NULL,
	    "W:a_b W:$x W:\xc3\xa9t\xc3\xa9 W:t1" },
	{ "empty", "", 0, NULL, "" },
	{ "only blanks", "  \n ", 0, NULL, "" },
	/* -- and # comments */
	{ "dash dash space", "a -- c ; d\nb", 0, NULL, "W:a W:b" },
	{ "dash dash tab", "a --\tc\nb", 0, NULL, "W:a W:b" },
	{ "dash dash newline", "a --\nb", 0, NULL, "W:a W:b" },
	{ "dash dash control", "a --\001c\nb", 0, NULL, "W:a W:b" },
	{ "dash dash at the end", "x--", 0, NULL, "W:x" },
	{ "dash dash word", "a --c", 0, NULL, "W:a P:- P:- W:c" },
	{ "minus minus number", "1--1", 0, NULL, "N:1 P:- P:- N:1" },
	{ "hash", "a # c ; 'x\nb", 0, NULL, "W:a W:b" },
	{ "hash glued", "a#b\nc", 0, NULL, "W:a W:c" },
	{ "line comment kept", "a # c\nb -- d", CMT, NULL,
	    "W:a C:# c W:b C:-- d" },
	/* slash-star comments */
	{ "block", "a /* x ; 'y */ b", 0, NULL, "W:a W:b" },
	{ "block kept", "a /* x */ b", CMT, NULL, "W:a C:/* x */ W:b" },
	{ "block not closed", "a /* x", CMT, NULL, "W:a C!:/* x" },
	{ "block is one level", "/* a /* b */ c */", 0, NULL,
	    "W:c P:* P:/" },
	{ "block with newlines", "/*\n*\n*/x", 0, NULL, "W:x" },
	{ "star slash alone", "a */", 0, NULL, "W:a P:* P:/" },
	/* executable comments */
	{ "executable", "/*!40101 SET x=1 */;", 0, NULL,
	    "W+:SET W+:x P+:= N+:1 P:;" },
	{ "executable MariaDB", "/*M!100101 a */ b", 0, NULL, "W+:a W:b" },
	{ "executable no version", "/*! a */", 0, NULL, "W+:a" },
	{ "executable never", "/*!999999 hidden */ x", 0, NULL, "W:x" },
	{ "executable never kept", "/*!999999 h */", CMT, NULL,
	    "C:/*!999999 h */" },
	{ "comment in executable", "/*!50003 a /* c */ b */ c", 0, NULL,
	    "W+:a W+:b W:c" },
	{ "string in executable", "/*!50003 '*/' */ x", 0, NULL,
	    "S+:'*/' W:x" },
	{ "executable seven digits", "/*!5000312 x */", 0, NULL,
	    "N+:2 W+:x" },
	{ "block bang later", "/* ! */ x", 0, NULL, "W:x" },
	{ "M without bang", "/*M x */ y", 0, NULL, "W:y" },
	/* strings and escapes */
	{ "string", "'a b'", 0, NULL, "S:'a b'" },
	{ "string doubled quote", "'a''b' c", 0, NULL, "S:'a''b' W:c" },
	{ "string backslash quote", "'a\\'b' c", 0, NULL, "S:'a\\'b' W:c" },
	{ "string backslash backslash", "'a\\\\' c", 0, NULL,
	    "S:'a\\\\' W:c" },
	{ "string NO_BACKSLASH_ESCAPES", "'a\\'c'", NBE, NULL,
	    "S:'a\\' W:c S!:'" },
	{ "string with comment marks", "'-- x /* # ;' y", 0, NULL,
	    "S:'-- x /* # ;' W:y" },
	{ "string newline", "'a\nb'", 0, NULL, "S:'a\nb'" },
	{ "string not closed", "'abc", 0, NULL, "S!:'abc" },
	{ "string backslash at the end", "'a\\", 0, NULL, "S!:'a\\" },
	{ "double quoted string", "\"a\\\"b\" x", 0, NULL,
	    "S:\"a\\\"b\" W:x" },
	{ "double quotes ANSI_QUOTES", "\"a\"\"b\" x", ANSIQ, NULL,
	    "I:\"a\"\"b\" W:x" },
	{ "ANSI_QUOTES no escapes", "\"a\\\" x", ANSIQ, NULL,
	    "I:\"a\\\" W:x" },
	{ "single quotes ANSI_QUOTES", "'a\\'b'", ANSIQ, NULL, "S:'a\\'b'" },
	{ "hex string", "x'4142' X'00'", 0, NULL, "S:x'4142' S:X'00'" },
	{ "bit string", "b'01' B'1'", 0, NULL, "S:b'01' S:B'1'" },
	{ "national string", "N'\\'' n'a'", 0, NULL, "S:N'\\'' S:n'a'" },
	{ "introducer", "_utf8mb4'x' _binary 0x41", 0, NULL,
	    "W:_utf8mb4 S:'x' W:_binary N:0x41" },
	/* quoted identifiers */
	{ "backtick", "`a b`.`c`", 0, NULL, "I:`a b` P:. I:`c`" },
	{ "backtick doubled", "`a``b`", 0, NULL, "I:`a``b`" },
	{ "backtick anything", "`a\nb;c'd\"e/*f#g\\`", 0, NULL,
	    "I:`a\nb;c'd\"e/*f#g\\`" },
	{ "backtick not closed", "`ab", 0, NULL, "I!:`ab" },
	{ "backtick under NO_BACKSLASH_ESCAPES", "`a\\`", NBE, NULL,
	    "I:`a\\`" },
	/* numbers */
	{ "numbers", "12 1.5 .5 1. 1e5 1E+5 1.5e-3 0x1F 0b101", 0, NULL,
	    "N:12 N:1.5 N:.5 N:1. N:1e5 N:1E+5 N:1.5e-3 N:0x1F N:0b101" },
	{ "words from digits", "12abc 1e 0xZZ 0b12 1ex", 0, NULL,
	    "W:12abc W:1e W:0xZZ W:0b12 W:1ex" },
	{ "signed number", "-1", 0, NULL, "P:- N:1" },
	{ "qualified", "db.t1.c", 0, NULL, "W:db P:. W:t1 P:. W:c" },
	{ "variables", "@@session.sql_mode @v", 0, NULL,
	    "P:@ P:@ W:session P:. W:sql_mode P:@ W:v" },
	/* delimiter */
	{ "semicolon", "a;b", 0, NULL, "W:a P:; W:b" },
	{ "delimiter semicolon", "a;b", 0, ";", "W:a D:; W:b" },
	{ "delimiter other", "a;b$$c", 0, "$$", "W:a P:; W:b D:$$ W:c" },
	{ "delimiter in string", "'$$'$$", 0, "$$", "S:'$$' D:$$" },
	{ "delimiter in comment", "/* ;; */ ;;", 0, ";;", "D:;;" },
	{ "delimiter in backticks", "`;;`;;", 0, ";;", "I:`;;` D:;;" },
	{ "delimiter word", "aENDb END", 0, "END", "W:a D:END W:b D:END" },
};

/* The tokens of r as text, in the notation of the table. */
static void
tokens(const struct row *r, struct buf *b)
{
	struct sqltok_lexer l;
	struct sqltok	 t;
	static const char kinds[] = "?WNSIPDC";

	sqltok_init(&l, r->text, strlen(r->text), r->mode);
	if (r->delim != NULL)
		sqltok_set_delim(&l, r->delim, strlen(r->delim));
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (b->len > 0)
			buf_addc(b, ' ');
		buf_addc(b, kinds[t.kind]);
		if (t.flags & SQLTOK_F_OPEN)
			buf_addc(b, '!');
		if (t.flags & SQLTOK_F_EXEC)
			buf_addc(b, '+');
		buf_addc(b, ':');
		buf_add(b, t.p, t.len);
	}
	/* the end token stands at the end */
	assert_ptr_equal(t.p, r->text + strlen(r->text));
}

TABLE_ROW_TEST(test_row, tokens)

static void
test_ident(void **state)
{
	struct sqltok_lexer l;
	struct sqltok	 t;
	char		 out[8];

	{ static const char s[] = "`a``b` \"x\"\"y\" w `"; sqltok_init(&l, s, strlen(s), ANSIQ); }
	sqltok_next(&l, &t);
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), 3);
	assert_string_equal(out, "a`b");
	sqltok_next(&l, &t);
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), 3);
	assert_string_equal(out, "x\"y");
	sqltok_next(&l, &t);
	assert_true(sqltok_is(&t, "W"));
	assert_false(sqltok_is(&t, "WW"));
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), 1);
	sqltok_next(&l, &t);
	assert_int_equal(t.flags & SQLTOK_F_OPEN, SQLTOK_F_OPEN);
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), 0);
	/* truncated to fit, full length returned */
	sqltok_init(&l, "`abcdefghij`", 12, 0);
	sqltok_next(&l, &t);
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), 10);
	assert_string_equal(out, "abcdefg");
	sqltok_init(&l, "'s'", 3, 0);
	sqltok_next(&l, &t);
	assert_int_equal(sqltok_ident(&t, out, sizeof(out)), -1);
	/* sqltok_expect() */
	sqltok_init(&l, "period ( `a` )", 14, 0);
	assert_true(sqltok_expect(&l, SQLTOK_WORD, "PERIOD", NULL));
	assert_true(sqltok_expect(&l, SQLTOK_PUNCT, "(", NULL));
	assert_false(sqltok_expect(&l, SQLTOK_WORD, NULL, &t));
	assert_int_equal(t.kind, SQLTOK_IDENT);
	assert_false(sqltok_expect(&l, SQLTOK_PUNCT, "(", NULL));
	assert_false(sqltok_expect(&l, SQLTOK_PUNCT, NULL, NULL));
}

/* The streaming reader's rules: comment starts and the stop sets. */
static void
test_byte_rules(void **state)
{
	struct sqltok_stops ss;
	unsigned char	 b[64];
	const char	*body;
	size_t		 i;

	assert_int_equal(sqltok_comment_at("-", "-" + 1, SQLTOK_AT_MORE, NULL),
	    SQLTOK_C_MORE);
	assert_int_equal(sqltok_comment_at("--", "--" + 2, SQLTOK_AT_MORE,
	    NULL), SQLTOK_C_MORE);
	assert_int_equal(sqltok_comment_at("--", "--" + 2, 0, NULL),
	    SQLTOK_C_LINE);
	assert_int_equal(sqltok_comment_at("/*M", "/*M" + 3, SQLTOK_AT_MORE,
	    NULL), SQLTOK_C_MORE);
	assert_int_equal(sqltok_comment_at("/*M", "/*M" + 3, 0, NULL),
	    SQLTOK_C_BLOCK);
	assert_int_equal(sqltok_comment_at("/*M!1", "/*M!1" + 5, 0, &body),
	    SQLTOK_C_EXEC);
	assert_int_equal(sqltok_exec_version(body, body + 1, NULL), 1);
	assert_int_equal(sqltok_comment_at("-x", "-x" + 2, SQLTOK_AT_MORE,
	    NULL), SQLTOK_C_NONE);
	assert_true(sqltok_escapes(0, '\''));
	assert_false(sqltok_escapes(SQLTOK_NBE, '\''));
	assert_false(sqltok_escapes(0, '`'));
	assert_false(sqltok_escapes(SQLTOK_ANSIQ, '"'));
	/* a stop byte at every position, after runs of every length */
	sqltok_stops_init(&ss, "'\\", 2, 1);
	for (i = 0; i < sizeof(b); i++) {
		memset(b, 'a', sizeof(b));
		b[i] = '\\';
		assert_int_equal(sqltok_skip(&ss, b, 0, sizeof(b)), i);
		b[i] = '\0';
		assert_int_equal(sqltok_skip(&ss, b, 0, sizeof(b)), i);
		assert_int_equal(sqltok_skip(&ss, b, 0, i), i);
	}
	/* eleven bytes: the SSE2 loop tests each */
	sqltok_stops_init(&ss, "0123456789", 10, 1);
	for (i = 0; i < 11; i++) {
		memset(b, 'a', sizeof(b));
		b[40] = i < 10 ? (unsigned char)('0' + i) : '\0';
		assert_int_equal(sqltok_skip(&ss, b, 0, sizeof(b)), 40);
	}
	/* the client's "--" */
	assert_int_equal(sqltok_comment_at("--\001", "--\001" + 3, 0, NULL),
	    SQLTOK_C_LINE);
	assert_int_equal(sqltok_comment_at("--\001", "--\001" + 3,
	    SQLTOK_AT_CLIENT, NULL), SQLTOK_C_NONE);
	assert_int_equal(sqltok_comment_at("--x", "--x" + 3,
	    SQLTOK_AT_CLIENT | SQLTOK_AT_START, NULL), SQLTOK_C_LINE);
	assert_int_equal(sqltok_comment_at("--", "--" + 2,
	    SQLTOK_AT_CLIENT | SQLTOK_AT_MORE, NULL), SQLTOK_C_MORE);
}

/*
 * Word and 0x runs, scanned 16 bytes at a time: every byte value at
 * every position of a 40-byte run ends it exactly where the byte rules
 * (sqltok_is_word(), hex digits) say.
 */
static void
test_runs(void **state)
{
	struct sqltok_lexer l;
	struct sqltok	 t;
	char		 b[48];
	size_t		 i, want;
	int		 c, hex, word, isx;

	for (hex = 0; hex < 2; hex++)
		for (c = 1; c < 256; c++)
			for (i = 2; i < 40; i++) {
				memset(b, hex ? 'f' : 'g', 40);
				b[0] = '0';
				b[1] = 'x';
				b[i] = (char)c;
				word = sqltok_is_word(c);
				isx = (c >= '0' && c <= '9') ||
				    ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
				sqltok_init(&l, b, 40, 0);
				sqltok_next(&l, &t);
				want = word ? 40 : i;
				assert_int_equal(t.len, want);
				/* "0x" alone is a word */
				assert_int_equal(t.kind, hex && (isx ||
				    (!word && i > 2)) ? SQLTOK_NUMBER :
				    SQLTOK_WORD);
			}
}

int
main(void)
{
	return TABLE_RUN("sqltok", rows, test_row,
	    cmocka_unit_test(test_ident),
	    cmocka_unit_test(test_byte_rules),
	    cmocka_unit_test(test_runs));
}
