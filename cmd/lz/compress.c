/*
 * compress: an input to one LZ4 frame (header, blocks compressed by the
 * pool, end mark, content checksum); lz_compress() of lz.h.
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
