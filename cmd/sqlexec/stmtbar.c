/*
 * stmtbar: the statement stream's barriers (stmts.h): a statement that
 * runs alone, in order, once every unit before it has committed, on one
 * connection or (session state) every one, with the checkpoint; the
 * input's own BEGIN ... COMMIT; going serial.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "engine.h"
#include "stmts.h"
#include "lit.h"

/*
 * The input's own transaction, begun by statement no, rolled back on
 * connection 1: checked, so that what it wrote to tables that are not
 * transactional is an error, never "nothing is committed" (nontx.c).
 */
int
st_input_txn_rollback(struct sx *x, uint64_t no)
{
	char	 what[64];

	snprintf(what, sizeof(what), "the transaction begun by statement %"
	    PRIu64, no);
	return sx_rollback(x, x->conn[0], no, what);
}

/*
 * Is the table s writes not transactional (nontx.c)?  1 with *engine, 0,
 * or -1 with the error recorded.  Asks the server on connection 1 once
 * per table (until the next DDL), after every unit queued has committed.
 */
int
st_stmt_engine(struct dispatch *d, const struct rp_stmt *s, const char **engine)
{
	struct sx	*x = d->x;
	const char	*schema = s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : sx_default_db();
	struct buf	 b = BUF_INIT;
	int		 rc;

	if ((rc = sx_nontx(x, NULL, schema, s->table, engine)) == -2) {
		if (sx_drain(x) == -1)
			return -1;
		rc = sx_nontx(x, x->conn[0], schema, s->table, engine);
	}
	if (rc != -1)
		return rc;
	sx_where(&b, s->no, s->line, NULL);
	sx_set_error(x, s->no, "%s: the engine of %s.%s: ERROR %u (%s): %s",
	    b.p, schema, s->table, mysql_errno(x->conn[0]),
	    mysql_sqlstate(x->conn[0]), mysql_error(x->conn[0]));
	buf_release(&b);
	return -1;
}

/* A statement that committed: the table it filled, for sx_report_damage. */
static void
wrote(struct sx *x, const struct rp_stmt *s)
{
	struct buf	 b = BUF_INIT;

	if (!sx_changes_rows(s) && s->kind != STK_CREATE_TABLE)
		return;
	sx_target(&b, s);
	pthread_mutex_lock(&x->mu);
	sx_wrote(x, b.p);
	pthread_mutex_unlock(&x->mu);
	buf_release(&b);
}

/* Run a barrier or session statement once everything before is done. */
int
st_barrier(struct dispatch *d, const struct rp_stmt *s, int where,
    const char *why)
{
	struct sx	*x = d->x;
	int		 c, rc, every = where != ST_BARRIER;

	st_unit_close(d);
	if (!every)
		st_cool_all(d);
	if (d->o->dry_run) {
		st_plan_line(s, where == ST_EVERY ? "session, every connection" :
		    where == ST_SESSION_ONE ? "session, connection 1 only" :
		    "barrier", why);
		return 0;
	}
	if (sx_drain(x) == -1)
		return -1;
	st_done(x, s->no - 1, d->prev_hash);
	/* for the checkpoint, and to say what a failure leaves behind */
	if (!every && sx_changes_rows(s) &&
	    st_stmt_engine(d, s, &x->engine) == -1)
		return -1;
	rc = sx_barrier_stmt(x, s, d->prev_hash, d->hash,
	    (every ? SX_BAR_EVERY : 0) |
	    (where == ST_SESSION_ONE ? SX_BAR_ONE : 0) |
	    (sx_changes_rows(s) ? SX_BAR_DML : 0));
	x->engine = NULL;
	if (rc == -1)
		return -1;
	for (c = 0; every && c < (where == ST_EVERY ? x->nconn : 1); c++)
		if (sx_keep_unique_checks(x, c, s) == -1)
			return -1;
	if (!every)
		wrote(x, s);
	return 0;
}

/*
 * From here on everything runs on connection 1, session statements too:
 * for what lives in one session (a temporary table, a user variable set
 * inside a transaction or by a function with side effects).
 */
void
st_go_serial(struct dispatch *d, const struct rp_stmt *s,
    const char *why)	/* NULL: say nothing */
{
	struct buf	 b = BUF_INIT;

	if (d->serial)
		return;
	d->serial = 1;
	if (d->o->jobs < 2 || why == NULL)
		return;
	sx_where(&b, s->no, s->line, NULL);
	sx_report(d->x, "%s: %s: from here on one connection", b.p, why);
	buf_release(&b);
}

/* The input's transaction was rolled back: its rows are not counted. */
void
st_txn_undone(struct dispatch *d)
{
	pthread_mutex_lock(&d->x->mu);
	d->x->rows = d->txn_rows;
	pthread_mutex_unlock(&d->x->mu);
}

/*
 * The input's own transactions.  BEGIN (or XA START) is a barrier; from
 * it up to its COMMIT or ROLLBACK every statement runs in order on
 * connection 1, in that transaction, as the mysql client would run it; a
 * session statement in it makes the rest of the run serial (its value may
 * depend on the transaction's uncommitted rows).  LOCK and UNLOCK TABLES
 * stay skipped.  A statement that ends the transaction implicitly (DDL)
 * ends the block there.  Outside such a block, COMMIT, SAVEPOINT and
 * RELEASE are skipped (sqlexec commits its units itself), and so is a
 * ROLLBACK while autocommit is on (it does nothing); after SET
 * autocommit=0 a ROLLBACK cannot be honoured, as what came before ran in
 * sqlexec's own transactions: an error.  Returns 1 when the statement is
 * not one of these (dispatch goes on), else 0 or -1.
 */
int
st_input_txn(struct dispatch *d, const struct rp_stmt *s, enum sx_action a)
{
	struct sx	*x = d->x;
	int		 txn = s->kind == STK_TRANSACTION ||
			    (s->kind == STK_OTHER && sx_is_xa(s));
	enum sx_txn	 k = txn ? sx_txn_kind(s) : TXN_OTHER;
	struct buf	 b = BUF_INIT;
	uint64_t	 begin;
	int		 open, flags;

	if (d->txn == 0 && !txn)
		return 1;
	if (d->txn == 0 && (k == TXN_ROLLBACK || k == TXN_ROLLBACK_KEEP)) {
		if (!d->autocommit_off)
			return 1;	/* a no-op: skipped */
		sx_where(&b, s->no, s->line, NULL);
		sx_set_error(x, s->no, "%s: ROLLBACK after SET autocommit=0, "
		    "outside BEGIN ... COMMIT: what came before it ran in "
		    "sqlexec's own transactions and may be committed; run "
		    "this input with the mysql client", b.p);
		buf_release(&b);
		return -1;
	}
	if (d->txn == 0 && k != TXN_BEGIN)
		return 1;	/* skipped, as any transaction control; XA: a barrier */
	if (d->txn == 0) {
		st_unit_close(d);
		st_cool_all(d);
		d->txn = s->no;
		d->txn_hash = d->prev_hash;
		if (d->o->dry_run) {
			st_plan_line(s, "barrier", "the input's transaction "
			    "begins: up to its COMMIT or ROLLBACK, one "
			    "connection");
			return 0;
		}
		if (sx_drain(x) == -1)
			return -1;
		st_done(x, s->no - 1, d->prev_hash);
		pthread_mutex_lock(&x->mu);
		d->txn_rows = x->rows;
		pthread_mutex_unlock(&x->mu);
		return sx_exec_one(x, 0, s, 1);
	}
	if (s->kind == STK_LOCK || s->kind == STK_UNLOCK) {
		if (d->o->dry_run)
			st_plan_line(s, "skipped", "table locks");
		x->nskipped++;
		return 0;
	}
	if (a == ACT_SESSION)
		st_go_serial(d, s, "a session statement inside the input's "
		    "transaction");
	begin = d->txn;
	if (k == TXN_COMMIT || k == TXN_ROLLBACK)
		d->txn = 0;
	if (d->o->dry_run) {
		st_plan_line(s, d->txn ? "in the input's transaction" :
		    "ends the input's transaction", "");
		return 0;
	}
	open = d->txn != 0;
	flags = (k == TXN_COMMIT && !sx_is_xa(s) ? SX_IN_COMMIT : 0) |
	    (!sx_changes_rows(s) && a != ACT_SESSION &&
	    s->kind != STK_TRANSACTION ? SX_IN_NONTX : 0);
	if (sx_input_stmt(x, s, d->prev_hash, d->hash, begin, flags,
	    &open) == -1)
		return -1;
	if (!open)
		d->txn = 0;
	if (a == ACT_SESSION && sx_keep_unique_checks(x, 0, s) == -1)
		return -1;
	/* rolled back: the summary counts the rows committed */
	if (k == TXN_ROLLBACK)
		st_txn_undone(d);
	return 0;
}

/*
 * A session statement before --skip-to: it runs again (the session after
 * it is the one the input intended), and the summary counts it apart.
 * One that fails before the input's identity is checked (the USE of a
 * database the target does not hold) is kept as d->held_err and the
 * rest before the point are not run: another input's point is refused
 * as such first (issue 25 F7).  Nothing is queued before the point, so
 * the run can go on to it.
 */
int
st_session_before(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	uint64_t	 n, bytes;
	int		 rc;

	if (d->held_err != NULL) {
		d->resumed++;
		return 0;
	}
	/* before --skip-to nothing is in a unit: the workers are idle */
	pthread_mutex_lock(&x->mu);
	n = x->nstmts;
	bytes = x->bytes;
	pthread_mutex_unlock(&x->mu);
	rc = st_barrier(d, s, ST_EVERY, "before --skip-to");
	if (d->o->dry_run)
		return rc;
	pthread_mutex_lock(&x->mu);
	x->nstmts = n;
	x->bytes = bytes;
	if (rc == -1 && !d->checked && d->o->skip_has_hash &&
	    x->interrupted == 0 && x->err.msg != NULL && !x->no_resume &&
	    x->doubt == NULL) {
		d->held_err = x->err.msg;
		d->held_no = x->err.no;
		x->err.msg = NULL;
		x->err.no = 0;
		x->stop = 0;
		rc = 0;
	}
	pthread_mutex_unlock(&x->mu);
	d->resumed_session++;
	return rc;
}
