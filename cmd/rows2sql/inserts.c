/*
 * inserts: the stream's tables and rows as INSERT statements: extended
 * INSERTs up to --max-statement-size, and a row too large for the
 * target's max_allowed_packet in pieces through user variables.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "state.h"

/* Values longer than this move into user variables in an oversize row. */
#define PIECE_MIN	256

void
tbl_release(struct stbl *s)
{
	struct tbl	*tb = (struct tbl *)s;

	free(tb->cols);
	free(tb->vals);
	buf_release(&tb->prefix);
	buf_release(&tb->suffix);
}

int
do_table(struct r2s *st, const struct frame *f)
{
	const struct rp_table *t;
	struct tbl	*tb;
	struct buf	*p;
	size_t		 i, n = 0, nupd = 0;

	if ((tb = stbls_add(&st->tbls, f, sizeof(*tb))) == NULL)
		return fail(st, "%s", st->tbls.why);
	t = tb->s.t;
	if (t->ncols == 0)
		return fail(st, "table frame with no columns");
	if ((tb->cols = calloc(t->ncols, sizeof(*tb->cols))) == NULL ||
	    (tb->vals = calloc(t->ncols, sizeof(*tb->vals))) == NULL)
		return fail(st, "%s", strerror(ENOMEM));
	tb->keep = names_keep(&st->o->names, t->schema, t->name) && !st->o->no_data;
	if (tb->keep) {
		const char *est = rp_kv_get(&t->attrs, "rows_estimate");

		st->tot_tables++;
		if (est != NULL)
			st->tot_rows += strtoull(est, NULL, 10);
		progress_total(st->prog, st->tot_tables, st->tot_rows, 0);
	}
	tb->db = (char *)names_table_db(&st->o->names, t->schema, t->name);
	tb->name = (char *)names_table(&st->o->names, t->schema, t->name);

	p = &tb->prefix;
	switch (st->o->insert) {
	case INS_IGNORE:	buf_adds(p, "INSERT IGNORE INTO "); break;
	case INS_REPLACE:	buf_adds(p, "REPLACE INTO "); break;
	default:		buf_adds(p, "INSERT INTO "); break;
	}
	quote_ident(p, tb->name, strlen(tb->name));
	buf_adds(p, " (");
	tb->row_fixed = 2;
	for (i = 0; i < t->ncols; i++) {
		struct rp_column *c = &t->cols[i];

		if (c->flags & (COL_ROW_START | COL_ROW_END))
			tb->versioned = 1;
		if ((c->flags & COL_GENERATED) &&
		    !(c->flags & (COL_ROW_START | COL_ROW_END)))
			continue;
		tb->cols[i].emit = 1;
		sqlval_col_setup(&tb->cols[i], c, st->o->hex_blob);
		tb->row_fixed += 1 + SQLVAL_MAX(0, tb->cols[i].intro_len);
		if (n++ > 0)
			buf_addc(p, ',');
		quote_ident(p, c->name, strlen(c->name));
		if (st->o->insert == INS_UPSERT &&
		    !(c->flags & (COL_PRIMARY | COL_ROW_START | COL_ROW_END))) {
			buf_adds(&tb->suffix, nupd++ ? "," :
			    " ON DUPLICATE KEY UPDATE ");
			quote_ident(&tb->suffix, c->name, strlen(c->name));
			buf_adds(&tb->suffix, "=VALUES(");
			quote_ident(&tb->suffix, c->name, strlen(c->name));
			buf_addc(&tb->suffix, ')');
		}
	}
	buf_adds(p, ") VALUES ");
	/* An allocated (possibly empty) suffix: memcpy never sees NULL. */
	if (buf_grow(&tb->suffix, 1) == 0)
		tb->suffix.p[tb->suffix.len] = '\0';
	if (n == 0) {
		/* Only generated columns: rows are implied; write none. */
		tb->keep = 0;
	}
	if (p->err || tb->suffix.err)
		return fail(st, "%s", strerror(ENOMEM));
	return 0;
}

/* Lower bound of a row's tuple text: every value takes its length. */
static size_t
row_min(const struct tbl *tb)
{
	size_t	 i, n = 2;

	for (i = 0; i < tb->s.t->ncols; i++)
		if (tb->cols[i].emit)
			n += 1 + tb->vals[i].len;
	return n;
}

/*
 * Upper bound of a row's tuple text: 2 + the sum of 1 + SQLVAL_MAX() over
 * its emitted values, which grows by 2 a byte of value, and the values
 * are no more bytes than the row's in its frame.  One sum a row, not one
 * a column.
 */
static size_t
row_bound(const struct tbl *tb)
{
	return tb->row_fixed + 2 * tb->row_bytes;
}

/*
 * A row whose INSERT would not fit the target's max_allowed_packet: its
 * large values go into user variables in pieces (SET @v=0x...; SET
 * @v=CONCAT(@v,0x...); binary values each piece as _binary'...' where
 * that is shorter), then a single-row INSERT names the variables.
 * Works without a key; the server's max_allowed_packet still bounds one
 * value (CONCAT yields NULL beyond it).
 */
static int
row_pieces(struct r2s *st, struct tbl *tb)
{
	size_t	 i, off, n, chunk = (st->limit - 256) / 2, nvar = 0, start;
	char	*o;
	int	 first = 1;
	char	 var[32];

	for (i = 0; i < tb->s.t->ncols; i++) {
		const struct rp_val *v = &tb->vals[i];

		if (!tb->cols[i].emit || v->p == NULL ||
		    tb->cols[i].kind == VK_NUM || v->len <= PIECE_MIN)
			continue;
		snprintf(var, sizeof(var), "@rp_v%zu", i);
		for (off = 0; off < v->len; off += n) {
			if (off == 0)
				buf_addf(&st->out, "SET %s=", var);
			else
				buf_addf(&st->out, "SET %s=IFNULL(CONCAT(%s,",
				    var, var);
			if (buf_grow(&st->out, 2 * chunk + 8) == -1)
				return fail(st, "%s", strerror(ENOMEM));
			o = st->out.p + st->out.len;
			if (tb->cols[i].kind == VK_BIN)
				/* each piece the shorter form, filling room */
				o = sqlval_bin_put(o, 2 * chunk, v->p + off,
				    v->len - off, &n);
			else {
				n = v->len - off < chunk ? v->len - off : chunk;
				memcpy(o, "0x", 2);
				o = sqlval_hex_put(o + 2, v->p + off, n);
			}
			st->out.len = (size_t)(o - st->out.p);
			/*
			 * CONCAT yields NULL (a mere warning) past the
			 * server's max_allowed_packet: make that an error
			 * (1242, "Subquery returns more than 1 row") rather
			 * than a silent NULL.
			 */
			if (off > 0)
				buf_adds(&st->out,
				    "),(SELECT 1 UNION SELECT 2))");
			if (stmt_end(st, ";") == -1)
				return -1;
		}
		nvar++;
	}
	start = st->out.len;
	buf_add(&st->out, tb->prefix.p, tb->prefix.len);
	buf_addc(&st->out, '(');
	for (i = 0; i < tb->s.t->ncols; i++) {
		const struct sqlval_col *k = &tb->cols[i];
		const struct rp_val *v = &tb->vals[i];

		if (!k->emit)
			continue;
		if (!first)
			buf_addc(&st->out, ',');
		first = 0;
		if (v->p != NULL && k->kind != VK_NUM && v->len > PIECE_MIN) {
			buf_addf(&st->out, "@rp_v%zu", i);
			continue;
		}
		if (buf_grow(&st->out, SQLVAL_MAX(v->len, k->intro_len)) == -1)
			return fail(st, "%s", strerror(ENOMEM));
		o = sqlval_put(st->out.p + st->out.len, k->kind, k->intro,
		    k->intro_len, v->p, v->len);
		st->out.len = (size_t)(o - st->out.p);
	}
	buf_addc(&st->out, ')');
	buf_add(&st->out, tb->suffix.p, tb->suffix.len);
	if (st->out.err)
		return fail(st, "%s", strerror(ENOMEM));
	if (st->out.len - start + 1 > st->limit)
		return fail(st, "%s.%s: row %" PRIu64 " does not fit "
		    "max_allowed_packet %zu even in pieces", tb->s.t->schema,
		    tb->s.t->name, tb->s.rows, st->o->max_packet);
	if (stmt_end(st, ";") == -1)
		return -1;
	if (nvar == 0)
		return 0;
	buf_adds(&st->out, "SET ");
	first = 1;
	for (i = 0; i < tb->s.t->ncols; i++) {
		const struct rp_val *v = &tb->vals[i];

		if (!tb->cols[i].emit || v->p == NULL ||
		    tb->cols[i].kind == VK_NUM || v->len <= PIECE_MIN)
			continue;
		buf_addf(&st->out, "%s@rp_v%zu=NULL", first ? "" : ",", i);
		first = 0;
	}
	return stmt_end(st, ";");
}

static int
start_insert(struct r2s *st, struct tbl *tb)
{
	if (close_insert(st) == -1 || use_db(st, tb->db) == -1)
		return -1;
	if (tb->versioned && !st->insert_history) {
		if (stmt(st, "/*!101100 SET @@system_versioning_insert_history"
		    "=1 */") == -1)
			return -1;
		st->insert_history = 1;
	}
	return 0;
}

/* Append the current row of tb (in tb->vals) to the open INSERT. */
static int
add_row(struct r2s *st, struct tbl *tb)
{
	struct buf	*b = &st->out;
	size_t		 need, t0, tl, cut, extra;
	char		*o;

	need = row_bound(tb) + tb->prefix.len + tb->suffix.len + 8;
	if (st->open != tb && start_insert(st, tb) == -1)
		return -1;
	if (need > st->limit && row_min(tb) + tb->prefix.len > st->limit) {
		/* Surely oversize: no need to encode it whole first. */
		if (close_insert(st) == -1)
			return -1;
		return row_pieces(st, tb);
	}
	if (buf_grow(b, need) == -1)
		return fail(st, "%s", strerror(ENOMEM));
	if (st->open == NULL) {
		st->stmt_start = b->len;
		buf_put(b, tb->prefix.p, tb->prefix.len);
	} else
		b->p[b->len++] = ',';
	t0 = b->len;
	o = sqlval_row_put(b->p + t0, tb->cols, tb->vals, tb->s.t->ncols,
	    (const char *)st->f->p + st->f->len);
	b->len = (size_t)(o - b->p);
	b->p[b->len] = '\0';
	tl = b->len - t0;

	if (tb->prefix.len + tl + tb->suffix.len + 1 > st->limit) {
		/* Oversize even alone: take it out and write it in pieces. */
		b->len = st->open == tb ? t0 - 1 : st->stmt_start;
		if (close_insert(st) == -1)
			return -1;
		return row_pieces(st, tb);
	}
	if (st->open == tb && b->len - st->stmt_start + tb->suffix.len + 1 >
	    st->max_stmt) {
		/* Close the statement before this row, start another. */
		extra = tb->suffix.len + 2 + tb->prefix.len;
		if (buf_grow(b, extra) == -1)
			return fail(st, "%s", strerror(ENOMEM));
		cut = t0 - 1;
		memmove(b->p + cut + extra, b->p + t0, tl);
		memcpy(b->p + cut, tb->suffix.p, tb->suffix.len);
		memcpy(b->p + cut + tb->suffix.len, ";\n", 2);
		memcpy(b->p + cut + tb->suffix.len + 2, tb->prefix.p,
		    tb->prefix.len);
		b->len = cut + extra + tl;
		b->p[b->len] = '\0';
		st->stmts++;
		st->stmt_start = cut + tb->suffix.len + 2;
		st->committed = st->stmt_start;
		if (st->committed >= OUT_FLUSH_AT) {
			st->open = tb;
			if (out_flush_committed(st) == -1)
				return -1;
		}
	}
	st->open = tb;
	if (b->len - st->stmt_start + tb->suffix.len + 1 >= st->max_stmt)
		return close_insert(st);
	return 0;
}

int
do_rows(struct r2s *st, const struct frame *f)
{
	struct rp_rows	 r;
	struct tbl	*tb;
	const uint8_t	*at;
	int		 k;

	if ((tb = stbls_rows(&st->tbls, f, &r)) == NULL)
		return fail(st, "%s", st->tbls.why);
	if (!tb->keep) {
		tb->s.rows += r.nrows;
		return 0;
	}
	progress_add(st->prog, 0, r.nrows, 0);
	at = r.d.p;
	while ((k = dec_rows_next(&r, tb->vals, tb->s.t->ncols)) == 1) {
		tb->row_bytes = (size_t)(r.d.p - at);
		at = r.d.p;
		tb->s.rows++;
		if (add_row(st, tb) == -1)
			return -1;
	}
	if (k == -1)
		return fail(st, "%s.%s: corrupt row %" PRIu64, tb->s.t->schema,
		    tb->s.t->name, tb->s.rows + 1);
	/* Keep big outputs moving even inside one long INSERT run. */
	if (st->open == NULL && st->out.len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

int
do_table_end(struct r2s *st, const struct frame *f)
{
	struct tbl	*tb;

	if ((tb = stbls_end(&st->tbls, f)) == NULL)
		return fail(st, "%s", st->tbls.why);
	if (tb->keep)
		progress_add(st->prog, 1, 0, 0);
	if (st->open == tb)
		return close_insert(st);
	return 0;
}
