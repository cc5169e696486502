/*
 * Unit tests for lib/xxh.c: rp_xxh3() and the streaming handle give
 * libxxhash's XXH3_64bits digest for every length up to 4 KiB and some
 * large ones, whole or in pieces of any size, whichever path (AVX2 or
 * the library) this CPU takes.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <xxhash.h>

#include "xxh.h"

#define BIG	((size_t)3 << 20)

static unsigned char *
data(void)
{
	unsigned char	*p;
	uint64_t	 x = 0x9E3779B97F4A7C15ull;
	size_t		 i;

	assert_non_null(p = malloc(BIG + 64));
	for (i = 0; i < BIG + 64; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		p[i] = (unsigned char)(x * 0x2545F4914F6CDD1Dull >> 56);
	}
	return p;
}

static void
test_oneshot(void **state)
{
	static const size_t big[] = {
		(size_t)1 << 16, ((size_t)1 << 20) + 1, BIG - 7, BIG
	};
	unsigned char	*p = data();
	size_t		 n, off;

	(void)state;
	for (off = 0; off < 3; off++)
		for (n = 0; n <= 4096; n++)
			if (rp_xxh3(p + off, n) != XXH3_64bits(p + off, n))
				fail_msg("%zu bytes at offset %zu", n, off);
	for (n = 0; n < sizeof(big) / sizeof(big[0]); n++)
		assert_true(rp_xxh3(p, big[n]) == XXH3_64bits(p, big[n]));
	free(p);
}

static void
test_stream(void **state)
{
	static const size_t step[] = { 1, 7, 64, 239, 240, 241, 1000, 4096,
	    65536, (size_t)1 << 20 };
	unsigned char	*p = data();
	struct rp_xxh	*h;
	size_t		 i, off, n, len;

	(void)state;
	for (i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		len = step[i] < 1000 ? 50000 : BIG;
		assert_non_null(h = rp_xxh_new());
		for (off = 0; off < len; off += n) {
			n = len - off < step[i] ? len - off : step[i];
			rp_xxh_update(h, p + off, n);
			/* A digest on the way does not end the stream. */
			if (off == 0)
				assert_true(rp_xxh_digest(h) ==
				    XXH3_64bits(p, n));
		}
		assert_true(rp_xxh_digest(h) == XXH3_64bits(p, len));
		rp_xxh_free(h);
	}
	assert_non_null(h = rp_xxh_new());
	assert_true(rp_xxh_digest(h) == XXH3_64bits("", 0));
	rp_xxh_free(h);
	rp_xxh_free(NULL);
	free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oneshot),
		cmocka_unit_test(test_stream),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
