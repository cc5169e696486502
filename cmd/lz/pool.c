/*
 * pool: the worker threads and their ring of slots (see core.h), and the
 * job a worker runs on a slot: compress one block, or decode one.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4hc.h>
#include <xxhash.h>

#include "progress.h"
#include "core.h"

/* --- jobs, run by a worker (or inline) ---------------------------------- */

static void
job_compress(const struct lz_opts *o, struct slot *s, void *state)
{
	unsigned char	*dst = s->out + 4;
	int		 n = (int)s->inlen, c;
	uint32_t	 hdr;

	/* Capacity n - 1: a block that does not shrink is stored raw. */
	if (o->level >= LZ4HC_CLEVEL_MIN)
		c = LZ4_compress_HC_extStateHC(state, (const char *)s->in,
		    (char *)dst, n, n - 1, o->level);
	else
		c = LZ4_compress_fast_extState(state, (const char *)s->in,
		    (char *)dst, n, n - 1, o->accel);
	if (c <= 0) {
		memcpy(dst, s->in, n);
		c = n;
		hdr = (uint32_t)n | RAW_FLAG;
	} else
		hdr = (uint32_t)c;
	le32_put(s->out, hdr);
	s->reslen = 4 + (size_t)c;
	if (o->block_crc) {
		le32_put(s->out + s->reslen, XXH32(dst, c, 0));
		s->reslen += 4;
	}
	s->res = s->out;
}

static void
job_decode(struct slot *s)
{
	int	 r;

	if (s->has_crc && XXH32(s->in, s->inlen, 0) != s->crc) {
		s->err = SE_BCRC;
		return;
	}
	if (s->raw) {
		s->res = s->in;
		s->reslen = s->inlen;
		return;
	}
	r = decode_block(s->in, s->inlen, &s->out, &s->outcap, 0, 0,
	    s->outmax);
	if (r < 0) {
		s->err = r == -2 ? SE_NOMEM : SE_BLOCK;
		return;
	}
	s->res = s->out;
	s->reslen = (size_t)r;
}

static void
job_run(struct pool *p, struct slot *s, void *state)
{
	s->err = SE_OK;
	if (p->job == JOB_COMPRESS && state == NULL)
		s->err = SE_NOMEM;
	else if (p->job == JOB_COMPRESS)
		job_compress(p->o, s, state);
	else
		job_decode(s);
}

/* --- the pool ----------------------------------------------------------- */

static void *
worker(void *arg)
{
	struct pool	*p = arg;
	struct slot	*s;
	void		*state = NULL;

	if (p->job == JOB_COMPRESS)
		state = state_new();	/* NULL: each job says SE_NOMEM */
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && p->take == p->head)
			pthread_cond_wait(&p->cv_work, &p->mu);
		if (p->quit)
			break;
		s = &p->slot[p->take++ % p->nslot];
		pthread_mutex_unlock(&p->mu);
		job_run(p, s, state);
		pthread_mutex_lock(&p->mu);
		s->done = 1;
		pthread_cond_broadcast(&p->cv_done);
	}
	pthread_mutex_unlock(&p->mu);
	free(state);
	return NULL;
}

int
pool_init(struct pool *p, struct lz *z, enum job job)
{
	unsigned	 i;

	memset(p, 0, sizeof(*p));
	p->o = z->o;
	p->job = job;
	p->nth = z->o->threads > 0 ? (unsigned)z->o->threads : 0;
	p->nslot = p->nth > 0 ? 2 * p->nth : 1;
	if ((p->slot = calloc(p->nslot, sizeof(*p->slot))) == NULL ||
	    (p->th = calloc(p->nth + 1, sizeof(*p->th))) == NULL ||
	    (job == JOB_COMPRESS && (p->state = state_new()) == NULL)) {
		free(p->slot);
		free(p->th);
		p->slot = NULL;
		return fail(z, "%s", strerror(ENOMEM));
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv_work, NULL);
	pthread_cond_init(&p->cv_done, NULL);
	for (i = 0; i < p->nth; i++) {
		if ((errno = pthread_create(&p->th[i], NULL, worker, p)) != 0)
			return fail(z, "pthread_create: %s", strerror(errno));
		p->started++;
	}
	return 0;
}

void
pool_free(struct pool *p)
{
	unsigned	 i;

	if (p->slot == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv_work);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->started; i++)
		pthread_join(p->th[i], NULL);
	for (i = 0; i < p->nslot; i++) {
		free(p->slot[i].in);
		free(p->slot[i].out);
	}
	free(p->slot);
	free(p->th);
	free(p->state);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv_work);
	pthread_cond_destroy(&p->cv_done);
	p->slot = NULL;
}

/* Give every slot room for incap input and outcap output bytes; idle pool. */
int
pool_reserve(struct pool *p, struct lz *z, size_t incap, size_t outcap)
{
	struct slot	*s;
	unsigned	 i;

	for (i = 0; i < p->nslot; i++) {
		s = &p->slot[i];
		if (s->incap < incap) {
			free(s->in);
			if ((s->in = malloc(incap)) == NULL)
				goto nomem;
			s->incap = incap;
		}
		if (s->outcap < outcap) {
			free(s->out);
			if ((s->out = malloc(outcap)) == NULL)
				goto nomem;
			s->outcap = outcap;
		}
	}
	return 0;
nomem:
	s->incap = s->outcap = 0;
	free(s->out);
	s->out = NULL;
	return fail(z, "%s", strerror(ENOMEM));
}

int
pool_full(const struct pool *p)
{
	return p->head - p->tail == p->nslot;
}

/* The slot to fill next; only when !pool_full(). */
struct slot *
pool_next(struct pool *p)
{
	return &p->slot[p->head % p->nslot];
}

void
pool_submit(struct pool *p)
{
	struct slot	*s = pool_next(p);

	if (p->nth == 0) {
		job_run(p, s, p->state);
		s->done = 1;
		p->head++;
		return;
	}
	pthread_mutex_lock(&p->mu);
	s->done = 0;
	p->head++;
	pthread_cond_signal(&p->cv_work);
	pthread_mutex_unlock(&p->mu);
}

/* Wait for the oldest queued slot; NULL if none.  pool_release() it after. */
struct slot *
pool_oldest(struct pool *p)
{
	struct slot	*s;

	if (p->tail == p->head)
		return NULL;
	s = &p->slot[p->tail % p->nslot];
	if (p->nth > 0) {
		pthread_mutex_lock(&p->mu);
		while (!s->done)
			pthread_cond_wait(&p->cv_done, &p->mu);
		pthread_mutex_unlock(&p->mu);
	}
	return s;
}

void
pool_release(struct pool *p)
{
	p->tail++;
}
