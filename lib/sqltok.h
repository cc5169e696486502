/*
 * sqltok: MariaDB's lexical rules, once, for every program that reads
 * SQL text: where strings, quoted identifiers and comments begin and
 * end, what a word is, which comments the server executes.
 *
 * Sources: MariaDB KB "String Literals" (quotes, doubled quotes,
 * backslash escapes, NO_BACKSLASH_ESCAPES), "Identifier Names"
 * (backticks, ANSI_QUOTES, any byte but NUL inside quotes, newlines
 * included), "Comment Syntax" (# and "-- " to the end of the line,
 * slash-star comments, executable comments slash-star-bang NNNNN and
 * slash-star-M-bang NNNNN), and the mysql client's DELIMITER.  The
 * server's sql/sql_lex.cc is the reference where the KB is silent.
 *
 * Two levels:
 *
 * - sqltok_next(): a tokenizer over a complete text in memory.  Tokens
 *   are borrowed spans of the text (no copy, no allocation), with a
 *   kind; blanks and comments are skipped unless asked for, and the
 *   inside of an executable comment is tokenized as the server runs it
 *   (its "*" "/" end is skipped).  For classifying statements, renaming
 *   names in DDL, and cutting INSERT ... VALUES tuples into literals.
 *
 * - The byte rules behind it, for a streaming reader that keeps its own
 *   state across reads (sqlsplit's scanner): sqltok_is_space(),
 *   sqltok_is_word(), sqltok_escapes(), sqltok_comment_at(), and the
 *   stop sets with sqltok_skip(), which jumps over the bytes that cannot
 *   end the current state, 16 at a time with SSE2.
 *
 * Nothing here allocates, prints or fails: malformed text (a string
 * that does not end) is a token with SQLTOK_F_OPEN set.
 */
#ifndef ROWPIPE_SQLTOK_H
#define ROWPIPE_SQLTOK_H

#include <stddef.h>

#if defined(__SSE2__) && !defined(SQLTOK_NO_SIMD)
#include <emmintrin.h>
#define SQLTOK_SIMD	1
#endif

/* The sql_mode flags that change the lexer. */
#define SQLTOK_NBE	0x01	/* NO_BACKSLASH_ESCAPES */
#define SQLTOK_ANSIQ	0x02	/* ANSI_QUOTES: "x" is an identifier */

/*
 * The lexer mode of a sql_mode value such as "ANSI,NO_BACKSLASH_ESCAPES"
 * (p[0..n), no quotes): SQLTOK_NBE and SQLTOK_ANSIQ, the latter also for
 * the combination modes that include ANSI_QUOTES (ANSI, ORACLE, MSSQL,
 * DB2, POSTGRESQL, MAXDB: MariaDB KB "SQL_MODE").
 */
int	 sqltok_sql_mode(const char *p, size_t n);

enum sqltok_kind {
	SQLTOK_END = 0,		/* no more tokens: len 0 at the end */
	SQLTOK_WORD,		/* keyword or bare identifier: [0-9A-Za-z_$\x80-\xff]+ not a number */
	SQLTOK_NUMBER,		/* 12, 1.5, .5, 1e-3, 0x1F, 0b101 */
	SQLTOK_STRING,		/* '...', "..." (no ANSI_QUOTES), X'..', B'..', N'..' */
	SQLTOK_IDENT,		/* `...`, "..." with ANSI_QUOTES */
	SQLTOK_PUNCT,		/* any other byte, one at a time */
	SQLTOK_DELIM,		/* the delimiter set by sqltok_set_delim() */
	SQLTOK_COMMENT		/* with SQLTOK_COMMENTS only: # -- slash-star */
};

/* Token flags. */
#define SQLTOK_F_OPEN	0x01	/* string, identifier or comment not closed */
#define SQLTOK_F_EXEC	0x02	/* inside an executable comment */
#define SQLTOK_F_LINE	0x04	/* a comment: # or --, to the end of the line */

/* A token: a borrowed span of the text given to sqltok_init(). */
struct sqltok {
	int		 kind;		/* enum sqltok_kind */
	int		 flags;		/* SQLTOK_F_* */
	const char	*p;		/* first byte (quotes and prefix included) */
	size_t		 len;
};

/* Lexer flags. */
#define SQLTOK_COMMENTS	0x100	/* return comments as tokens */

/* The tokenizer's state: fill with sqltok_init(), then read it only. */
struct sqltok_lexer {
	const char	*p, *e;		/* the rest of the text */
	const char	*start;		/* the whole text */
	int		 mode;		/* SQLTOK_NBE | SQLTOK_ANSIQ | SQLTOK_COMMENTS */
	int		 depth;		/* executable comments open */
	unsigned long	 version;	/* server version as NNNNN: newer ones are comments */
	const char	*delim;		/* NULL: ';' is punctuation */
	size_t		 dlen;
};

/*
 * Start tokenizing text[0..len) in mode (SQLTOK_NBE, SQLTOK_ANSIQ,
 * SQLTOK_COMMENTS or'ed).  Executable comments are stepped into when
 * their version is below 999900 (the version mysqldump writes to keep a
 * comment from running anywhere); sqltok_set_version() changes that.
 */
void	 sqltok_init(struct sqltok_lexer *, const char *text, size_t len,
	    int mode);
/* Executable comments whose NNNNN is above version are plain comments. */
void	 sqltok_set_version(struct sqltok_lexer *, unsigned long version);
/*
 * Return the delimiter d (dlen bytes, borrowed: it must outlive the
 * lexer) as SQLTOK_DELIM when it stands outside strings and comments,
 * as the mysql client cuts statements.  NULL: none (the default).
 */
void	 sqltok_set_delim(struct sqltok_lexer *, const char *d, size_t dlen);
/*
 * The next token into *t; returns its kind (SQLTOK_END at the end, with
 * t->p at the end of the text).
 */
int	 sqltok_next(struct sqltok_lexer *, struct sqltok *t);

/*
 * Helpers over tokens.  sqltok_is() compares a WORD token with a
 * keyword, case-insensitively (ASCII).  sqltok_ident() appends the name
 * a WORD or IDENT token stands for (quotes removed, doubled quotes
 * undone) to out[0..outsz), NUL-terminated and truncated to fit;
 * returns the name's full length, or -1 if t is neither.
 */
int	 sqltok_is(const struct sqltok *, const char *keyword);
long	 sqltok_ident(const struct sqltok *, char *out, size_t outsz);
/*
 * Read the next token into *t (which may be NULL); 1 if it is of kind
 * and, unless text is NULL, is text: the keyword (sqltok_is()) for a
 * WORD, the text itself for other kinds ("(" for a PUNCT).  0 if not.
 */
int	 sqltok_expect(struct sqltok_lexer *, int kind, const char *text,
	    struct sqltok *t);

/* Byte rules. */

/* my_isspace() of the server's and the client's latin1/utf8 ctype. */
static inline int
sqltok_is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* A byte of a bare word (identifier, keyword, number). */
static inline int
sqltok_is_word(int c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' &&
	    (c | 0x20) <= 'z') || c == '_' || c == '$' || c >= 0x80;
}

/* Is a string quoted with q subject to backslash escapes in mode? */
static inline int
sqltok_escapes(int mode, int q)
{
	if (q == '`' || (mode & SQLTOK_NBE))
		return 0;
	return !(q == '"' && (mode & SQLTOK_ANSIQ));
}

/* What starts at p (sqltok_comment_at()). */
enum sqltok_comment {
	SQLTOK_C_NONE = 0,	/* no comment */
	SQLTOK_C_LINE,		/* # or --, to the end of the line */
	SQLTOK_C_BLOCK,		/* slash-star, not executable */
	SQLTOK_C_EXEC,		/* slash-star-bang or slash-star-M-bang */
	SQLTOK_C_MORE		/* more bytes are needed to tell */
};

/* sqltok_comment_at() flags. */
#define SQLTOK_AT_MORE	0x01	/* bytes may follow e (a reader's window) */
/*
 * The mysql client's "--" (add_line() in client/mysql.cc), where it
 * differs from the server's (sql_lex.cc): a blank, NUL or the end must
 * follow, not any control character; and with SQLTOK_AT_START (at the
 * start of a statement) "--" begins a comment whatever follows.
 */
#define SQLTOK_AT_CLIENT	0x02
#define SQLTOK_AT_START	0x04

/*
 * Does a comment start at p (before e)?  With SQLTOK_AT_MORE the answer
 * is SQLTOK_C_MORE where it depends on bytes after e.  For an
 * executable comment, *body (if not NULL) is set past its bang: the
 * version digits, if any (sqltok_exec_version()); body - p is 3 for
 * slash-star-bang, 4 for slash-star-M-bang.
 */
static inline int
sqltok_comment_at(const char *p, const char *e, int flags, const char **body)
{
	int	 more = flags & SQLTOK_AT_MORE, c2;

	if (p >= e)
		return SQLTOK_C_NONE;
	if (*p == '#')
		return SQLTOK_C_LINE;
	if (e - p < 2)
		return more && (*p == '-' || *p == '/') ? SQLTOK_C_MORE :
		    SQLTOK_C_NONE;
	if (p[0] == '-' && p[1] == '-') {
		if ((flags & (SQLTOK_AT_CLIENT | SQLTOK_AT_START)) ==
		    (SQLTOK_AT_CLIENT | SQLTOK_AT_START))
			return SQLTOK_C_LINE;
		if (e - p < 3)
			return more ? SQLTOK_C_MORE : SQLTOK_C_LINE;
		c2 = (unsigned char)p[2];
		if (flags & SQLTOK_AT_CLIENT)
			return sqltok_is_space(c2) || c2 == 0 ? SQLTOK_C_LINE :
			    SQLTOK_C_NONE;
		return sqltok_is_space(c2) || c2 < 0x20 || c2 == 0x7f ?
		    SQLTOK_C_LINE : SQLTOK_C_NONE;
	}
	if (p[0] != '/' || p[1] != '*')
		return SQLTOK_C_NONE;
	if (e - p < 4 && more)
		return SQLTOK_C_MORE;
	if (e - p >= 3 && p[2] == '!') {
		if (body != NULL)
			*body = p + 3;
		return SQLTOK_C_EXEC;
	}
	if (e - p >= 4 && p[2] == 'M' && p[3] == '!') {
		if (body != NULL)
			*body = p + 4;
		return SQLTOK_C_EXEC;
	}
	return SQLTOK_C_BLOCK;
}

/*
 * The version of an executable comment whose digits start at p: up to
 * six digits (as sql_lex.cc reads them; more are text), 0 if there are
 * none; *endp (if not NULL) past them.
 */
static inline unsigned long
sqltok_exec_version(const char *p, const char *e, const char **endp)
{
	unsigned long	 v = 0;
	int		 n = 0;

	while (p < e && n < 6 && *p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned long)(*p - '0');
		p++;
		n++;
	}
	if (endp != NULL)
		*endp = p;
	return v;
}

/*
 * Stop sets: the bytes that can end a lexer state ("'\\" inside a
 * single-quoted string with escapes), for jumping over the others.  At
 * most 11 bytes, counting the NUL that nul adds.
 */
struct sqltok_stops {
#ifdef SQLTOK_SIMD
	__m128i		 v[11];		/* c[] broadcast, padded with c[0] */
#endif
	unsigned char	 t[256];
	int		 n;
	unsigned char	 c[12];
};

void	 sqltok_stops_init(struct sqltok_stops *, const char *bytes, size_t n,
	    int nul);

/* The first index at or after pos, before len, of a byte in ss; or len. */
static inline __attribute__((always_inline)) size_t
sqltok_skip(const struct sqltok_stops *ss, const unsigned char *b, size_t pos,
    size_t len)
{
#ifdef SQLTOK_SIMD
	const __m128i	*c = ss->v;
	__m128i		 v, m;
	unsigned	 mask;
	size_t		 e = len - pos > 4 ? pos + 4 : len;

	/* runs are often short: try a few bytes first */
	for (; pos < e; pos++)
		if (ss->t[b[pos]])
			return pos;
	if (ss->n <= 3) {
		for (; pos + 16 <= len; pos += 16) {
			v = _mm_loadu_si128((const __m128i *)(b + pos));
			m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[0]),
			    _mm_cmpeq_epi8(v, c[1])), _mm_cmpeq_epi8(v, c[2]));
			if ((mask = (unsigned)_mm_movemask_epi8(m)) != 0)
				return pos + (size_t)__builtin_ctz(mask);
		}
	} else {
		for (; pos + 16 <= len; pos += 16) {
			v = _mm_loadu_si128((const __m128i *)(b + pos));
			m = _mm_or_si128(
			    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[0]),
			    _mm_cmpeq_epi8(v, c[1])), _mm_or_si128(
			    _mm_cmpeq_epi8(v, c[2]), _mm_cmpeq_epi8(v, c[3]))),
			    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[4]),
			    _mm_cmpeq_epi8(v, c[5])), _mm_or_si128(
			    _mm_cmpeq_epi8(v, c[6]), _mm_cmpeq_epi8(v, c[7]))));
			m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(
			    _mm_cmpeq_epi8(v, c[8]), _mm_cmpeq_epi8(v, c[9])),
			    _mm_cmpeq_epi8(v, c[10])));
			if ((mask = (unsigned)_mm_movemask_epi8(m)) != 0)
				return pos + (size_t)__builtin_ctz(mask);
		}
	}
#endif
	while (pos < len && !ss->t[b[pos]])
		pos++;
	return pos;
}

#endif
