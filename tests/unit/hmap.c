/*
 * Unit tests for lib/hmap.c: puts, gets and deletes against a plain
 * array of the same keys, through growth and the backward shifts of
 * deletion.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hmap.h"

#define NKEYS	3000

static int	released;

static void
release(void *v)
{
	(void)v;
	released++;
}

static int
count(void *arg, void *v)
{
	(void)v;
	(*(size_t *)arg)++;
	return 0;
}

static void
test_model(void **state)
{
	static char	 vals[NKEYS];
	struct hmap	 m = HMAP_INIT;
	char		*in[NKEYS] = { 0 }, key[32];
	void		*old;
	size_t		 i, k, len, n = 0, seen;
	unsigned	 seed = 12345;

	(void)state;
	assert_null(hmap_get(&m, "a", 1));
	assert_null(hmap_del(&m, "a", 1));
	for (i = 0; i < 200000; i++) {
		seed = seed * 1103515245 + 12345;
		k = (seed >> 8) % NKEYS;
		/* keys of several lengths, one a prefix of another */
		len = (size_t)snprintf(key, sizeof(key), "db.t%zu", k);
		switch ((seed >> 4) % 3) {
		case 0:
			assert_int_equal(hmap_put(&m, key, len, &vals[k], &old),
			    0);
			assert_ptr_equal(old, in[k]);
			if (in[k] == NULL)
				n++;
			in[k] = &vals[k];
			break;
		case 1:
			assert_ptr_equal(hmap_del(&m, key, len), in[k]);
			if (in[k] != NULL)
				n--;
			in[k] = NULL;
			break;
		default:
			assert_ptr_equal(hmap_get(&m, key, len), in[k]);
		}
		assert_int_equal(m.n, n);
	}
	for (k = 0; k < NKEYS; k++) {
		len = (size_t)snprintf(key, sizeof(key), "db.t%zu", k);
		assert_ptr_equal(hmap_get(&m, key, len), in[k]);
	}
	seen = 0;
	hmap_each(&m, count, &seen);
	assert_int_equal(seen, n);
	/* a key of 8 binary bytes, NULs in it */
	{
		uint64_t id = 7;

		assert_int_equal(hmap_put(&m, &id, sizeof(id), &vals[0], NULL),
		    0);
		assert_ptr_equal(hmap_get(&m, &id, sizeof(id)), &vals[0]);
		n++;
	}
	released = 0;
	hmap_clear(&m, release);
	assert_int_equal(released, (int)n);
	assert_int_equal(m.n, 0);
	assert_null(hmap_get(&m, "db.t1", 5));
	assert_int_equal(hmap_put(&m, "db.t1", 5, &vals[1], NULL), 0);
	assert_ptr_equal(hmap_get(&m, "db.t1", 5), &vals[1]);
	hmap_free(&m, NULL);
	assert_null(hmap_get(&m, "db.t1", 5));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
