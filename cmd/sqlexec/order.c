/*
 * order: the one rule for what may run out of order or on another
 * connection (issue #24), so that -j N gives what the mysql client gives
 * running the statements one by one, in order.
 *
 * Connection 1 is the serial order's connection: every barrier, every
 * session statement and the input's own transactions run there, in
 * order, so its per-connection state (LAST_INSERT_ID(), user variables,
 * temporary tables, prepared statements, locks, session variables) is
 * the one the mysql client's connection would have.  A unit may run on
 * any connection and before the units ahead of it have committed; so an
 * INSERT goes into a unit only when it neither reads nor changes that
 * state and leaves no AUTO_INCREMENT value to the server:
 *
 *   - its values are literals (lib/sqllit), or expressions of words that
 *     name no function but the pure ones below, no variable (@, @@) and
 *     no subquery;
 *   - its table has no AUTO_INCREMENT column, or every tuple gives that
 *     column a non-zero integer literal (NULL, 0, DEFAULT, a string or a
 *     column left out make the server assign one, which depends on the
 *     order of the INSERTs, and sets LAST_INSERT_ID(); an explicit value
 *     sets neither).  The column comes from the server, once per table
 *     until the next statement that may change tables (DDL, CALL...);
 *     triggers and views are nontx.c's: such INSERTs already run alone.
 *
 * Anything else, or anything this cannot tell, is ordered: it runs as a
 * barrier, on connection 1, after everything before it has committed.
 * Session statements run on every connection; once a statement that ran
 * on connection 1 only may have set a user variable (":=", INTO @, CALL,
 * a stored function), or a session statement read per-connection state,
 * the other connections' user variables are no longer those of the
 * serial order, and a session statement that reads one makes the run
 * serial from there (one connection).  So does CALL: a procedure may set
 * session variables on connection 1 only.
 *
 * A user variable is set where its readers run: what reads one is
 * ordered (connection 1) or a session statement.  So a SET of user
 * variables and nothing else runs on connection 1 alone when it is
 * large (rows2sql's SET @rp_v1=CONCAT(@rp_v1,...) pieces of a long
 * value: once, not once per connection) or when what it reads is right
 * only there; what it sets is stale on the other connections until a
 * SET on every connection sets it again, and a session statement of
 * any other kind that reads a stale variable makes the run serial
 * (session_where()).
 *
 * ROW_COUNT() and FOUND_ROWS() read what the statement before did: an
 * INSERT that reads them runs right after it on connection 1, in one
 * transaction with it (ordered.c); for any other statement the COMMIT of
 * a unit, or a look-up of sqlexec's own, may run between the two:
 * sqlexec says so, once.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "order.h"
#include "quote.h"


int
sx_order_new(struct sx *x)
{
	if ((x->order = calloc(1, sizeof(*x->order))) == NULL)
		return -1;
	return 0;
}

static void
forget(struct sx_order *o)
{
	while (o->n > 0)
		free(o->t[--o->n].key);
}

void
sx_order_free(struct sx *x)
{
	if (x->order == NULL)
		return;
	forget(x->order);
	while (x->order->ntmp > 0)
		free(x->order->tmp[--x->order->ntmp].key);
	free(x->order->tmp);
	while (x->order->nstale > 0)
		free(x->order->stale[--x->order->nstale]);
	free(x->order->stale);
	free(x->order->t);
	sqllit_release(&x->order->ins);
	free(x->order);
	x->order = NULL;
}

/*
 * A SET of user variables this large runs on connection 1 only (the
 * other connections' copies are stale from then on): running it on each
 * costs the server the parse of its literal each time, where a smaller
 * one costs about a round trip, less than the serial order that a later
 * session statement reading a stale variable brings.  rows2sql's pieces
 * of a long value are about its --max-allowed-packet each.
 */
#define ONE_CONN_AT	65536

/* Where user variable n is in o->stale, or -1. */
static ssize_t
stale_at(const struct sx_order *o, const struct sqltok *n)
{
	size_t	 i;

	for (i = 0; i < o->nstale; i++)
		if (strlen(o->stale[i]) == n->len &&
		    strncasecmp(o->stale[i], n->p, n->len) == 0)
			return (ssize_t)i;
	return -1;
}

/*
 * Does w read a user variable whose value connection 1 alone has (one
 * of o->stale, or any once o->diverged)?  A name w cannot compare
 * (odd) counts as one.
 */
static int
reads_stale(const struct sx_order *o, const struct seen *w)
{
	size_t	 i;

	if (o->diverged && (w->uservar || w->nread > 0 || w->odd))
		return 1;
	if (o->nstale > 0 && w->odd)
		return 1;
	for (i = 0; i < w->nread; i++)
		if (stale_at(o, &w->read[i]) >= 0)
			return 1;
	return 0;
}

/* The variables w sets, stale (set on connection 1 only).  0, or -1. */
static int
stale_add(struct sx_order *o, const struct seen *w)
{
	char	**p;
	size_t	 i;

	for (i = 0; i < w->nset; i++) {
		if (stale_at(o, &w->set[i]) >= 0)
			continue;
		if (o->nstale == o->capstale) {
			if ((p = reallocarray(o->stale, o->capstale ?
			    o->capstale * 2 : 8, sizeof(*p))) == NULL)
				return -1;
			o->stale = p;
			o->capstale = o->capstale ? o->capstale * 2 : 8;
		}
		if ((o->stale[o->nstale] = strndup(w->set[i].p,
		    w->set[i].len)) == NULL)
			return -1;
		o->nstale++;
	}
	return 0;
}

/* The variables w sets, set on every connection: no longer stale. */
static void
stale_drop(struct sx_order *o, const struct seen *w)
{
	ssize_t	 k;
	size_t	 i;

	for (i = 0; i < w->nset; i++)
		if ((k = stale_at(o, &w->set[i])) >= 0) {
			free(o->stale[k]);
			o->stale[k] = o->stale[--o->nstale];
		}
}

/*
 * Session statement s (scanned into w), which runs on every connection
 * unless this says 2: a SET of user variables only runs on connection 1
 * alone when what it reads is right only there or when it is large
 * (ONE_CONN_AT); what it sets is then stale on the others until a SET
 * on every connection sets it.  Any other session statement that reads
 * a stale variable makes the run serial (1, with *why).
 */
static int
session_where(struct sx_order *o, const struct rp_stmt *s,
    const struct seen *w, const char **why)
{
	int	 stale = reads_stale(o, w);

	if (w->onlyvars && !w->odd && w->nset > 0 &&
	    (stale || s->len >= ONE_CONN_AT)) {
		if (stale_add(o, w) == 0) {
			*why = "user variables only: what reads them runs "
			    "on connection 1";
			return 2;
		}
		*why = "out of memory for the user variables set on "
		    "connection 1 only";
		return 1;
	}
	if (stale) {
		*why = "a session statement reads a user variable "
		    "that a statement on one connection may have set";
		return 1;
	}
	stale_drop(o, w);
	return 0;
}

int
sx_order_reads_count(const struct sx *x)
{
	return x->order != NULL && x->order->reads_count;
}

int
sx_order(struct sx *x, const struct rp_stmt *s, enum sx_action *a,
    const char **why, int ordered)
{
	struct sx_order	*o = x->order;
	const char	*schema = s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : x->o->db != NULL ? x->o->db : "";
	struct seen	 w;
	const char	*r;
	int		 err, rc = 0, dml, fk = 0;

	if (o != NULL)
		o->reads_count = 0;
	if (o == NULL || *a == ACT_SKIP)
		return 0;
	memset(&w, 0, sizeof(w));
	switch (ordered && *a == ACT_PARALLEL ? ACT_BARRIER : *a) {
	case ACT_PARALLEL:
		if ((r = sx_order_insert(x, s, schema, &w, &err)) != NULL) {
			*a = ACT_BARRIER;
			*why = r;
		} else if (err)
			return -1;
		/*
		 * With foreign_key_checks on, a row may need another unit's
		 * (its parent) and a write fires cascades: in order (checks.c);
		 * it leaves LAST_INSERT_ID() alone.
		 */
		else if ((fk = sx_checks_on(x, &o->fk, s->no)) == -1)
			return -1;
		else if (fk) {
			*a = ACT_BARRIER;
			*why = "foreign_key_checks is on";
		}
		break;
	case ACT_SESSION:
		sx_order_scan(s->text, s->len, s->mode, &w);
		if (ordered) {
			if (o->diverged && w.uservar) {
				*why = "a session statement reads a user "
				    "variable that a statement on one "
				    "connection may have set";
				rc = 1;
			}
		} else
			rc = session_where(o, s, &w, why);
		/* its value on the other connections is theirs */
		if (w.conn && rc != 2)
			o->diverged = 1;
		break;
	default:
		sx_order_scan(s->text, s->len, s->mode, &w);
		dml = s->kind == STK_INSERT || s->kind == STK_UPDATE ||
		    s->kind == STK_DELETE || s->kind == STK_LOAD;
		/* DDL, CALL...: tables and their columns may have changed */
		if (!dml)
			forget(o);
		if (w.call && !ordered) {
			*why = "CALL (a procedure may set session state)";
			rc = 1;
		}
		break;
	}
	sx_checks_see(&o->fk, s, *a == ACT_SESSION, w.call);
	/*
	 * It runs on connection 1 only: what it sets, the others lack.  A
	 * definition (CREATE, ALTER, DROP) runs none of its body or its
	 * expressions, but CREATE TABLE ... SELECT does.
	 */
	/* what it may set LAST_INSERT_ID() to is this run's (replay_read()) */
	if ((*a != ACT_PARALLEL || ordered) && *a != ACT_SESSION &&
	    !sx_order_ddl(s->kind) && !fk)
		o->lid_after = 1;
	if (*a != ACT_PARALLEL && *a != ACT_SESSION && (w.assigns || w.call) &&
	    (!sx_order_ddl(s->kind) || (s->kind == STK_CREATE_TABLE && w.select)))
		o->diverged = 1;
	/*
	 * An INSERT that reads it runs right after the statement before on
	 * connection 1 (ordered.c); anything else may see a COMMIT of
	 * sqlexec's, or its look-ups, in between: not the client's value.
	 */
	o->reads_count = w.rowcount && s->kind == STK_INSERT;
	if (w.rowcount && !o->reads_count && !o->rowcount_said &&
	    !sx_order_ddl(s->kind)) {
		o->rowcount_said = 1;
		sx_report(x, "warning: statement %llu (line %llu) reads "
		    "ROW_COUNT() or FOUND_ROWS() and is not an INSERT: "
		    "sqlexec's own statements may run between it and the "
		    "statement before, so its value may differ from the mysql "
		    "client's", (unsigned long long)s->no,
		    (unsigned long long)s->line);
	}
	return rc;
}
