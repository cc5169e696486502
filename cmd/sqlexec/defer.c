/*
 * defer: --defer-indexes for snapshot streams.  A table is created with
 * its primary and unique keys only; its other secondary indexes (KEY,
 * FULLTEXT KEY, SPATIAL KEY) are added once its rows are in, with one
 * ALTER TABLE per table, the tables' ALTERs in parallel over the
 * connections, as myloader and MySQL Shell's loadDump do: InnoDB then
 * builds each index by sorting, instead of inserting into it row by row.
 *
 * The text is SHOW CREATE TABLE's (rowpipe(5) OBJECT frames): one
 * definition a line inside the parentheses, keys after the columns, in
 * the order the server sorts them (primary, unique, then the others), so
 * that adding the others back in their order gives the same SHOW CREATE
 * TABLE.  Unique keys stay in the CREATE so that a duplicate is an error
 * while it loads, not after; a table with a FOREIGN KEY keeps all its
 * indexes (a foreign key needs one, and InnoDB would make its own), and
 * so does a table of another engine than InnoDB (not measured).
 *
 * Measured here (server CPU, -j 2, 200000 rows of the bench table, binary
 * log on): with KEY (v), KEY (dt), KEY (ch): 1.45-1.53 s inline, 1.02-
 * 1.05 s deferred (-j 1: 1.39 s, 1.02-1.05 s); with FULLTEXT (v, t):
 * 3.75-3.80 s inline, 1.76-2.02 s deferred.  Hence the default.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddl.h"
#include "load.h"

/*
 * Below this many rows (the stream's estimate, dbsnap's
 * information_schema TABLE_ROWS) a table keeps its indexes: the ALTER
 * costs more than the sorted build saves.  Measured here (server CPU,
 * -j 2, the bench table with KEY (v), KEY (dt), KEY (ch), binary log
 * on): 200 tables of 100 rows 1.76-1.89 s deferred, 1.37-1.51 s inline
 * (about 2 ms an ALTER); 40 tables of 1,000 rows 0.73-0.78 s and
 * 0.77-0.79 s; 8 tables of 10,000 rows 0.74-0.91 s and 1.19-1.52 s.
 */
#define DEFER_MIN_ROWS	1000

int
sx_defer_pays(const struct rp_object *ob)
{
	const char	*v = rp_kv_get(&ob->attrs, "rows_estimate");
	char		*end;
	unsigned long long n;

	if (v == NULL)
		return 1;	/* a stream without estimates: as before */
	errno = 0;
	n = strtoull(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0)
		return 1;
	return n >= DEFER_MIN_ROWS;
}

/*
 * The text is cut into its elements by lib/ddl (the tokenizer of
 * rowmap and dbsnap --columns, quotes and comments included), and
 * written back by it without the deferred ones: SHOW CREATE TABLE's own
 * layout, so the CREATE is the server's text less those lines.
 */
int
sx_defer_split(const char *ddl, size_t len, struct buf *create,
    struct buf *adds)
{
	struct ddl_table t;
	size_t		 i;
	int		 n = 0, cols = 0, keep = 0;

	buf_reset(create);
	buf_reset(adds);
	errno = 0;
	if (ddl_parse(ddl, len, &t) == -1)
		return errno == ENOMEM ? -1 : 0;
	for (i = 0; i < t.nel && !keep; i++) {
		switch (t.el[i].kind) {
		case EL_COLUMN:
			cols++;
			break;
		case EL_FOREIGN:
			keep = 1;	/* it needs its indexes */
			break;
		case EL_KEY:
			if (cols == 0) {
				keep = 1;	/* a key first: not SHOW's */
				break;
			}
			t.el[i].dropped = 1;
			buf_adds(adds, n++ ? ", ADD " : "ADD ");
			buf_add(adds, t.el[i].p, t.el[i].len);
			break;
		}
	}
	/* InnoDB's sorted index build is what was measured; not others. */
	if (keep || n == 0 || memmem(t.tail, t.tail_len, ") ENGINE=InnoDB",
	    15) == NULL) {
		ddl_free(&t);
		return 0;
	}
	ddl_write(&t, create);
	ddl_free(&t);
	return create->err || adds->err ? -1 : 1;
}

/* The ALTERs, taken by one thread per connection. */
struct defer_run {
	struct sx	*x;
	struct sx_deferred *d;
	size_t		 n, next;
	pthread_mutex_t	 mu;
};

struct defer_arg {
	struct defer_run *r;
	int		 c;
};

static void *
defer_worker(void *arg)
{
	struct defer_run *r = ((struct defer_arg *)arg)->r;
	struct sx	*x = r->x;
	int		 c = ((struct defer_arg *)arg)->c;
	MYSQL		*m = x->conn[c];
	struct sx_deferred *d;
	MYSQL_RES	*res;
	int		 rc;

	for (;;) {
		pthread_mutex_lock(&r->mu);
		d = r->next < r->n && !x->stop ? &r->d[r->next++] : NULL;
		pthread_mutex_unlock(&r->mu);
		if (d == NULL || sx_conn_begin(x, c) == -1)
			return NULL;
		if ((rc = mysql_real_query(m, d->sql, d->len)) == 0 &&
		    (res = mysql_store_result(m)) != NULL)
			mysql_free_result(res);
		sx_conn_end(x, c);
		if (rc == 0)
			d->done = 1;
		else
			sx_set_error(x, d->frame, "frame %" PRIu64 ": table "
			    "%s: the deferred indexes: ERROR %u (%s): %s",
			    d->frame, d->table, mysql_errno(m),
			    mysql_sqlstate(m), mysql_error(m));
	}
}

int
sx_defer_run(struct sx *x, struct sx_deferred *d, size_t n)
{
	struct defer_run r;
	struct defer_arg *a;
	pthread_t	*th;
	int		 i, k, nt;

	memset(&r, 0, sizeof(r));
	r.x = x;
	r.d = d;
	r.n = n;
	pthread_mutex_init(&r.mu, NULL);
	nt = (size_t)x->nconn < n ? x->nconn : (int)n;
	th = calloc(nt, sizeof(*th));
	a = calloc(nt, sizeof(*a));
	for (i = k = 0; th != NULL && a != NULL && i < nt; i++) {
		a[i].r = &r;
		a[i].c = i;
		if (pthread_create(&th[i], NULL, defer_worker, &a[i]) != 0)
			break;
		k++;
	}
	if (k == 0)
		defer_worker(&(struct defer_arg){ &r, 0 });
	for (i = 0; i < k; i++)
		pthread_join(th[i], NULL);
	free(th);
	free(a);
	pthread_mutex_destroy(&r.mu);
	return x->err.msg == NULL && !x->interrupted ? 0 : -1;
}
