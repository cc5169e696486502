/*
 * sqltok: MariaDB's lexical rules and a tokenizer over them; see
 * sqltok.h.
 */
#include <assert.h>
#include <string.h>
#include <strings.h>

#include "sqltok.h"

/* Executable comments at or above this version run nowhere (mysqldump). */
#define VERSION_NEVER	999900

void
sqltok_stops_init(struct sqltok_stops *ss, const char *chars, size_t n,
    int nul)
{
	size_t	 i;

	assert(n + (nul != 0) <= 11);
	memset(ss, 0, sizeof(*ss));
	for (i = 0; i < n; i++) {
		if (ss->t[(unsigned char)chars[i]])
			continue;
		ss->t[(unsigned char)chars[i]] = 1;
		ss->c[ss->n++] = (unsigned char)chars[i];
	}
	if (nul && !ss->t[0]) {
		ss->t[0] = 1;
		ss->c[ss->n++] = 0;
	}
#ifdef SQLTOK_SIMD
	for (i = 0; i < 11; i++)
		ss->v[i] = _mm_set1_epi8((char)ss->c[(int)i < ss->n ? i : 0]);
#endif
}

int
sqltok_sql_mode(const char *p, size_t n)
{
	static const char *const ansiq[] = { "ANSI_QUOTES", "ANSI", "ORACLE",
	    "MSSQL", "DB2", "POSTGRESQL", "MAXDB", NULL };
	const char	*e = p + n, *w;
	size_t		 wl;
	int		 m = 0, i;

	while (p < e) {
		while (p < e && (*p == ',' || *p == ' '))
			p++;
		for (w = p; p < e && *p != ','; p++)
			;
		wl = (size_t)(p - w);
		while (wl > 0 && w[wl - 1] == ' ')
			wl--;
		if (wl == 20 && strncasecmp(w, "NO_BACKSLASH_ESCAPES", 20) == 0)
			m |= SQLTOK_NBE;
		for (i = 0; ansiq[i] != NULL; i++)
			if (strlen(ansiq[i]) == wl &&
			    strncasecmp(w, ansiq[i], wl) == 0)
				m |= SQLTOK_ANSIQ;
	}
	return m;
}

void
sqltok_init(struct sqltok_lexer *l, const char *text, size_t len, int mode)
{
	memset(l, 0, sizeof(*l));
	l->p = l->start = text;
	l->e = text + len;
	l->mode = mode;
	l->version = VERSION_NEVER - 1;
}

void
sqltok_set_version(struct sqltok_lexer *l, unsigned long version)
{
	l->version = version;
}

void
sqltok_set_delim(struct sqltok_lexer *l, const char *d, size_t dlen)
{
	l->delim = dlen > 0 ? d : NULL;
	l->dlen = dlen;
}

/* The end of the comment of type c at p; *open if it is not closed. */
static const char *
comment_end(const char *p, const char *e, int c, int *open)
{
	const char	*q;

	*open = 0;
	if (c == SQLTOK_C_LINE) {
		q = memchr(p, '\n', (size_t)(e - p));
		return q != NULL ? q : e;
	}
	if (e - p > 2 && (q = memmem(p + 2, (size_t)(e - p - 2), "*/", 2)) !=
	    NULL)
		return q + 2;
	*open = 1;
	return e;
}

/*
 * The end of the quoted text at p (its quote q), or e with *open.  memchr
 * finds the candidates; each byte is looked at a bounded number of
 * times, whatever the backslashes (a string of a million of them too).
 */
static const char *
quoted_end(const char *p, const char *e, int q, int esc, int *open)
{
	const char	*c = NULL, *b;

	*open = 0;
	for (p++; p < e;) {
		if ((c == NULL || c < p) &&
		    (c = memchr(p, q, (size_t)(e - p))) == NULL)
			break;
		if (esc && (b = memchr(p, '\\', (size_t)(c - p))) != NULL) {
			p = b + 2;		/* the escaped byte, maybe c */
			continue;
		}
		if (c + 1 < e && c[1] == q) {
			p = c + 2;		/* doubled */
			continue;
		}
		return c + 1;
	}
	*open = 1;
	return e;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_hex(int c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/*
 * The end of the run of word bytes (sqltok_is_word()) from p, at most e;
 * with hex, of hex digits.  16 bytes at a time: a 60 MB 0x literal is one
 * word, which the byte loops took 3 ns a byte to cross (issue 26).
 */
static const char *
run_end(const char *p, const char *e, int hex)
{
#ifdef SQLTOK_SIMD
	const __m128i	 d0 = _mm_set1_epi8((char)(0x80 - '0')),
			 d1 = _mm_set1_epi8((char)(-128 + 10)),
			 a0 = _mm_set1_epi8((char)(0x80 - 'a')),
			 a1 = _mm_set1_epi8((char)(-128 + (hex ? 6 : 26))),
			 lo = _mm_set1_epi8(0x20), us = _mm_set1_epi8('_'),
			 dl = _mm_set1_epi8('$'), zero = _mm_setzero_si128();
	__m128i		 v, w;
	unsigned	 m;

	while (e - p >= 16) {
		v = _mm_loadu_si128((const __m128i *)p);
		/* '0'-'9' and the letters, moved to -128.. for a signed < */
		w = _mm_or_si128(_mm_cmplt_epi8(_mm_add_epi8(v, d0), d1),
		    _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v, lo), a0), a1));
		if (!hex)
			w = _mm_or_si128(w, _mm_or_si128(_mm_or_si128(
			    _mm_cmpeq_epi8(v, us), _mm_cmpeq_epi8(v, dl)),
			    _mm_cmplt_epi8(v, zero)));	/* >= 0x80 */
		if ((m = (unsigned)_mm_movemask_epi8(w)) != 0xffff)
			return p + __builtin_ctz(~m);
		p += 16;
	}
#endif
	while (p < e && (hex ? is_hex(*p) : sqltok_is_word((unsigned char)*p)))
		p++;
	return p;
}

/* Digits, then an optional exponent (e, a sign, digits), from p. */
static const char *
digits_exp(const char *p, const char *e)
{
	const char	*q;

	while (p < e && is_digit(*p))
		p++;
	if (p < e && (*p | 0x20) == 'e') {
		q = p + 1;
		if (q < e && (*q == '+' || *q == '-'))
			q++;
		if (q < e && is_digit(*q)) {
			while (q < e && is_digit(*q))
				q++;
			p = q;
		}
	}
	return p;
}

/*
 * A number at p (a digit, or a point and a digit): 12, 1.5, .5, 1e-3,
 * 1.5E+3, 0x1F, 0b101; or a word that starts with digits (an identifier
 * may: MariaDB KB "Identifier Names").  Sets *endp.
 */
static int
number_or_word(const char *p, const char *e, const char **endp)
{
	const char	*w = p, *q;

	if (*p == '.') {
		*endp = digits_exp(p + 1, e);
		return SQLTOK_NUMBER;
	}
	w = run_end(w, e, 0);
	*endp = w;
	if (w - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'b')) {
		if (p[1] == 'x')
			q = run_end(p + 2, w, 1);
		else
			for (q = p + 2; q < w && (*q == '0' || *q == '1'); q++)
				;
		if (q == w)
			return SQLTOK_NUMBER;
	}
	for (q = p; q < w && is_digit(*q); q++)
		;
	if (q == w) {
		/* all digits: a fraction and an exponent may follow */
		if (w < e && *w == '.')
			*endp = digits_exp(w + 1, e);
		return SQLTOK_NUMBER;
	}
	/* 1e5, 1e+5: the exponent is part of the word run, or its sign not */
	if ((*q | 0x20) == 'e' && (q + 1 == w || digits_exp(q + 1, w) == w)) {
		if (digits_exp(p, e) > q + 1) {
			*endp = digits_exp(p, e);
			return SQLTOK_NUMBER;
		}
	}
	return SQLTOK_WORD;
}

/*
 * Where a word that starts at p must end at the latest: before the next
 * delimiter (the mysql client finds it anywhere outside quotes and
 * comments, even inside a word: "aENDb" with DELIMITER END).
 */
static const char *
word_limit(const struct sqltok_lexer *l, const char *p)
{
	const char	*q;

	if (l->delim == NULL || !sqltok_is_word((unsigned char)*l->delim))
		return l->e;	/* it cannot start inside a word */
	for (q = p; q < l->e && sqltok_is_word((unsigned char)*q); q++)
		if (*q == *l->delim && (size_t)(l->e - q) >= l->dlen &&
		    memcmp(q, l->delim, l->dlen) == 0)
			return q;
	return l->e;
}

int
sqltok_next(struct sqltok_lexer *l, struct sqltok *t)
{
	const char	*p = l->p, *e = l->e, *body, *q;
	int		 c, open, k;

	for (;;) {
		while (p < e && sqltok_is_space((unsigned char)*p))
			p++;
		if (p >= e) {
			t->kind = SQLTOK_END;
			t->flags = 0;
			t->p = p;
			t->len = 0;
			l->p = p;
			return SQLTOK_END;
		}
		if (l->depth > 0 && *p == '*' && p + 1 < e && p[1] == '/') {
			l->depth--;
			p += 2;
			continue;
		}
		if ((c = sqltok_comment_at(p, e, 0, &body)) == SQLTOK_C_NONE)
			break;
		if (c == SQLTOK_C_EXEC &&
		    sqltok_exec_version(body, e, &q) <= l->version) {
			l->depth++;
			p = q;
			continue;
		}
		q = comment_end(p, e, c, &open);
		if (l->mode & SQLTOK_COMMENTS) {
			t->kind = SQLTOK_COMMENT;
			t->flags = (open ? SQLTOK_F_OPEN : 0) |
			    (c == SQLTOK_C_LINE ? SQLTOK_F_LINE : 0) |
			    (l->depth > 0 ? SQLTOK_F_EXEC : 0);
			t->p = p;
			t->len = (size_t)(q - p);
			l->p = q;
			return SQLTOK_COMMENT;
		}
		p = q;
	}
	t->p = p;
	t->flags = l->depth > 0 ? SQLTOK_F_EXEC : 0;
	c = (unsigned char)*p;
	open = 0;
	if (l->delim != NULL && (size_t)(e - p) >= l->dlen &&
	    memcmp(p, l->delim, l->dlen) == 0) {
		k = SQLTOK_DELIM;
		q = p + l->dlen;
	} else if (c == '\'' || c == '"' || c == '`') {
		k = c == '`' || (c == '"' && (l->mode & SQLTOK_ANSIQ)) ?
		    SQLTOK_IDENT : SQLTOK_STRING;
		q = quoted_end(p, e, c, sqltok_escapes(l->mode, c), &open);
	} else if ((c | 0x20) == 'x' || (c | 0x20) == 'b' ||
	    (c | 0x20) == 'n') {
		if (p + 1 < e && p[1] == '\'') {
			/* X'4142', B'01', N'text' */
			k = SQLTOK_STRING;
			q = quoted_end(p + 1, e, '\'', (c | 0x20) == 'n' &&
			    sqltok_escapes(l->mode, '\''), &open);
		} else {
			k = SQLTOK_WORD;
			q = run_end(p, word_limit(l, p), 0);
		}
	} else if (is_digit(c) || (c == '.' && p + 1 < e && is_digit(p[1])))
		k = number_or_word(p, word_limit(l, p), &q);
	else if (sqltok_is_word(c)) {
		k = SQLTOK_WORD;
		q = run_end(p, word_limit(l, p), 0);
	} else {
		k = SQLTOK_PUNCT;
		q = p + 1;
	}
	t->kind = k;
	if (open)
		t->flags |= SQLTOK_F_OPEN;
	t->len = (size_t)(q - p);
	l->p = q;
	return k;
}

int
sqltok_is(const struct sqltok *t, const char *kw)
{
	size_t	 n = strlen(kw);

	return t->kind == SQLTOK_WORD && t->len == n &&
	    strncasecmp(t->p, kw, n) == 0;
}

long
sqltok_ident(const struct sqltok *t, char *out, size_t outsz)
{
	size_t	 i, end, n = 0;
	char	 q;

	if (t->kind == SQLTOK_WORD) {
		for (i = 0; i < t->len; i++, n++)
			if (n + 1 < outsz)
				out[n] = t->p[i];
	} else if (t->kind == SQLTOK_IDENT && t->len >= 1) {
		q = t->p[0];
		end = (t->flags & SQLTOK_F_OPEN) ? t->len : t->len - 1;
		for (i = 1; i < end; i++, n++) {
			if (t->p[i] == q && i + 1 < end)
				i++;		/* a doubled quote */
			if (n + 1 < outsz)
				out[n] = t->p[i];
		}
	} else
		return -1;
	if (outsz > 0)
		out[n + 1 < outsz ? n : outsz - 1] = '\0';
	return (long)n;
}

int
sqltok_expect(struct sqltok_lexer *l, int kind, const char *text,
    struct sqltok *t)
{
	struct sqltok	 tt;

	if (t == NULL)
		t = &tt;
	if (sqltok_next(l, t) != kind)
		return 0;
	if (text == NULL)
		return 1;
	if (kind == SQLTOK_WORD)
		return sqltok_is(t, text);
	return t->len == strlen(text) && memcmp(t->p, text, t->len) == 0;
}
