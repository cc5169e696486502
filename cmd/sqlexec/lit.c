/*
 * lit: INSERT statements of literals through the bulk prepared INSERT
 * (issue #14).  A unit whose every statement is INSERT, INSERT IGNORE or
 * REPLACE ... VALUES (...),(...) of literals is run as prepared
 * statements executed with array binding, the literals cut apart here
 * (lib/sqltok) and bound so that the server stores what it would have
 * made of the text:
 *
 *   'text' (no introducer)   MYSQL_TYPE_STRING, unescaped, in
 *                            character_set_client: the server converts it
 *                            and stores it through the same Field::store()
 *                            as a string literal, whatever the column
 *   123, -123                MYSQL_TYPE_LONGLONG (an Item_int's value)
 *   1.50                     MYSQL_TYPE_NEWDECIMAL, its text (Item_decimal)
 *   1e3                      MYSQL_TYPE_DOUBLE, strtod(3) (Item_float;
 *                            both round correctly)
 *   X'41', 0x41, b'1', 0b1,  MYSQL_TYPE_BLOB, the bytes: only into string,
 *   _binary '..'             binary and GEOMETRY columns, where a hex
 *                            literal is a binary string; into BIT its
 *                            value as MYSQL_TYPE_LONGLONG unsigned (at
 *                            most 8 bytes); into a number: text
 *   _cs 'text', _cs 0x..     MYSQL_TYPE_BLOB, only into a column of charset
 *                            cs (stored byte for byte either way) and cs
 *                            latin1 or the bytes ASCII
 *   TRUE, FALSE, NULL        1, 0, the NULL indicator
 *
 * Any other statement (expressions, DEFAULT, COLLATE, N'..', adjacent
 * strings, ON DUPLICATE KEY UPDATE) goes as text, in its turn; a client
 * character set whose multi-byte characters may hold a backslash sends
 * the unit as text.  So does any error, or warning whose text is wanted:
 * the unit is rolled back and run by the text path, so that errors,
 * --force and the warnings shown are the mysql client's own.  Column types come from the target (the result
 * metadata of SELECT cols FROM table LIMIT 0, prepared, per unit).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lit.h"
#include "sqltok.h"

/* Rows a bulk execute sends at most. */
#define LIT_ROWS	4096
/* Per value in the request: indicator, length (at most 9 bytes). */
#define VAL_OVERHEAD	10

enum lv_kind {
	LV_NULL,
	LV_STR,		/* text in character_set_client, unescaped */
	LV_BIN,		/* bytes: hex, bit, _binary */
	LV_CS,		/* bytes in charset cs (an introducer) */
	LV_INT,		/* int64 in u (two's complement), and its text */
	LV_UINT,	/* uint64 in u, and its text */
	LV_DEC,		/* a decimal: its text */
	LV_DBL		/* a double in d */
};

struct lv {
	int		 kind;
	size_t		 off, len;	/* bytes in the scratch buffer */
	const char	*cs;		/* LV_CS: the charset name, borrowed */
	size_t		 cslen;
	uint64_t	 u;
	double		 d;
};

/* One statement, cut. */
struct lstmt {
	const char	*prefix;	/* up to VALUES, included */
	size_t		 plen;
	size_t		 arity, ntuples;
	struct lv	*v;		/* ntuples * arity */
	size_t		 nv, cap;
	struct buf	 bytes;		/* unescaped strings, decoded hex */
};

/* What a unit did. */
struct pass {
	uint64_t	 rows, warns, stmts;
};

/* What a target column takes. */
struct lcol {
	int		 bin_ok;	/* hex and bit literals are bytes */
	int		 real;		/* FLOAT or DOUBLE */
	int		 bit;		/* BIT */
	char		 cs[32];	/* its charset, "" for none */
};

struct sx_lit {
	struct lstmt	 s;
	struct lcol	*cols;
	size_t		 ncols;
	/* column-wise arrays, value of column i, row r at i * LIT_ROWS + r */
	char		**ptr;
	unsigned long	*len;
	char		*ind;
	uint64_t	*num;
	MYSQL_BIND	*bind;
	size_t		 acols;
	char		 client_cs[64];
	int		 nbe;		/* NO_BACKSLASH_ESCAPES */
	int		 ansiq;		/* ANSI_QUOTES */
};

int
sx_lit_new(struct sx *x)
{
	if ((x->lit = calloc(x->nconn, sizeof(*x->lit))) == NULL)
		return -1;
	return 0;
}

void
sx_lit_free(struct sx *x)
{
	struct sx_lit	*l;
	int		 c;

	if (x->lit == NULL)
		return;
	for (c = 0; c < x->nconn; c++) {
		l = &x->lit[c];
		free(l->s.v);
		buf_release(&l->s.bytes);
		free(l->cols);
		free(l->ptr);
		free(l->len);
		free(l->ind);
		free(l->num);
		free(l->bind);
	}
	free(x->lit);
	x->lit = NULL;
}

/* Parsing. */

static struct lv *
lv_add(struct lstmt *s)
{
	struct lv	*v;

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
number(struct lv *v, const struct sqltok *t, int neg, struct buf *b)
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
		/* a denormal is ERANGE too, and exact; 0 or inf: the server's */
		if (*e != '\0' || !isfinite(v->d) || (errno != 0 &&
		    (errno != ERANGE || v->d == 0)))
			return -1;	/* 1e309 is the server's error */
		v->kind = LV_DBL;
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
			v->kind = neg || u <= INT64_MAX ? LV_INT : LV_UINT;
			v->u = neg ? (uint64_t)0 - u : u;
		}
	}
	/*
	 * Else a decimal: at most 65 digits stay one (longer: a double).
	 * An integer keeps its text too, should its column need a decimal.
	 */
	if (v->kind != LV_INT && v->kind != LV_UINT) {
		if (n > 60)
			return -1;
		v->kind = LV_DEC;
	}
	v->off = b->len;
	if (neg)
		buf_addc(b, '-');
	buf_add(b, t->p, n);
	v->len = b->len - v->off;
	return 0;
}

/* One literal from the lexer (its first token in *t).  0, or -1: text. */
static int
literal(struct sqltok_lexer *lx, struct sqltok *t, struct lstmt *s, int nbe)
{
	struct lv	*v;
	int		 neg = 0, r;

	if ((v = lv_add(s)) == NULL)
		return -1;
	/* a sign: the server's unary minus, or its unary plus (a no-op) */
	if (t->kind == SQLTOK_PUNCT && (*t->p == '-' || *t->p == '+')) {
		neg = *t->p == '-';
		if (sqltok_next(lx, t) != SQLTOK_NUMBER)
			return -1;
	}
	v->off = s->bytes.len;
	if ((r = bytes_lit(&s->bytes, t)) != 0) {
		if (r == -1 || neg)
			return -1;
		v->kind = LV_BIN;
	} else if (t->kind == SQLTOK_NUMBER) {
		if (number(v, t, neg, &s->bytes) == -1)
			return -1;
	} else if (neg)
		return -1;
	else if (t->kind == SQLTOK_STRING && (*t->p == '\'' || *t->p == '"')) {
		unescape(&s->bytes, t, nbe);
		v->kind = LV_STR;
	} else if (sqltok_is(t, "NULL"))
		v->kind = LV_NULL;
	else if (sqltok_is(t, "TRUE") || sqltok_is(t, "FALSE")) {
		/* 1 and 0, with their text (as a decimal or double, unify()) */
		v->kind = LV_INT;
		v->u = sqltok_is(t, "TRUE");
		buf_addc(&s->bytes, v->u ? '1' : '0');
	} else if (t->kind == SQLTOK_WORD && t->len > 1 && *t->p == '_') {
		/* an introducer: _cs 'text' or _cs 0x.. */
		v->cs = t->p + 1;
		v->cslen = t->len - 1;
		if (sqltok_next(lx, t) == SQLTOK_STRING &&
		    (*t->p == '\'' || *t->p == '"'))
			unescape(&s->bytes, t, nbe);
		else if (bytes_lit(&s->bytes, t) != 1)
			return -1;
		v->kind = v->cslen == 6 && strncasecmp(v->cs, "binary", 6) == 0 ?
		    LV_BIN : LV_CS;
	} else
		return -1;
	v->len = s->bytes.len - v->off;
	/* what follows: ',' or ')'; a second string would be appended */
	sqltok_next(lx, t);
	return s->bytes.err ? -1 : 0;
}

/*
 * Cut an INSERT statement into its prefix (up to VALUES) and literal
 * tuples.  1: it is one; 0: not (run it as text).
 */
static int
cut(struct sx_lit *l, const char *text, size_t len)
{
	struct lstmt	*s = &l->s;
	struct sqltok_lexer lx;
	struct sqltok	 t;
	size_t		 n;
	int		 k;

	s->nv = s->ntuples = s->arity = 0;
	buf_reset(&s->bytes);
	sqltok_init(&lx, text, len, (l->nbe ? SQLTOK_NBE : 0) |
	    (l->ansiq ? SQLTOK_ANSIQ : 0));
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
			    literal(&lx, &t, s, l->nbe) == -1)
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

/* The target. */

/* An identifier token (a name or a quoted one). */
static int
is_name(const struct sqltok *t)
{
	return t->kind == SQLTOK_WORD || t->kind == SQLTOK_IDENT;
}

/*
 * "INSERT [IGNORE] [INTO] db.t (a,b) VALUES" to "SELECT a,b FROM db.t
 * LIMIT 0" (whose result metadata describes the columns the tuples go
 * into), or "SELECT * ...".  0, or -1: a form not known here (PARTITION).
 */
static int
probe_text(struct buf *b, const struct lstmt *s, int mode)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;
	const char	*tb, *te, *cols = NULL, *cole = NULL;
	int		 depth;

	sqltok_init(&lx, s->prefix, s->plen, mode);
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
		sqltok_next(&lx, &t);
	}
	if (!sqltok_is(&t, "VALUES") && !sqltok_is(&t, "VALUE"))
		return -1;
	buf_adds(b, "SELECT ");
	if (cols != NULL) {
		if (cole == cols)
			return -1;	/* (): the server's business */
		buf_add(b, cols, (size_t)(cole - cols));
	} else
		buf_adds(b, "*");
	buf_adds(b, " FROM ");
	buf_add(b, tb, (size_t)(te - tb));
	buf_adds(b, " LIMIT 0");
	return b->err ? -1 : 0;
}

/*
 * The columns the tuples go into, from the result metadata of the probe
 * (prepared, never executed), into l->cols.  0, or -1: not known here.
 */
static int
probe(struct sx_lit *l, MYSQL *m, int mode)
{
	struct buf	 q = BUF_INIT;
	MYSQL_STMT	*st = NULL;
	MYSQL_RES	*md = NULL;
	MYSQL_FIELD	*f;
	struct lcol	*c;
	const char	*cs;
	unsigned	 i, n;
	int		 rc = -1;

	if (probe_text(&q, &l->s, mode) == -1 || (st = mysql_stmt_init(m)) ==
	    NULL || mysql_stmt_prepare(st, q.p, q.len) != 0 ||
	    (md = mysql_stmt_result_metadata(st)) == NULL)
		goto out;
	n = mysql_num_fields(md);
	f = mysql_fetch_fields(md);
	if (n != l->s.arity)
		goto out;
	if (n > l->ncols) {
		free(l->cols);
		if ((l->cols = calloc(n, sizeof(*l->cols))) == NULL) {
			l->ncols = 0;
			goto out;
		}
		l->ncols = n;
	}
	for (i = 0; i < n; i++) {
		c = &l->cols[i];
		/* hex and bit literals are bytes into these, numbers elsewhere */
		c->bin_ok = !(f[i].flags & (ENUM_FLAG | SET_FLAG)) &&
		    (f[i].type == MYSQL_TYPE_STRING ||
		    f[i].type == MYSQL_TYPE_VAR_STRING ||
		    f[i].type == MYSQL_TYPE_VARCHAR ||
		    f[i].type == MYSQL_TYPE_BLOB ||
		    f[i].type == MYSQL_TYPE_TINY_BLOB ||
		    f[i].type == MYSQL_TYPE_MEDIUM_BLOB ||
		    f[i].type == MYSQL_TYPE_LONG_BLOB ||
		    f[i].type == MYSQL_TYPE_BIT ||
		    f[i].type == MYSQL_TYPE_GEOMETRY);
		c->bit = f[i].type == MYSQL_TYPE_BIT;
		c->real = f[i].type == MYSQL_TYPE_FLOAT ||
		    f[i].type == MYSQL_TYPE_DOUBLE;
		c->cs[0] = '\0';
		if (f[i].type != MYSQL_TYPE_BIT && f[i].charsetnr != 63) {
			sqlval_charset_class(f[i].charsetnr, &cs);
			snprintf(c->cs, sizeof(c->cs), "%s", cs);
		}
	}
	rc = 0;
out:
	if (md != NULL)
		mysql_free_result(md);
	if (st != NULL)
		mysql_stmt_close(st);
	buf_release(&q);
	return rc;
}

/* Can every value go into its column as bound?  1 or 0. */
static int
fits(const struct sx_lit *l)
{
	const struct lstmt *s = &l->s;
	const struct lv	*v;
	const struct lcol *c;
	size_t		 i, k;

	for (i = 0; i < s->nv; i++) {
		v = &s->v[i];
		c = &l->cols[i % s->arity];
		if (v->kind == LV_BIN && !c->bin_ok)
			return 0;
		/* into BIT a hex literal is a number (saturating past 8 bytes) */
		if (v->kind == LV_BIN && c->bit && v->len > 8)
			return 0;
		if (v->kind != LV_CS)
			continue;
		/* _cs '..': byte for byte only into cs; latin1 takes any */
		if (strlen(c->cs) != v->cslen ||
		    strncasecmp(c->cs, v->cs, v->cslen) != 0)
			return 0;
		if (strcmp(c->cs, "latin1") != 0)
			for (k = 0; k < v->len; k++)
				if ((unsigned char)s->bytes.p[v->off + k] >= 0x80)
					return 0;
	}
	return 1;
}

/* Room for LIT_ROWS rows of n columns.  0 or -1. */
static int
arrays(struct sx_lit *l, size_t n)
{
	size_t	 k;

	if (n <= l->acols)
		return 0;
	free(l->ptr);
	free(l->len);
	free(l->ind);
	free(l->num);
	free(l->bind);
	k = n * LIT_ROWS;
	l->ptr = calloc(k, sizeof(*l->ptr));
	l->len = calloc(k, sizeof(*l->len));
	l->ind = calloc(k, sizeof(*l->ind));
	l->num = calloc(k, sizeof(*l->num));
	l->bind = calloc(n, sizeof(*l->bind));
	l->acols = n;
	if (l->ptr == NULL || l->len == NULL || l->ind == NULL ||
	    l->num == NULL || l->bind == NULL) {
		l->acols = 0;
		return -1;
	}
	return 0;
}

/* The bind type of a value kind; *uns: unsigned. */
static enum enum_field_types
kind_type(int kind, int *uns)
{
	*uns = kind == LV_UINT;
	switch (kind) {
	case LV_STR:	return MYSQL_TYPE_STRING;
	case LV_BIN:
	case LV_CS:	return MYSQL_TYPE_BLOB;
	case LV_INT:
	case LV_UINT:	return MYSQL_TYPE_LONGLONG;
	case LV_DEC:	return MYSQL_TYPE_NEWDECIMAL;
	case LV_DBL:	return MYSQL_TYPE_DOUBLE;
	default:	return MYSQL_TYPE_STRING;	/* all NULL */
	}
}

/* Does tuple r have the kinds of the run's (NULL goes with any)? */
static int
same_kinds(const struct lstmt *s, const int *kinds, size_t r)
{
	const struct lv	*v = &s->v[r * s->arity];
	size_t		 i;

	for (i = 0; i < s->arity; i++)
		if (v[i].kind != LV_NULL && kinds[i] != LV_NULL &&
		    v[i].kind != kinds[i])
			return 0;
	return 1;
}

/*
 * Execute tuples [r0, r1) of the statement with one array bind.
 * 0, 1 (an error or wanted warnings: the unit goes as text), -1 (fatal,
 * recorded).
 */
static int
exec_run(struct sx *x, int c, struct sx_lit *l, MYSQL_STMT *st,
    const int *kinds, size_t r0, size_t r1, struct pass *p)
{
	const struct lstmt *s = &l->s;
	const struct lv	*v;
	unsigned int	 n = (unsigned)(r1 - r0);
	size_t		 i, r, at;
	unsigned	 w;
	int		 uns;

	memset(l->bind, 0, s->arity * sizeof(*l->bind));
	for (i = 0; i < s->arity; i++) {
		l->bind[i].buffer_type = kind_type(kinds[i], &uns);
		l->bind[i].is_unsigned = uns;
		l->bind[i].u.indicator = &l->ind[i * LIT_ROWS];
		if (kinds[i] == LV_INT || kinds[i] == LV_UINT ||
		    kinds[i] == LV_DBL)
			l->bind[i].buffer = &l->num[i * LIT_ROWS];
		else {
			l->bind[i].buffer = &l->ptr[i * LIT_ROWS];
			l->bind[i].length = &l->len[i * LIT_ROWS];
		}
		for (r = r0; r < r1; r++) {
			v = &s->v[r * s->arity + i];
			at = i * LIT_ROWS + (r - r0);
			l->ind[at] = v->kind == LV_NULL ? STMT_INDICATOR_NULL :
			    STMT_INDICATOR_NONE;
			if (v->kind == LV_DBL)
				memcpy(&l->num[at], &v->d, sizeof(v->d));
			else if (v->kind == LV_INT || v->kind == LV_UINT)
				l->num[at] = v->u;
			else {
				l->ptr[at] = s->bytes.p != NULL ?
				    s->bytes.p + v->off : (char *)"";
				l->len[at] = v->len;
			}
		}
	}
	if (mysql_stmt_attr_set(st, STMT_ATTR_ARRAY_SIZE, &n) != 0 ||
	    mysql_stmt_bind_param(st, l->bind) != 0)
		return 1;
	if (sx_conn_begin(x, c) == -1)
		return -1;		/* interrupted */
	if (mysql_stmt_execute(st) != 0) {
		sx_conn_end(x, c);
		if (sx_fatal_errno(mysql_stmt_errno(st))) {
			sx_set_error(x, 0, "bulk INSERT: ERROR %u (%s): %s",
			    mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
			    mysql_stmt_error(st));
			return -1;
		}
		return 1;		/* the text says which statement */
	}
	sx_conn_end(x, c);
	p->rows += mysql_stmt_affected_rows(st);
	if ((w = mysql_stmt_warning_count(st)) > 0) {
		if (sx_warn_wanted(x))
			return 1;	/* shown as the text gives them */
		p->warns += w;
	}
	return 0;
}

/* A number's text to the double strtod(3) makes of it.  0 or -1. */
static int
to_double(const struct lstmt *s, struct lv *v)
{
	char	 t[80], *e;
	double	 d;

	if (v->len == 0 || v->len >= sizeof(t))
		return -1;
	memcpy(t, s->bytes.p + v->off, v->len);
	t[v->len] = '\0';
	errno = 0;
	d = strtod(t, &e);
	if (*e != '\0' || !isfinite(d) || (errno != 0 && (errno != ERANGE ||
	    d == 0)))
		return -1;
	v->d = d;
	v->kind = LV_DBL;
	return 0;
}

/*
 * Fewer, longer runs: a column whose numbers are integers and decimals
 * takes them all as decimals (an Item_int and an Item_decimal of the
 * same number store the same into any column), a FLOAT or DOUBLE column
 * with approximate numbers all its numbers as doubles, and a column of a
 * binary charset its strings as bytes (the conversion from
 * character_set_client to binary is a copy).
 */
static void
unify(struct sx_lit *l)
{
	struct lstmt	*s = &l->s;
	struct lv	*v;
	size_t		 i, r, k;
	unsigned	 seen;

	for (i = 0; i < s->arity; i++) {
		seen = 0;
		for (r = 0; r < s->ntuples; r++)
			seen |= 1u << s->v[r * s->arity + i].kind;
		seen &= ~(1u << LV_NULL);
		for (r = 0; r < s->ntuples; r++) {
			v = &s->v[r * s->arity + i];
			/* into BIT: the literal's integer value (fits(): 8 bytes) */
			if (l->cols[i].bit && v->kind == LV_BIN) {
				v->u = 0;
				for (k = 0; k < v->len; k++)
					v->u = v->u << 8 |
					    (unsigned char)s->bytes.p[v->off + k];
				v->kind = LV_UINT;
				continue;
			}
			/*
			 * Into FLOAT or DOUBLE every number is the correctly
			 * rounded double of its text, whatever its literal.
			 */
			if (l->cols[i].real && (seen & 1u << LV_DBL) &&
			    (v->kind == LV_INT || v->kind == LV_UINT ||
			    v->kind == LV_DEC) && to_double(s, v) == 0)
				continue;
			if ((v->kind == LV_INT || v->kind == LV_UINT) &&
			    (seen & ~(1u << v->kind)) != 0 &&
			    (seen & ~(1u << LV_INT | 1u << LV_UINT |
			    1u << LV_DEC)) == 0)
				v->kind = LV_DEC;
			else if (v->kind == LV_STR && l->cols[i].bin_ok &&
			    l->cols[i].cs[0] == '\0')
				v->kind = LV_BIN;
		}
	}
}

/*
 * One cut statement through bulk executes.  0; 2: not run, send it as
 * text; 1: part of it ran: the unit goes as text; -1: fatal (recorded).
 */
static int
exec_stmt(struct sx *x, int c, struct sx_lit *l, struct pass *p)
{
	const struct lstmt *s = &l->s;
	struct buf	 q = BUF_INIT;
	MYSQL_STMT	*st;
	int		*kinds;
	size_t		 r0, r, i, bytes, rb;
	int		 rc = 1;

	if ((kinds = calloc(s->arity, sizeof(*kinds))) == NULL)
		return 1;
	buf_add(&q, s->prefix, s->plen);
	buf_addc(&q, ' ');
	buf_addc(&q, '(');
	for (i = 0; i < s->arity; i++)
		buf_adds(&q, i ? ",?" : "?");
	buf_addc(&q, ')');
	if (q.err || (st = mysql_stmt_init(x->conn[c])) == NULL) {
		free(kinds);
		buf_release(&q);
		return 1;
	}
	rc = 2;				/* nothing ran yet */
	if (mysql_stmt_prepare(st, q.p, q.len) != 0 ||
	    mysql_stmt_param_count(st) != s->arity)
		goto out;
	for (r0 = 0; r0 < s->ntuples; r0 = r) {
		for (i = 0; i < s->arity; i++)
			kinds[i] = s->v[r0 * s->arity + i].kind;
		bytes = 64 + 2 * s->arity;
		for (r = r0; r < s->ntuples && r - r0 < LIT_ROWS; r++) {
			for (rb = 0, i = 0; i < s->arity; i++)
				rb += VAL_OVERHEAD + s->v[r * s->arity + i].len;
			if (r > r0 && (bytes + rb > x->batch_cap ||
			    !same_kinds(s, kinds, r)))
				break;
			bytes += rb;
			for (i = 0; i < s->arity; i++)
				if (kinds[i] == LV_NULL)
					kinds[i] = s->v[r * s->arity + i].kind;
		}
		if (bytes > x->batch_cap)
			goto out;	/* one tuple too large: text */
		if ((rc = exec_run(x, c, l, st, kinds, r0, r, p)) != 0) {
			if (rc == 1 && r0 == 0)
				rc = 2;
			goto out;
		}
		rc = 1;			/* rows ran */
	}
	rc = 0;
out:
	mysql_stmt_close(st);
	free(kinds);
	buf_release(&q);
	return rc;
}

/* The connection's character_set_client and sql_mode.  0 or -1. */
static int
session(struct sx_lit *l, MYSQL *m)
{
	static const char *const unsafe[] = { "big5", "cp932", "gbk", "sjis",
	    "gb18030" };
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	size_t		 i;
	int		 rc = -1;

	if (mysql_query(m, "SELECT @@character_set_client, @@sql_mode") != 0 ||
	    (res = mysql_store_result(m)) == NULL)
		return -1;
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL &&
	    row[1] != NULL) {
		snprintf(l->client_cs, sizeof(l->client_cs), "%s", row[0]);
		i = (size_t)sqltok_sql_mode(row[1], strlen(row[1]));
		l->nbe = (i & SQLTOK_NBE) != 0;
		l->ansiq = (i & SQLTOK_ANSIQ) != 0;
		rc = 0;
		/* a backslash may be a multi-byte character's second byte */
		for (i = 0; i < sizeof(unsafe) / sizeof(*unsafe); i++)
			if (strcmp(l->client_cs, unsafe[i]) == 0)
				rc = -1;
	}
	mysql_free_result(res);
	return rc;
}

/*
 * Statement k of u as text, on the bulk path's unit.  0; 1: an error or
 * warnings whose text is wanted (the unit goes as text, and the text
 * path reports them); -1: interrupted.
 */
static int
text_one(struct sx *x, int c, struct sx_unit *u, size_t k, struct pass *p)
{
	MYSQL		*m = x->conn[c];
	MYSQL_RES	*res;
	my_ulonglong	 n;
	uint64_t	 rows = 0, w = 0;
	int		 rc;

	if (sx_conn_begin(x, c) == -1)
		return -1;
	if ((rc = mysql_real_query(m, u->text.p + u->st[k].off,
	    u->st[k].len)) == 0) {
		do {
			if ((res = mysql_store_result(m)) != NULL)
				mysql_free_result(res);
			else if ((n = mysql_affected_rows(m)) !=
			    (my_ulonglong)-1)
				rows += n;
			w += mysql_warning_count(m);
		} while ((rc = mysql_next_result(m)) == 0);
		rc = rc > 0;
	}
	sx_conn_end(x, c);
	if (rc != 0 || (w > 0 && sx_warn_wanted(x)))
		return 1;
	p->rows += rows;
	p->warns += w;
	return 0;
}

int
sx_lit_unit(struct sx *x, int c, struct sx_unit *u, uint64_t *rowsp,
    uint64_t *warnsp, uint64_t *stmtsp)
{
	struct sx_lit	*l = &x->lit[c];
	MYSQL		*m = x->conn[c];
	struct pass	 pass, *p = &pass;
	size_t		 k;
	int		 rc = 1, mode;

	memset(p, 0, sizeof(*p));
	/*
	 * Not in a bulk unit (exec.c: unique_checks=0 on an empty table):
	 * there MariaDB 10.11's COM_STMT_BULK_EXECUTE reports no duplicate
	 * key and loses rows (INSERT (1),(2); INSERT (2); INSERT (3) left
	 * 2 and 3, exit 0), where the same statements as text fail.
	 */
	if (u->bulk || session(l, m) == -1)
		return 1;
	mode = (l->nbe ? SQLTOK_NBE : 0) | (l->ansiq ? SQLTOK_ANSIQ : 0);
	/* worth it only if a statement can go so (cutting is cheap) */
	for (k = 0; k < u->n; k++)
		if (cut(l, u->text.p + u->st[k].off, u->st[k].len) == 1)
			break;
	if (k == u->n)
		return 1;
	for (k = 0; k < u->n; k++) {
		rc = 2;
		if (cut(l, u->text.p + u->st[k].off, u->st[k].len) == 1 &&
		    probe(l, m, mode) == 0 && fits(l) &&
		    arrays(l, l->s.arity) == 0) {
			unify(l);
			rc = exec_stmt(x, c, l, p);
		}
		if (rc == 0)
			p->stmts++;
		else if (rc == 2)	/* not for bulk: this one as text */
			rc = text_one(x, c, u, k, p);
		if (rc != 0)
			break;
	}
	if (k == u->n) {
		*rowsp = p->rows;
		*warnsp = p->warns;
		*stmtsp = p->stmts;
		return 0;
	}
	if (rc == -1)
		return -1;
	/* run it as text: undo what ran, as if nothing had */
	if (sx_unit_rollback(x, m, u) == -1)
		return -1;
	if (mysql_query(m, "START TRANSACTION") != 0) {
		sx_set_error(x, u->st[0].no, "START TRANSACTION: ERROR %u "
		    "(%s): %s", mysql_errno(m), mysql_sqlstate(m),
		    mysql_error(m));
		return -1;
	}
	return 1;
}
