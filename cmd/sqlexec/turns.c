/*
 * turns: the order of units (engine.h's model): the queue the dispatcher
 * fills in input order (sx_push, bounded by -j and by large units), the
 * turn a unit commits in (sx_wait_turn), the stop of every unit after a
 * failed one (sx_fail_unit), the barrier's wait (sx_drain), and the run's
 * serial mode after a lock conflict (sx_unit_start, sx_wound).  What a
 * unit does in its transaction is commit.c's; here only who goes when,
 * under x->mu.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "load.h"

/*
 * u->gen is x->wound_gen + 1 when u's work began in parallel (0: in its
 * turn): a lock conflict since then (sx_wound()) may be one of its locks.
 */
#define WOUNDED(x, u)	((u)->gen != 0 && (u)->gen != (x)->wound_gen + 1)

int
sx_wait_turn(struct sx *x, struct sx_unit *u)
{
	int	 go;

	pthread_mutex_lock(&x->mu);
	while (x->committed_seq + 1 != u->seq && x->stop_seq > u->seq &&
	    !WOUNDED(x, u))
		pthread_cond_wait(&x->cv_commit, &x->mu);
	go = x->stop_seq <= u->seq ? 0 : WOUNDED(x, u) ? 2 : 1;
	pthread_mutex_unlock(&x->mu);
	return go;
}

/*
 * Before u's transaction: in parallel (0), or, once a lock conflict made
 * the run serial, in u's turn with no other unit holding a transaction
 * (1); -1: the run stopped before u.  Either way u then holds one
 * (x->holding) until unit_release().
 */
int
sx_unit_start(struct sx *x, struct sx_unit *u)
{
	int	 serial;

	pthread_mutex_lock(&x->mu);
	if (!(serial = x->serial))
		u->gen = x->wound_gen + 1;
	else {
		u->gen = 0;
		while ((x->committed_seq + 1 != u->seq || x->holding > 0) &&
		    x->stop_seq > u->seq)
			pthread_cond_wait(&x->cv_commit, &x->mu);
	}
	if (x->stop_seq <= u->seq)
		serial = -1;
	else
		x->holding++;
	pthread_mutex_unlock(&x->mu);
	return serial;
}

void
sx_unit_release(struct sx *x)
{
	pthread_mutex_lock(&x->mu);
	x->holding--;
	pthread_cond_broadcast(&x->cv_commit);
	pthread_mutex_unlock(&x->mu);
}

/*
 * u's work waited on a lock too long or lost a deadlock (e) while other
 * units held transactions, or is to be replayed (--force, e NULL): from
 * here on units work only in their turn, one at a time, and those whose
 * work began before roll back and work again (sx_wait_turn() says 2),
 * so that no unit waits on a later one's locks.  Said once.
 */
void
sx_wound(struct sx *x, const struct sx_unit *u, const char *e)
{
	struct buf	 b = BUF_INIT;
	int		 said;

	pthread_mutex_lock(&x->mu);
	said = x->serial;
	x->serial = 1;
	x->wound_gen++;
	pthread_cond_broadcast(&x->cv_commit);
	pthread_mutex_unlock(&x->mu);
	if (said || e == NULL)
		return;
	if (u->rows != NULL)
		sx_rows_where(&b, u);
	else
		sx_where(&b, u->st[0].no, u->st[0].line, NULL);
	sx_report(x, "%s: %s while later statements held their transactions "
	    "(a lock of one of them?): rolled back, and run again in its "
	    "turn; from here on each unit runs alone, in its turn",
	    b.p != NULL ? b.p : "a unit", e);
	buf_release(&b);
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
 * per connection pushed and not yet freed (SX_LARGE_WHOLE: two), so that
 * memory stays within sqlexec(1)'s bound however many there are in a
 * row.
 */
void
sx_push(struct sx *x, struct sx_unit *u)
{
	size_t	 bytes = u->rows != NULL ? u->rows->data.len : u->text.len;

	u->large = 0;
	if (bytes / 2 > x->o->commit_every)
		u->large = u->rows != NULL && !u->rows->text &&
		    x->nconn >= SX_LARGE_WHOLE && x->max_packet > 1024 &&
		    bytes < x->max_packet - 1024 ? SX_LARGE_WHOLE : SX_LARGE;
	pthread_mutex_lock(&x->mu);
	while ((x->qlen >= x->qmax || (u->large &&
	    x->qlarge + (size_t)u->large > (size_t)x->nconn)) && !x->stop)
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
