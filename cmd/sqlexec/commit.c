/*
 * commit: the order of commits, which the resume point rests on
 * (sqlexec.h's model).  The dispatcher queues units in input order
 * (sx_push, bounded by -j); a worker commits its unit only in its turn,
 * once every earlier unit has committed (sx_wait_turn); a failed unit
 * stops the run and every later unit rolls back (sx_fail_unit);
 * sx_drain is the barrier: every queued unit committed.  Also a unit's
 * checked ROLLBACK and its memory.
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

void
sx_push(struct sx *x, struct sx_unit *u)
{
	pthread_mutex_lock(&x->mu);
	while (x->qlen >= x->qmax && !x->stop)
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
