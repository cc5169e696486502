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

#include "load.h"

/* Is p (len bytes, leading blanks skipped) a definition to defer? */
static int
deferrable(const char *p, size_t len)
{
	static const char *const kw[] = { "KEY ", "FULLTEXT KEY ",
	    "SPATIAL KEY " };
	size_t	 i, n;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		n = strlen(kw[i]);
		if (len > n && memcmp(p, kw[i], n) == 0)
			return 1;
	}
	return 0;
}

/* Is the definition a foreign key?  (A false yes only keeps indexes.) */
static int
foreign(const char *p, size_t len)
{
	return len > 11 && memcmp(p, "CONSTRAINT ", 11) == 0 &&
	    memmem(p, len, " FOREIGN KEY (", 14) != NULL;
}

/* The closing quote of the quoted text at p, or e. */
static const char *
quoted_end(const char *p, const char *e)
{
	char	 q = *p;

	for (p++; p < e; p++) {
		if (*p == '\\' && q == '\'' && p + 1 < e)
			p++;
		else if (*p == q)
			return p;
	}
	return e;
}

/* The ',' or ')' that ends the definition at d, or e. */
static const char *
def_end(const char *d, const char *e)
{
	int	 depth = 0;

	for (; d < e; d++) {
		if (*d == '`' || *d == '\'' || *d == '"')
			d = quoted_end(d, e);
		else if (*d == '(')
			depth++;
		else if (*d == ')' && depth-- == 0)
			return d;
		else if (*d == ',' && depth == 0)
			return d;
	}
	return e;
}

int
sx_defer_split(const char *ddl, size_t len, struct buf *create,
    struct buf *adds)
{
	const char	*e = ddl + len, *p, *d, *s, *t, *cut = ddl;
	int		 n = 0;

	buf_reset(create);
	buf_reset(adds);
	/* the definitions start after the first '(' outside identifiers */
	for (p = ddl; p < e && *p != '('; p++)
		if (*p == '`' || *p == '"')
			p = quoted_end(p, e);
	if (p >= e)
		return 0;
	for (; *p != ')'; p = s) {
		for (d = p + 1; d < e && (*d == '\n' || *d == ' '); d++)
			;
		if ((s = def_end(d, e)) >= e || foreign(d, (size_t)(s - d)))
			return 0;
		if (!deferrable(d, (size_t)(s - d)))
			continue;
		if (*p != ',')
			return 0;	/* a key before the columns: not SHOW's */
		/* drop ",\n  KEY ..." from the CREATE, add "KEY ..." */
		buf_add(create, cut, (size_t)(p - cut));
		cut = s;
		for (t = s; t > d && (t[-1] == '\n' || t[-1] == ' '); t--)
			;
		buf_adds(adds, n++ ? ", ADD " : "ADD ");
		buf_add(adds, d, (size_t)(t - d));
	}
	/* InnoDB's sorted index build is what was measured; not others. */
	if (n == 0 || memmem(p, (size_t)(e - p), ") ENGINE=InnoDB", 15) == NULL)
		return 0;
	buf_add(create, cut, (size_t)(e - cut));
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
		if (rc != 0)
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
