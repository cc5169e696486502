/*
 * lz core: the LZ4 frame format (lz4's doc/lz4_Frame_format.md) on top of
 * liblz4's block API, with a bounded pool of worker threads; see lz.h and
 * core.h.  This file: buffers, block decoding, the run's input and output.
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


size_t
block_size(int id)
{
	return (size_t)1 << (2 * id + 8);
}

void *
state_new(void)
{
	int	 n = LZ4_sizeofStateHC();

	if (n < LZ4_sizeofState())
		n = LZ4_sizeofState();
	return malloc(n);
}

/* Make *bufp hold at least n bytes, keeping its contents.  0 or -1. */
int
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
int
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
int
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

/* --- input and output --------------------------------------------------- */

int
out_write(struct lz *z, const void *p, size_t n)
{
	z->outoff += n;
	if (z->check != NULL && z->check_out)
		rpcheck_add(z->check, p, n);
	if (z->out == -1 || n == 0)
		return 0;
	if (write_all(z->out, p, n) == -1) {
		z->oerr = errno;
		return fail(z, "%s", strerror(errno));
	}
	return 0;
}

/* Read up to n bytes; fewer only at end of input.  -1 on a read error. */
ssize_t
in_read(struct lz *z, void *p, size_t n)
{
	size_t	 got;

	got = fread(p, 1, n, z->in);
	z->inoff += got;
	if (z->check != NULL && !z->check_out)
		rpcheck_add(z->check, p, got);
	progress_add(z->prog, 0, 0, got);
	if (got < n && ferror(z->in)) {
		z->ierr = errno ? errno : EIO;
		return fail(z, "read: %s", strerror(z->ierr));
	}
	return (ssize_t)got;
}

/* Read exactly n bytes: the end of input here is a truncation. */
int
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
int
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
int
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
