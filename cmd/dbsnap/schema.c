/*
 * schema: which databases, tables and objects to dump, their columns,
 * keys and DDL, and how each table's rows are cut into chunks.
 *
 * Everything is read from information_schema and SHOW CREATE ... on
 * conns[0], inside its snapshot transaction (DDL itself is not versioned;
 * a concurrent ALTER is out of scope, as for every logical dump).
 */
#include <ctype.h>
#include <errno.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "dbsnap.h"
#include "quote.h"

static const char *const system_dbs[] = {
	"mysql", "information_schema", "performance_schema", "sys"
};

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		fail(the_snap, "out of memory");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	p = xcalloc(1, n + 1);
	if (n > 0)
		memcpy(p, s, n);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void
attrs_add(struct attrs *a, const char *key, const char *val)
{
	if (a->n == RP_KV_MAX || val == NULL)
		return;
	a->key[a->n] = xstrdup(key);
	a->val[a->n] = xstrdup(val);
	a->n++;
}

void
attrs_free(struct attrs *a)
{
	size_t	 i;

	for (i = 0; i < a->n; i++) {
		free(a->key[i]);
		free(a->val[i]);
	}
	a->n = 0;
}

void
obj_push(struct objlist *l, const struct object *o)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		if ((l->v = reallocarray(l->v, l->cap, sizeof(*l->v))) == NULL)
			fail(the_snap, "out of memory");
	}
	l->v[l->n++] = *o;
}

static void
must(struct buf *b)
{
	if (b->err)
		fail(the_snap, "out of memory");
}

/* 'bytes' as a string literal (session charset binary, sql_mode ''). */
static void
lit(struct buf *b, const char *s)
{
	quote_string(b, s, strlen(s));
}

static MYSQL_RES *
query_buf(struct snap *s, const char *what, struct buf *q)
{
	must(q);
	return sql_query(s->conns[0], what, q->p, q->len);
}

/* A column of a result row by its name, NULL if absent or SQL NULL. */
static char *
row_col(MYSQL_RES *r, MYSQL_ROW row, const char *name, size_t *lenp)
{
	MYSQL_FIELD	*f = mysql_fetch_fields(r);
	unsigned long	*len = mysql_fetch_lengths(r);
	unsigned	 i, n = mysql_num_fields(r);

	for (i = 0; i < n; i++)
		if (strcasecmp(f[i].name, name) == 0 && row[i] != NULL) {
			if (lenp != NULL)
				*lenp = len[i];
			return row[i];
		}
	return NULL;
}

static char *
dup_col(MYSQL_RES *r, MYSQL_ROW row, int i)
{
	unsigned long	*len = mysql_fetch_lengths(r);

	return row[i] == NULL ? NULL : xstrndup(row[i], len[i]);
}

static int
is_system_db(const char *db)
{
	size_t	 i;

	for (i = 0; i < sizeof(system_dbs) / sizeof(system_dbs[0]); i++)
		if (strcmp(db, system_dbs[i]) == 0)
			return 1;
	return 0;
}

static void
all_databases(struct snap *s)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct snap_opts *o = s->o;

	r = sql_query(s->conns[0], "list databases", "SHOW DATABASES", 14);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || is_system_db(row[0]))
			continue;
		o->dbs = reallocarray(o->dbs, o->ndbs + 1, sizeof(*o->dbs));
		if (o->dbs == NULL)
			fail(s, "out of memory");
		o->dbs[o->ndbs++] = dup_col(r, row, 0);
	}
	mysql_free_result(r);
}

static int
ignored(struct snap *s, const char *db, const char *t)
{
	size_t	 i, n = strlen(db);

	for (i = 0; i < s->o->nignore; i++)
		if (strncmp(s->o->ignore[i], db, n) == 0 &&
		    s->o->ignore[i][n] == '.' &&
		    strcmp(s->o->ignore[i] + n + 1, t) == 0)
			return 1;
	return 0;
}

static int
named(struct snap *s, const char *t)
{
	size_t	 i;

	for (i = 0; i < s->o->ntables; i++)
		if (strcmp(s->o->tables[i], t) == 0)
			return 1;
	return 0;
}

static void
add_table(struct snap *s, struct table *t)
{
	s->tables = reallocarray(s->tables, s->ntables + 1, sizeof(*s->tables));
	if (s->tables == NULL)
		fail(s, "out of memory");
	s->tables[s->ntables++] = t;
}

static int
cmp_table(const void *a, const void *b)
{
	const struct table *x = *(struct table *const *)a;
	const struct table *y = *(struct table *const *)b;
	int	 c;

	if ((c = strcmp(x->schema, y->schema)) != 0)
		return c;
	return strcmp(x->name, y->name);
}

/* Tables and views of one database, as the arguments select them. */
static void
discover_db(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct table	*t;
	size_t		 first = s->ntables, i, j;

	buf_adds(&q, "SELECT TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_ROWS, "
	    "DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = ");
	lit(&q, db);
	r = query_buf(s, db, &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL)
			continue;
		if (s->o->ntables > 0 && !named(s, row[0]))
			continue;
		if (ignored(s, db, row[0]))
			continue;
		t = xcalloc(1, sizeof(*t));
		t->schema = xstrdup(db);
		t->name = dup_col(r, row, 0);
		t->kind = dup_col(r, row, 1);
		t->engine = dup_col(r, row, 2);
		t->rows_est = row[3] ? strtoull(row[3], NULL, 10) : 0;
		t->bytes_est = row[4] ? strtoull(row[4], NULL, 10) : 0;
		t->is_view = strcmp(t->kind, "VIEW") == 0;
		t->is_sequence = strcmp(t->kind, "SEQUENCE") == 0;
		t->versioned = strcmp(t->kind, "SYSTEM VERSIONED") == 0;
		t->named = s->o->ntables > 0;
		pthread_mutex_init(&t->mu, NULL);
		add_table(s, t);
	}
	mysql_free_result(r);
	buf_release(&q);
	if (s->ntables > first)
		qsort(s->tables + first, s->ntables - first,
		    sizeof(*s->tables), cmp_table);
	for (i = 0; i < s->o->ntables; i++) {
		for (j = first; j < s->ntables; j++)
			if (strcmp(s->tables[j]->name, s->o->tables[i]) == 0)
				break;
		if (j == s->ntables)
			fail(s, "%s.%s: no such table", db, s->o->tables[i]);
	}
}

void
discover_tables(struct snap *s)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	size_t		 i, n = 0;
	int		 found;

	if (s->o->all_databases)
		all_databases(s);
	for (i = 0; i < s->o->ndbs; i++) {
		buf_reset(&q);
		buf_adds(&q, "SELECT 1 FROM information_schema.SCHEMATA "
		    "WHERE SCHEMA_NAME = ");
		lit(&q, s->o->dbs[i]);
		r = query_buf(s, s->o->dbs[i], &q);
		found = mysql_num_rows(r) > 0;
		mysql_free_result(r);
		if (!found && s->o->all_databases)
			continue;	/* dropped since SHOW DATABASES */
		if (!found)
			fail(s, "%s: no such database", s->o->dbs[i]);
		discover_db(s, s->o->dbs[i]);
		s->o->dbs[n++] = s->o->dbs[i];
	}
	s->o->ndbs = n;
	buf_release(&q);
}

static struct table *
find_table(struct snap *s, const char *db, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->ntables; i++)
		if (strcmp(s->tables[i]->name, name) == 0 &&
		    strcmp(s->tables[i]->schema, db) == 0)
			return s->tables[i];
	return NULL;
}

static struct col *
add_col(struct table *t)
{
	t->cols = reallocarray(t->cols, t->ncols + 1, sizeof(*t->cols));
	if (t->cols == NULL)
		fail(the_snap, "out of memory");
	memset(&t->cols[t->ncols], 0, sizeof(*t->cols));
	return &t->cols[t->ncols++];
}

static int
in_list(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static const char *const numeric_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", "decimal",
	"float", "double", "year", NULL
};
static const char *const integer_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", NULL
};
static const char *const binary_types[] = {
	"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob",
	"bit", "geometry", "point", "linestring", "polygon", "multipoint",
	"multilinestring", "multipolygon", "geometrycollection", NULL
};
/* Types whose values compare in a WHERE as they sort in an ORDER BY. */
static const char *const keyset_types[] = {
	"tinyint", "smallint", "mediumint", "int", "bigint", "decimal",
	"char", "varchar", "binary", "varbinary", "date", "datetime",
	"timestamp", "time", NULL
};

static void
discover_columns(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct table	*t = NULL;
	struct col	*c;

	buf_adds(&q, "SELECT c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, "
	    "c.COLUMN_TYPE, c.IS_NULLABLE, c.CHARACTER_SET_NAME, "
	    "c.COLLATION_NAME, co.ID, c.EXTRA, c.IS_GENERATED "
	    "FROM information_schema.COLUMNS c "
	    "LEFT JOIN information_schema.COLLATIONS co "
	    "ON co.COLLATION_NAME = c.COLLATION_NAME "
	    "WHERE c.TABLE_SCHEMA = ");
	lit(&q, db);
	buf_adds(&q, " ORDER BY BINARY c.TABLE_NAME, c.ORDINAL_POSITION");
	r = query_buf(s, db, &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL || row[2] == NULL ||
		    row[3] == NULL)
			continue;
		if (t == NULL || strcmp(t->name, row[0]) != 0)
			t = find_table(s, db, row[0]);
		if (t == NULL || t->is_view || t->is_sequence)
			continue;
		c = add_col(t);
		c->name = dup_col(r, row, 1);
		c->data_type = dup_col(r, row, 2);
		c->coltype = dup_col(r, row, 3);
		c->charset = dup_col(r, row, 5);
		c->collation = dup_col(r, row, 6);
		c->charsetnr = row[7] ? (unsigned)strtoul(row[7], NULL, 10) : 63;
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
}

static ssize_t
col_index(struct table *t, const char *name)
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

static void
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
	r = query_buf(s, db, &q);
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
			fail(s, "out of memory");
		idx[n++] = (size_t)ci;
	}
	if (kt != NULL)
		finish_key(kt, index, unique, idx, n, usable);
	mysql_free_result(r);
	free(index);
	free(idx);
	buf_release(&q);
}

/* One row of SHOW CREATE ...; fails if there is none. */
static MYSQL_RES *
show_create(struct snap *s, const char *what, const char *schema,
    const char *name, MYSQL_ROW *rowp, const char *ctx)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;

	buf_addf(&q, "SHOW CREATE %s ", what);
	if (name != NULL)
		quote_ident2(&q, schema, name);
	else
		quote_ident(&q, schema, strlen(schema));
	r = query_buf(s, ctx, &q);
	buf_release(&q);
	if (r == NULL || (*rowp = mysql_fetch_row(r)) == NULL)
		fail(s, "%s: SHOW CREATE %s returned nothing", ctx, what);
	return r;
}

static void
take_attr(struct object *o, MYSQL_RES *r, MYSQL_ROW row, const char *col,
    const char *key)
{
	const char	*v;

	if ((v = row_col(r, row, col, NULL)) != NULL)
		attrs_add(&o->attrs, key, v);
}

/*
 * Fill o from a SHOW CREATE row: the DDL column and the session context
 * columns.  A NULL DDL means the account may not read the definition.
 */
static void
object_from(struct snap *s, struct object *o, MYSQL_RES *r, MYSQL_ROW row,
    const char *ddlcol, const char *dbcoll)
{
	const char	*ddl;
	size_t		 len = 0;

	if ((ddl = row_col(r, row, ddlcol, &len)) == NULL)
		fail(s, "%s.%s: no privilege to read its definition",
		    o->schema, o->name);
	o->ddl = xstrndup(ddl, len);
	o->ddl_len = len;
	take_attr(o, r, row, "sql_mode", "sql_mode");
	take_attr(o, r, row, "time_zone", "time_zone");
	take_attr(o, r, row, "character_set_client", "character_set_client");
	take_attr(o, r, row, "collation_connection", "collation_connection");
	if (row_col(r, row, "Database Collation", NULL) != NULL)
		take_attr(o, r, row, "Database Collation",
		    "collation_database");
	else
		attrs_add(&o->attrs, "collation_database", dbcoll);
}

static char ctxbuf[1024];

static const char *
ctx2(const char *a, const char *b)
{
	snprintf(ctxbuf, sizeof(ctxbuf), "%s.%s", a, b);
	return ctxbuf;
}

/* Explicit PERIOD FOR SYSTEM_TIME (`start`, `end`) in the DDL. */
static int
period_cols(const char *ddl, char **start, char **end)
{
	const char	*p = strstr(ddl, "PERIOD FOR SYSTEM_TIME (`");
	struct buf	 b[2] = { BUF_INIT, BUF_INIT };
	int		 i;

	if (p == NULL)
		return 0;
	p += strlen("PERIOD FOR SYSTEM_TIME (");
	for (i = 0; i < 2; i++) {
		if (*p++ != '`')
			goto bad;
		for (;;) {
			if (*p == '\0')
				goto bad;
			if (*p == '`' && p[1] == '`')
				p++;
			else if (*p == '`')
				break;
			buf_addc(&b[i], *p++);
		}
		p++;
		if (i == 0 && strncmp(p, ", ", 2) == 0)
			p += 2;
	}
	*start = b[0].p;
	*end = b[1].p;
	return b[0].p != NULL && b[1].p != NULL;
bad:
	buf_release(&b[0]);
	buf_release(&b[1]);
	return 0;
}

static void
versioning_cols(struct table *t)
{
	char	*start = NULL, *end = NULL;
	ssize_t	 i;
	struct col *c;

	if (period_cols(t->ddl, &start, &end)) {
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

static void
select_item(struct buf *q, const struct col *c, int cast)
{
	if (c->pseudo)
		buf_adds(q, c->name);
	else if (cast && strcmp(c->data_type, "float") == 0) {
		/* The double nearest the float: converts back exactly. */
		buf_adds(q, "CAST(");
		quote_ident(q, c->name, strlen(c->name));
		buf_adds(q, " AS DOUBLE)");
	} else
		quote_ident(q, c->name, strlen(c->name));
}

/* SELECT list, and the metadata of each column from a LIMIT 0 query. */
static void
build_select(struct snap *s, struct table *t)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_FIELD	*f;
	size_t		 i;
	int		 cast;

	for (cast = 0; cast < 2; cast++) {
		buf_reset(&q);
		buf_adds(&q, "SELECT ");
		for (i = 0; i < t->ncols; i++) {
			if (i > 0)
				buf_adds(&q, ", ");
			select_item(&q, &t->cols[i], cast);
		}
		buf_adds(&q, " FROM ");
		quote_ident2(&q, t->schema, t->name);
		if (t->versioned)
			buf_adds(&q, " FOR SYSTEM_TIME ALL");
		must(&q);
		if (cast)
			break;
		buf_adds(&q, " LIMIT 0");
		r = query_buf(s, ctx2(t->schema, t->name), &q);
		f = mysql_fetch_fields(r);
		for (i = 0; i < t->ncols && i < mysql_num_fields(r); i++) {
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

static void
table_details(struct snap *s, struct table *t, const char *dbcoll)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct object	 o;
	const char	*ddl, *ctx = ctx2(t->schema, t->name);
	size_t		 len = 0;
	struct buf	 q = BUF_INIT;

	if (t->is_view) {
		memset(&o, 0, sizeof(o));
		o.kind = OBJ_VIEW;
		o.schema = t->schema;
		o.name = t->name;
		r = show_create(s, "VIEW", t->schema, t->name, &row, ctx);
		object_from(s, &o, r, row, "Create View", dbcoll);
		mysql_free_result(r);
		if (!s->o->no_create)
			obj_push(&s->views, &o);
		return;
	}
	r = show_create(s, t->is_sequence ? "SEQUENCE" : "TABLE", t->schema,
	    t->name, &row, ctx);
	ddl = row_col(r, row, t->is_sequence ? "Create Table" : "Create Table",
	    &len);
	if (ddl == NULL && t->is_sequence)
		ddl = row_col(r, row, "Create Sequence", &len);
	if (ddl == NULL)
		fail(s, "%s: SHOW CREATE TABLE gave no definition", ctx);
	t->ddl = xstrndup(ddl, len);
	t->ddl_len = len;
	mysql_free_result(r);
	if (t->is_sequence) {
		buf_adds(&q, "SELECT next_not_cached_value FROM ");
		quote_ident2(&q, t->schema, t->name);
		r = query_buf(s, ctx, &q);
		if ((row = mysql_fetch_row(r)) != NULL && row[0] != NULL)
			t->next_value = xstrdup(row[0]);
		mysql_free_result(r);
		buf_release(&q);
		return;
	}
	if (t->ncols == 0)
		fail(s, "%s: no columns found in information_schema", ctx);
	if (t->versioned)
		versioning_cols(t);
	if (t->engine != NULL && strcasecmp(t->engine, "InnoDB") != 0 &&
	    !s->o->no_data)
		warnx("warning: %s: engine %s is not transactional: its rows "
		    "are read without the snapshot's guarantee", ctx, t->engine);
}

static char *
db_collation(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	char		*v = NULL;

	buf_adds(&q, "SELECT DEFAULT_COLLATION_NAME FROM "
	    "information_schema.SCHEMATA WHERE SCHEMA_NAME = ");
	lit(&q, db);
	r = query_buf(s, db, &q);
	if ((row = mysql_fetch_row(r)) != NULL)
		v = dup_col(r, row, 0);
	mysql_free_result(r);
	buf_release(&q);
	return v;
}

/* Routines, triggers or events listed by an information_schema query. */
static void
list_objects(struct snap *s, const char *db, const char *dbcoll,
    const char *listq, const char *showwhat, int kind, const char *ddlcol,
    struct objlist *out)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r, *r2;
	MYSQL_ROW	 row, row2;
	struct object	 o;
	char		*name, *type, *table;
	struct table	*tt;
	my_ulonglong	 i, n;

	buf_addf(&q, listq, "");
	lit(&q, db);
	if (kind == OBJ_TRIGGER)
		buf_adds(&q, " ORDER BY BINARY EVENT_OBJECT_TABLE, "
		    "ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER");
	else
		buf_adds(&q, " ORDER BY 2, BINARY 1");
	r = query_buf(s, db, &q);
	n = mysql_num_rows(r);
	for (i = 0; i < n; i++) {
		row = mysql_fetch_row(r);
		name = dup_col(r, row, 0);
		type = dup_col(r, row, 1);
		table = kind == OBJ_TRIGGER ? dup_col(r, row, 2) : NULL;
		if (table != NULL && ((tt = find_table(s, db, table)) == NULL ||
		    tt->is_view)) {
			free(name);
			free(type);
			free(table);
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.kind = kind;
		if (kind == OBJ_FUNCTION || kind == OBJ_PROCEDURE)
			o.kind = strcmp(type, "FUNCTION") == 0 ?
			    OBJ_FUNCTION : OBJ_PROCEDURE;
		o.schema = xstrdup(db);
		o.name = name;
		r2 = show_create(s, showwhat != NULL ? showwhat : type, db,
		    name, &row2, ctx2(db, name));
		object_from(s, &o, r2, row2, ddlcol != NULL ? ddlcol :
		    (o.kind == OBJ_FUNCTION ? "Create Function" :
		    "Create Procedure"), dbcoll);
		if (table != NULL)
			attrs_add(&o.attrs, "table", table);
		mysql_free_result(r2);
		obj_push(out, &o);
		free(type);
		free(table);
	}
	mysql_free_result(r);
	buf_release(&q);
}

static void
database_object(struct snap *s, const char *db, const char *dbcoll)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct object	 o;

	memset(&o, 0, sizeof(o));
	o.kind = OBJ_DATABASE;
	o.schema = xstrdup(db);
	o.name = xstrdup(db);
	r = show_create(s, "DATABASE", db, NULL, &row, db);
	object_from(s, &o, r, row, "Create Database", dbcoll);
	mysql_free_result(r);
	obj_push(&s->dbobjs, &o);
}

void
discover_details(struct snap *s)
{
	size_t	 i, j;
	char	*dbcoll;
	const char *db;
	int	 whole;

	for (i = 0; i < s->o->ndbs; i++) {
		db = s->o->dbs[i];
		dbcoll = db_collation(s, db);
		whole = s->o->ntables == 0;
		if (!s->o->no_create)
			database_object(s, db, dbcoll);
		discover_columns(s, db);
		for (j = 0; j < s->ntables; j++)
			if (strcmp(s->tables[j]->schema, db) == 0)
				table_details(s, s->tables[j], dbcoll);
		discover_keys(s, db);
		for (j = 0; j < s->ntables; j++)
			if (strcmp(s->tables[j]->schema, db) == 0 &&
			    !s->tables[j]->is_view && !s->tables[j]->is_sequence)
				build_select(s, s->tables[j]);
		if (whole && s->o->routines)
			list_objects(s, db, dbcoll,
			    "SELECT ROUTINE_NAME, ROUTINE_TYPE FROM "
			    "information_schema.ROUTINES WHERE ROUTINE_TYPE IN "
			    "('FUNCTION', 'PROCEDURE') AND ROUTINE_SCHEMA = ",
			    NULL, OBJ_PROCEDURE, NULL, &s->routines);
		if (s->o->triggers)
			list_objects(s, db, dbcoll,
			    "SELECT TRIGGER_NAME, 'TRIGGER', EVENT_OBJECT_TABLE "
			    "FROM information_schema.TRIGGERS WHERE "
			    "TRIGGER_SCHEMA = ", "TRIGGER", OBJ_TRIGGER,
			    "SQL Original Statement", &s->triggers);
		if (whole && s->o->events)
			list_objects(s, db, dbcoll,
			    "SELECT EVENT_NAME, 'EVENT' FROM "
			    "information_schema.EVENTS WHERE EVENT_SCHEMA = ",
			    "EVENT", OBJ_EVENT, "Create Event", &s->events);
		free(dbcoll);
	}
	order_views(&s->views);
}

/*
 * Views after the views they use: a view's DDL names every view it reads
 * as `schema`.`name`.  Depth-first; a cycle (impossible in a real server)
 * just keeps the name order.
 */
static int
uses(const struct object *v, const struct object *w)
{
	struct buf	 b = BUF_INIT;
	int		 found;

	quote_ident2(&b, w->schema, w->name);
	must(&b);
	found = memmem(v->ddl, v->ddl_len, b.p, b.len) != NULL;
	buf_release(&b);
	return found;
}

static void
visit(struct objlist *l, size_t i, int *mark, struct objlist *out)
{
	size_t	 j;

	if (mark[i])
		return;
	mark[i] = 1;
	for (j = 0; j < l->n; j++)
		if (j != i && uses(&l->v[i], &l->v[j]))
			visit(l, j, mark, out);
	obj_push(out, &l->v[i]);
}

void
order_views(struct objlist *l)
{
	struct objlist	 out = { NULL, 0, 0 };
	int		*mark;
	size_t		 i;

	if (l->n < 2)
		return;
	mark = xcalloc(l->n, sizeof(*mark));
	for (i = 0; i < l->n; i++)
		visit(l, i, mark, &out);
	free(mark);
	free(l->v);
	*l = out;
}

static struct table *
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

static void
add_int(struct buf *b, __int128 v)
{
	if (v < 0)
		buf_addf(b, "%lld", (long long)v);
	else
		buf_addf(b, "%llu", (unsigned long long)v);
}

/* One condition "k >= lo AND k < hi"; lo/hi absent at the ends. */
static char *
range_cond(const struct col *c, int has_lo, __int128 lo, int has_hi,
    __int128 hi)
{
	struct buf	 b = BUF_INIT;

	if (has_lo) {
		quote_ident(&b, c->name, strlen(c->name));
		buf_adds(&b, " >= ");
		add_int(&b, lo);
	}
	if (has_hi) {
		if (has_lo)
			buf_adds(&b, " AND ");
		quote_ident(&b, c->name, strlen(c->name));
		buf_adds(&b, " < ");
		add_int(&b, hi);
	}
	must(&b);
	return buf_detach(&b, NULL);
}

/*
 * Integer first key column: MIN and MAX (cheap on an index), then ranges of
 * about chunk_rows estimated rows each.  The first and last ranges are open
 * so that no row outside [MIN, MAX] can be missed.
 */
static void
plan_range(struct snap *s, struct table *t, size_t want)
{
	const struct col *c = &t->cols[t->key[0]];
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	__int128	 lo, hi, span, step;
	size_t		 i, n = want;
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
	    parse_int(c, row[0], &lo) == 0 && parse_int(c, row[1], &hi) == 0;
	mysql_free_result(r);
	if (!ok || hi <= lo)
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

void
plan_chunks(struct snap *s)
{
	struct table	*t;
	size_t		 i, want;
	unsigned long long cr = s->o->chunk_rows;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence)
			continue;
		t->id = ++s->next_id;
		resolve_where(s, t);
		t->mode = TM_WHOLE;
		want = t->rows_est / cr + (t->rows_est % cr != 0);
		if (want > 100000)
			want = 100000;
		if (want >= 2 && t->nkey > 0 &&
		    in_list(t->cols[t->key[0]].data_type, integer_types))
			plan_range(s, t, want);
		if (t->mode == TM_WHOLE && want >= 2 && keyset_ok(t) &&
		    !t->versioned)
			t->mode = TM_KEYSET;
		if (t->nchunks == 0) {
			t->nchunks = 1;
			t->chunks = xcalloc(1, sizeof(*t->chunks));
		}
	}
}

/* --list: what would be dumped, with the server's estimates. */
void
list_tables(struct snap *s)
{
	struct table	*t;
	size_t		 i;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		printf("%s\t%s\t%s\t%llu\t%llu\n", t->schema, t->name,
		    t->is_view ? "view" : t->is_sequence ? "sequence" :
		    t->engine ? t->engine : "-",
		    (unsigned long long)t->rows_est,
		    (unsigned long long)t->bytes_est);
	}
}
