/*
 * sqllit: INSERT ... VALUES statements of literals, cut apart into the
 * literals the server's parser makes of them (sql/sql_yacc.yy literal,
 * NUM_literal, text_literal; MariaDB KB "Literals"), for sqlexec's bulk
 * path (which binds each one so that the server stores what it stores
 * for the text) and its ordering rule (which asks what each value of an
 * AUTO_INCREMENT column is).  Tokens come from lib/sqltok.
 *
 * A literal is one of:
 *
 *   SQLLIT_NULL   NULL
 *   SQLLIT_STR    'text' or "text" without introducer, unescaped as the
 *                 server's lexer does (backslash escapes unless
 *                 NO_BACKSLASH_ESCAPES; \% and \_ keep their backslash)
 *   SQLLIT_BIN    X'..', 0x.., B'..', 0b.. (the bytes, right-aligned),
 *                 _binary 'text' or _binary 0x..
 *   SQLLIT_CS     _cs 'text' or _cs 0x.. (the bytes, and the name cs)
 *   SQLLIT_INT    an integer that fits int64 (Item_int), its text too;
 *                 TRUE and FALSE are 1 and 0
 *   SQLLIT_UINT   an integer above INT64_MAX that fits uint64 (Item_uint)
 *   SQLLIT_DEC    a number with a point, or an integer beyond uint64
 *                 (Item_decimal): its text, sign included
 *   SQLLIT_DBL    a number with an exponent (Item_float): strtod(3) of it
 *
 * A sign before a number is the server's unary minus (or plus, a
 * no-op); anything else (expressions, DEFAULT, COLLATE, N'..', adjacent
 * strings, a sign before a string) is not a literal here.
 */
#ifndef ROWPIPE_SQLLIT_H
#define ROWPIPE_SQLLIT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum sqllit_kind {
	SQLLIT_NULL,
	SQLLIT_STR,
	SQLLIT_BIN,
	SQLLIT_CS,
	SQLLIT_INT,
	SQLLIT_UINT,
	SQLLIT_DEC,
	SQLLIT_DBL
};

/* One literal; its bytes are in the statement's bytes buffer. */
struct sqllit {
	int		 kind;		/* enum sqllit_kind */
	size_t		 off, len;	/* bytes at ins->bytes.p + off */
	const char	*cs;		/* SQLLIT_CS: charset name, borrowed */
	size_t		 cslen;		/* from the text */
	uint64_t	 u;		/* INT (two's complement), UINT */
	double		 d;		/* DBL */
};

/*
 * A cut statement: prefix[0..plen) is the text up to VALUES (included),
 * borrowed from the text given to sqllit_cut(); v[r * arity + i] is
 * value i of tuple r.  Zero it before the first sqllit_cut(); it keeps
 * its buffers across calls; sqllit_release() frees them.
 */
struct sqllit_insert {
	const char	*prefix;
	size_t		 plen;
	size_t		 arity, ntuples;
	struct sqllit	*v;
	size_t		 nv, cap;
	struct buf	 bytes;		/* unescaped strings, decoded hex */
	size_t		 max_lit;	/* 0, or: a literal's text longer makes
					   sqllit_cut() 0 before copying it */
};

/*
 * Cut text[0..len), lexed in mode (SQLTOK_NBE, SQLTOK_ANSIQ), into s:
 * 1 if it is INSERT or REPLACE [modifiers] [INTO] name [(cols)]
 * VALUES|VALUE (literals),(literals)... with 1 to 4096 literals a tuple,
 * all tuples alike, and nothing after the last tuple; 0 if it is not
 * (or memory ran out): s then holds nothing of use.
 */
int	 sqllit_cut(struct sqllit_insert *s, const char *text, size_t len,
	    int mode);
void	 sqllit_release(struct sqllit_insert *s);

/*
 * The target of a cut statement's prefix (mode as for sqllit_cut()):
 * the table name as written ([db.]t, quotes kept) at *tb..*te and the
 * text between the parentheses of its column list at *cb..*ce (both
 * NULL without a list).  0, or -1 for a form not known here (PARTITION,
 * an empty list).
 */
int	 sqllit_target(const struct sqllit_insert *s, int mode,
	    const char **tb, const char **te, const char **cb,
	    const char **ce);

/*
 * A quick look at an INSERT ... VALUES text (lexed as sqllit_cut() lexes
 * it in mode: SQLTOK_NBE, SQLTOK_ANSIQ), from text + from (after its VALUES) on, without cutting
 * it: 1 if it holds no variable ("@"), no comment, no subquery ("("
 * SELECT or WITH) and no word before "(" but VALUES, and every string,
 * quoted name and parenthesis ends; 0
 * if not (then ask the lexer).  If col >= 0, *nonzero is 1 when value
 * col of every tuple is a non-zero integer literal ([-+]digits), else 0.
 * A byte loop: for what every INSERT of a dump must pass, at a fraction
 * of the lexer's cost.
 */
int	 sqllit_quick(const char *text, size_t len, size_t from, long col,
	    int mode, int *nonzero);

/*
 * The bytes of an introduced string (_cs 'text', _cs 0x..: p[0..n), cs
 * named by cs[0..cslen)) as the same characters in UTF-8, appended to
 * out, for binding them in a UTF-8 character_set_client: cs latin1
 * (MariaDB's latin1, which is cp1252 with 0x81, 0x8D, 0x8F, 0x90 and
 * 0x9D as U+0081..., every byte a character), ascii (bytes below 0x80),
 * utf8mb4 and utf8mb3 (utf8) whose bytes are well formed (utf8mb3: no
 * four-byte sequences); with mb3, the result must fit utf8mb3 too.  0,
 * or -1: another charset, bytes the server would warn about, or memory
 * (out is then as it was).
 */
int	 sqllit_to_utf8(struct buf *out, const char *cs, size_t cslen,
	    const char *p, size_t n, int mb3);

#endif
