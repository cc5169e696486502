/*
 * sqllit: INSERT ... VALUES statements of literals cut into literals
 * (sqllit.h says which), as the server's lexer and parser read them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqllit.h"
#include "sqltok.h"

static struct sqllit *
lit_add(struct sqllit_insert *s)
{
	struct sqllit	*v;

	if (s->nv == s->cap) {
		v = reallocarray(s->v, s->cap ? s->cap * 2 : 256, sizeof(*v));
		if (v == NULL)
			return NULL;
		s->v = v;
		s->cap = s->cap ? s->cap * 2 : 256;
	}
	v = &s->v[s->nv++];
	memset(v, 0, sizeof(*v));
	return v;
}

/*
 * The body of a quoted string token t (quotes included) unescaped as the
 * server's lexer does (MariaDB KB "String Literals"): doubled quotes,
 * and unless nbe the backslash escapes; \% and \_ keep their backslash.
 */
static void
unescape(struct buf *b, const struct sqltok *t, int nbe)
{
	const char	*p = t->p + 1, *e = t->p + t->len - 1;
	char		 q = *t->p, c;

	for (; p < e; p++) {
		if (*p == q && p + 1 < e && p[1] == q) {
			buf_addc(b, q);
			p++;
			continue;
		}
		if (*p != '\\' || nbe || p + 1 >= e) {
			buf_addc(b, *p);
			continue;
		}
		switch ((c = *++p)) {
		case '0':	buf_addc(b, '\0'); break;
		case 'b':	buf_addc(b, '\b'); break;
		case 'n':	buf_addc(b, '\n'); break;
		case 'r':	buf_addc(b, '\r'); break;
		case 't':	buf_addc(b, '\t'); break;
		case 'Z':	buf_addc(b, '\032'); break;
		case '%':
		case '_':
			buf_addc(b, '\\');
			buf_addc(b, c);
			break;
		default:	buf_addc(b, c);
		}
	}
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Hex digits p[0..n) as bytes (an odd count: a leading 0).  0 or -1. */
static int
hex_bytes(struct buf *b, const char *p, size_t n)
{
	size_t	 i = 0;
	int	 h, l;

	if (n % 2 == 1) {
		if ((l = hexval(*p)) < 0)
			return -1;
		buf_addc(b, (char)l);
		i = 1;
	}
	for (; i < n; i += 2) {
		if ((h = hexval(p[i])) < 0 || (l = hexval(p[i + 1])) < 0)
			return -1;
		buf_addc(b, (char)(h << 4 | l));
	}
	return 0;
}

/* Binary digits p[0..n) as bytes, right-aligned.  0 or -1. */
static int
bit_bytes(struct buf *b, const char *p, size_t n)
{
	size_t	 i, nb = (n + 7) / 8, k;
	unsigned v;

	for (i = 0, k = 0; k < nb; k++) {
		v = 0;
		for (; i < n && (n - i - 1) / 8 == nb - k - 1; i++) {
			if (p[i] != '0' && p[i] != '1')
				return -1;
			v = v << 1 | (unsigned)(p[i] - '0');
		}
		buf_addc(b, (char)v);
	}
	return 0;
}

/*
 * A hex or bit literal token (0x.., 0b.., X'..', B'..') into bytes.
 * 1: it is one; 0: it is not; -1: malformed (the server says so: text).
 */
static int
bytes_lit(struct buf *b, const struct sqltok *t)
{
	const char	*p = t->p;
	size_t		 n = t->len;

	if (t->kind == SQLTOK_NUMBER && n > 2 && p[0] == '0' &&
	    (p[1] == 'x' || p[1] == 'b'))
		return (p[1] == 'x' ? hex_bytes(b, p + 2, n - 2) :
		    bit_bytes(b, p + 2, n - 2)) == 0 ? 1 : -1;
	if (t->kind == SQLTOK_STRING && n >= 3 && p[1] == '\'' &&
	    ((*p | 0x20) == 'x' || (*p | 0x20) == 'b')) {
		if ((*p | 0x20) == 'x' && (n - 3) % 2 == 1)
			return -1;	/* X'F': a syntax error */
		return ((*p | 0x20) == 'x' ? hex_bytes(b, p + 2, n - 3) :
		    bit_bytes(b, p + 2, n - 3)) == 0 ? 1 : -1;
	}
	return 0;
}

/* A NUMBER token, negated if neg, into v.  0, or -1: not bindable. */
static int
number(struct sqllit *v, const struct sqltok *t, int neg, struct buf *b)
{
	char		 s[80], *e;
	size_t		 i, n = t->len;
	uint64_t	 u = 0, d;
	int		 digits = 1, frac = 0, exp = 0;

	for (i = 0; i < n; i++) {
		if (t->p[i] == '.')
			frac = 1;
		else if ((t->p[i] | 0x20) == 'e')
			exp = 1;
		else if (t->p[i] < '0' || t->p[i] > '9')
			digits = 0;
	}
	if (!digits && !exp)
		return -1;	/* 0x.., handled by bytes_lit() */
	if (exp) {
		if (n + 1 >= sizeof(s))
			return -1;
		s[0] = '-';
		memcpy(s + 1, t->p, n);
		s[n + 1] = '\0';
		errno = 0;
		v->d = strtod(neg ? s : s + 1, &e);
		/* a denormal is ERANGE too, and exact; 0, inf: the server's */
		if (*e != '\0' || !isfinite(v->d) || (errno != 0 &&
		    (errno != ERANGE || v->d == 0)))
			return -1;	/* 1e309 is the server's error */
		v->kind = SQLLIT_DBL;
		return 0;
	}
	if (!frac) {
		for (i = 0; i < n; i++) {
			d = (uint64_t)(t->p[i] - '0');
			if (u > (UINT64_MAX - d) / 10)
				break;
			u = u * 10 + d;
		}
		/*
		 * -9223372036854775808 too: the server's unary minus makes
		 * LONGLONG_MIN of it (Item_func_neg), not a decimal.
		 */
		if (i == n && (!neg || u <= (uint64_t)INT64_MAX + 1)) {
			v->kind = neg || u <= INT64_MAX ? SQLLIT_INT :
			    SQLLIT_UINT;
			v->u = neg ? (uint64_t)0 - u : u;
		}
	}
	/*
	 * Else a decimal: at most 65 digits stay one (longer: a double).
	 * An integer keeps its text too, should its column need a decimal.
	 */
	if (v->kind != SQLLIT_INT && v->kind != SQLLIT_UINT) {
		if (n > 60)
			return -1;
		v->kind = SQLLIT_DEC;
	}
	v->off = b->len;
	if (neg)
		buf_addc(b, '-');
	buf_add(b, t->p, n);
	v->len = b->len - v->off;
	return 0;
}

/*
 * The character sets of MariaDB 10.11 (SHOW CHARACTER SET): "_name" is
 * an introducer only for one of them; any other word is an identifier
 * (_utf8mb3X'41' is a syntax error, not an introducer and a hex string).
 */
static const char *const charsets[] = {
	"armscii8", "ascii", "big5", "binary", "cp1250", "cp1251", "cp1256",
	"cp1257", "cp850", "cp852", "cp866", "cp932", "dec8", "eucjpms",
	"euckr", "gb2312", "gbk", "geostd8", "greek", "hebrew", "hp8",
	"keybcs2", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7",
	"macce", "macroman", "sjis", "swe7", "tis620", "ucs2", "ujis",
	"utf16", "utf16le", "utf32", "utf8", "utf8mb3", "utf8mb4",
};

static int
charset_known(const char *p, size_t n)
{
	size_t	 i;

	for (i = 0; i < sizeof(charsets) / sizeof(*charsets); i++)
		if (strlen(charsets[i]) == n &&
		    strncasecmp(charsets[i], p, n) == 0)
			return 1;
	return 0;
}

/* One literal from the lexer (its first token in *t).  0, or -1: text. */
static int
literal(struct sqltok_lexer *lx, struct sqltok *t, struct sqllit_insert *s,
    int nbe)
{
	struct sqllit	*v;
	int		 neg = 0, r;

	if ((v = lit_add(s)) == NULL)
		return -1;
	/* a sign: the server's unary minus, or its unary plus (a no-op) */
	if (t->kind == SQLTOK_PUNCT && (*t->p == '-' || *t->p == '+')) {
		neg = *t->p == '-';
		if (sqltok_next(lx, t) != SQLTOK_NUMBER)
			return -1;
	}
	v->off = s->bytes.len;
	if (s->max_lit > 0 && t->len > s->max_lit)
		return -1;
	if ((r = bytes_lit(&s->bytes, t)) != 0) {
		if (r == -1 || neg)
			return -1;
		v->kind = SQLLIT_BIN;
	} else if (t->kind == SQLTOK_NUMBER) {
		if (number(v, t, neg, &s->bytes) == -1)
			return -1;
	} else if (neg)
		return -1;
	else if (t->kind == SQLTOK_STRING && (*t->p == '\'' || *t->p == '"')) {
		unescape(&s->bytes, t, nbe);
		v->kind = SQLLIT_STR;
	} else if (sqltok_is(t, "NULL"))
		v->kind = SQLLIT_NULL;
	else if (sqltok_is(t, "TRUE") || sqltok_is(t, "FALSE")) {
		/* 1 and 0, with their text (as a decimal or double, unify()) */
		v->kind = SQLLIT_INT;
		v->u = sqltok_is(t, "TRUE");
		buf_addc(&s->bytes, v->u ? '1' : '0');
	} else if (t->kind == SQLTOK_WORD && t->len > 1 && *t->p == '_' &&
	    charset_known(t->p + 1, t->len - 1)) {
		/* an introducer: _cs 'text' or _cs 0x.. */
		v->cs = t->p + 1;
		v->cslen = t->len - 1;
		if (sqltok_next(lx, t) != SQLTOK_END && s->max_lit > 0 &&
		    t->len > s->max_lit)
			return -1;
		if (t->kind == SQLTOK_STRING &&
		    (*t->p == '\'' || *t->p == '"'))
			unescape(&s->bytes, t, nbe);
		else if (bytes_lit(&s->bytes, t) != 1)
			return -1;
		v->kind = v->cslen == 6 &&
		    strncasecmp(v->cs, "binary", 6) == 0 ? SQLLIT_BIN :
		    SQLLIT_CS;
	} else
		return -1;
	v->len = s->bytes.len - v->off;
	/* what follows: ',' or ')'; a second string would be appended */
	sqltok_next(lx, t);
	return s->bytes.err ? -1 : 0;
}

int
sqllit_cut(struct sqllit_insert *s, const char *text, size_t len, int mode)
{
	int		 nbe = (mode & SQLTOK_NBE) != 0;
	struct sqltok_lexer lx;
	struct sqltok	 t;
	size_t		 n;
	int		 k;

	s->nv = s->ntuples = s->arity = 0;
	buf_reset(&s->bytes);
	sqltok_init(&lx, text, len, mode & (SQLTOK_NBE | SQLTOK_ANSIQ));
	if (sqltok_next(&lx, &t) != SQLTOK_WORD || !(sqltok_is(&t, "INSERT") ||
	    sqltok_is(&t, "REPLACE")))
		return 0;
	/* to VALUES; a SELECT, SET or parenthesis in between: text */
	while ((k = sqltok_next(&lx, &t)) != SQLTOK_END) {
		if (t.flags & (SQLTOK_F_EXEC | SQLTOK_F_OPEN))
			return 0;
		if (sqltok_is(&t, "VALUES") || sqltok_is(&t, "VALUE"))
			break;
		if (sqltok_is(&t, "SELECT") || sqltok_is(&t, "SET") ||
		    sqltok_is(&t, "WITH") || sqltok_is(&t, "TABLE"))
			return 0;
	}
	if (k == SQLTOK_END)
		return 0;
	s->prefix = text;
	s->plen = (size_t)(t.p + t.len - text);
	for (;;) {
		if (sqltok_next(&lx, &t) != SQLTOK_PUNCT || *t.p != '(')
			return 0;
		n = 0;
		sqltok_next(&lx, &t);
		for (;;) {
			if (t.flags & (SQLTOK_F_EXEC | SQLTOK_F_OPEN) ||
			    literal(&lx, &t, s, nbe) == -1)
				return 0;
			n++;
			if (t.kind != SQLTOK_PUNCT)
				return 0;
			if (*t.p == ')')
				break;
			if (*t.p != ',')
				return 0;
			sqltok_next(&lx, &t);
		}
		if (s->ntuples++ == 0)
			s->arity = n;
		else if (n != s->arity)
			return 0;	/* the server's error: as text */
		k = sqltok_next(&lx, &t);
		if (k == SQLTOK_END)
			break;
		if (k != SQLTOK_PUNCT || *t.p != ',')
			return 0;	/* ON DUPLICATE KEY UPDATE, ... */
	}
	return s->arity > 0 && s->arity <= 4096 ? 1 : 0;
}

/* An identifier token (a name or a quoted one). */
static int
is_name(const struct sqltok *t)
{
	return t->kind == SQLTOK_WORD || t->kind == SQLTOK_IDENT;
}

int
sqllit_target(const struct sqllit_insert *s, int mode, const char **tbp,
    const char **tep, const char **cbp, const char **cep)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;
	const char	*tb, *te, *cols = NULL, *cole = NULL;
	int		 depth;

	sqltok_init(&lx, s->prefix, s->plen, mode & (SQLTOK_NBE |
	    SQLTOK_ANSIQ));
	sqltok_next(&lx, &t);		/* INSERT, REPLACE */
	while (sqltok_next(&lx, &t) == SQLTOK_WORD && (sqltok_is(&t,
	    "LOW_PRIORITY") || sqltok_is(&t, "DELAYED") ||
	    sqltok_is(&t, "HIGH_PRIORITY") || sqltok_is(&t, "IGNORE")))
		;
	if (sqltok_is(&t, "INTO"))
		sqltok_next(&lx, &t);
	if (!is_name(&t))
		return -1;
	tb = t.p;
	te = t.p + t.len;
	if (sqltok_next(&lx, &t) == SQLTOK_PUNCT && *t.p == '.') {
		if (sqltok_next(&lx, &t) == SQLTOK_END || !is_name(&t))
			return -1;
		te = t.p + t.len;
		sqltok_next(&lx, &t);
	}
	if (t.kind == SQLTOK_PUNCT && *t.p == '(') {
		cols = t.p + 1;
		for (depth = 1; depth > 0; ) {
			if (sqltok_next(&lx, &t) == SQLTOK_END)
				return -1;
			if (t.kind == SQLTOK_PUNCT && *t.p == '(')
				depth++;
			else if (t.kind == SQLTOK_PUNCT && *t.p == ')')
				depth--;
		}
		cole = t.p;
		if (cole == cols)
			return -1;	/* (): the server's business */
		sqltok_next(&lx, &t);
	}
	if (!sqltok_is(&t, "VALUES") && !sqltok_is(&t, "VALUE"))
		return -1;	/* PARTITION (p) ... */
	*tbp = tb;
	*tep = te;
	*cbp = cols;
	*cep = cole;
	return 0;
}

void
sqllit_release(struct sqllit_insert *s)
{
	free(s->v);
	buf_release(&s->bytes);
	s->v = NULL;
	s->nv = s->cap = 0;
}

/* MariaDB's latin1 0x80..0x9F (cp1252; the five it leaves out as C1). */
static const unsigned short latin1_c1[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

static void
put_utf8(struct buf *b, unsigned c)
{
	if (c < 0x80)
		buf_addc(b, (char)c);
	else if (c < 0x800) {
		buf_addc(b, (char)(0xC0 | c >> 6));
		buf_addc(b, (char)(0x80 | (c & 0x3F)));
	} else {
		buf_addc(b, (char)(0xE0 | c >> 12));
		buf_addc(b, (char)(0x80 | (c >> 6 & 0x3F)));
		buf_addc(b, (char)(0x80 | (c & 0x3F)));
	}
}

/* Length of the well-formed UTF-8 sequence at p (at most 4), or 0. */
static size_t
utf8_seq(const unsigned char *p, size_t n)
{
	unsigned	 c;
	size_t		 k, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xC2 || p[0] > 0xF4)
		return 0;
	k = p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 : 4;
	if (n < k)
		return 0;
	c = p[0] & (0x7F >> k);
	for (i = 1; i < k; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3F);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 ||
	    c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	return k;
}

static int
cs_is(const char *cs, size_t len, const char *name)
{
	return strlen(name) == len && strncasecmp(cs, name, len) == 0;
}

int
sqllit_to_utf8(struct buf *out, const char *cs, size_t cslen,
    const char *p, size_t n, int mb3)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t		 i, k, mark = out->len;
	int		 latin1 = cs_is(cs, cslen, "latin1");
	int		 ascii = cs_is(cs, cslen, "ascii");
	int		 u3 = cs_is(cs, cslen, "utf8mb3") ||
			    cs_is(cs, cslen, "utf8");

	if (!latin1 && !ascii && !u3 && !cs_is(cs, cslen, "utf8mb4"))
		return -1;
	for (i = 0; i < n; i += k) {
		k = 1;
		if (u[i] < 0x80)
			buf_addc(out, (char)u[i]);
		else if (latin1)
			put_utf8(out, u[i] < 0xA0 ? latin1_c1[u[i] - 0x80] :
			    u[i]);
		else if (ascii || (k = utf8_seq(u + i, n - i)) == 0 ||
		    (k == 4 && (u3 || mb3)))
			goto bad;
		else
			buf_add(out, p + i, k);
	}
	if (!out->err)
		return 0;
bad:
	out->len = mark;
	if (out->p != NULL)
		out->p[mark] = '\0';
	return -1;
}

/*
 * Past the string or quoted name that starts at p (quote q), or NULL:
 * the next quote not escaped by an odd run of backslashes (where mode
 * has them for q: sqltok_escapes()), nor doubled.
 */
static const char *
skip_quoted(const char *p, const char *e, char q, int mode)
{
	int		 esc = sqltok_escapes(mode, q);
	const char	*s = ++p, *f, *b;

	for (;;) {
		if ((f = memchr(p, q, (size_t)(e - p))) == NULL)
			return NULL;
		for (b = f; esc && b > s && b[-1] == '\\'; b--)
			;
		if ((f - b) % 2 == 1)
			p = f + 1;		/* \' */
		else if (f + 1 < e && f[1] == q)
			p = f + 2;		/* '' */
		else
			return f + 1;
	}
}

/* Is [p, e) a non-zero integer literal, blanks around it allowed? */
static int
nonzero_int(const char *p, const char *e)
{
	int	 nz = 0, digits = 0;

	while (p < e && sqltok_is_space((unsigned char)*p))
		p++;
	if (p < e && (*p == '-' || *p == '+'))
		p++;
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		digits = 1;
		nz |= *p != '0';
	}
	while (p < e && sqltok_is_space((unsigned char)*p))
		p++;
	return p == e && digits && nz;
}

/*
 * The bytes sqllit_quick() stops at; the rest it steps over.  Commas
 * only while it looks for value col of a tuple.
 */
static const unsigned char quick_stop[2][256] = {
	{ ['\''] = 1, ['"'] = 1, ['`'] = 1, ['@'] = 1, ['#'] = 1, ['-'] = 1,
	  ['/'] = 1, ['('] = 1, [')'] = 1 },
	{ ['\''] = 1, ['"'] = 1, ['`'] = 1, ['@'] = 1, ['#'] = 1, ['-'] = 1,
	  ['/'] = 1, ['('] = 1, [')'] = 1, [','] = 1 },
};

/* Does the word SELECT or WITH follow p (blanks first)? */
static int
subquery_at(const char *p, const char *e)
{
	while (p < e && sqltok_is_space((unsigned char)*p))
		p++;
	return (e - p >= 6 && strncasecmp(p, "SELECT", 6) == 0 &&
	    (e - p == 6 || !sqltok_is_word((unsigned char)p[6]))) ||
	    (e - p >= 4 && strncasecmp(p, "WITH", 4) == 0 &&
	    (e - p == 4 || !sqltok_is_word((unsigned char)p[4])));
}

int
sqllit_quick(const char *text, size_t len, size_t from, long col,
    int mode, int *nonzero)
{
	const char	*b = text + from, *p = b, *e = text + len, *w;
	const char	*v = NULL;
	const unsigned char *stop = quick_stop[0];
	long		 field = 0;
	int		 depth = 0, tuples = 1, c;

	*nonzero = col >= 0;
	for (;;) {
		while (p < e && !stop[(unsigned char)*p])
			p++;
		if (p == e)
			break;
		c = (unsigned char)*p;
		if (c == '\'' || c == '"' || c == '`') {
			if ((p = skip_quoted(p, e, (char)c, mode)) == NULL)
				return 0;
			continue;
		}
		if (c == '@' || c == '#' || (c == '-' && p + 1 < e &&
		    p[1] == '-') || (c == '/' && p + 1 < e && p[1] == '*'))
			return 0;
		if (c == '(') {
			/* a word right before it (blanks between): a call */
			for (w = p; w > b && sqltok_is_space((unsigned char)
			    w[-1]); w--)
				;
			if (w > b && sqltok_is_word((unsigned char)w[-1])) {
				if (!(w - b >= 6 && strncasecmp(w - 6, "VALUES",
				    6) == 0 && (w - 6 == b ||
				    !sqltok_is_word((unsigned char)w[-7]))))
					return 0;
				/* ON DUPLICATE KEY UPDATE ... VALUES(c) */
				if (depth == 0)
					tuples = 0;
			}
			if (subquery_at(p + 1, e))
				return 0;
			if (depth++ == 0 && tuples) {
				field = 0;
				v = p + 1;
			}
		} else if (c == ')' || (c == ',' && depth == 1)) {
			if (depth == 1 && tuples && field == col &&
			    !nonzero_int(v, p))
				*nonzero = 0;
			if (depth == 1 && tuples && c == ')' && field < col)
				*nonzero = 0;	/* not that many values */
			if (c == ',') {
				field++;
				v = p + 1;
			} else if (--depth < 0)
				return 0;
		}
		stop = quick_stop[depth == 1 && tuples && field <= col];
		p++;
	}
	return depth == 0;
}
