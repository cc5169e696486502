/*
 * chunks: how each table's rows are cut for the workers: --where, then
 * integer key ranges from MIN/MAX, keyset pagination on other keys, or
 * one query for the whole table.
 */
#include <errno.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "dbsnap.h"
#include "quote.h"

static const char *const integer_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", NULL
};

/* Types whose values compare in a WHERE as they sort in an ORDER BY. */
static const char *const keyset_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", "decimal",
	"char", "varchar", "binary", "varbinary", "date", "datetime",
	"timestamp", "time", NULL
};

/* --where COND for every table, or TABLE:COND / DB.TABLE:COND for one. */
static void
resolve_where(struct snap *s, struct table *t)
{
	struct buf	 b = BUF_INIT;
	struct where_opt *w;
	const char	*cond;
	size_t		 i, n;
	int		 mine;

	for (i = 0; i < s->o->nwheres; i++) {
		w = &s->o->wheres[i];
		cond = w->cond;
		mine = 1;
		if (w->table != NULL) {
			n = strlen(t->schema);
			mine = strcmp(w->table, t->name) == 0 ||
			    (strncmp(w->table, t->schema, n) == 0 &&
			    w->table[n] == '.' &&
			    strcmp(w->table + n + 1, t->name) == 0);
			if (!mine && find_table_any(s, w->table) == NULL) {
				/* Not a table: the colon is the condition's. */
				cond = w->table;
				mine = 1;
			}
		}
		if (!mine)
			continue;
		buf_adds(&b, b.len ? " AND (" : "(");
		buf_adds(&b, cond);
		if (cond == w->table) {
			buf_addc(&b, ':');
			buf_adds(&b, w->cond);
		}
		buf_addc(&b, ')');
	}
	must(&b);
	t->where = b.len > 0 ? buf_detach(&b, NULL) : NULL;
	buf_release(&b);
}

static int
parse_int(const struct col *c, const char *v, __int128 *out)
{
	char	*end;

	errno = 0;
	if (c->flags & COL_UNSIGNED)
		*out = (__int128)strtoull(v, &end, 10);
	else
		*out = (__int128)strtoll(v, &end, 10);
	return errno == 0 && end != v && *end == '\0' ? 0 : -1;
}

void
add_int128(struct buf *b, __int128 v)
{
	if (v < 0)
		buf_addf(b, "%lld", (long long)v);
	else
		buf_addf(b, "%llu", (unsigned long long)v);
}

/*
 * One condition "k >= lo", "k < hi", or between the two "k BETWEEN lo
 * AND hi - 1" (integers: the same rows; the server evaluates the
 * condition again on every row of the range, and one BETWEEN costs it
 * about 80 instructions a row less than two compares under an AND).
 */
char *
range_cond(const struct col *c, int has_lo, __int128 lo, int has_hi,
    __int128 hi)
{
	struct buf	 b = BUF_INIT;

	if (has_lo && has_hi) {
		quote_ident(&b, c->name, strlen(c->name));
		buf_adds(&b, " BETWEEN ");
		add_int128(&b, lo);
		buf_adds(&b, " AND ");
		add_int128(&b, hi - 1);
		must(&b);
		return buf_detach(&b, NULL);
	}
	if (has_lo) {
		quote_ident(&b, c->name, strlen(c->name));
		buf_adds(&b, " >= ");
		add_int128(&b, lo);
	}
	if (has_hi) {
		if (has_lo)
			buf_adds(&b, " AND ");
		quote_ident(&b, c->name, strlen(c->name));
		buf_adds(&b, " < ");
		add_int128(&b, hi);
	}
	must(&b);
	return buf_detach(&b, NULL);
}

int
key_is_integer(const struct table *t)
{
	return t->nkey > 0 &&
	    in_list(t->cols[t->key[0]].data_type, integer_types);
}

/*
 * MIN and MAX of the first key column (cheap on an index), into *lo and
 * *hi; 0, or -1 when the table is empty or holds one value.
 */
int
key_bounds(struct snap *s, struct table *t, __int128 *lo, __int128 *hi)
{
	const struct col *c = &t->cols[t->key[0]];
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	int		 ok;

	buf_adds(&q, "SELECT MIN(");
	quote_ident(&q, c->name, strlen(c->name));
	buf_adds(&q, "), MAX(");
	quote_ident(&q, c->name, strlen(c->name));
	buf_adds(&q, ") FROM ");
	quote_ident2(&q, t->schema, t->name);
	if (t->versioned)
		buf_adds(&q, " FOR SYSTEM_TIME ALL");
	r = query_buf(s, ctx2(t->schema, t->name), &q);
	buf_release(&q);
	row = mysql_fetch_row(r);
	ok = row != NULL && row[0] != NULL && row[1] != NULL &&
	    parse_int(c, row[0], lo) == 0 && parse_int(c, row[1], hi) == 0;
	mysql_free_result(r);
	return ok && *hi > *lo ? 0 : -1;
}

/*
 * Integer first key column: ranges of about chunk_rows estimated rows
 * each between MIN and MAX.  The first and last ranges are open so that
 * no row outside [MIN, MAX] can be missed.
 */
static void
plan_range(struct snap *s, struct table *t, size_t want)
{
	const struct col *c = &t->cols[t->key[0]];
	__int128	 lo, hi, span, step;
	size_t		 i, n = want;

	if (key_bounds(s, t, &lo, &hi) == -1)
		return;		/* empty or one value: whole */
	span = hi - lo + 1;
	if ((__int128)n > span)
		n = (size_t)span;
	if (n < 2)
		return;
	step = span / (__int128)n;
	t->mode = TM_RANGE;
	t->nchunks = n;
	t->chunks = xcalloc(n, sizeof(*t->chunks));
	for (i = 0; i < n; i++)
		t->chunks[i].cond = range_cond(c, i > 0, lo + step * (__int128)i,
		    i + 1 < n, lo + step * (__int128)(i + 1));
}

static int
keyset_ok(const struct table *t)
{
	size_t	 i;

	if (t->nkey == 0)
		return 0;
	for (i = 0; i < t->nkey; i++)
		if (!in_list(t->cols[t->key[i]].data_type, keyset_types))
			return 0;
	return 1;
}

/* How one table's rows are read: --where, ranges, keyset or whole. */
void
chunk_table(struct snap *s, struct table *t)
{
	size_t		 want, ranges;
	unsigned long long cr = s->o->chunk_rows;

	resolve_where(s, t);
	t->mode = TM_WHOLE;
	want = t->rows_est / cr + (t->rows_est % cr != 0);
	if (want > 100000)
		want = 100000;
	ranges = want;
	if (s->o->jobs > 1 && ranges < t->bytes_est / CHUNK_BYTES_MAX + 1)
		ranges = t->bytes_est / CHUNK_BYTES_MAX + 1;
	if (ranges > 100000)
		ranges = 100000;
	if (ranges >= 2 && key_is_integer(t))
		plan_range(s, t, ranges);
	if (t->mode == TM_WHOLE && want >= 2 && keyset_ok(t) && !t->versioned)
		t->mode = TM_KEYSET;
	if (t->nchunks == 0) {
		t->nchunks = 1;
		t->chunks = xcalloc(1, sizeof(*t->chunks));
	}
}
