/*
 * ordered: consecutive ordered statements of a statement stream as one
 * transaction on connection 1 (stmts.h).
 *
 * An INSERT the order rule (order.c) takes out of the units runs on
 * connection 1 in the serial order, after every unit before it has
 * committed; run alone in autocommit, a script of many single-row
 * INSERTs with ids the server assigns paid one COMMIT each, as the mysql
 * client does.  So such INSERTs into transactional tables that come one
 * after another run as they come, each alone and in order on connection
 * 1 (the same ids, LAST_INSERT_ID() and user variables as the
 * client's), inside one transaction of about --commit-every bytes
 * that the checkpoint row commits with, like a unit's: the resume point
 * moves past them only at its COMMIT, and a failure rolls them all back
 * (resuming runs them again, once).  Any other statement ends it first;
 * the other barriers (UPDATE, DELETE, INSERT ... SELECT, DDL) run alone
 * in autocommit as before.
 *
 * As for the client, a statement that fails with --force leaves the
 * transaction open (the server undoes that statement only) and the next
 * one runs; a failure that ended the transaction (a deadlock) stops the
 * run.  Not used with --strict (a statement with warnings must be undone
 * alone), --dry-run, inside the input's own transaction, or once the run
 * is serial: those keep today's barriers.
 */
#include <inttypes.h>
#include <stdio.h>

#include "engine.h"
#include "stmts.h"

/* May s join a transaction of ordered INSERTs?  1, 0, or -1. */
static int
joins(struct dispatch *d, const struct rp_stmt *s, int ordered)
{
	const char	*eng;
	int		 rc;

	if (!ordered || s->kind != STK_INSERT || d->txn != 0 || d->serial ||
	    d->o->dry_run || d->o->strict || s->no <= d->o->skip_to)
		return 0;
	/* a table that is not transactional: alone, in autocommit */
	if ((rc = st_stmt_engine(d, s, &eng)) != 0)
		return rc == 1 ? 0 : -1;
	return 1;
}

/* START TRANSACTION on connection 1, everything before s committed. */
static int
begin(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;

	st_unit_close(d);
	st_cool_all(d);
	if (sx_drain(x) == -1)
		return -1;
	st_done(x, s->no - 1, d->prev_hash);
	if (sx_group_begin(x, s) == -1)
		return -1;
	pthread_mutex_lock(&x->mu);
	d->ord_rows = x->rows;
	pthread_mutex_unlock(&x->mu);
	d->ord_first = s->no;
	d->ord_bytes = 0;
	return 0;
}

int
st_ordered(struct dispatch *d, const struct rp_stmt *s, int ordered)
{
	struct sx	*x = d->x;
	int		 rc;

	if ((rc = joins(d, s, ordered)) != 1)
		return rc == -1 ? -1 : st_ordered_end(d, 1) == -1 ? -1 : 1;
	if (d->ord_first == 0 && begin(d, s) == -1)
		return -1;
	d->ord_last = s->no;
	if (sx_group_stmt(x, s) == -1) {
		(void)st_ordered_end(d, 0);
		return -1;
	}
	d->ord_hash = d->hash;
	d->ord_bytes += s->len;
	/*
	 * An error packet carries no status: after s failed (--force) the
	 * client's "in a transaction" flag is the last OK's, and a server
	 * that rolled the whole transaction back (innodb_rollback_on_timeout)
	 * would let the next statement commit alone.  A round trip says.
	 */
	if (mysql_errno(x->conn[0]) != 0 &&
	    mysql_query(x->conn[0], "DO 0") != 0) {
		sx_set_error(x, s->no, "statements %" PRIu64 "-%" PRIu64
		    ": ERROR %u (%s): %s", d->ord_first, s->no,
		    mysql_errno(x->conn[0]), mysql_sqlstate(x->conn[0]),
		    mysql_error(x->conn[0]));
		(void)st_ordered_end(d, 0);
		return -1;
	}
	/* the server ended it: what ran before s is undone, not committed */
	if (!sx_in_transaction(x, 0)) {
		sx_set_error(x, d->ord_first, "statements %" PRIu64 "-%" PRIu64
		    ": their transaction on connection 1 ended before its "
		    "COMMIT (the server rolled it back)", d->ord_first, s->no);
		(void)st_ordered_end(d, 0);
		return -1;
	}
	if (d->ord_bytes >= d->o->commit_every)
		return st_ordered_end(d, 1);
	return 0;
}

int
st_ordered_end(struct dispatch *d, int commit)
{
	struct sx	*x = d->x;
	int		 rc;

	if (d->ord_first == 0)
		return 0;
	/* the checkpoint and COMMIT, or ROLLBACK: commit.c (engine.h) */
	rc = sx_group_end(x, d->ord_first, d->ord_last, d->ord_hash, commit);
	if (!commit || rc == -1) {
		pthread_mutex_lock(&x->mu);
		x->rows = d->ord_rows;	/* only what is committed counts */
		pthread_mutex_unlock(&x->mu);
	}
	d->ord_first = 0;
	return rc;
}
