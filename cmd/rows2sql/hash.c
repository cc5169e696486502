/*
 * hash: XXH3_64bits of the SQL text as it is written, for the trailer.
 *
 * The shared libxxhash is built for the baseline instruction set (SSE2);
 * on a CPU with AVX2 the same algorithm, inlined from xxhash.h and
 * compiled for AVX2 here, runs about twice as fast.  The two give the same
 * digest (xxHash guarantees it across vector widths); one handle uses one
 * of them from reset to digest.
 */
#include <stdlib.h>

#include <xxhash.h>

#include "state.h"

/* The library's functions, wrapped before xxhash.h is included again
 * below with XXH_INLINE_ALL (which renames them for the rest of the file). */
static void *
lib_new(void)
{
	XXH3_state_t	*s = XXH3_createState();

	if (s != NULL)
		XXH3_64bits_reset(s);
	return s;
}

static void
lib_update(void *s, const void *p, size_t n)
{
	XXH3_64bits_update(s, p, n);
}

static uint64_t
lib_digest(void *s)
{
	return XXH3_64bits_digest(s);
}

static void
lib_free(void *s)
{
	XXH3_freeState(s);
}

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2")
#define XXH_INLINE_ALL
#include <xxhash.h>

static XXH3_state_t *
avx2_new(void)
{
	XXH3_state_t	*s = XXH3_createState();

	if (s != NULL)
		XXH3_64bits_reset(s);
	return s;
}

static void
avx2_update(XXH3_state_t *s, const void *p, size_t n)
{
	XXH3_64bits_update(s, p, n);
}

static uint64_t
avx2_digest(XXH3_state_t *s)
{
	return XXH3_64bits_digest(s);
}

static void
avx2_free(XXH3_state_t *s)
{
	XXH3_freeState(s);
}
#pragma GCC pop_options
#define HAVE_AVX2_PATH	1
#endif

struct r2s_hash {
	int		 avx2;
	void		*state;
};

struct r2s_hash *
r2s_hash_new(void)
{
	struct r2s_hash	*h;

	if ((h = calloc(1, sizeof(*h))) == NULL)
		return NULL;
#ifdef HAVE_AVX2_PATH
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2")) {
		h->avx2 = 1;
		h->state = avx2_new();
	} else
#endif
		h->state = lib_new();
	if (h->state == NULL) {
		free(h);
		return NULL;
	}
	return h;
}

void
r2s_hash_update(struct r2s_hash *h, const void *p, size_t n)
{
#ifdef HAVE_AVX2_PATH
	if (h->avx2) {
		avx2_update(h->state, p, n);
		return;
	}
#endif
	lib_update(h->state, p, n);
}

uint64_t
r2s_hash_digest(struct r2s_hash *h)
{
#ifdef HAVE_AVX2_PATH
	if (h->avx2)
		return avx2_digest(h->state);
#endif
	return lib_digest(h->state);
}

void
r2s_hash_free(struct r2s_hash *h)
{
	if (h == NULL)
		return;
#ifdef HAVE_AVX2_PATH
	if (h->avx2)
		avx2_free(h->state);
	else
#endif
		lib_free(h->state);
	free(h);
}
