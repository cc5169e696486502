/*
 * commit: the order of commits, which the resume point rests on
 * (sqlexec.h's model).  The dispatcher queues units in input order
 * (sx_push, bounded by -j); a worker commits its unit only in its turn,
 * once every earlier unit has committed (sx_wait_turn); a failed unit
 * stops the run and every later unit rolls back (sx_fail_unit);
 * sx_drain is the barrier: every queued unit committed.  Also a unit's
 * checked ROLLBACK and its memory, and a snapshot stream's unit of rows
 * as one transaction (sx_rows_txn: START TRANSACTION, the rows, the
 * turn, the checkpoint and COMMIT, or ROLLBACK; a table that is not
 * transactional in autocommit, pending in the checkpoint); the statement
 * stream's unit is worker.c's run_txn().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

int
sx_wait_turn(struct sx *x, struct sx_unit *u)
{
	int	 go;

	pthread_mutex_lock(&x->mu);
	while (x->committed_seq + 1 != u->seq && x->stop_seq > u->seq)
		pthread_cond_wait(&x->cv_commit, &x->mu);
	go = x->stop_seq > u->seq;
	pthread_mutex_unlock(&x->mu);
	return go;
}

void
sx_fail_unit(struct sx *x, struct sx_unit *u)
{
	pthread_mutex_lock(&x->mu);
	if (u->seq < x->stop_seq)
		x->stop_seq = u->seq;
	x->stop = 1;
	pthread_cond_broadcast(&x->cv_commit);
	pthread_cond_broadcast(&x->cv_space);
	pthread_cond_broadcast(&x->cv_work);
	pthread_mutex_unlock(&x->mu);
}

int
sx_unit_rollback(struct sx *x, MYSQL *m, struct sx_unit *u)
{
	struct buf	 b = BUF_INIT;
	const char	*last = NULL, *t;
	size_t		 k;
	int		 rc;

	buf_addf(&b, "statements %" PRIu64 "-%" PRIu64, u->st[0].no,
	    u->st[u->n - 1].no);
	for (k = 0; k < u->n; k++) {
		if (u->st[k].ctx == SX_NOCTX)
			continue;
		t = u->ctx.p + u->st[k].ctx;
		if (last == NULL || strcmp(last, t) != 0)
			buf_addf(&b, "%s%s", last == NULL ? " (tables " : ", ",
			    t);
		last = t;
	}
	if (last != NULL)
		buf_adds(&b, ")");
	rc = sx_rollback(x, m, u->st[0].no, b.p);
	buf_release(&b);
	return rc == 1 ? -1 : 0;
}

void
sx_unit_free(struct sx_unit *u)
{
	if (u == NULL)
		return;
	sx_rows_free(u->rows);
	buf_release(&u->text);
	buf_release(&u->ctx);
	free(u->st);
	free(u);
}

void
sx_rows_free(struct sx_rows *r)
{
	if (r == NULL)
		return;
	buf_release(&r->data);
	free(r->end);
	free(r);
}

/*
 * Queue u for the workers, waiting for room: at most qmax units queued,
 * and of units over twice commit_every (a huge statement or row: a unit
 * ends once past commit_every, so others stay below that) at most one
 * per connection pushed and not yet freed, so that memory stays within
 * sqlexec(1)'s bound however many there are in a row.
 */
void
sx_push(struct sx *x, struct sx_unit *u)
{
	size_t	 bytes = u->rows != NULL ? u->rows->data.len : u->text.len;

	u->large = bytes / 2 > x->o->commit_every;
	pthread_mutex_lock(&x->mu);
	while ((x->qlen >= x->qmax || (u->large &&
	    x->qlarge >= (size_t)x->nconn)) && !x->stop)
		pthread_cond_wait(&x->cv_space, &x->mu);
	if (x->stop) {
		pthread_mutex_unlock(&x->mu);
		sx_unit_free(u);
		return;
	}
	u->seq = ++x->next_seq;
	u->next = NULL;
	if (x->qtail != NULL)
		x->qtail->next = u;
	else
		x->qhead = u;
	x->qtail = u;
	x->qlen++;
	x->qlarge += u->large;
	pthread_cond_signal(&x->cv_work);
	pthread_mutex_unlock(&x->mu);
}

int
sx_drain(struct sx *x)
{
	int	 ok;

	pthread_mutex_lock(&x->mu);
	while (x->committed_seq != x->next_seq && !x->stop)
		pthread_cond_wait(&x->cv_commit, &x->mu);
	ok = !x->stop;
	pthread_mutex_unlock(&x->mu);
	return ok ? 0 : -1;
}

/* ROLLBACK of u, checked (nontx.c): 0, or -1 if rows stay behind. */
static int
rows_rollback(struct sx *x, MYSQL *m, struct sx_unit *u)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	sx_rows_where(&b, u);
	rc = sx_rollback(x, m, u->rows->first_frame, b.p);
	buf_release(&b);
	return rc == 1 ? -1 : 0;
}

/*
 * sx_rows_txn() for a table that is not transactional (nontx.c): the
 * unit runs alone (load.c), in autocommit, so that no ROLLBACK can leave
 * its rows behind to be loaded again.  With --checkpoint it is pending
 * while it runs, and stays so if it stops part way: then only the user
 * can tell what is in the table, and the run says so.
 */
static int
rows_nontx(struct sx *x, int c, struct sx_unit *u, uint64_t *rowsp,
    uint64_t *warnsp)
{
	MYSQL		*m = x->conn[c];
	struct buf	 b = BUF_INIT;
	uint64_t	 rows = 0, warns = 0;

	if (!sx_wait_turn(x, u))
		return -1;
	if (sx_ckpt_write_unit(x, m, u, 1) != 0) {
		sx_rows_conn_error(x, u, "checkpoint", m);
		sx_fail_unit(x, u);
		return -1;
	}
	if (sx_rows_load(x, c, u, &rows, &warns) == -1) {
		sx_rows_where(&b, u);
		sx_nontx_note(x, u->rows->first_frame, b.p, u->rows->t->engine,
		    0);
		buf_release(&b);
		pthread_mutex_lock(&x->mu);
		x->rows += rows;	/* they are in the table */
		pthread_mutex_unlock(&x->mu);
		sx_fail_unit(x, u);
		return -1;
	}
	if (sx_ckpt_write_unit(x, m, u, 0) != 0) {
		sx_rows_conn_error(x, u, "checkpoint", m);
		sx_fail_unit(x, u);
		return -1;
	}
	*rowsp = rows;
	*warnsp = warns;
	return 0;
}

int
sx_rows_txn(struct sx *x, int c, struct sx_unit *u, uint64_t *rowsp,
    uint64_t *warnsp)
{
	MYSQL		*m = x->conn[c];
	uint64_t	 rows = 0, warns = 0;

	if (u->rows->t->engine != NULL)
		return rows_nontx(x, c, u, rowsp, warnsp);
	if (mysql_query(m, "START TRANSACTION") != 0) {
		sx_rows_conn_error(x, u, "START TRANSACTION", m);
		sx_fail_unit(x, u);
		return -1;
	}
	if (sx_rows_load(x, c, u, &rows, &warns) == -1) {
		(void)rows_rollback(x, m, u);
		sx_fail_unit(x, u);
		return -1;
	}
	if (!sx_wait_turn(x, u)) {
		(void)rows_rollback(x, m, u);
		return -1;
	}
	/* with --checkpoint, the position commits with the rows */
	if (sx_ckpt_write_unit(x, m, u, 0) != 0) {
		struct buf	 b = BUF_INIT;

		sx_rows_where(&b, u);
		sx_commit_failed(x, m, u, b.p, "its COMMIT");
		buf_release(&b);
		sx_rows_conn_error(x, u, "COMMIT", m);
		sx_fail_unit(x, u);
		return -1;
	}
	*rowsp = rows;
	*warnsp = warns;
	return 0;
}
