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

#include <errmsg.h>

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

/* A failed checkpoint write for statement s: recorded, -1. */
static int
ckpt_error(struct dispatch *d, const struct rp_stmt *s, MYSQL *m)
{
	struct buf	 b = BUF_INIT;

	sx_where(&b, s->no, s->line, NULL);
	sx_set_error(d->x, s->no, "%s: checkpoint %s: ERROR %u (%s): %s", b.p,
	    d->o->checkpoint, mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
	(void)sx_rollback(d->x, m, s->no, b.p);
	buf_release(&b);
	return -1;
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

	if (!st_transactional(s) && s->kind != STK_CREATE_TABLE)
		return;
	sx_target(&b, s);
	pthread_mutex_lock(&x->mu);
	sx_wrote(x, b.p);
	pthread_mutex_unlock(&x->mu);
	buf_release(&b);
}

/*
 * st_barrier() with --checkpoint, on connection 1, everything before s
 * committed.  DML runs in a transaction with the checkpoint row; anything
 * else (DDL commits on its own) is recorded as pending while it runs, so
 * that a stop in the middle is not mistaken for either outcome.
 */
static int
barrier_checkpointed(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	MYSQL		*m = x->conn[0];
	struct buf	 b = BUF_INIT;
	int		 rc, ran;

	/* A write to a MyISAM table is done when it runs: as DDL. */
	if (st_transactional(s) && x->engine == NULL) {
		if (mysql_query(m, "START TRANSACTION") != 0)
			return ckpt_error(d, s, m);
		if (sx_exec_one(x, 0, s, 1) == -1) {
			sx_where(&b, s->no, s->line, NULL);
			(void)sx_rollback(x, m, s->no, b.p);
			buf_release(&b);
			return -1;
		}
		if (sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1) == -1)
			return ckpt_error(d, s, m);
		wrote(x, s);
		st_done(x, s->no, d->hash);
		return 0;
	}
	if (sx_ckpt_write(x, m, s->no - 1, d->prev_hash, s->no, d->hash,
	    1) == -1)
		return ckpt_error(d, s, m);
	rc = sx_exec_one(x, 0, s, 0);
	pthread_mutex_lock(&x->mu);
	ran = x->done_no >= s->no;	/* --strict: it ran, with warnings */
	pthread_mutex_unlock(&x->mu);
	if (rc == -1 && ran)
		(void)sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1);
	/*
	 * It did not run, or failed as a whole: no longer pending.  A write
	 * to a table that is not transactional may have stopped part way:
	 * it stays pending, for the user to decide.
	 */
	else if (rc == -1 && mysql_errno(m) < CR_MIN_ERROR &&
	    x->engine == NULL)
		(void)sx_ckpt_write(x, m, s->no - 1, d->prev_hash, 0, 0, 1);
	if (rc == -1)
		return -1;
	if (sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1) == -1)
		return ckpt_error(d, s, m);
	wrote(x, s);
	st_done(x, s->no, d->hash);
	return 0;
}

/* Run a barrier or session statement once everything before is done. */
int
st_barrier(struct dispatch *d, const struct rp_stmt *s, int every,
    const char *why)
{
	struct sx	*x = d->x;
	int		 c, rc;

	st_unit_close(d);
	if (!every)
		st_cool_all(d);
	if (d->o->dry_run) {
		st_plan_line(s, every ? "session, every connection" : "barrier",
		    why);
		return 0;
	}
	if (sx_drain(x) == -1)
		return -1;
	st_done(x, s->no - 1, d->prev_hash);
	/* for the checkpoint, and to say what a failure leaves behind */
	if (!every && st_transactional(s) &&
	    st_stmt_engine(d, s, &x->engine) == -1)
		return -1;
	if (!every && d->o->checkpoint != NULL) {
		rc = barrier_checkpointed(d, s);
		x->engine = NULL;
		return rc;
	}
	for (c = 0; c < (every ? x->nconn : 1); c++) {
		if (sx_exec_one(x, c, s, 0) == -1) {
			x->engine = NULL;
			return -1;
		}
		if (every && sx_keep_unique_checks(x, c, s) == -1)
			return -1;
	}
	x->engine = NULL;
	if (!every)
		wrote(x, s);
	st_done(x, s->no, d->hash);
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

/*
 * --checkpoint inside the input's BEGIN ... COMMIT, on connection 1 in
 * that transaction, before (after == 0) and after statement s of kind k:
 * a COMMIT writes the position first, so that both commit together; a
 * statement that is not transactional writes itself as pending first (a
 * DDL's implicit commit then commits the row with the transaction); once
 * the transaction has ended otherwise (ROLLBACK, XA, a DDL), the position
 * is written and committed.
 */
static int
txn_checkpoint(struct dispatch *d, const struct rp_stmt *s, enum sx_txn k,
    enum sx_action a, int after)
{
	MYSQL	*m = d->x->conn[0];
	int	 plain_commit = k == TXN_COMMIT && !sx_is_xa(s);
	int	 rc = 0;

	if (!after && plain_commit)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 0);
	else if (!after && !st_transactional(s) && a != ACT_SESSION &&
	    s->kind != STK_TRANSACTION)
		rc = sx_ckpt_write(d->x, m, s->no - 1, d->prev_hash, s->no,
		    d->hash, 0);
	else if (after && d->txn == 0 && !plain_commit)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 1);
	else if (after && !st_transactional(s) && a != ACT_SESSION &&
	    s->kind != STK_TRANSACTION)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 0);
	return rc == -1 ? ckpt_error(d, s, m) : 0;
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
	if (k == TXN_COMMIT || k == TXN_ROLLBACK)
		d->txn = 0;
	if (d->o->dry_run) {
		st_plan_line(s, d->txn ? "in the input's transaction" :
		    "ends the input's transaction", "");
		return 0;
	}
	if (d->o->checkpoint != NULL && txn_checkpoint(d, s, k, a, 0) == -1)
		return -1;
	if (sx_exec_one(x, 0, s, 1) == -1) {
		/* A DDL that failed after its implicit commit: not pending. */
		if (d->o->checkpoint != NULL && !st_transactional(s) &&
		    mysql_errno(x->conn[0]) < CR_MIN_ERROR &&
		    !sx_in_transaction(x, 0))
			(void)sx_ckpt_write(x, x->conn[0], s->no - 1,
			    d->prev_hash, 0, 0, 1);
		return -1;
	}
	if (a == ACT_SESSION && sx_keep_unique_checks(x, 0, s) == -1)
		return -1;
	/* rolled back: the summary counts the rows committed */
	if (k == TXN_ROLLBACK)
		st_txn_undone(d);
	/* Ended, or ended implicitly (DDL, LOCK TABLES): all committed. */
	if (d->txn != 0 && !sx_in_transaction(x, 0))
		d->txn = 0;
	if (d->o->checkpoint != NULL && txn_checkpoint(d, s, k, a, 1) == -1)
		return -1;
	if (d->txn == 0)
		st_done(x, s->no, d->hash);
	return 0;
}

/*
 * A session statement before --skip-to: it runs again (the session after
 * it is the one the input intended), and the summary counts it apart.
 */
int
st_session_before(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	uint64_t	 n, bytes;
	int		 rc;

	/* before --skip-to nothing is in a unit: the workers are idle */
	pthread_mutex_lock(&x->mu);
	n = x->nstmts;
	bytes = x->bytes;
	pthread_mutex_unlock(&x->mu);
	rc = st_barrier(d, s, 1, "before --skip-to");
	if (d->o->dry_run)
		return rc;
	pthread_mutex_lock(&x->mu);
	x->nstmts = n;
	x->bytes = bytes;
	pthread_mutex_unlock(&x->mu);
	d->resumed_session++;
	return rc;
}
