/*
 * core: what the files of lz's core share (lz.h is its interface): the
 * LZ4 frame format's constants, the worker pool's slots, and the
 * buffer, input and output helpers.
 *
 * lz.c holds the helpers, pool.c the pool and its block jobs,
 * compress.c and decompress.c the two directions (and lz_list()).
 *
 * Threads: the calling thread reads the input in blocks, hands each block
 * to a slot of a ring of 2 * threads slots, and takes the slots back in
 * order to checksum the content and write it.  Workers compress or decode
 * one slot at a time.  Memory is the ring: slots * (input + output) bytes,
 * whatever the input size.
 */
#ifndef LZ_CORE_H
#define LZ_CORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

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

/* lz.c */
size_t	 block_size(int id);
void	*state_new(void);	/* LZ4 or LZ4 HC state; free(3) it */
int	 grow(unsigned char **bufp, size_t *capp, size_t n);
int	 grow_keep(unsigned char **bufp, size_t *capp, size_t n, size_t keep);
int	 decode_block(const unsigned char *src, size_t len,
	    unsigned char **bufp, size_t *capp, size_t pre, size_t dictlen,
	    size_t bmax);
int	 out_write(struct lz *, const void *, size_t);
ssize_t	 in_read(struct lz *, void *, size_t);
int	 in_need(struct lz *, void *, size_t);
int	 in_need_buf(struct lz *, unsigned char **bufp, size_t *capp, size_t n);
int	 in_skip(struct lz *, uint64_t n);

/* pool.c */
int	 pool_init(struct pool *, struct lz *, enum job);
void	 pool_free(struct pool *);
int	 pool_reserve(struct pool *, struct lz *, size_t incap, size_t outcap);
int	 pool_full(const struct pool *);
struct slot *pool_next(struct pool *);
void	 pool_submit(struct pool *);
struct slot *pool_oldest(struct pool *);
void	 pool_release(struct pool *);

#endif
