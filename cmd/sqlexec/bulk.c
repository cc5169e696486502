/*
 * bulk: the workers' side of the snapshot-stream path.  A unit of rows is
 * loaded with one prepared INSERT ... VALUES (?,...) per table and
 * connection, executed with array binding (COM_STMT_BULK_EXECUTE: MariaDB
 * Connector/C mysql_stmt_attr_set(3) STMT_ATTR_ARRAY_SIZE, column-wise
 * arrays of pointers and lengths, STMT_INDICATOR_NULL for NULL; the
 * MariaDB KB page "Bulk Insert (Column-wise Binding)"), so that the
 * server parses the statement once instead of every value.
 *
 * Values are bound from the frames' text.  A binary string parameter
 * (MYSQL_TYPE_BLOB) is stored byte for byte into a column of any
 * character set, as rows2sql's _charset 0x... literals are, and
 * decimals and temporals are converted by the server from their text as
 * from a literal; INET6 and UUID take text, not binary, and are bound as
 * strings of the connection's utf8mb4; integers and FLOAT/DOUBLE are
 * parsed here and bound as numbers (the same values, cheaper for the
 * server), and a row whose number does not parse goes alone as text.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "load.h"

/* Prepared statements kept per connection (server limit: 16382 total). */
#define BULK_STMTS	16

struct bstmt {
	const struct ld_table *t;
	MYSQL_STMT	*st;
	uint64_t	 used;		/* for LRU eviction */
};

struct sx_bulk {
	struct bstmt	 s[BULK_STMTS];
	uint64_t	 tick;
	struct sx_bind	 a;		/* the column-wise arrays (bind.c) */
	struct rp_val	*vals;		/* one decoded row */
	size_t		 nvals;
	struct buf	 text;		/* INSERT text (no bulk execute) */
};

void
sx_rows_where(struct buf *b, const struct sx_unit *u)
{
	const struct sx_rows *r = u->rows;

	buf_addf(b, "%s: rows %" PRIu64 "-%" PRIu64, r->t->name,
	    r->first_row, r->first_row + r->nrows - 1);
	if (r->first_frame == r->last_frame)
		buf_addf(b, " (frame %" PRIu64 ")", r->first_frame);
	else
		buf_addf(b, " (frames %" PRIu64 "-%" PRIu64 ")",
		    r->first_frame, r->last_frame);
}

int
sx_bulk_supported(MYSQL *m)
{
	unsigned long	 caps = 0, ext = 0;

	if (mariadb_get_infov(m, MARIADB_CONNECTION_SERVER_CAPABILITIES,
	    &caps) != 0 || mariadb_get_infov(m,
	    MARIADB_CONNECTION_EXTENDED_SERVER_CAPABILITIES, &ext) != 0)
		return 0;
	if (caps & CLIENT_MYSQL)
		return 0;		/* a MySQL server */
	return (ext & (MARIADB_CLIENT_STMT_BULK_OPERATIONS >> 32)) != 0;
}

/* Error of unit u: "s.t: rows a-b (frames x-y): what: ERROR n (s): msg". */
static void
unit_error(struct sx *x, struct sx_unit *u, const char *what,
    unsigned no, const char *state, const char *msg)
{
	struct buf	 b = BUF_INIT;

	sx_rows_where(&b, u);
	buf_addf(&b, ": %s", what);
	if (no != 0)
		buf_addf(&b, ": ERROR %u (%s): %s", no, state, msg);
	sx_set_error(x, u->rows->first_frame, "%s", b.p);
	buf_release(&b);
}

static void
stmt_error(struct sx *x, struct sx_unit *u, const char *what, MYSQL_STMT *st)
{
	unit_error(x, u, what, mysql_stmt_errno(st), mysql_stmt_sqlstate(st),
	    mysql_stmt_error(st));
}

void
sx_rows_conn_error(struct sx *x, struct sx_unit *u, const char *what, MYSQL *m)
{
	unit_error(x, u, what, mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
}

/* The prepared INSERT of u's table on m, or NULL with the error recorded. */
static MYSQL_STMT *
stmt_get(struct sx *x, MYSQL *m, struct sx_bulk *b, struct sx_unit *u)
{
	const struct ld_table *t = u->rows->t;
	struct bstmt	*s, *lru = &b->s[0];
	size_t		 i;

	for (i = 0; i < BULK_STMTS; i++) {
		s = &b->s[i];
		if (s->t == t) {
			s->used = ++b->tick;
			return s->st;
		}
		if (s->used < lru->used)
			lru = s;
	}
	s = lru;
	if (s->st != NULL)
		mysql_stmt_close(s->st);
	s->t = NULL;
	if ((s->st = mysql_stmt_init(m)) == NULL) {
		sx_rows_conn_error(x, u, "mysql_stmt_init", m);
		return NULL;
	}
	if (mysql_stmt_prepare(s->st, t->insert.p, t->insert.len) != 0) {
		stmt_error(x, u, "prepare INSERT", s->st);
		mysql_stmt_close(s->st);
		s->st = NULL;
		return NULL;
	}
	if (mysql_stmt_param_count(s->st) != t->nemit) {
		unit_error(x, u, "prepared INSERT has the wrong number of "
		    "parameters", 0, NULL, NULL);
		mysql_stmt_close(s->st);
		s->st = NULL;
		return NULL;
	}
	s->t = t;
	s->used = ++b->tick;
	return s->st;
}

/* Room in b's arrays for ncols columns, a row of nvals.  0 or -1. */
static int
arrays_fit(struct sx_bulk *b, size_t ncols, size_t nvals)
{
	if (nvals > b->nvals) {
		free(b->vals);
		if ((b->vals = calloc(nvals, sizeof(*b->vals))) == NULL) {
			b->nvals = 0;
			return -1;
		}
		b->nvals = nvals;
	}
	return sx_bind_fit(&b->a, ncols);
}

/* The type a value of kind k is sent as its text with. */
static enum enum_field_types
bind_type(enum ld_bind k)
{
	return k == LB_TEXT ? MYSQL_TYPE_STRING : MYSQL_TYPE_BLOB;
}

/*
 * The decimal integer text of a column flagged NUMERIC, as the server
 * sends it, to *out (two's complement if signed).  0, or -1 if it is not
 * one (the row is then sent as text).
 */
static int
parse_int(const char *p, size_t len, int is_unsigned, uint64_t *out)
{
	uint64_t	 v = 0, d;
	int		 neg = 0;

	if (len > 0 && *p == '-' && !is_unsigned) {
		neg = 1;
		p++;
		len--;
	}
	if (len == 0 || len > 20)
		return -1;
	for (; len > 0; p++, len--) {
		if ((d = (unsigned char)*p - '0') > 9 ||
		    v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (!is_unsigned && v > (uint64_t)INT64_MAX + neg)
		return -1;
	*out = neg ? (uint64_t)0 - v : v;
	return 0;
}

/*
 * The text of a FLOAT or DOUBLE value to the double the server would
 * make of it: strtod(3) and the server's dtoa (strings/dtoa.c) both round
 * correctly, and a FLOAT column takes a double either way.  0, or -1 for
 * anything else (out of range included): the row is then sent as text.
 */
static int
parse_double(const char *p, size_t len, double *out)
{
	char	 s[64], *e;

	if (len == 0 || len >= sizeof(s) || strspn(p, "0123456789.eE+-") < len)
		return -1;
	memcpy(s, p, len);
	s[len] = '\0';
	errno = 0;
	*out = strtod(s, &e);
	if (e != s + len || errno != 0 || !isfinite(*out))
		return -1;
	return 0;
}

/*
 * Put row vals at index n of b's arrays.  0, or -1 if a typed value does
 * not parse (nothing to undo: the row is then sent alone, as text).
 */
static int
arrays_put(struct sx_bind *a, const struct ld_table *t,
    const struct rp_val *vals, unsigned int n)
{
	const struct rp_val *v;
	size_t		 c, at;

	for (c = 0; c < t->nemit; c++) {
		v = &vals[t->emit[c]];
		at = c * a->cap + n;
		a->ind[at] = v->p != NULL ? STMT_INDICATOR_NONE :
		    STMT_INDICATOR_NULL;
		if (v->p == NULL)
			continue;
		switch (t->bind[c]) {
		case LB_INT:
		case LB_UINT:
			if (parse_int(v->p, v->len, t->bind[c] == LB_UINT,
			    &a->num[at].u) == -1)
				return -1;
			break;
		case LB_DOUBLE:
			if (parse_double(v->p, v->len, &a->num[at].d) == -1)
				return -1;
			break;
		default:
			a->ptr[at] = (char *)v->p;
			a->len[at] = v->len;
		}
	}
	return 0;
}

/*
 * w > 0 warnings of the statement just run on m for unit u (lib: warn.c),
 * whose rows began at row first of the table.  They are counted in
 * *warns, printed while the first few are, and with --strict an error
 * (--force does not skip rows).  0 or -1 (recorded).
 */
static int
warnings(struct sx *x, MYSQL *m, struct sx_unit *u, uint64_t first,
    unsigned w, uint64_t *warns)
{
	struct sx_warn_rows at = { u->rows->t->name, first };
	struct buf	 b = BUF_INIT;
	int		 rc = 0;

	*warns += w;
	if (w == 0 || x->interrupted || !sx_warn_wanted(x))
		return 0;
	sx_rows_where(&b, u);
	if ((rc = sx_warn_at(x, m, w, u->rows->first_frame, b.p, &at)) == 1)
		sx_set_error(x, u->rows->first_frame, "%s: rows with warnings "
		    "are an error with --strict, also with --force", b.p);
	buf_release(&b);
	return rc == 0 ? 0 : -1;
}

/*
 * Execute the n rows in b's arrays, rows first.. of the table.  0, or -1
 * with the error recorded.
 */
static int
execute(struct sx *x, int c, struct sx_unit *u, struct sx_bulk *b,
    MYSQL_STMT *st, unsigned int n, uint64_t first, uint64_t *rows,
    uint64_t *warns)
{
	const struct ld_table *t = u->rows->t;
	my_ulonglong	 got;
	size_t		 i;

	for (i = 0; i < t->nemit; i++)
		sx_bind_col(&b->a, i, t->bind[i] == LB_INT ||
		    t->bind[i] == LB_UINT ? MYSQL_TYPE_LONGLONG :
		    t->bind[i] == LB_DOUBLE ? MYSQL_TYPE_DOUBLE :
		    bind_type(t->bind[i]), t->bind[i] == LB_UINT);
	switch (sx_bind_execute(x, c, &b->a, st, n)) {
	case SXB_OK:
		break;
	case SXB_BIND:
		stmt_error(x, u, "bind", st);
		return -1;
	case SXB_INTR:
		return -1;		/* interrupted */
	default:
		stmt_error(x, u, "INSERT", st);
		return -1;
	}
	got = mysql_stmt_affected_rows(st);
	if (warnings(x, x->conn[c], u, first, mysql_stmt_warning_count(st),
	    warns) == -1)
		return -1;
	if (got != n) {
		struct buf	 w = BUF_INIT;

		buf_addf(&w, "INSERT of %u rows inserted %llu", n,
		    (unsigned long long)got);
		unit_error(x, u, w.p, 0, NULL, NULL);
		buf_release(&w);
		return -1;
	}
	*rows += got;
	return 0;
}

/*
 * One row too large for a bulk request: executed alone, its large values
 * sent in pieces (mysql_stmt_send_long_data(3)), each of which the server
 * still bounds by max_allowed_packet.  row: its number in the table.  0,
 * or -1 with the error recorded.
 */
static int
execute_long(struct sx *x, int c, struct sx_unit *u, struct sx_bulk *b,
    MYSQL_STMT *st, size_t limit, uint64_t row, uint64_t *rows,
    uint64_t *warns)
{
	const struct ld_table *t = u->rows->t;
	const struct rp_val *v;
	size_t		 i, at;

	for (i = 0; i < t->nemit; i++) {
		v = &b->vals[t->emit[i]];
		at = i * b->a.cap;
		b->a.ind[at] = v->p != NULL ? STMT_INDICATOR_NONE :
		    STMT_INDICATOR_NULL;
		b->a.ptr[at] = (char *)v->p;
		b->a.len[at] = v->len;
		sx_bind_col(&b->a, i, bind_type(t->bind[i]), 0);
	}
	switch (sx_bind_execute_row(x, c, &b->a, st, t->nemit, limit / 2)) {
	case SXB_OK:
		break;
	case SXB_BIND:
		stmt_error(x, u, "bind", st);
		return -1;
	case SXB_INTR:
		return -1;		/* interrupted */
	case SXB_PIECE:
		stmt_error(x, u, "send a large value", st);
		return -1;
	default:
		stmt_error(x, u, "INSERT of a large row", st);
		return -1;
	}
	*rows += mysql_stmt_affected_rows(st);
	return warnings(x, x->conn[c], u, row, mysql_stmt_warning_count(st),
	    warns);
}

/* Bytes row vals takes in a bulk request. */
static size_t
row_bytes(const struct ld_table *t, const struct rp_val *vals)
{
	size_t	 i, n = 0;

	for (i = 0; i < t->nemit; i++)
		n += SX_BIND_VAL_OVERHEAD + vals[t->emit[i]].len;
	return n;
}

/* The rows of a unit, one after another. */
struct rowit {
	const struct sx_rows *r;
	size_t		 i;		/* payload being read */
	int		 open;		/* rr holds payload i */
	struct rp_rows	 rr;
	uint64_t	 row;		/* number of the next row */
};

static void
rowit_init(struct rowit *it, const struct sx_rows *r)
{
	memset(it, 0, sizeof(*it));
	it->r = r;
	it->row = r->first_row;
}

/* The next row into vals.  1: a row, 0: the end, -1: corrupt (recorded). */
static int
rowit_next(struct sx *x, struct sx_unit *u, struct rowit *it,
    struct rp_val *vals)
{
	const struct sx_rows *r = it->r;
	struct frame	 f;
	struct buf	 w = BUF_INIT;
	size_t		 start;
	int		 k;

	for (;;) {
		if (!it->open) {
			if (it->i == r->n)
				return 0;
			start = it->i > 0 ? r->end[it->i - 1] : 0;
			memset(&f, 0, sizeof(f));
			f.p = (const uint8_t *)r->data.p + start;
			f.len = r->end[it->i] - start;
			if (dec_rows_begin(&f, &it->rr) == -1)
				break;
			it->open = 1;
		}
		if ((k = dec_rows_next(&it->rr, vals, r->t->t->ncols)) == 1) {
			it->row++;
			return 1;
		}
		if (k == -1)
			break;
		it->open = 0;
		it->i++;
	}
	buf_addf(&w, "corrupt row %" PRIu64, it->row);
	unit_error(x, u, w.p, 0, NULL, NULL);
	buf_release(&w);
	return -1;
}

/* Load the rows of u through bulk executes on m.  0 or -1 (recorded). */
static int
load_bulk(struct sx *x, int c, struct sx_unit *u, uint64_t *rows,
    uint64_t *warns)
{
	const struct ld_table *t = u->rows->t;
	struct sx_bulk	*b = &x->bulk[c];
	MYSQL		*m = x->conn[c];
	struct rowit	 it;
	MYSQL_STMT	*st;
	size_t		 limit = x->batch_cap, hdr, used, rb;
	unsigned int	 n = 0;
	uint64_t	 row, first = 0;	/* this row, the arrays' first */
	int		 k;

	if (arrays_fit(b, t->nemit, t->t->ncols) == -1) {
		unit_error(x, u, strerror(ENOMEM), 0, NULL, NULL);
		return -1;
	}
	if ((st = stmt_get(x, m, b, u)) == NULL)
		return -1;
	used = hdr = SX_BIND_HEADER(t->nemit);
	rowit_init(&it, u->rows);
	while ((k = rowit_next(x, u, &it, b->vals)) == 1) {
		row = it.row - 1;
		rb = row_bytes(t, b->vals);
		if (n > 0 && (n == b->a.cap || used + rb > limit)) {
			if (execute(x, c, u, b, st, n, first, rows,
			    warns) == -1)
				return -1;
			n = 0;
			used = hdr;
		}
		if (hdr + rb <= limit && arrays_put(&b->a, t, b->vals, n) == 0) {
			if (n++ == 0)
				first = row;
			used += rb;
			continue;
		}
		if (n > 0 && execute(x, c, u, b, st, n, first, rows,
		    warns) == -1)
			return -1;
		/*
		 * Too large for a batch: alone, whole in one bulk execute
		 * where there is room for Connector/C's copy of it (a unit
		 * of at most twice --commit-every, or SX_LARGE_WHOLE) and
		 * the server's packet holds it (the server expands a
		 * parameter of a plain execute into the query for its
		 * logs: 18 ns a byte), else its large values in pieces;
		 * not typed: as text.
		 */
		if (u->large != SX_LARGE && x->max_packet > 1024 &&
		    hdr + rb <= x->max_packet - 1024 &&
		    arrays_put(&b->a, t, b->vals, 0) == 0) {
			if (execute(x, c, u, b, st, 1, row, rows, warns) == -1)
				return -1;
		} else if (execute_long(x, c, u, b, st, limit, row, rows,
		    warns) == -1)
			return -1;
		n = 0;
		used = hdr;
	}
	if (k == -1 || (n > 0 && execute(x, c, u, b, st, n, first, rows,
	    warns) == -1))
		return -1;
	return 0;
}

/*
 * Send the n rows of INSERT text in b->text, rows first.. of the table.
 * 0 or -1 (recorded).
 */
static int
text_flush(struct sx *x, int c, struct sx_unit *u, struct sx_bulk *b,
    uint64_t n, uint64_t first, uint64_t *rows, uint64_t *warns)
{
	MYSQL		*m = x->conn[c];
	my_ulonglong	 got;

	if (n == 0)
		return 0;
	if (b->text.err) {
		unit_error(x, u, strerror(ENOMEM), 0, NULL, NULL);
		return -1;
	}
	if (sx_conn_begin(x, c) == -1)
		return -1;		/* interrupted */
	if (mysql_real_query(m, b->text.p, b->text.len) != 0) {
		sx_conn_end(x, c);
		sx_rows_conn_error(x, u, "INSERT", m);
		return -1;
	}
	sx_conn_end(x, c);
	/* before SHOW WARNINGS (warnings()) replaces them */
	got = mysql_affected_rows(m);
	if (warnings(x, m, u, first, mysql_warning_count(m), warns) == -1)
		return -1;
	if (got != n) {
		struct buf	 w = BUF_INIT;

		buf_addf(&w, "INSERT of %" PRIu64 " rows inserted %llu", n,
		    (unsigned long long)got);
		unit_error(x, u, w.p, 0, NULL, NULL);
		buf_release(&w);
		return -1;
	}
	*rows += got;
	buf_reset(&b->text);
	return 0;
}

/* Upper bound of the tuple text of the row in b->vals. */
static size_t
tuple_bound(const struct ld_table *t, const struct rp_val *vals)
{
	size_t	 i, c, n = 2;

	for (i = 0; i < t->nemit; i++) {
		c = t->emit[i];
		n += 1 + SQLVAL_MAX(vals[c].len, t->cols[c].intro_len);
	}
	return n;
}

/*
 * Where the server has no bulk execute (MySQL, MariaDB before 10.2) or
 * --no-bulk: multi-row INSERT text of at most --batch-bytes, its values
 * written as rows2sql writes them (lib/sqlvalue) in the same session.
 * A row too large for that goes alone as a prepared INSERT, its large
 * values in pieces.  0 or -1 (recorded).
 */
static int
load_text(struct sx *x, int c, struct sx_unit *u, uint64_t *rows,
    uint64_t *warns)
{
	struct sx_rows	*r = u->rows;
	const struct ld_table *t = r->t;
	struct sx_bulk	*b = &x->bulk[c];
	MYSQL		*m = x->conn[c];
	struct rowit	 it;
	MYSQL_STMT	*st;
	const char	*lim = r->data.p + r->data.len;
	size_t		 limit = x->batch_cap, bound;
	uint64_t	 n = 0, row, first = 0;
	char		*o;
	int		 k;

	if (arrays_fit(b, t->nemit, t->t->ncols) == -1) {
		unit_error(x, u, strerror(ENOMEM), 0, NULL, NULL);
		return -1;
	}
	buf_reset(&b->text);
	rowit_init(&it, r);
	while ((k = rowit_next(x, u, &it, b->vals)) == 1) {
		row = it.row - 1;
		bound = tuple_bound(t, b->vals);
		if (n > 0 && b->text.len + 1 + bound + 1 > limit) {
			if (text_flush(x, c, u, b, n, first, rows, warns) == -1)
				return -1;
			n = 0;
		}
		if (t->prefix.len + bound + 1 > limit) {
			if ((st = stmt_get(x, m, b, u)) == NULL ||
			    execute_long(x, c, u, b, st, limit, row, rows,
			    warns) == -1)
				return -1;
			continue;
		}
		if (n == 0) {
			buf_add(&b->text, t->prefix.p, t->prefix.len);
			first = row;
		} else
			buf_addc(&b->text, ',');
		if (buf_grow(&b->text, bound) == -1)
			continue;	/* text_flush() reports it */
		o = sqlval_row_put(b->text.p + b->text.len, t->cols, b->vals,
		    t->t->ncols, lim);
		b->text.len = (size_t)(o - b->text.p);
		b->text.p[b->text.len] = '\0';
		n++;
	}
	if (k == -1)
		return -1;
	return text_flush(x, c, u, b, n, first, rows, warns);
}

int
sx_rows_load(struct sx *x, int c, struct sx_unit *u, uint64_t *rows,
    uint64_t *warns)
{
	return u->rows->text ? load_text(x, c, u, rows, warns) :
	    load_bulk(x, c, u, rows, warns);
}

int
sx_bulk_new(struct sx *x)
{
	if ((x->bulk = calloc(x->nconn, sizeof(*x->bulk))) == NULL)
		return -1;
	return 0;
}

void
sx_bulk_free(struct sx *x)
{
	struct sx_bulk	*b;
	int		 c, i;

	if (x->bulk == NULL)
		return;
	for (c = 0; c < x->nconn; c++) {
		b = &x->bulk[c];
		for (i = 0; i < BULK_STMTS; i++)
			if (b->s[i].st != NULL)
				mysql_stmt_close(b->s[i].st);
		sx_bind_release(&b->a);
		free(b->vals);
		buf_release(&b->text);
	}
	free(x->bulk);
	x->bulk = NULL;
}
