/*
 * xxh: XXH3_64bits, the library's or an AVX2 build of the same code (see
 * xxh.h).
 */
#include <stdlib.h>

#include <xxhash.h>

#include "xxh.h"

/* The library's functions, wrapped before xxhash.h is included again
 * below with XXH_INLINE_ALL (which renames them for the rest of the file). */
static uint64_t
lib_oneshot(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

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

static uint64_t
avx2_oneshot(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

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

/* 1: AVX2, 0: the library, -1: not asked yet (a race only asks twice). */
static int	 use_avx2 = -1;

static int
avx2(void)
{
	int	 v = __atomic_load_n(&use_avx2, __ATOMIC_RELAXED);

	if (v == -1) {
		v = 0;
#ifdef HAVE_AVX2_PATH
		__builtin_cpu_init();
		v = __builtin_cpu_supports("avx2") != 0;
#endif
		__atomic_store_n(&use_avx2, v, __ATOMIC_RELAXED);
	}
	return v;
}

uint64_t
rp_xxh3(const void *p, size_t n)
{
#ifdef HAVE_AVX2_PATH
	if (avx2())
		return avx2_oneshot(p, n);
#endif
	return lib_oneshot(p, n);
}

struct rp_xxh {
	int		 avx2;
	void		*state;
};

struct rp_xxh *
rp_xxh_new(void)
{
	struct rp_xxh	*h;

	if ((h = calloc(1, sizeof(*h))) == NULL)
		return NULL;
#ifdef HAVE_AVX2_PATH
	if (avx2()) {
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
rp_xxh_update(struct rp_xxh *h, const void *p, size_t n)
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
rp_xxh_digest(struct rp_xxh *h)
{
#ifdef HAVE_AVX2_PATH
	if (h->avx2)
		return avx2_digest(h->state);
#endif
	return lib_digest(h->state);
}

void
rp_xxh_free(struct rp_xxh *h)
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
