/*
 * nontx: tables that are not transactional.  ROLLBACK cannot undo a
 * write to a MyISAM, Aria, MEMORY, CSV or ARCHIVE table: the rows are in
 * the table once the statement has run.  A unit that held such a write
 * and was rolled back (a failed statement, warnings to show, a unit after
 * a failed one, an interrupt) would leave those rows behind, and running
 * the unit again, or resuming before it, would add them a second time.
 * So sqlexec learns each target table's engine from the server
 * (information_schema.TABLES joined with ENGINES.TRANSACTIONS, as the
 * MariaDB KB describes them) and runs what writes a table that is not
 * transactional alone, one statement (or one unit of frames) at a time in
 * autocommit, with the resume point and the checkpoint moved after each;
 * see sqlexec(1), NON-TRANSACTIONAL TABLES.  Whatever escapes that (a
 * trigger that writes a MyISAM table) is caught after the ROLLBACK: the
 * server then warns ER_WARNING_NOT_COMPLETE_ROLLBACK (1196), and
 * sx_rollback() makes it an error that is never run again.
 *
 * The engines are cached by schema and table in the dispatcher's thread;
 * any statement that may change them (DDL) empties the cache.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysqld_error.h>

#include "quote.h"
#include "sqlexec.h"

/*
 * The cache: x->eng, keyed by schema, a NUL and table (no two pairs give
 * one key); each value the engine that makes the table not
 * transactional (malloc'd), or tx for a transactional one.  A hash: a
 * dump of thousands of tables looks each up several times.
 */
static char	 tx[] = "";

/* What sx_nontx_query() says of a transactional table with triggers. */
static const char by_triggers[] = " with triggers (they may write tables "
    "that are not transactional)";

/*
 * Is engine (sx_nontx()'s) that of a table that is transactional and
 * only suspect for its triggers?  Then a statement that fails is rolled
 * back whole, with what its triggers wrote to transactional tables.
 */
static int
tx_by_triggers(const char *engine)
{
	size_t	 n = strlen(engine), k = sizeof(by_triggers) - 1;

	return n > k && strcmp(engine + n - k, by_triggers) == 0;
}

static size_t
key_of(struct buf *k, const char *schema, const char *table)
{
	buf_reset(k);
	buf_adds(k, schema);
	buf_addc(k, '\0');
	buf_adds(k, table);
	return k->err ? 0 : k->len;
}

static void
engine_free(void *v)
{
	if (v != tx)
		free(v);
}

/* "SC = 'schema' AND TC = 'table'" into q. */
static void
is_table(struct buf *q, const char *sc, const char *tc, const char *schema,
    const char *table)
{
	buf_addf(q, "%s = ", sc);
	quote_string(q, schema, strlen(schema));
	buf_addf(q, " AND %s = ", tc);
	quote_string(q, table, strlen(table));
}

/*
 * What makes schema.table's writes not transactional, asked on m: a copy
 * ("MyISAM (not transactional)"), or NULL if they are.  A trigger may
 * write any table, and a view's tables are not looked at: both count as
 * not transactional.  new: the table is one this run's CREATE TABLE
 * just made, which no trigger can be on yet: triggers are not asked for
 * (the TRIGGERS lookup was three quarters of the query's server CPU).
 * 0, or -1 (the error is on m, or ENOMEM).
 */
int
sx_nontx_query(MYSQL *m, const char *schema, const char *table, int new,
    char **engine)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	int		 rc;

	*engine = NULL;
	/* constants, so that the server opens only this table's files */
	buf_adds(&q, "SELECT t.TABLE_TYPE, t.ENGINE, e.TRANSACTIONS, ");
	if (new)
		buf_adds(&q, "0");
	else {
		buf_adds(&q, "(SELECT COUNT(*) FROM information_schema.TRIGGERS "
		    "WHERE ");
		is_table(&q, "EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE",
		    schema, table);
		buf_addc(&q, ')');
	}
	buf_adds(&q, " FROM information_schema.TABLES t LEFT JOIN "
	    "information_schema.ENGINES e ON e.ENGINE = t.ENGINE WHERE ");
	is_table(&q, "t.TABLE_SCHEMA", "t.TABLE_NAME", schema, table);
	rc = q.err || mysql_real_query(m, q.p, q.len) != 0 ||
	    (res = mysql_store_result(m)) == NULL ? -1 : 0;
	buf_release(&q);
	if (rc == -1)
		return -1;
	/* Not there (the statement will fail): nothing to protect. */
	if ((row = mysql_fetch_row(res)) != NULL) {
		if (row[0] != NULL && strcmp(row[0], "VIEW") == 0)
			rc = asprintf(engine, "a view (its tables may not be "
			    "transactional)");
		else if (row[2] == NULL || strcmp(row[2], "YES") != 0)
			rc = asprintf(engine, "%s (not transactional)",
			    row[1] != NULL ? row[1] : "without an engine");
		else if (row[3] != NULL && strcmp(row[3], "0") != 0)
			rc = asprintf(engine, "%s%s", row[1], by_triggers);
		if (rc == -1)
			*engine = NULL;
		rc = rc == -1 ? -1 : 0;
	}
	mysql_free_result(res);
	return rc;
}

int
sx_nontx(struct sx *x, MYSQL *m, const char *schema, const char *table,
    const char **engine)
{
	struct buf	 k = BUF_INIT;
	char		*eng, *v;
	int		 rc;

	*engine = NULL;
	if (schema == NULL || *schema == '\0' || table == NULL ||
	    *table == '\0')
		return 0;
	if (key_of(&k, schema, table) == 0) {
		buf_release(&k);
		return -1;
	}
	if ((v = hmap_get(&x->eng, k.p, k.len)) != NULL) {
		buf_release(&k);
		*engine = v != tx ? v : NULL;
		return v != tx;
	}
	buf_release(&k);
	if (m == NULL)
		return -2;
	if (sx_nontx_query(m, schema, table, 0, &eng) == -1)
		return -1;
	if ((rc = sx_nontx_set(x, schema, table, eng)) == 0)
		*engine = eng;
	return rc == -1 ? -1 : eng != NULL;
}

int
sx_nontx_set(struct sx *x, const char *schema, const char *table,
    char *engine)
{
	struct buf	 k = BUF_INIT;
	void		*old;
	int		 rc;

	if (key_of(&k, schema, table) == 0 || hmap_put(&x->eng, k.p, k.len,
	    engine != NULL ? engine : tx, &old) == -1) {
		free(engine);
		rc = -1;
	} else {
		engine_free(old);
		rc = 0;
	}
	buf_release(&k);
	return rc;
}

void
sx_nontx_drop(struct sx *x, const char *schema, const char *table)
{
	struct buf	 k = BUF_INIT;
	void		*v;

	if (key_of(&k, schema, table) != 0 &&
	    (v = hmap_del(&x->eng, k.p, k.len)) != NULL)
		engine_free(v);
	buf_release(&k);
}

void
sx_nontx_forget(struct sx *x)
{
	hmap_clear(&x->eng, engine_free);
}

void
sx_nontx_free(struct sx *x)
{
	hmap_free(&x->eng, engine_free);
}

/* The text of warning 1196 among m's warnings, into b; 1 if there. */
static int
incomplete(MYSQL *m, struct buf *b)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	int		 found = 0;

	if (mysql_query(m, "SHOW WARNINGS") != 0 ||
	    (res = mysql_store_result(m)) == NULL)
		return 0;
	while (!found && (row = mysql_fetch_row(res)) != NULL)
		if (row[1] != NULL && strtoul(row[1], NULL, 10) ==
		    ER_WARNING_NOT_COMPLETE_ROLLBACK) {
			buf_addf(b, "Warning %u: %s",
			    ER_WARNING_NOT_COMPLETE_ROLLBACK,
			    row[2] != NULL ? row[2] : "");
			found = 1;
		}
	mysql_free_result(res);
	return found;
}

int
sx_rollback(struct sx *x, MYSQL *m, uint64_t no, const char *what)
{
	struct buf	 b = BUF_INIT, w = BUF_INIT;
	int		 shown;

	if (mysql_rollback(m) != 0)
		return -1;
	if (mysql_warning_count(m) == 0 || !incomplete(m, &w)) {
		buf_release(&w);
		return 0;
	}
	buf_addf(&b, "%s: ROLLBACK: %s: what they wrote to tables that are "
	    "not transactional stays there (it is not run again): check those "
	    "tables before resuming", what, w.p);
	pthread_mutex_lock(&x->mu);
	shown = x->interrupted == 0 && (x->err.no == 0 || no < x->err.no);
	if (x->partial == 0 || no < x->partial)
		x->partial = no;
	pthread_mutex_unlock(&x->mu);
	/* said at once if another error is to be the run's */
	if (!shown)
		sx_report(x, "%s", b.p);
	sx_set_error(x, no, "%s", b.p);
	buf_release(&b);
	buf_release(&w);
	return 1;
}

void
sx_nontx_note(struct sx *x, uint64_t no, const char *where,
    const char *engine, int done, uint64_t kept)
{
	int	 trig = tx_by_triggers(engine);

	/*
	 * A transactional table, suspect for its triggers: the failed
	 * statement was rolled back, its triggers' writes to transactional
	 * tables with it; what stays is only the rows committed before it
	 * (a unit of frames in autocommit), if any.  (Under --strict a
	 * statement with warnings fails after it committed: as before.)
	 */
	if (!done && trig && kept == 0 && !x->o->strict) {
		sx_report(x, "%s: the table is %s: the statement failed; its "
		    "transaction was rolled back (what its triggers wrote to "
		    "tables that are not transactional, if any, stays)", where,
		    engine);
		return;
	}
	pthread_mutex_lock(&x->mu);
	if (!done && (x->partial == 0 || no < x->partial)) {
		x->partial = no;
		x->partial_tx = trig;
	}
	pthread_mutex_unlock(&x->mu);
	if (!done && trig)
		sx_report(x, "%s: the table is %s: it ran in autocommit, and "
		    "the %" PRIu64 " row%s before the failed statement %s "
		    "committed: check the table before resuming", where,
		    engine, kept, kept == 1 ? "" : "s", kept == 1 ? "is" :
		    "are");
	else
		sx_report(x, "%s: the table is %s: %s", where, engine,
		    done ? "what the statement changed stays (it is done)" :
		    "what was written before it stopped stays there: check "
		    "the table before resuming");
}
