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
 * moves past them only at its COMMIT.  Where the run stops (the input
 * cut or damaged after them, an interrupt, a statement of them failing
 * alone) what ran is committed, as the client would have committed it:
 * the ids the server gave them are not given back by a rollback.  Only
 * where the server rolled the transaction back are they lost (said).  Any other statement ends it first;
 * the other barriers (UPDATE, DELETE, INSERT ... SELECT, DDL) run alone
 * in autocommit as before.  ROW_COUNT() and FOUND_ROWS() read what the
 * statement before did: an INSERT that reads them joins the transaction
 * of the INSERT before it whatever its size, takes that INSERT out of
 * the unit being filled (unless that unit was full with it, and went),
 * or after a barrier runs alone, with no START TRANSACTION or COMMIT
 * between the two.
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
#include <string.h>

#include "engine.h"
#include "stmts.h"

static int	alive(struct dispatch *, const struct rp_stmt *);
static void	lost_ids(struct dispatch *, uint64_t);

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

/*
 * START TRANSACTION on connection 1 for the ordered INSERTs from s on,
 * everything before s committed; mark: the identity up to s - 1 is
 * d->prev_hash (not if s came out of the unit being filled: that unit's
 * COMMIT marks it).
 */
static int
begin(struct dispatch *d, const struct rp_stmt *s, int mark)
{
	struct sx	*x = d->x;

	st_unit_close(d);
	st_cool_all(d);
	if (sx_drain(x) == -1)
		return -1;
	if (mark)
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

/* Run s in the open transaction; hash: the identity up to s.  0 or -1. */
static int
run(struct dispatch *d, const struct rp_stmt *s, uint64_t hash)
{
	struct sx	*x = d->x;

	d->ord_last = s->no;
	if (sx_group_stmt(x, s) == -1) {
		/* the client has committed what ran before s: so do we */
		d->ord_last = s->no - 1;
		(void)st_ordered_end(d, alive(d, s));
		return -1;
	}
	d->ord_hash = hash;
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
		lost_ids(d, s->no);
		(void)st_ordered_end(d, 0);
		return -1;
	}
	return 0;
}

/*
 * The AUTO_INCREMENT values the server gave statements of a transaction
 * it rolled back stay used (InnoDB does not take them back: MariaDB KB
 * "AUTO_INCREMENT Handling in InnoDB"); the client, one statement at a
 * time, would have lost at most the one that failed.  Said once.
 */
static void
lost_ids(struct dispatch *d, uint64_t last)
{
	if (last <= d->ord_first)
		return;
	sx_report(d->x, "statements %" PRIu64 "-%" PRIu64 " were rolled back "
	    "by the server after the AUTO_INCREMENT values it gave them: a "
	    "resume gives their rows later values than one run without the "
	    "stop would", d->ord_first, last);
}

/*
 * Statement s of the transaction failed alone: is the transaction still
 * open, what ran before s to be committed?  An error packet carries no
 * status: a round trip says (a lost connection, a deadlock, the server's
 * rollback of the whole transaction say no).  1 or 0.
 */
static int
alive(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;

	if (s->no <= d->ord_first)
		return 0;	/* nothing ran before s */
	if (mysql_query(x->conn[0], "DO 0") == 0 && sx_in_transaction(x, 0))
		return 1;
	lost_ids(d, s->no - 1);
	return 0;
}

/*
 * s reads ROW_COUNT() or FOUND_ROWS() right after an INSERT that is the
 * last of the unit being filled: that INSERT leaves the unit and begins
 * the transaction, so that s runs right after it on connection 1, as
 * for the client.  0 (also when there is none), or -1.
 */
static int
pull(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx_unit	*u = d->cur;
	struct sx_stmt	*last;
	struct rp_stmt	 p;
	struct buf	 t = BUF_INIT;
	uint64_t	 hash;
	int		 rc;

	if (u == NULL || u->n == 0 || u->st[u->n - 1].no + 1 != s->no)
		return 0;
	last = &u->st[u->n - 1];
	buf_add(&t, u->text.p + last->off, last->len);
	if (t.err) {
		sx_set_error(d->x, s->no, "%s", strerror(t.err));
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.no = last->no;
	p.line = last->line;
	p.kind = STK_INSERT;
	p.db = s->db;
	p.schema = p.table = "";
	p.text = t.p;
	p.len = t.len;
	p.mode = s->mode;
	p.said = s->said;
	hash = last->hash;
	if (--u->n == 0) {
		sx_unit_free(u);
		d->cur = NULL;
		d->exclusive = d->ignore = 0;
	} else {
		u->text.len = last->off - 3;	/* and its "\n;\n" */
		u->text.p[u->text.len] = '\0';
		if (last->ctx != SX_NOCTX)
			u->ctx.len = last->ctx;
		u->end_no = u->st[u->n - 1].no;
		u->end_hash = u->st[u->n - 1].hash;
	}
	rc = begin(d, &p, 0) == -1 ? -1 : run(d, &p, hash);
	buf_release(&t);
	return rc;
}

int
st_ordered(struct dispatch *d, const struct rp_stmt *s, int ordered)
{
	int	 rc, reader = sx_order_reads_count(d->x), next;

	if ((rc = joins(d, s, ordered)) != 1)
		return rc == -1 ? -1 : st_ordered_end(d, 1) == -1 ? -1 : 1;
	/* ROW_COUNT() of the INSERT just before, in this transaction */
	next = d->ord_first != 0 && d->ord_last + 1 == s->no;
	if (d->ord_first != 0 && d->ord_bytes >= d->o->commit_every &&
	    !(reader && next) && st_ordered_end(d, 1) == -1)
		return -1;
	if (d->ord_first == 0 && reader && pull(d, s) == -1)
		return -1;
	if (d->ord_first == 0) {
		/* after a barrier: no START TRANSACTION between the two */
		if (reader)
			return 1;
		if (begin(d, s, 1) == -1)
			return -1;
	}
	return run(d, s, d->hash);
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
