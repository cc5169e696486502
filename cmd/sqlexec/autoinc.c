/*
 * autoinc: which INSERTs leave an AUTO_INCREMENT value to the server
 * (order.c's rule: those keep their order): the table's column, asked of
 * the server once per table until the next statement that may change
 * tables, and whether every tuple gives it a non-zero integer literal.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "order.h"
#include "quote.h"

/*
 * A column default that the server computes from what ran before (a
 * sequence's NEXT VALUE FOR, UUID_SHORT(), a stored function...): an
 * expression (COLUMN_DEFAULT, MariaDB 10.2.7 on: literals quoted or
 * numbers, NULL, or the expression) that is not the clock's.
 */
static int
default_in_order(const char *d)
{
	static const char *const clock[] = { "current_timestamp", "now",
	    "curdate", "curtime", "current_date", "current_time",
	    "localtime", "localtimestamp", "utc_timestamp", "utc_date",
	    "utc_time", "sysdate", "unix_timestamp" };
	size_t	 i, n;

	if (d == NULL || *d == '\'' || strchr(d, '(') == NULL)
		return 0;
	for (i = 0; i < sizeof(clock) / sizeof(clock[0]); i++) {
		n = strlen(clock[i]);
		if (strncasecmp(d, clock[i], n) == 0 && d[n] == '(' &&
		    strchr(d + n + 1, '(') == NULL)
			return 0;
	}
	return 1;
}

/* Ask the server what schema.table's AUTO_INCREMENT column is.  0 or -1. */
static int
query_ai(MYSQL *m, const char *schema, const char *table, struct ai_table *e)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	long		 visible = 0;
	int		 rc = -1, hidden;

	/*
	 * The table's columns in order, and the AUTO_INCREMENT one's place
	 * among the visible ones (an INSERT without a column list gives
	 * those, in order: MariaDB KB "Invisible Columns"), counted here:
	 * with constants only, the server reads this table alone, where a
	 * correlated subquery read every table of the server (MariaDB KB
	 * "Information Schema Optimization").
	 */
	buf_adds(&q, "SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT"
	    " FROM information_schema.COLUMNS"
	    " WHERE TABLE_SCHEMA = ");
	quote_string(&q, schema, strlen(schema));
	buf_adds(&q, " AND TABLE_NAME = ");
	quote_string(&q, table, strlen(table));
	buf_adds(&q, " ORDER BY ORDINAL_POSITION");
	if (q.err || mysql_real_query(m, q.p, q.len) != 0 ||
	    (res = mysql_store_result(m)) == NULL)
		goto out;
	e->state = AI_NONE;
	while ((row = mysql_fetch_row(res)) != NULL) {
		hidden = row[1] != NULL && strcasestr(row[1], "INVISIBLE");
		if (default_in_order(row[2]))
			e->state = AI_DEFAULT;	/* for good: every INSERT */
		if (e->state == AI_NONE && row[1] != NULL &&
		    strcasestr(row[1], "auto_increment")) {
			e->state = AI_COLUMN;
			snprintf(e->name, sizeof(e->name), "%s",
			    row[0] ? row[0] : "");
			e->pos = hidden ? -1 : visible;
			if (row[0] == NULL || strlen(row[0]) >= sizeof(e->name))
				e->state = AI_UNKNOWN;
		}
		visible += !hidden;
	}
	mysql_free_result(res);
	rc = 0;
out:
	buf_release(&q);
	return rc;
}

/*
 * The AUTO_INCREMENT column of the table s writes (cached).  With no
 * connection (--dry-run) a table not known counts as having none.
 * NULL (ENOMEM, or the server's error: recorded); with peek, NULL for a
 * table not cached, and nothing asked.
 */
static const struct ai_table *
ai_of(struct sx *x, const struct rp_stmt *s, const char *schema, int peek)
{
	struct sx_order	*o = x->order;
	struct ai_table	*e, *t;
	struct buf	 key = BUF_INIT;
	size_t		 i;

	buf_addf(&key, "%s.%s", schema, s->table);
	if (key.err)
		return NULL;
	for (i = o->n; i > 0; i--)
		if (strcmp(o->t[i - 1].key, key.p) == 0) {
			buf_release(&key);
			return &o->t[i - 1];
		}
	if (peek) {
		buf_release(&key);
		return NULL;
	}
	if (o->n == o->cap) {
		t = reallocarray(o->t, o->cap ? o->cap * 2 : 16, sizeof(*t));
		if (t == NULL) {
			buf_release(&key);
			return NULL;
		}
		o->t = t;
		o->cap = o->cap ? o->cap * 2 : 16;
	}
	e = &o->t[o->n];
	memset(e, 0, sizeof(*e));
	e->key = buf_detach(&key, NULL);
	e->state = AI_NONE;
	if (x->conn != NULL && x->o->dry_run == 0) {
		/* connection 1, idle: everything queued has committed */
		if (sx_drain(x) == -1 ||
		    query_ai(x->conn[0], schema, s->table, e) == -1) {
			if (!x->stop)
				sx_set_error(x, s->no, "statement %llu: the "
				    "AUTO_INCREMENT column of %s: ERROR %u "
				    "(%s): %s", (unsigned long long)s->no,
				    e->key, mysql_errno(x->conn[0]),
				    mysql_sqlstate(x->conn[0]),
				    mysql_error(x->conn[0]));
			free(e->key);
			return NULL;
		}
	}
	o->n++;
	return e;
}

/*
 * Does the column list cb..ce (of a cut INSERT, lexed in mode) name
 * name?  Its index.
 */
static long
list_index(const char *cb, const char *ce, int mode, const char *name)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;
	char		 id[200];
	long		 i = 0;

	sqltok_init(&lx, cb, (size_t)(ce - cb), mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.kind == SQLTOK_PUNCT && *t.p == ',') {
			i++;
			continue;
		}
		if (t.kind == SQLTOK_PUNCT && *t.p == '.')
			continue;	/* t.col: the last name counts */
		if (sqltok_ident(&t, id, sizeof(id)) < 0)
			return -2;	/* not a plain list */
		if (strcasecmp(id, name) == 0) {
			/* t.col or col: only if no further "." follows */
			struct sqltok_lexer save = lx;
			struct sqltok	 n;

			if (sqltok_next(&lx, &n) == SQLTOK_PUNCT &&
			    *n.p == '.') {
				lx = save;
				continue;
			}
			lx = save;
			return i;
		}
	}
	return -1;
}

/*
 * Does a cut INSERT give the AUTO_INCREMENT column a non-zero integer
 * in every tuple?  1, or 0 (the server assigns some, or not known).
 */
static int
explicit_ai(const struct sqllit_insert *ins, int mode,
    const struct ai_table *e)
{
	const char	*tb, *te, *cb, *ce;
	const struct sqllit *v;
	long		 k;
	size_t		 r;

	if (sqllit_target(ins, mode, &tb, &te, &cb, &ce) == -1)
		return 0;
	k = cb != NULL ? list_index(cb, ce, mode, e->name) : e->pos;
	if (k < 0 || (size_t)k >= ins->arity)
		return 0;
	for (r = 0; r < ins->ntuples; r++) {
		v = &ins->v[r * ins->arity + (size_t)k];
		if ((v->kind != SQLLIT_INT && v->kind != SQLLIT_UINT) ||
		    v->u == 0)
			return 0;
	}
	return 1;
}

/*
 * The end of an INSERT's VALUES (or VALUE) keyword, as an offset, or 0:
 * none before a SELECT, SET or the end of the first 64 KiB.
 */
static size_t
values_end(const struct rp_stmt *s)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;

	sqltok_init(&lx, s->text, s->len > 65536 ? 65536 : s->len, s->mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.kind != SQLTOK_WORD)
			continue;
		if (sqltok_is(&t, "VALUES") || sqltok_is(&t, "VALUE"))
			return (size_t)(t.p + t.len - s->text);
		if (sqltok_is(&t, "SELECT") || sqltok_is(&t, "SET"))
			return 0;
	}
	return 0;
}

/*
 * Value k of every tuple: which column holds the AUTO_INCREMENT one (the
 * column list up to from, or its place among the visible columns).  -1:
 * the INSERT leaves it out (the server assigns it); -2: not known.
 */
static long
ai_index(const struct rp_stmt *s, size_t from, const struct ai_table *e)
{
	struct sqllit_insert p;
	const char	*tb, *te, *cb, *ce;
	long		 k;

	memset(&p, 0, sizeof(p));
	p.prefix = s->text;
	p.plen = from;
	if (sqllit_target(&p, s->mode, &tb, &te, &cb, &ce) == -1)
		return -2;
	if (cb == NULL)
		return e->pos;
	return (k = list_index(cb, ce, s->mode, e->name)) < -1 ? -2 : k;
}

/* A parallel INSERT: may it stay so?  NULL, or why it is ordered. */
const char *
sx_order_insert(struct sx *x, const struct rp_stmt *s, const char *schema,
    struct seen *w, int *err)
{
	struct sx_order	*o = x->order;
	const struct ai_table *e;
	size_t		 from = values_end(s);
	long		 k;
	int		 quick, nz;

	*err = 0;
	/*
	 * The quick look, which every INSERT of a dump passes; with the
	 * table's AUTO_INCREMENT column known, its values in the same pass.
	 */
	k = -1;
	if ((e = s->table[0] != '\0' ? ai_of(x, s, schema, 1) : NULL) != NULL &&
	    e->state == AI_COLUMN && from > 0)
		k = ai_index(s, from, e);
	quick = from > 0 && sqllit_quick(s->text, s->len, from, k, s->mode, &nz);
	if (!quick) {
		sx_order_scan(s->text, s->len, s->mode, w);
		if (w->select)
			return "INSERT with a subquery";
		if (w->why != NULL)
			return w->why;
	}
	if (s->table[0] == '\0')
		return "an INSERT whose table is not known";
	if (e == NULL) {
		if ((e = ai_of(x, s, schema, 0)) == NULL) {
			*err = 1;
			return NULL;
		}
		if (e->state == AI_COLUMN && from > 0 &&
		    (k = ai_index(s, from, e)) >= 0 && quick)
			(void)sqllit_quick(s->text, s->len, from, k, s->mode, &nz);
	}
	if (e->state == AI_NONE)
		return NULL;
	if (e->state == AI_DEFAULT)
		return "a column DEFAULT the server computes in order "
		    "(NEXT VALUE FOR a sequence, a function)";
	if (e->state == AI_UNKNOWN || from == 0 || k < 0)
		return "AUTO_INCREMENT values the server assigns";
	if (quick)
		return nz ? NULL : "AUTO_INCREMENT values the server assigns";
	/* expressions of pure words: the values, as the server reads them */
	if (sqllit_cut(&o->ins, s->text, s->len, s->mode) != 1 ||
	    !explicit_ai(&o->ins, s->mode, e))
		return "AUTO_INCREMENT values the server assigns";
	return NULL;
}
