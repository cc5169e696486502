/*
 * catalog: which databases and tables to dump (the arguments, --ignore,
 * --all-databases), and the walk over each database that reads their
 * columns, keys, definitions and objects; --list.
 *
 * Everything is read from information_schema and SHOW CREATE ... inside
 * a snapshot transaction: conns[0]'s, or with -j above 1 conns[1]'s for
 * the statements that hold no lock past their end (query_cat()).  DDL
 * itself is not versioned: so each table whose rows are read is locked
 * first (lock_tables(): its metadata lock, to the end), and only then
 * are its columns and definition read, which DDL can no longer change
 * before its rows are read.
 */
#include <errno.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

/*
 * What -A leaves out.  information_schema and performance_schema are the
 * server's views of itself, never data (mysqldump -A skips them too);
 * mysql and sys hold data (accounts, time zones, the sys views), so a
 * copy names them in its left-out note (data 1).
 */
static const struct {
	const char	*name;
	int		 data;
} system_dbs[] = {
	{ "mysql", 1 }, { "information_schema", 0 },
	{ "performance_schema", 0 }, { "sys", 1 }
};

/* 0: not a system database, 1: one without data, 2: with data */
static int
is_system_db(const char *db)
{
	size_t	 i;

	for (i = 0; i < sizeof(system_dbs) / sizeof(system_dbs[0]); i++)
		if (strcmp(db, system_dbs[i].name) == 0)
			return 1 + system_dbs[i].data;
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
		if (row[0] != NULL && is_system_db(row[0]) == 2) {
			buf_addf(&s->left.system_dbs, "%s%s",
			    s->left.system_dbs.len > 0 ? " " : "", row[0]);
			continue;
		}
		if (row[0] == NULL || is_system_db(row[0]))
			continue;
		o->dbs = reallocarray(o->dbs, o->ndbs + 1, sizeof(*o->dbs));
		if (o->dbs == NULL)
			die(s, "out of memory");
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
		    strcmp(s->o->ignore[i] + n + 1, t) == 0) {
			s->ignore_hit[i] = 1;
			return 1;
		}
	return 0;
}

/*
 * An --ignore-table that named no table is said: a typo leaves in what
 * it meant to leave out (issue 25: filters that match nothing).  Not an
 * error, as in mysqldump, whose recipes name tables that are not always
 * there; one of a system database that is not dumped (mysql.event) is
 * moot, and not said.
 */
static void
ignore_unmatched(struct snap *s)
{
	const char	*e;
	size_t		 i, j, n;
	int		 dumped;
	char		 db[NAME_LEN * 4 + 1];

	for (i = 0; i < s->o->nignore; i++) {
		if (s->ignore_hit[i])
			continue;
		e = s->o->ignore[i];
		n = strcspn(e, ".");
		snprintf(db, sizeof(db), "%.*s", (int)n, e);
		for (dumped = 0, j = 0; j < s->o->ndbs && !dumped; j++)
			dumped = strcmp(s->o->dbs[j], db) == 0;
		if (!dumped && is_system_db(db))
			continue;
		warnx("warning: --ignore-table %s: %s: it leaves out nothing",
		    e, dumped ? "no such table in the dump" :
		    "that database is not dumped");
	}
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

int
dumped_table(struct snap *s, const char *db, const char *t)
{
	size_t	 i;

	for (i = 0; i < s->ntables; i++)
		if (strcasecmp(s->tables[i]->schema, db) == 0 &&
		    strcasecmp(s->tables[i]->name, t) == 0)
			return 1;
	if (!s->listing)
		return 0;
	for (i = 0; i < s->o->ndbs; i++)
		if (strcasecmp(s->o->dbs[i], db) == 0)
			break;
	if (i == s->o->ndbs || ignored(s, s->o->dbs[i], t))
		return 0;
	if (s->o->ntables == 0)
		return 1;
	for (i = 0; i < s->o->ntables; i++)
		if (strcasecmp(s->o->tables[i], t) == 0)
			return 1;
	return 0;
}

/*
 * Engines whose rows are other tables' (MERGE) or another server's: the
 * stream carries their definition only, as mysqldump does for MRG_MyISAM
 * and FEDERATED (client/mysqldump.c, check_if_ignore_table()); their rows
 * written again would land in the tables they stand for.
 */
static const char *const rows_elsewhere_engines[] = {
	"MRG_MyISAM", "MRG_ISAM", "FEDERATED", "CONNECT", "SPIDER", "SPHINX"
};

static int
rows_elsewhere(const char *engine)
{
	size_t	 i;

	for (i = 0; engine != NULL && i < sizeof(rows_elsewhere_engines) /
	    sizeof(rows_elsewhere_engines[0]); i++)
		if (strcasecmp(engine, rows_elsewhere_engines[i]) == 0)
			return 1;
	return 0;
}

static void
add_table(struct snap *s, struct table *t)
{
	s->tables = reallocarray(s->tables, s->ntables + 1, sizeof(*s->tables));
	if (s->tables == NULL)
		die(s, "out of memory");
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
	s->listing = 1;
	r = query_buf(s, db, &q);
	s->listing = 0;
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL)
			continue;
		/* first: an ignored table not named still counts as found */
		if (ignored(s, db, row[0]))
			continue;
		if (s->o->ntables > 0 && !named(s, row[0]))
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
		t->rows_elsewhere = rows_elsewhere(t->engine);
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
			die(s, "%s.%s: no such table", db, s->o->tables[i]);
	}
}

/*
 * The tables were listed before the snapshot began, without locks, and
 * information_schema lists a multi-table RENAME half done: a swap
 * (RENAME TABLE a TO tmp, b TO a, tmp TO b) as it ran could leave a
 * table out of the list, unread, with exit 0.  Listed again once
 * db's tables are locked (no RENAME of theirs can then be under way),
 * the list must be the same: a table more, or one of another kind or
 * engine, changed while the dump started (one created then too, as
 * mysqldump fails on a table created after its snapshot).  A table
 * this list leaves out because DDL holds it ends the dump in
 * query_cat().
 */
static void
relist_db(struct snap *s, const char *db, size_t lo, size_t hi)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	const struct table *t;
	char		 why[256], what[512];
	size_t		 j;

	buf_adds(&q, "SELECT TABLE_NAME, TABLE_TYPE, ENGINE FROM "
	    "information_schema.TABLES WHERE TABLE_SCHEMA = ");
	lit(&q, db);
	s->listing = 1;
	r = query_cat(s, db, &q);
	s->listing = 0;
	buf_release(&q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL || ignored(s, db, row[0]) ||
		    (s->o->ntables > 0 && !named(s, row[0])))
			continue;
		for (j = lo; j < hi; j++)
			if (strcmp(s->tables[j]->name, row[0]) == 0)
				break;
		t = j < hi ? s->tables[j] : NULL;
		if (t == NULL)
			snprintf(why, sizeof(why), "a %s not there when the "
			    "tables were listed: created or renamed since",
			    row[1]);
		else if (strcmp(t->kind, row[1]) != 0)
			snprintf(why, sizeof(why), "a %s, listed as a %s",
			    row[1], t->kind);
		else if ((t->engine == NULL) != (row[2] == NULL) ||
		    (row[2] != NULL && strcmp(t->engine, row[2]) != 0))
			snprintf(why, sizeof(why), "engine %s, listed as %s",
			    row[2] != NULL ? row[2] : "none",
			    t->engine != NULL ? t->engine : "none");
		else
			continue;
		snprintf(what, sizeof(what), "%s.%s", db, row[0]);
		mysql_free_result(r);
		die_changed(s, what, why);
	}
	mysql_free_result(r);
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
	s->db_end = xcalloc(s->o->ndbs, sizeof(*s->db_end));
	s->ignore_hit = xcalloc(s->o->nignore + 1, 1);
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
			die(s, "%s: no such database", s->o->dbs[i]);
		discover_db(s, s->o->dbs[i]);
		s->db_end[n] = s->ntables;
		s->o->dbs[n++] = s->o->dbs[i];
	}
	s->o->ndbs = n;
	buf_release(&q);
	ignore_unmatched(s);
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
	r = query_cat(s, db, &q);
	if ((row = mysql_fetch_row(r)) != NULL)
		v = dup_col(r, row, 0);
	mysql_free_result(r);
	buf_release(&q);
	return v;
}

void
discover_details(struct snap *s)
{
	size_t	 i, j, lo, hi;
	char	*dbcoll;
	const char *db;

	for (i = 0; i < s->o->ndbs; i++) {
		db = s->o->dbs[i];
		db_span(s, i, &lo, &hi);
		dbcoll = db_collation(s, db);
		if (!s->o->no_create)
			database_object(s, db, dbcoll);
		lock_tables(s, lo, hi);
		relist_db(s, db, lo, hi);
		discover_columns(s, db);
		for (j = lo; j < hi; j++)
			table_details(s, s->tables[j], dbcoll);
		discover_srids(s, i);
		discover_keys(s, db);
		for (j = lo; j < hi; j++)
			if (!s->tables[j]->is_view &&
			    !s->tables[j]->is_sequence &&
			    !s->tables[j]->rows_elsewhere) {
				check_locked(s, s->tables[j]);
				select_columns(s, s->tables[j]);
				build_select(s, s->tables[j]);
			}
		discover_routines(s, db, dbcoll);
		free(dbcoll);
	}
	select_columns_used(s);
	order_views(&s->views);
}

/* --list: what would be dumped, with the server's estimates. */
void
list_tables(struct snap *s)
{
	struct buf	 b = BUF_INIT;
	struct table	*t;
	size_t		 i;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		buf_reset(&b);
		/* names escaped as in the plan (plan.c): one table a line */
		quote_tsv(&b, t->schema, strlen(t->schema));
		buf_addc(&b, '\t');
		quote_tsv(&b, t->name, strlen(t->name));
		if (b.err)
			err(1, NULL);
		printf("%s\t%s\t%llu\t%llu\n", b.p,
		    t->is_view ? "view" : t->is_sequence ? "sequence" :
		    t->engine ? t->engine : "-",
		    (unsigned long long)t->rows_est,
		    (unsigned long long)t->bytes_est);
	}
	buf_release(&b);
}
