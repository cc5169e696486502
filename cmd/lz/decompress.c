/*
 * decompress: LZ4 frames, skippable frames and legacy frames, in any
 * order, decoded by the pool or inline (linked blocks); lz_decompress()
 * and lz_list() of lz.h.
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
