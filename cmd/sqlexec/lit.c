/*
 * lit: INSERT statements of literals through the bulk prepared INSERT
 * (issue #14).  A unit whose every statement is INSERT, INSERT IGNORE or
 * REPLACE ... VALUES (...),(...) of literals is run as prepared
 * statements executed with array binding, the literals cut apart by
 * lib/sqllit and bound so that the server stores what it would have made
 * of the text:
 *
 *   'text' (no introducer)   MYSQL_TYPE_STRING, unescaped, in
 *                            character_set_client: the server converts it
 *                            and stores it through the same Field::store()
 *                            as a string literal, whatever the column
 *   123, -123, 2^63..2^64-1  MYSQL_TYPE_LONGLONG, signed or unsigned (an
 *                            Item_int's value)
 *   1.50, 2^64 and beyond    MYSQL_TYPE_NEWDECIMAL, its text (Item_decimal)
 *   1e3                      MYSQL_TYPE_DOUBLE, strtod(3) (Item_float;
 *                            both round correctly); into FLOAT or DOUBLE
 *                            every number of a column with one (unify())
 *   X'41', 0x41, b'1', 0b1,  MYSQL_TYPE_BLOB, the bytes: only into string,
 *   _binary '..'             binary and GEOMETRY columns, where a hex
 *                            literal is a binary string; into BIT its
 *                            value as MYSQL_TYPE_LONGLONG unsigned (at
 *                            most 8 bytes); into a number: text
 *   _cs 'text', _cs 0x..     cs latin1, ascii, utf8mb3, utf8mb4, bytes
 *                            well formed: into a binary column the bytes,
 *                            elsewhere the characters in a UTF-8 or latin1
 *                            character_set_client (intro())
 *   TRUE, FALSE, NULL        1, 0, the NULL indicator
 *
 * Into INET6 and UUID only strings and NULL.  Any other statement
 * (expressions, DEFAULT, COLLATE, N'..', adjacent strings, ON DUPLICATE
 * KEY UPDATE) goes as text, in its turn; a client character set whose
 * multi-byte characters may hold a backslash sends the unit as text.  So
 * does any error, or warning whose text is wanted: the unit is rolled
 * back and run by the text path, so that errors, --force and the
 * warnings shown are the mysql client's own.  Column types come from the
 * target (the result metadata of SELECT cols FROM table LIMIT 0,
 * prepared, per statement).  tests/cmd/t4240 compares every pair of
 * literal kinds in one column, into every column type, with the client.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysqld_error.h>

#include "bind.h"
#include "engine.h"
#include "lit.h"
#include "sqllit.h"
#include "sqltok.h"

/* What a unit did. */
struct pass {
	uint64_t	 rows, warns, stmts;
};

/* What a target column takes. */
struct lcol {
	int		 bin_ok;	/* hex and bit literals are bytes */
	int		 real;		/* FLOAT or DOUBLE */
	int		 bit;		/* BIT */
	int		 str_only;	/* a type plugin (INET6, UUID) */
	char		 cs[32];	/* its charset, "" for none */
};

struct sx_lit {
	struct sqllit_insert	 s;
	struct lcol	*cols;
	size_t		 ncols;
	struct sx_bind	 a;		/* the column-wise arrays (bind.c) */
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
		sqllit_release(&l->s);
		free(l->cols);
		sx_bind_release(&l->a);
	}
	free(x->lit);
	x->lit = NULL;
}

/*
 * "INSERT [IGNORE] [INTO] db.t (a,b) VALUES" to "SELECT a,b FROM db.t
 * LIMIT 0" (whose result metadata describes the columns the tuples go
 * into), or "SELECT * ...".  0, or -1: a form not known here (PARTITION).
 */
static int
probe_text(struct buf *b, const struct sqllit_insert *s, int mode)
{
	const char	*tb, *te, *cb, *ce;

	if (sqllit_target(s, mode, &tb, &te, &cb, &ce) == -1)
		return -1;
	buf_adds(b, "SELECT ");
	if (cb != NULL)
		buf_add(b, cb, (size_t)(ce - cb));
	else
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
	MARIADB_CONST_STRING tn;
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
		/*
		 * INET6, UUID (type plugins, named in the extended metadata):
		 * a number bound into one warns once more than its literal
		 * (10.11: 3 warnings for (NULL),(TRUE),(NULL),(TRUE), the
		 * text 2); only strings and NULL go bound.
		 */
		c->str_only = mariadb_field_attr(&tn, &f[i],
		    MARIADB_FIELD_ATTR_DATA_TYPE_NAME) == 0 && tn.length > 0;
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

/*
 * An introduced string (_cs 'text', _cs 0x..) as a value bound the same:
 * into a column of the binary charset (binary strings, BIT: the copy
 * the server makes) its bytes; into any other column the same
 * characters in character_set_client (UTF-8, or latin1 for latin1 and
 * ASCII bytes), which the server converts to the column's charset as it
 * converts cs to it: both through Unicode (my_convert()), with the same
 * '?' and warnings for what the column cannot hold.  1, or 0: text.
 */
static int
intro(struct sx_lit *l, struct sqllit *v, const struct lcol *c)
{
	struct sqllit_insert *s = &l->s;
	size_t		 off = s->bytes.len, k;
	const char	*cc = l->client_cs;
	int		 mb3;

	/* bytes the server would warn about, a charset not ASCII's: text */
	if (buf_grow(&s->bytes, v->len * 2) == -1 ||
	    sqllit_to_utf8(&s->bytes, v->cs, v->cslen, s->bytes.p + v->off,
	    v->len, 0) == -1)
		return 0;
	s->bytes.len = off;		/* only checked */
	s->bytes.p[off] = '\0';
	if (c->bin_ok && c->cs[0] == '\0') {
		v->kind = SQLLIT_BIN;
		return 1;
	}
	if (strcmp(cc, "latin1") == 0) {
		if (v->cslen != 6 || strncasecmp(v->cs, "latin1", 6) != 0)
			for (k = 0; k < v->len; k++)
				if ((unsigned char)s->bytes.p[v->off + k] >=
				    0x80)
					return 0;
		v->kind = SQLLIT_STR;
		return 1;
	}
	mb3 = strcmp(cc, "utf8mb3") == 0 || strcmp(cc, "utf8") == 0;
	if (!mb3 && strcmp(cc, "utf8mb4") != 0)
		return 0;
	/* the bytes are in s->bytes, which may move as it grows */
	if (buf_grow(&s->bytes, v->len * 2) == -1 ||
	    sqllit_to_utf8(&s->bytes, v->cs, v->cslen, s->bytes.p + v->off,
	    v->len, mb3) == -1)
		return 0;
	v->off = off;
	v->len = s->bytes.len - off;
	v->kind = SQLLIT_STR;
	return 1;
}

/* Can every value go into its column as bound?  1 or 0. */
static int
fits(struct sx_lit *l)
{
	const struct sqllit_insert *s = &l->s;
	struct sqllit	*v;
	const struct lcol *c;
	size_t		 i;

	for (i = 0; i < s->nv; i++) {
		v = &s->v[i];
		c = &l->cols[i % s->arity];
		if (v->kind == SQLLIT_CS && !intro(l, v, c))
			return 0;
		if (v->kind == SQLLIT_BIN && !c->bin_ok)
			return 0;
		if (c->str_only && v->kind != SQLLIT_STR &&
		    v->kind != SQLLIT_NULL)
			return 0;
		/* into BIT a hex literal is a number (saturating past 8 bytes) */
		if (v->kind == SQLLIT_BIN && c->bit && v->len > 8)
			return 0;
	}
	return 1;
}

/* The bind type of a value kind; *uns: unsigned. */
static enum enum_field_types
kind_type(int kind, int *uns)
{
	*uns = kind == SQLLIT_UINT;
	switch (kind) {
	case SQLLIT_STR:	return MYSQL_TYPE_STRING;
	case SQLLIT_BIN:
	case SQLLIT_CS:	return MYSQL_TYPE_BLOB;
	case SQLLIT_INT:
	case SQLLIT_UINT:	return MYSQL_TYPE_LONGLONG;
	case SQLLIT_DEC:	return MYSQL_TYPE_NEWDECIMAL;
	case SQLLIT_DBL:	return MYSQL_TYPE_DOUBLE;
	default:	return MYSQL_TYPE_STRING;	/* all NULL */
	}
}

/* Does tuple r have the kinds of the run's (NULL goes with any)? */
static int
same_kinds(const struct sqllit_insert *s, const int *kinds, size_t r)
{
	const struct sqllit	*v = &s->v[r * s->arity];
	size_t		 i;

	for (i = 0; i < s->arity; i++)
		if (v[i].kind != SQLLIT_NULL && kinds[i] != SQLLIT_NULL &&
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
	const struct sqllit_insert *s = &l->s;
	const struct sqllit	*v;
	struct sx_bind	*a = &l->a;
	size_t		 i, r, at;
	unsigned	 w;
	int		 uns;
	enum enum_field_types type;

	for (i = 0; i < s->arity; i++) {
		type = kind_type(kinds[i], &uns);
		sx_bind_col(a, i, type, uns);
		for (r = r0; r < r1; r++) {
			v = &s->v[r * s->arity + i];
			at = i * a->cap + (r - r0);
			a->ind[at] = v->kind == SQLLIT_NULL ?
			    STMT_INDICATOR_NULL : STMT_INDICATOR_NONE;
			if (v->kind == SQLLIT_DBL)
				a->num[at].d = v->d;
			else if (v->kind == SQLLIT_INT ||
			    v->kind == SQLLIT_UINT)
				a->num[at].u = v->u;
			else {
				a->ptr[at] = s->bytes.p != NULL ?
				    s->bytes.p + v->off : (char *)"";
				a->len[at] = v->len;
			}
		}
	}
	switch (sx_bind_execute(x, c, a, st, (unsigned)(r1 - r0))) {
	case SXB_OK:
		break;
	case SXB_INTR:
		return -1;		/* interrupted */
	case SXB_EXEC:
		/* a deadlock too: the text (which rolls back first) tells */
		if (sx_fatal_errno(mysql_stmt_errno(st)) &&
		    mysql_stmt_errno(st) != ER_LOCK_DEADLOCK) {
			sx_set_error(x, 0, "bulk INSERT: ERROR %u (%s): %s",
			    mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
			    mysql_stmt_error(st));
			return -1;
		}
		return 1;		/* the text says which statement */
	default:
		return 1;
	}
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
to_double(const struct sqllit_insert *s, struct sqllit *v)
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
	v->kind = SQLLIT_DBL;
	return 0;
}

/*
 * Fewer, longer runs, where the server stores the same either way: a
 * FLOAT or DOUBLE column takes all its numbers as doubles if one is a
 * double, else its integers as decimals (mysqldump writes 1 and 0.5
 * there; an Item_int, Item_decimal and Item_float all reach
 * Field_float or Field_double through a double: Field_real::store(),
 * store_decimal()), and a column of a binary charset its strings as
 * bytes (the conversion from character_set_client to binary is a copy).
 * Integers and decimals are not mixed: an integer above INT64_MAX bound
 * as a decimal stores 0 into BIT and '' into SET, and warns twice into
 * INT, where its text stores all ones, every member and warns once.
 * Into BIT a hex or bit literal is its integer value (fits(): at most 8
 * bytes), stored as Field_bit::store() stores the bytes.
 */
static void
unify(struct sx_lit *l)
{
	struct sqllit_insert *s = &l->s;
	struct sqllit	*v;
	size_t		 i, r, k;
	unsigned	 seen;

	for (i = 0; i < s->arity; i++) {
		seen = 0;
		for (r = 0; r < s->ntuples && l->cols[i].real; r++)
			seen |= 1u << s->v[r * s->arity + i].kind;
		for (r = 0; r < s->ntuples; r++) {
			v = &s->v[r * s->arity + i];
			if (l->cols[i].bit && v->kind == SQLLIT_BIN) {
				v->u = 0;
				for (k = 0; k < v->len; k++)
					v->u = v->u << 8 | (unsigned char)
					    s->bytes.p[v->off + k];
				v->kind = SQLLIT_UINT;
				continue;
			}
			if (l->cols[i].real && (seen & 1u << SQLLIT_DBL) &&
			    (v->kind == SQLLIT_INT || v->kind == SQLLIT_UINT ||
			    v->kind == SQLLIT_DEC) && to_double(s, v) == 0)
				continue;
			/* the decimal's double is the integer's (both round) */
			if (l->cols[i].real && (v->kind == SQLLIT_INT ||
			    v->kind == SQLLIT_UINT))
				v->kind = SQLLIT_DEC;
			if (v->kind == SQLLIT_STR && l->cols[i].bin_ok &&
			    l->cols[i].cs[0] == '\0')
				v->kind = SQLLIT_BIN;
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
	const struct sqllit_insert *s = &l->s;
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
		bytes = SX_BIND_HEADER(s->arity);
		for (r = r0; r < s->ntuples && r - r0 < SX_BIND_ROWS; r++) {
			for (rb = 0, i = 0; i < s->arity; i++)
				rb += SX_BIND_VAL_OVERHEAD +
				    s->v[r * s->arity + i].len;
			if (r > r0 && (bytes + rb > x->batch_cap ||
			    !same_kinds(s, kinds, r)))
				break;
			bytes += rb;
			for (i = 0; i < s->arity; i++)
				if (kinds[i] == SQLLIT_NULL)
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
	/*
	 * A literal of more text than this holds more than batch_cap
	 * bytes (at most two bytes of text a byte: an escape, two hex
	 * digits), which exec_stmt() sends as text: not cut, not copied.
	 */
	l->s.max_lit = 2 * x->batch_cap + 3;
	/* worth it only if a statement can go so (cutting is cheap) */
	for (k = 0; k < u->n; k++)
		if (sqllit_cut(&l->s, u->text.p + u->st[k].off,
		    u->st[k].len, mode) == 1)
			break;
	if (k == u->n)
		return 1;
	for (k = 0; k < u->n; k++) {
		rc = 2;
		if (sqllit_cut(&l->s, u->text.p + u->st[k].off,
		    u->st[k].len, mode) == 1 &&
		    probe(l, m, mode) == 0 && fits(l) &&
		    sx_bind_fit(&l->a, l->s.arity) == 0) {
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
	/* begun again as commit.c begins a unit (engine.h) */
	return sx_unit_begin(x, c, u) == -1 ? -1 : 1;
}
