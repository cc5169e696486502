/*
 * lz core: the LZ4 frame format (lz4's doc/lz4_Frame_format.md) on top of
 * liblz4's block API, with a bounded pool of worker threads; see lz.h.
 *
 * Threads: the calling thread reads the input in blocks, hands each block
 * to a slot of a ring of 2 * threads slots, and takes the slots back in
 * order to checksum the content and write it.  Workers compress or decode
 * one slot at a time.  Memory is the ring: slots * (input + output) bytes,
 * whatever the input size.
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
#include "util.h"
#include "lz.h"

#define LZ4F_MAGIC	0x184D2204U
#define LEGACY_MAGIC	0x184C2102U
#define SKIP_MAGIC	0x184D2A50U	/* low 4 bits: any */
#define SKIP_MASK	0xFFFFFFF0U
#define LEGACY_BLOCK	(8 << 20)
#define DICT_SIZE	(64 << 10)
#define RAW_FLAG	0x80000000U

/* FLG byte */
#define FLG_VERSION	0x40
#define FLG_INDEP	0x20
#define FLG_BCRC	0x10
#define FLG_CSIZE	0x08
#define FLG_CCRC	0x04
#define FLG_DICTID	0x01

enum job { JOB_COMPRESS, JOB_DECODE };
enum slot_err { SE_OK, SE_BLOCK, SE_BCRC, SE_NOMEM };

struct slot {
	unsigned char	*in, *out;
	size_t		 incap, outcap;
	size_t		 inlen;
	const unsigned char *res;	/* result: out, or in for raw blocks */
	size_t		 reslen;
	size_t		 outmax;	/* JOB_DECODE: largest decoded size */
	uint64_t	 off;		/* input offset of the block header */
	uint32_t	 crc;		/* JOB_DECODE: expected block checksum */
	int		 has_crc, raw;
	int		 err;		/* enum slot_err */
	int		 done;		/* under pool.mu */
};

struct pool {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv_work;	/* a slot was queued, or quit */
	pthread_cond_t	 cv_done;	/* a slot was done */
	const struct lz_opts *o;
	enum job	 job;
	struct slot	*slot;
	unsigned	 nslot, nth, started;
	uint64_t	 head;		/* slots queued by the main thread */
	uint64_t	 take;		/* next slot for a worker */
	uint64_t	 tail;		/* oldest slot not yet released */
	int		 quit;
	void		*state;		/* compression state for nth == 0 */
	pthread_t	*th;
};

/* Record why the run fails in z->err; -1. */
#define fail(z, ...)	errf((z)->err, sizeof((z)->err), __VA_ARGS__)

static size_t
block_size(int id)
{
	return (size_t)1 << (2 * id + 8);
}

static void *
state_new(void)
{
	int	 n = LZ4_sizeofStateHC();

	if (n < LZ4_sizeofState())
		n = LZ4_sizeofState();
	return malloc(n);
}

/* Make *bufp hold at least n bytes, keeping its contents.  0 or -1. */
static int
grow(unsigned char **bufp, size_t *capp, size_t n)
{
	unsigned char	*p;

	if (*capp >= n)
		return 0;
	if ((p = realloc(*bufp, n)) == NULL)
		return -1;
	*bufp = p;
	*capp = n;
	return 0;
}

/* Like grow(), keeping only the first keep bytes. */
static int
grow_keep(unsigned char **bufp, size_t *capp, size_t n, size_t keep)
{
	unsigned char	*p;

	if (*capp >= n)
		return 0;
	if ((p = malloc(n)) == NULL)
		return -1;
	if (keep > *capp)
		keep = *capp;
	if (keep > 0)
		memcpy(p, *bufp, keep);
	free(*bufp);
	*bufp = p;
	*capp = n;
	return 0;
}

/*
 * Decode one block of len bytes from src into *bufp at offset pre, after
 * dictlen bytes of dictionary that end there; at most bmax bytes.  The
 * buffer grows on demand so that small blocks and frames cost small
 * buffers: first to 4 times the compressed size, then, if the block does
 * not decode in that, to bmax.  Returns the decoded size, -1 for bad data,
 * -2 if out of memory.
 */
static int
decode_block(const unsigned char *src, size_t len, unsigned char **bufp,
    size_t *capp, size_t pre, size_t dictlen, size_t bmax)
{
	size_t	 want = len < 16384 ? 65536 : 4 * len, room;
	int	 r;

	for (;;) {
		if (want > bmax)
			want = bmax;
		if (grow_keep(bufp, capp, pre + want, pre) == -1)
			return -2;
		room = *capp - pre < bmax ? *capp - pre : bmax;
		r = LZ4_decompress_safe_usingDict((const char *)src,
		    (char *)*bufp + pre, (int)len, (int)room,
		    (const char *)*bufp + pre - dictlen, (int)dictlen);
		if (r >= 0 || room >= bmax)
			return r < 0 ? -1 : r;
		want = bmax;
	}
}

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

static int
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

static void
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
static int
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

static int
pool_full(const struct pool *p)
{
	return p->head - p->tail == p->nslot;
}

/* The slot to fill next; only when !pool_full(). */
static struct slot *
pool_next(struct pool *p)
{
	return &p->slot[p->head % p->nslot];
}

static void
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
static struct slot *
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

static void
pool_release(struct pool *p)
{
	p->tail++;
}

/* --- input and output --------------------------------------------------- */

static int
out_write(struct lz *z, const void *p, size_t n)
{
	z->outoff += n;
	if (z->out == -1 || n == 0)
		return 0;
	if (write_all(z->out, p, n) == -1) {
		z->oerr = errno;
		return fail(z, "%s", strerror(errno));
	}
	return 0;
}

/* Read up to n bytes; fewer only at end of input.  -1 on a read error. */
static ssize_t
in_read(struct lz *z, void *p, size_t n)
{
	size_t	 got;

	got = fread(p, 1, n, z->in);
	z->inoff += got;
	progress_add(z->prog, 0, 0, got);
	if (got < n && ferror(z->in)) {
		z->ierr = errno ? errno : EIO;
		return fail(z, "read: %s", strerror(z->ierr));
	}
	return (ssize_t)got;
}

/* Read exactly n bytes: the end of input here is a truncation. */
static int
in_need(struct lz *z, void *p, size_t n)
{
	ssize_t	 r;

	if ((r = in_read(z, p, n)) == -1)
		return -1;
	if ((size_t)r < n)
		return fail(z, "truncated at byte %" PRIu64, z->inoff);
	return 0;
}

/*
 * Read exactly n bytes into *bufp, growing it as the bytes arrive (so that
 * a damaged length costs no more memory than the input holds).
 */
static int
in_need_buf(struct lz *z, unsigned char **bufp, size_t *capp, size_t n)
{
	size_t	 got = 0, step;
	ssize_t	 r;

	while (got < n) {
		step = got < 32768 ? 65536 : 2 * got;
		if (step > n)
			step = n;
		if (grow(bufp, capp, step) == -1)
			return fail(z, "%s", strerror(ENOMEM));
		if ((r = in_read(z, *bufp + got, step - got)) == -1)
			return -1;
		got += r;
		if (got < step)
			return fail(z, "truncated at byte %" PRIu64, z->inoff);
	}
	return 0;
}

/* Skip n bytes of input. */
static int
in_skip(struct lz *z, uint64_t n)
{
	char	 buf[16384];
	size_t	 k;

	while (n > 0) {
		k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		if (in_need(z, buf, k) == -1)
			return -1;
		n -= k;
	}
	return 0;
}

/* --- compression -------------------------------------------------------- */

static int
write_header(struct lz *z, int64_t insize)
{
	const struct lz_opts *o = z->o;
	unsigned char	 h[19];
	size_t		 n = 4;

	le32_put(h, LZ4F_MAGIC);
	h[n++] = FLG_VERSION | FLG_INDEP | (o->block_crc ? FLG_BCRC : 0) |
	    (o->content_crc ? FLG_CCRC : 0) |
	    (o->content_size && insize >= 0 ? FLG_CSIZE : 0);
	h[n++] = (unsigned char)(o->block_id << 4);
	if (o->content_size && insize >= 0) {
		le32_put(h + n, (uint32_t)insize);
		le32_put(h + n + 4, (uint32_t)((uint64_t)insize >> 32));
		n += 8;
	}
	h[n] = (XXH32(h + 4, n - 4, 0) >> 8) & 0xFF;
	return out_write(z, h, n + 1);
}

static int
compress_run(struct lz *z, struct pool *p, XXH32_state_t *xs, int64_t insize)
{
	size_t		 bs = block_size(z->o->block_id);
	struct slot	*s;
	ssize_t		 n;
	uint64_t	 total = 0;
	unsigned char	 end[8];
	int		 eof = 0;

	if (pool_reserve(p, z, bs, 8 + LZ4_compressBound((int)bs)) == -1 ||
	    write_header(z, insize) == -1)
		return -1;
	for (;;) {
		while (!eof && !pool_full(p)) {
			s = pool_next(p);
			if ((n = in_read(z, s->in, bs)) == -1)
				return -1;
			if ((size_t)n < bs)
				eof = 1;
			if (n == 0)
				break;
			if (z->o->content_crc)
				XXH32_update(xs, s->in, n);
			total += n;
			s->inlen = n;
			pool_submit(p);
		}
		if ((s = pool_oldest(p)) == NULL)
			break;
		if (s->err != SE_OK)
			return fail(z, "%s", strerror(ENOMEM));
		if (out_write(z, s->res, s->reslen) == -1)
			return -1;
		pool_release(p);
	}
	if (z->o->content_size && insize >= 0 && total != (uint64_t)insize)
		return fail(z, "input size changed while reading (%" PRIu64
		    " bytes, header says %" PRId64 ")", total, insize);
	le32_put(end, 0);
	le32_put(end + 4, XXH32_digest(xs));
	return out_write(z, end, z->o->content_crc ? 8 : 4);
}

int
lz_compress(struct lz *z, int64_t insize)
{
	struct pool	 p;
	XXH32_state_t	*xs;
	int		 rc;

	if ((xs = XXH32_createState()) == NULL)
		return fail(z, "%s", strerror(ENOMEM));
	XXH32_reset(xs, 0);
	if ((rc = pool_init(&p, z, JOB_COMPRESS)) == 0)
		rc = compress_run(z, &p, xs, insize);
	pool_free(&p);
	XXH32_freeState(xs);
	return rc;
}

/* --- decompression ------------------------------------------------------ */

struct frame {
	uint64_t	 off;		/* input offset of the magic */
	uint64_t	 outsize;	/* decoded bytes */
	uint64_t	 csize;		/* content size field, if FLG_CSIZE */
	size_t		 bmax;		/* block maximum size */
	const char	*type;
	int		 flg;
};

struct dec {
	struct lz	*z;
	struct pool	 pool;
	XXH32_state_t	*xs;
	unsigned char	*hist;		/* linked blocks: dictionary + block */
	size_t		 histcap;
	int		 ccrc;		/* hash the content of this frame */
	uint32_t	 pending;	/* legacy: magic read as a block size */
	int		 has_pending;
};

/* Checksum and write one decoded block. */
static int
dec_emit(struct dec *d, struct frame *f, const void *p, size_t n)
{
	if (d->ccrc)
		XXH32_update(d->xs, p, n);
	f->outsize += n;
	return out_write(d->z, p, n);
}

/* Take the oldest decoded slot back: report its error or emit it. */
static int
dec_retire(struct dec *d, struct frame *f)
{
	struct slot	*s;
	int		 rc = 0;

	if ((s = pool_oldest(&d->pool)) == NULL)
		return 0;
	if (s->err == SE_BCRC)
		rc = fail(d->z, "corrupt: block checksum mismatch (block at "
		    "byte %" PRIu64 ")", s->off);
	else if (s->err == SE_BLOCK)
		rc = fail(d->z, "corrupt: bad compressed block at byte %"
		    PRIu64, s->off);
	else if (s->err == SE_NOMEM)
		rc = fail(d->z, "%s", strerror(ENOMEM));
	else
		rc = dec_emit(d, f, s->res, s->reslen);
	pool_release(&d->pool);
	return rc;
}

static int
dec_drain(struct dec *d, struct frame *f)
{
	while (d->pool.tail != d->pool.head)
		if (dec_retire(d, f) == -1)
			return -1;
	return 0;
}

/* A block with no dependency: queue it for the workers. */
static int
dec_indep(struct dec *d, struct frame *f, uint64_t off, size_t len, int raw)
{
	struct lz	*z = d->z;
	struct slot	*s;
	unsigned char	 c[4];

	if (pool_full(&d->pool) && dec_retire(d, f) == -1)
		return -1;
	s = pool_next(&d->pool);
	if (in_need_buf(z, &s->in, &s->incap, len) == -1)
		return -1;
	s->has_crc = (f->flg & FLG_BCRC) != 0;
	if (s->has_crc) {
		if (in_need(z, c, 4) == -1)
			return -1;
		s->crc = le32_get(c);
	}
	s->inlen = len;
	s->raw = raw;
	s->off = off;
	s->outmax = f->bmax;
	pool_submit(&d->pool);
	return 0;
}

/*
 * A linked block: decode it here, right after the previous 64 KiB of
 * output kept at the front of d->hist, then keep its last 64 KiB there.
 */
static int
dec_linked(struct dec *d, struct frame *f, uint64_t off, size_t len, int raw,
    size_t *dictlen)
{
	struct lz	*z = d->z;
	struct slot	*s = pool_next(&d->pool);
	unsigned char	*dst, c[4];
	size_t		 keep;
	int		 r;

	if (in_need_buf(z, &s->in, &s->incap, len) == -1)
		return -1;
	if (f->flg & FLG_BCRC) {
		if (in_need(z, c, 4) == -1)
			return -1;
		if (XXH32(s->in, len, 0) != le32_get(c))
			return fail(z, "corrupt: block checksum mismatch (block"
			    " at byte %" PRIu64 ")", off);
	}
	if (raw) {
		if (grow(&d->hist, &d->histcap, DICT_SIZE + len) == -1)
			return fail(z, "%s", strerror(ENOMEM));
		memcpy(d->hist + DICT_SIZE, s->in, len);
		r = (int)len;
	} else if ((r = decode_block(s->in, len, &d->hist, &d->histcap,
	    DICT_SIZE, *dictlen, f->bmax)) < 0)
		return r == -2 ? fail(z, "%s", strerror(ENOMEM)) :
		    fail(z, "corrupt: bad compressed block at byte %" PRIu64,
		    off);
	dst = d->hist + DICT_SIZE;
	if (dec_emit(d, f, dst, (size_t)r) == -1)
		return -1;
	keep = *dictlen + (size_t)r;
	if (keep > DICT_SIZE)
		keep = DICT_SIZE;
	memmove(d->hist + DICT_SIZE - keep, dst + r - keep, keep);
	*dictlen = keep;
	return 0;
}

static int
dec_lz4f(struct dec *d, struct frame *f)
{
	struct lz	*z = d->z;
	unsigned char	 h[16], c[4];
	size_t		 n = 2, dictlen = 0, len;
	uint32_t	 bh;
	uint64_t	 off;
	int		 bd;

	f->type = "LZ4";
	if (in_need(z, h, 2) == -1)
		return -1;
	f->flg = h[0];
	bd = h[1];
	if ((f->flg & 0xC0) != FLG_VERSION)
		return fail(z, "corrupt: frame at byte %" PRIu64 ": unknown "
		    "version %d", f->off, f->flg >> 6);
	if ((f->flg & 0x02) || (bd & 0x8F) || ((bd >> 4) & 7) < 4)
		return fail(z, "corrupt: frame at byte %" PRIu64 ": bad frame "
		    "descriptor", f->off);
	if (f->flg & FLG_CSIZE)
		n += 8;
	if (f->flg & FLG_DICTID)
		n += 4;
	if (in_need(z, h + 2, n - 2 + 1) == -1)
		return -1;
	if (((XXH32(h, n, 0) >> 8) & 0xFF) != h[n])
		return fail(z, "corrupt: frame at byte %" PRIu64 ": header "
		    "checksum mismatch", f->off);
	if (f->flg & FLG_DICTID)
		return fail(z, "frame at byte %" PRIu64 ": needs a dictionary "
		    "(unsupported)", f->off);
	if (f->flg & FLG_CSIZE)
		f->csize = le32_get(h + 2) | (uint64_t)le32_get(h + 6) << 32;
	f->bmax = block_size((bd >> 4) & 7);
	d->ccrc = (f->flg & FLG_CCRC) != 0;
	XXH32_reset(d->xs, 0);
	for (;;) {
		off = z->inoff;
		if (in_need(z, c, 4) == -1)
			return -1;
		if ((bh = le32_get(c)) == 0)
			break;
		len = bh & ~RAW_FLAG;
		if (len > f->bmax)
			return fail(z, "corrupt: block at byte %" PRIu64 ": "
			    "size %zu over the frame's maximum %zu", off, len,
			    f->bmax);
		if ((f->flg & FLG_INDEP ? dec_indep(d, f, off, len,
		    (bh & RAW_FLAG) != 0) : dec_linked(d, f, off, len,
		    (bh & RAW_FLAG) != 0, &dictlen)) == -1)
			return -1;
	}
	if (dec_drain(d, f) == -1)
		return -1;
	if (f->flg & FLG_CCRC) {
		if (in_need(z, c, 4) == -1)
			return -1;
		if (le32_get(c) != XXH32_digest(d->xs))
			return fail(z, "corrupt: content checksum mismatch");
	}
	if ((f->flg & FLG_CSIZE) && f->csize != f->outsize)
		return fail(z, "corrupt: content size mismatch (header says %"
		    PRIu64 ", got %" PRIu64 ")", f->csize, f->outsize);
	return 0;
}

/*
 * Legacy frames (lz4 -l): 8 MiB independent blocks behind 4-byte sizes, no
 * checksums, ended by the end of input or by a size too large to be one,
 * which is the next frame's magic number (as lz4's lz4io.c does).
 */
static int
dec_legacy(struct dec *d, struct frame *f)
{
	struct lz	*z = d->z;
	unsigned char	 c[4];
	ssize_t		 r;
	uint32_t	 len;
	uint64_t	 off;

	f->type = "legacy";
	f->bmax = LEGACY_BLOCK;
	d->ccrc = 0;
	for (;;) {
		off = z->inoff;
		if ((r = in_read(z, c, 4)) == -1)
			return -1;
		if (r == 0)
			break;
		if (r < 4)
			return fail(z, "truncated at byte %" PRIu64, z->inoff);
		len = le32_get(c);
		if (len > (uint32_t)LZ4_compressBound(LEGACY_BLOCK)) {
			d->pending = len;
			d->has_pending = 1;
			z->inoff -= 4;
			break;
		}
		if (dec_indep(d, f, off, len, 0) == -1)
			return -1;
	}
	return dec_drain(d, f);
}

static void
list_frame(struct lz *z, const struct frame *f, uint64_t end)
{
	char	 bs[16], usz[24], fl[40] = "";

	if (z->list == NULL)
		return;
	if (f->bmax == 0)
		strlcpy(bs, "-", sizeof(bs));
	else if (f->bmax >= (1 << 20))
		snprintf(bs, sizeof(bs), "%zuM", f->bmax >> 20);
	else
		snprintf(bs, sizeof(bs), "%zuK", f->bmax >> 10);
	if (strcmp(f->type, "skippable") == 0)
		strlcpy(usz, "-", sizeof(usz));
	else
		snprintf(usz, sizeof(usz), "%" PRIu64, f->outsize);
	if (strcmp(f->type, "LZ4") == 0)
		snprintf(fl, sizeof(fl), "%s%s%s%s",
		    f->flg & FLG_INDEP ? "indep" : "linked",
		    f->flg & FLG_CCRC ? ",crc" : "",
		    f->flg & FLG_BCRC ? ",blockcrc" : "",
		    f->flg & FLG_CSIZE ? ",size" : "");
	fprintf(z->list, "%12" PRIu64 "  %-9s  %5s  %-25s  %12" PRIu64
	    "  %12s\n", f->off, f->type, bs, *fl ? fl : "-", end - f->off,
	    usz);
}

/* Read the next magic number: 1 if one, 0 at a clean end, -1 on error. */
static int
dec_magic(struct dec *d, uint32_t *magic, int first)
{
	struct lz	*z = d->z;
	unsigned char	 c[4], lz4f[4];
	ssize_t		 r;

	if (d->has_pending) {
		d->has_pending = 0;
		*magic = d->pending;
		z->inoff += 4;
		return 1;
	}
	if ((r = in_read(z, c, 4)) == -1)
		return -1;
	if (r == 0 && !first)
		return 0;
	le32_put(lz4f, LZ4F_MAGIC);
	if (r == 0 || (r < 4 && memcmp(c, lz4f, r) != 0 && first))
		return fail(z, "not an LZ4 stream");
	if (r < 4)
		return fail(z, "truncated at byte %" PRIu64, z->inoff);
	*magic = le32_get(c);
	return 1;
}

static int
dec_run(struct dec *d)
{
	struct lz	*z = d->z;
	struct frame	 f;
	uint32_t	 magic = 0;
	uint64_t	 tot_in = 0, tot_out = 0;
	unsigned	 nframe = 0;
	unsigned char	 c[4];
	int		 r, rc;

	while ((r = dec_magic(d, &magic, nframe == 0)) == 1) {
		memset(&f, 0, sizeof(f));
		f.off = z->inoff - 4;
		if (magic == LZ4F_MAGIC)
			rc = dec_lz4f(d, &f);
		else if (magic == LEGACY_MAGIC)
			rc = dec_legacy(d, &f);
		else if ((magic & SKIP_MASK) == SKIP_MAGIC) {
			f.type = "skippable";
			rc = in_need(z, c, 4);
			if (rc == 0)
				rc = in_skip(z, le32_get(c));
		} else if (nframe == 0)
			return fail(z, "not an LZ4 stream");
		else
			return fail(z, "byte %" PRIu64 ": not an LZ4 frame "
			    "(trailing garbage)", f.off);
		if (rc == -1)
			return -1;
		nframe++;
		list_frame(z, &f, z->inoff);
		tot_in = z->inoff;
		tot_out += f.outsize;
	}
	if (r == -1)
		return -1;
	if (z->list != NULL)
		fprintf(z->list, "%u frame%s, %" PRIu64 " bytes compressed, %"
		    PRIu64 " bytes uncompressed\n", nframe, nframe == 1 ? "" :
		    "s", tot_in, tot_out);
	return 0;
}

int
lz_decompress(struct lz *z)
{
	struct dec	 d;
	int		 rc;

	memset(&d, 0, sizeof(d));
	d.z = z;
	if ((d.xs = XXH32_createState()) == NULL)
		return fail(z, "%s", strerror(ENOMEM));
	if ((rc = pool_init(&d.pool, z, JOB_DECODE)) == 0)
		rc = dec_run(&d);
	pool_free(&d.pool);
	XXH32_freeState(d.xs);
	free(d.hist);
	return rc;
}

int
lz_list(struct lz *z)
{
	if (z->list != NULL)
		fprintf(z->list, "%12s  %-9s  %5s  %-25s  %12s  %12s\n",
		    "offset", "type", "block", "flags", "compressed",
		    "uncompressed");
	z->out = -1;
	return lz_decompress(z);
}
