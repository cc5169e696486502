/*
 * schema: the catalogue's tables by name (find_table), each table's
 * columns (information_schema.COLUMNS, with the system-versioning
 * columns), its key for ordering and chunking (STATISTICS), and the
 * SELECT list that reads its rows, with each column's metadata from a
 * LIMIT 0 query.
 */
#include <errno.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"
#include "sqltok.h"

/*
 * The catalogue queries list a database's tables in name order, as
 * s->tables holds them: the search starts after the last one found, so
 * that a walk over N tables costs N, not N x (tables of the server).
 * Discovery runs on the main thread only.
 */
struct table *
find_table(struct snap *s, const char *db, const char *name)
{
	static size_t	 next;
	size_t		 i, k;

	for (k = 0; k < s->ntables; k++) {
		i = (next + k) % s->ntables;
		if (strcmp(s->tables[i]->name, name) == 0 &&
		    strcmp(s->tables[i]->schema, db) == 0) {
			next = i + 1;
			return s->tables[i];
		}
	}
	return NULL;
}

struct table *
find_table_any(struct snap *s, const char *name)
{
	size_t	 i, n;
	struct table *t;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		n = strlen(t->schema);
		if (strcmp(t->name, name) == 0 ||
		    (strncmp(name, t->schema, n) == 0 && name[n] == '.' &&
		    strcmp(name + n + 1, t->name) == 0))
			return t;
	}
	return NULL;
}

static struct col *
add_col(struct table *t)
{
	t->cols = reallocarray(t->cols, t->ncols + 1, sizeof(*t->cols));
	if (t->cols == NULL)
		die(the_snap, "out of memory");
	memset(&t->cols[t->ncols], 0, sizeof(*t->cols));
	return &t->cols[t->ncols++];
}

static const char *const numeric_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", "decimal",
	"float", "double", "year", NULL
};

static const char *const binary_types[] = {
	"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob",
	"bit", "geometry", "point", "linestring", "polygon", "multipoint",
	"multilinestring", "multipolygon", "geometrycollection", NULL
};

static const char *const spatial_types[] = {
	"geometry", "point", "linestring", "polygon", "multipoint",
	"multilinestring", "multipolygon", "geometrycollection", NULL
};

int
table_is_spatial(const struct table *t)
{
	size_t	 i;

	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].data_type != NULL &&
		    in_list(t->cols[i].data_type, spatial_types))
			return 1;
	return 0;
}

/* Collation ids known from an earlier database's query (main thread). */
static struct {
	char		*name;
	unsigned	 id;
} *known_coll;
static size_t	 nknown_coll;

static unsigned
known_collation(const char *name)
{
	size_t	 i;

	for (i = 0; i < nknown_coll; i++)
		if (strcmp(known_coll[i].name, name) == 0)
			return known_coll[i].id;
	return 0;
}

/*
 * The collation ids of the columns of ts[0..n-1] still at 0, from one
 * query naming the collations they use that no earlier database's query
 * named (each reads the server's 500 collations: 0.4 ms); a name the
 * server does not list gets 63 (binary), as the join this replaces gave
 * it.
 */
static void
collation_ids(struct snap *s, const char *db, struct table **ts, size_t n)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	const char	**nm = NULL;
	size_t		 i, j, k, names = 0;
	unsigned	 id;

	buf_adds(&q, "SELECT COLLATION_NAME, ID FROM "
	    "information_schema.COLLATIONS WHERE COLLATION_NAME IN (");
	for (i = 0; i < n; i++)
		for (j = 0; j < ts[i]->ncols; j++) {
			struct col *c = &ts[i]->cols[j];

			if (c->charsetnr != 0 || c->collation == NULL)
				continue;
			if ((c->charsetnr = known_collation(c->collation)) != 0)
				continue;
			for (k = 0; k < names; k++)
				if (strcmp(nm[k], c->collation) == 0)
					break;
			if (k < names)
				continue;
			if ((nm = reallocarray(nm, names + 1,
			    sizeof(*nm))) == NULL)
				die(s, "out of memory");
			if (names > 0)
				buf_addc(&q, ',');
			nm[names++] = c->collation;
			lit(&q, c->collation);
		}
	buf_addc(&q, ')');
	if (names > 0) {
		r = query_cat(s, db, &q);
		while ((row = mysql_fetch_row(r)) != NULL) {
			if (row[0] == NULL || row[1] == NULL)
				continue;
			id = (unsigned)strtoul(row[1], NULL, 10);
			for (i = 0; i < n; i++)
				for (j = 0; j < ts[i]->ncols; j++)
					if (ts[i]->cols[j].charsetnr == 0 &&
					    strcmp(ts[i]->cols[j].collation,
					    row[0]) == 0)
						ts[i]->cols[j].charsetnr = id;
		}
		mysql_free_result(r);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < ts[i]->ncols; j++)
			if (ts[i]->cols[j].charsetnr == 0)
				ts[i]->cols[j].charsetnr = 63;
	if (names > 0 && (known_coll = reallocarray(known_coll,
	    nknown_coll + names, sizeof(*known_coll))) == NULL)
		die(s, "out of memory");
	for (k = 0; k < names; k++)
		for (i = 0, id = 0; i < n && id == 0; i++)
			for (j = 0; j < ts[i]->ncols && id == 0; j++)
				if (ts[i]->cols[j].collation != NULL &&
				    strcmp(ts[i]->cols[j].collation,
				    nm[k]) == 0) {
					id = ts[i]->cols[j].charsetnr;
					known_coll[nknown_coll].name =
					    xstrdup(nm[k]);
					known_coll[nknown_coll++].id = id;
				}
	free(nm);
	buf_release(&q);
}

void
discover_columns(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct table	*t = NULL, **seen = NULL;
	struct col	*c;
	size_t		 nseen = 0;

	/* No join with COLLATIONS: without indexes the server joined every
	 * column with every collation (65M instructions for 120 columns);
	 * collation_ids() asks for the few names used. */
	buf_adds(&q, "SELECT c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, "
	    "c.COLUMN_TYPE, c.IS_NULLABLE, c.CHARACTER_SET_NAME, "
	    "c.COLLATION_NAME, NULL, c.EXTRA, c.IS_GENERATED "
	    "FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = ");
	lit(&q, db);
	buf_adds(&q, " ORDER BY BINARY c.TABLE_NAME, c.ORDINAL_POSITION");
	r = query_cat(s, db, &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL || row[2] == NULL ||
		    row[3] == NULL)
			continue;
		if (t == NULL || strcmp(t->name, row[0]) != 0) {
			t = find_table(s, db, row[0]);
			if (t != NULL && !t->is_view && !t->is_sequence) {
				seen = reallocarray(seen, nseen + 1,
				    sizeof(*seen));
				if (seen == NULL)
					die(s, "out of memory");
				seen[nseen++] = t;
			}
		}
		if (t == NULL || t->is_view || t->is_sequence)
			continue;
		c = add_col(t);
		c->name = dup_col(r, row, 1);
		c->data_type = dup_col(r, row, 2);
		c->coltype = dup_col(r, row, 3);
		c->charset = dup_col(r, row, 5);
		c->collation = dup_col(r, row, 6);
		c->charsetnr = c->collation != NULL ? 0 : 63;	/* 0: to ask */
		if (row[4] && strcmp(row[4], "NO") == 0)
			c->flags |= COL_NOT_NULL;
		if (in_list(c->data_type, numeric_types))
			c->flags |= COL_NUMERIC;
		if (c->collation == NULL && in_list(c->data_type, binary_types))
			c->flags |= COL_BINARY;
		if (strstr(c->coltype, "unsigned") != NULL)
			c->flags |= COL_UNSIGNED;
		if (row[8] && strstr(row[8], "INVISIBLE") != NULL)
			c->flags |= COL_INVISIBLE;
		if (row[9] && strcmp(row[9], "ALWAYS") == 0)
			c->flags |= COL_GENERATED;
	}
	mysql_free_result(r);
	buf_release(&q);
	collation_ids(s, db, seen, nseen);
	free(seen);
}

ssize_t
col_index(const struct table *t, const char *name)
{
	size_t	 i;

	for (i = 0; i < t->ncols; i++)
		if (!t->cols[i].pseudo && strcasecmp(t->cols[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

/* Choose the primary key, or else the first NOT NULL unique key. */
static void
finish_key(struct table *t, const char *index, int unique, size_t *idx,
    size_t n, int usable)
{
	size_t	 i;

	if (!unique || n == 0)
		return;
	for (i = 0; i < n; i++)
		t->cols[idx[i]].flags |= strcmp(index, "PRIMARY") == 0 ?
		    COL_PRIMARY : COL_UNIQUE;
	if (!usable)
		return;
	if (t->nkey > 0 && strcmp(index, "PRIMARY") != 0)
		return;
	free(t->key);
	t->key = xcalloc(n, sizeof(*t->key));
	memcpy(t->key, idx, n * sizeof(*idx));
	t->nkey = n;
}

void
discover_keys(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct table	*t = NULL, *kt = NULL;
	char		*index = NULL;
	size_t		*idx = NULL, n = 0;
	ssize_t		 ci;
	int		 unique = 0, usable = 0;

	buf_adds(&q, "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME, "
	    "SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ");
	lit(&q, db);
	buf_adds(&q, " ORDER BY BINARY TABLE_NAME, INDEX_NAME <> 'PRIMARY', "
	    "BINARY INDEX_NAME, SEQ_IN_INDEX");
	r = query_cat(s, db, &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL || row[3] == NULL)
			continue;
		if (t == NULL || strcmp(t->name, row[0]) != 0)
			t = find_table(s, db, row[0]);
		if (kt != t || index == NULL || strcmp(index, row[1]) != 0) {
			if (kt != NULL)
				finish_key(kt, index, unique, idx, n, usable);
			free(index);
			index = xstrdup(row[1]);
			kt = t;
			n = 0;
			unique = row[2] != NULL && strcmp(row[2], "0") == 0;
			usable = 1;
		}
		if (t == NULL || t->is_view || t->is_sequence)
			continue;
		if ((ci = col_index(t, row[3])) == -1) {
			usable = 0;	/* e.g. a hidden ROW_END */
			continue;
		}
		if (row[4] != NULL || !(t->cols[ci].flags & COL_NOT_NULL))
			usable = 0;
		idx = reallocarray(idx, n + 1, sizeof(*idx));
		if (idx == NULL)
			die(s, "out of memory");
		idx[n++] = (size_t)ci;
	}
	if (kt != NULL)
		finish_key(kt, index, unique, idx, n, usable);
	mysql_free_result(r);
	free(index);
	free(idx);
	buf_release(&q);
}

/* The name a quoted identifier token stands for, in a new string. */
static char *
ident_dup(const struct sqltok *t)
{
	long	 n = sqltok_ident(t, NULL, 0);
	char	*p;

	p = xcalloc(1, (size_t)n + 1);
	sqltok_ident(t, p, (size_t)n + 1);
	return p;
}

/* Explicit PERIOD FOR SYSTEM_TIME (`start`, `end`) in the DDL. */
static int
period_cols(const char *ddl, size_t len, char **start, char **end)
{
	struct sqltok_lexer l;
	struct sqltok	 t, a, b;

	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END)
		if (sqltok_is(&t, "PERIOD") &&
		    sqltok_expect(&l, SQLTOK_WORD, "FOR", NULL) &&
		    sqltok_expect(&l, SQLTOK_WORD, "SYSTEM_TIME", NULL) &&
		    sqltok_expect(&l, SQLTOK_PUNCT, "(", NULL) &&
		    sqltok_expect(&l, SQLTOK_IDENT, NULL, &a) &&
		    sqltok_expect(&l, SQLTOK_PUNCT, ",", NULL) &&
		    sqltok_expect(&l, SQLTOK_IDENT, NULL, &b) &&
		    sqltok_expect(&l, SQLTOK_PUNCT, ")", NULL)) {
			*start = ident_dup(&a);
			*end = ident_dup(&b);
			return 1;
		}
	return 0;
}

void
versioning_cols(struct table *t)
{
	char	*start = NULL, *end = NULL;
	ssize_t	 i;
	struct col *c;

	if (period_cols(t->ddl, t->ddl_len, &start, &end)) {
		if ((i = col_index(t, start)) != -1)
			t->cols[i].flags = (t->cols[i].flags & ~COL_GENERATED) |
			    COL_ROW_START;
		if ((i = col_index(t, end)) != -1)
			t->cols[i].flags = (t->cols[i].flags & ~COL_GENERATED) |
			    COL_ROW_END;
		free(start);
		free(end);
		return;
	}
	/* Implicit ROW_START and ROW_END: hidden, selected by name. */
	c = add_col(t);
	c->name = xstrdup("ROW_START");
	c->pseudo = 1;
	c->flags = COL_ROW_START | COL_INVISIBLE | COL_NOT_NULL;
	c = add_col(t);
	c->name = xstrdup("ROW_END");
	c->pseudo = 1;
	c->flags = COL_ROW_END | COL_INVISIBLE | COL_NOT_NULL;
}

/* A --select expression, in its column's character set, named as it. */
static void
select_expr_item(struct buf *q, const struct col *c)
{
	if (c->charset != NULL) {
		buf_adds(q, "CONVERT((");
		buf_adds(q, c->expr);
		buf_addf(q, ") USING %s)", c->charset);
	} else {
		buf_addc(q, '(');
		buf_adds(q, c->expr);
		buf_addc(q, ')');
	}
	buf_adds(q, " AS ");
	quote_ident(q, c->name, strlen(c->name));
}

/* Every column as stored: the workers format FLOAT and the rest. */
static void
select_item(struct buf *q, const struct col *c, int cast)
{
	if (c->expr != NULL)
		select_expr_item(q, c);
	else if (c->pseudo)
		buf_adds(q, c->name);
	else
		quote_ident(q, c->name, strlen(c->name));
}

/* A table whose definition DDL changed since the snapshot began. */
static __dead void
changed(struct snap *s, const struct table *t, const char *why)
{
	die_changed(s, ctx2(t->schema, t->name), why);
}

/* The lock's statement failed: DDL on the table, or another error. */
static __dead void
lock_failed(struct snap *s, const struct table *t, MYSQL *m)
{
	char	 e[512];

	conn_strerror(m, e, sizeof(e));
	switch (mysql_errno(m)) {
	case ER_NO_SUCH_TABLE:
	case ER_LOCK_DEADLOCK:
		changed(s, t, e);
	case ER_LOCK_WAIT_TIMEOUT:
		die(s, "%s.%s: its metadata lock not given in %u s "
		    "(--lock-wait-timeout): DDL on the table (ALTER, RENAME, "
		    "DROP, TRUNCATE, ...) holds it, or waits for a session "
		    "that does; dump again when that DDL has run (%s)",
		    t->schema, t->name, s->o->lock_wait_timeout, e);
	}
	die(s, "%s.%s: %s", t->schema, t->name, e);
}

/*
 * Take the metadata lock of every base table of s->tables[lo..hi-1]
 * whose rows are read, before anything reads its columns or definition:
 * a SELECT * ... LIMIT 0 in conns[0]'s snapshot transaction, whose lock
 * is held to the end.  DDL that ran since the snapshot began (an ALTER,
 * a RENAME swap) is then in the catalogue read after it, and none runs
 * on the table until the dump ends: the definition dumped is the one its
 * rows are read through.  (DDL is not versioned: read before the lock,
 * the definition could be another table's, or the table's before an
 * ALTER.)  The statement's fields are kept for check_locked() and
 * build_select().
 */
void
lock_tables(struct snap *s, size_t lo, size_t hi)
{
	struct buf	 q = BUF_INIT;
	MYSQL		*m = s->conns[0];
	MYSQL_RES	*r;
	MYSQL_FIELD	*f;
	struct table	*t;
	size_t		 i, j, n;

	for (i = lo; i < hi; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence || t->rows_elsewhere)
			continue;
		buf_reset(&q);
		buf_adds(&q, "SELECT * FROM ");
		quote_ident2(&q, t->schema, t->name);
		buf_adds(&q, " LIMIT 0");
		must(&q);
		if (mysql_real_query(m, q.p, q.len) != 0 ||
		    (r = mysql_store_result(m)) == NULL)
			lock_failed(s, t, m);
		f = mysql_fetch_fields(r);
		n = mysql_num_fields(r);
		t->lk = xcalloc(n, sizeof(*t->lk));
		for (j = 0; j < n; j++) {
			t->lk[j].name = xstrndup(f[j].org_name,
			    f[j].org_name_length);
			t->lk[j].type = f[j].type;
			t->lk[j].decimals = f[j].decimals;
		}
		t->nlk = n;
		mysql_free_result(r);
	}
	buf_release(&q);
}

/*
 * The catalogue's visible columns are those of the table locked, in
 * order: they are, as the catalogue was read under the lock; a
 * difference means that the lock did not hold what was read.
 */
void
check_locked(struct snap *s, const struct table *t)
{
	char	 why[512];
	size_t	 i, k = 0;

	for (i = 0; i < t->ncols; i++) {
		if (t->cols[i].pseudo || (t->cols[i].flags & COL_INVISIBLE))
			continue;
		if (k == t->nlk || strcmp(t->cols[i].name, t->lk[k].name) != 0) {
			snprintf(why, sizeof(why), "column %zu is %s in its "
			    "definition, %s in the table locked", k + 1,
			    t->cols[i].name, k < t->nlk ? t->lk[k].name :
			    "none");
			changed(s, t, why);
		}
		k++;
	}
	if (k != t->nlk) {
		snprintf(why, sizeof(why), "%zu columns in its definition, %zu "
		    "in the table locked", k, t->nlk);
		changed(s, t, why);
	}
}

/* The SELECT list is the lock's SELECT *: its fields are the columns'. */
static int
reads_as_locked(const struct table *t)
{
	size_t	 i;

	if (t->ncols != t->nlk)
		return 0;
	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].pseudo || t->cols[i].expr != NULL ||
		    (t->cols[i].flags & COL_INVISIBLE) ||
		    strcmp(t->cols[i].name, t->lk[i].name) != 0)
			return 0;
	return 1;
}

/*
 * Each column's type and decimals: the lock's fields, or else (other
 * columns read: --columns, --select, invisible, ROW_START) those of a
 * LIMIT 0 of the SELECT list, whose fields must be its columns.
 */
static void
select_fields(struct snap *s, struct table *t, const struct buf *q)
{
	struct buf	 lq = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_FIELD	*f;
	size_t		 i, n;
	char		 why[512];

	if (reads_as_locked(t)) {
		for (i = 0; i < t->ncols; i++) {
			t->cols[i].type = t->lk[i].type;
			t->cols[i].decimals = t->lk[i].decimals;
		}
		return;
	}
	buf_add(&lq, q->p, q->len);
	buf_adds(&lq, " LIMIT 0");
	r = query_buf(s, ctx2(t->schema, t->name), &lq);
	buf_release(&lq);
	f = mysql_fetch_fields(r);
	if ((n = mysql_num_fields(r)) != t->ncols) {
		snprintf(why, sizeof(why), "%zu columns read, %zu in its "
		    "definition", n, t->ncols);
		changed(s, t, why);
	}
	for (i = 0; i < t->ncols; i++) {
		if (!t->cols[i].pseudo && t->cols[i].expr == NULL &&
		    strcmp(f[i].org_name, t->cols[i].name) != 0) {
			snprintf(why, sizeof(why), "column %zu is %s in its "
			    "definition, %s read", i + 1, t->cols[i].name,
			    f[i].org_name);
			changed(s, t, why);
		}
		t->cols[i].type = f[i].type;
		t->cols[i].decimals = f[i].decimals;
		if (t->cols[i].pseudo) {
			t->cols[i].charsetnr = 63;
			t->cols[i].data_type = xstrdup("timestamp");
			t->cols[i].coltype = xstrdup("timestamp(6)");
		}
	}
	mysql_free_result(r);
}

/* SELECT list, and the metadata of each column (select_fields()). */
void
build_select(struct snap *s, struct table *t)
{
	struct buf	 q = BUF_INIT;
	size_t		 i;

	buf_adds(&q, "SELECT ");
	for (i = 0; i < t->ncols; i++) {
		if (i > 0)
			buf_adds(&q, ", ");
		select_item(&q, &t->cols[i], 0);
	}
	buf_adds(&q, " FROM ");
	quote_ident2(&q, t->schema, t->name);
	if (t->versioned)
		buf_adds(&q, " FOR SYSTEM_TIME ALL");
	must(&q);
	select_fields(s, t, &q);
	t->select = buf_detach(&q, NULL);
	buf_reset(&q);
	for (i = 0; i < t->nkey; i++) {
		buf_adds(&q, i == 0 ? " ORDER BY " : ", ");
		select_item(&q, &t->cols[t->key[i]], 0);
	}
	must(&q);
	t->order = xstrndup(q.p != NULL ? q.p : "", q.len);
	buf_release(&q);
}
