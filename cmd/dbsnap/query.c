/*
 * query: the catalogue's small helpers: allocation and queries on the
 * control connection (conns[0]; query_cat(): conns[1]) that end dbsnap
 * on failure or on a table of the dump that information_schema left
 * out, result columns by name, attribute lists.
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

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		die(the_snap, "out of memory");
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
			die(the_snap, "out of memory");
	}
	l->v[l->n++] = *o;
}

void
must(struct buf *b)
{
	if (b->err)
		die(the_snap, "out of memory");
}

/* 'bytes' as a string literal (session charset binary, sql_mode ''). */
void
lit(struct buf *b, const char *s)
{
	quote_string(b, s, strlen(s));
}

/*
 * information_schema leaves out, with warning 1684 and no error, a table
 * whose metadata lock another session holds for DDL when the reading
 * connection holds locks of its own (waiting could deadlock): a RENAME
 * swap queued behind the dump's lock on one of its tables made the table
 * list read under the locks skip the swap's other table, and the dump
 * exited 0 without it (t1180).  A table so skipped that the dump
 * includes (dumped_table()) ends it; one it does not (ignored, not
 * named, of a database not dumped, created after the list) is no loss.
 * The warning's text, "Table 'db'.'name' was skipped ...", is the only
 * place the server names the table: in another lc_messages, or with the
 * markers twice in it, any skip ends the dump.  Where information_schema
 * waited for such a lock in vain (1205, 1213: a connection that holds
 * none), it leaves out the table's rows too, with a warning that names
 * no table: the dump ends.  So does a list of warnings that the server
 * cut (more than max_error_count, session.c).
 */
static int
skip_lost(struct snap *s, char *msg)
{
	char	*db, *name, *e, *f;
	int	 lost;

	if (strncmp(msg, "Table '", 7) != 0 ||
	    (e = strstr(msg + 7, "'.'")) == NULL || strstr(e + 3, "'.'") ||
	    (f = strstr(e + 3, "' was skipped")) == NULL ||
	    strstr(f + 1, "' was skipped"))
		return 1;
	db = msg + 7;
	name = e + 3;
	*e = *f = '\0';
	lost = dumped_table(s, db, name);
	*e = *f = '\'';
	return lost;
}

static void
check_skipped(struct snap *s, MYSQL *m, const char *what)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	char		 msg[512];
	unsigned	 code, n = 0, warnings = mysql_warning_count(m);
	int		 lost = 0;

	if (mysql_query(m, "SHOW WARNINGS") != 0 ||
	    (r = mysql_store_result(m)) == NULL)
		sql_die(m, what);
	while (!lost && (row = mysql_fetch_row(r)) != NULL) {
		n++;
		if (row[1] == NULL || row[2] == NULL)
			continue;
		code = (unsigned)strtoul(row[1], NULL, 10);
		snprintf(msg, sizeof(msg), "%s", row[2]);
		if (code == ER_WARN_I_S_SKIPPED_TABLE)
			lost = skip_lost(s, msg);
		else if (code == ER_LOCK_WAIT_TIMEOUT || code == ER_LOCK_DEADLOCK)
			lost = 1;
	}
	mysql_free_result(r);
	if (!lost && n < warnings) {
		snprintf(msg, sizeof(msg), "%u warnings, of which the server "
		    "kept %u: a table it left out may be among the others",
		    warnings, n);
		lost = 1;
	}
	if (lost)
		die_changed(s, what, msg);
}

static MYSQL_RES *
catalog_query(struct snap *s, MYSQL *m, const char *what, struct buf *q)
{
	MYSQL_RES	*r;

	must(q);
	r = sql_query(m, what, q->p, q->len);
	if (mysql_warning_count(m) > 0)
		check_skipped(s, m, what);
	return r;
}

MYSQL_RES *
query_buf(struct snap *s, const char *what, struct buf *q)
{
	return catalog_query(s, s->conns[0], what, q);
}

/*
 * A catalogue statement whose locks end with it (information_schema, SHOW
 * CREATE: nothing versioned): on conns[1] while it is idle.  A statement
 * that opens a table searches its connection's metadata locks one by
 * one, and conns[0]'s snapshot transaction keeps one for each table its
 * LIMIT 0 query opened (schema.c), so that on conns[0] these cost more
 * with each table before them (at 4,000 tables 0.2 ms a SHOW CREATE
 * against 0.04 ms at 400).  Those locks stay where they are: on conns[0],
 * from the LIMIT 0 to the end, keeping DDL off the tables dumped.
 */
MYSQL_RES *
query_cat(struct snap *s, const char *what, struct buf *q)
{
	MYSQL	*m = s->o->jobs > 1 && s->conns[1] != NULL ? s->conns[1] :
		    s->conns[0];

	return catalog_query(s, m, what, q);
}

/* A column of a result row by its name, NULL if absent or SQL NULL. */
char *
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

char *
dup_col(MYSQL_RES *r, MYSQL_ROW row, int i)
{
	unsigned long	*len = mysql_fetch_lengths(r);

	return row[i] == NULL ? NULL : xstrndup(row[i], len[i]);
}

static char ctxbuf[1024];


const char *
ctx2(const char *a, const char *b)
{
	snprintf(ctxbuf, sizeof(ctxbuf), "%s.%s", a, b);
	return ctxbuf;
}

int
in_list(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}
