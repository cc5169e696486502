/*
 * xxh: XXH3_64bits (xxHash, https://github.com/Cyan4973/xxHash), one-shot
 * and streaming, the fastest way this CPU allows.
 *
 * The shared libxxhash is built for the baseline instruction set (SSE2);
 * on a CPU with AVX2 the same algorithm, inlined from xxhash.h and
 * compiled for AVX2 in xxh.c, runs several times as fast over the frame
 * payloads and SQL text rowpipe hashes.  Both give the same digest
 * (xxHash guarantees it across vector widths); a handle uses one of them
 * from reset to digest.  The CPU is asked once.
 */
#ifndef ROWPIPE_XXH_H
#define ROWPIPE_XXH_H

#include <stddef.h>
#include <stdint.h>

/* XXH3_64bits of the len bytes at p (unseeded). */
uint64_t	 rp_xxh3(const void *p, size_t len);

/* A streaming XXH3_64bits over everything given to rp_xxh_update(). */
struct rp_xxh;
struct rp_xxh	*rp_xxh_new(void);	/* NULL: out of memory */
void		 rp_xxh_update(struct rp_xxh *, const void *, size_t);
/* The digest so far; updates may go on after it. */
uint64_t	 rp_xxh_digest(struct rp_xxh *);
void		 rp_xxh_free(struct rp_xxh *);	/* NULL is a no-op */

#endif
