/*
 * Unit tests for lib/stbl.c: a snapshot stream's tables by TABLE frame
 * id, and the checks every reader of rows makes.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stbl.h"

struct mine {
	struct stbl	 s;
	char		*extra;
};

static int	released;

static void
release(struct stbl *s)
{
	free(((struct mine *)s)->extra);
	released++;
}

/* A frame of type over the bytes of b. */
static struct frame
frame_of(int type, const struct buf *b)
{
	struct frame	 f = { type, 0, (const uint8_t *)b->p, b->len, 1, 0 };

	return f;
}

static void
add_table(struct stbls *set, struct buf *b, uint64_t id, const char *name,
    struct mine **out)
{
	struct rp_column c = { "id", 3, COL_NOT_NULL, 63, 0, "int(11)" };
	struct rp_table	 t = { id, "db", (char *)name, 1, &c, { 0 }, NULL };
	struct frame	 f;

	b->len = 0;
	enc_table(b, &t);
	f = frame_of(FT_TABLE, b);
	*out = stbls_add(set, &f, sizeof(struct mine));
}

static void
test_checks(void **state)
{
	struct stbls	 set = { .release = release };
	struct buf	 b = BUF_INIT;
	struct mine	*a, *c;
	struct rp_rows	 r;
	struct frame	 f;

	add_table(&set, &b, 7, "a", &a);
	assert_non_null(a);
	assert_int_equal(a->s.id, 7);
	assert_string_equal(a->s.t->name, "a");
	assert_non_null(a->extra = strdup("x"));
	add_table(&set, &b, 9, "c", &c);
	assert_non_null(c);
	assert_ptr_equal(stbls_find(&set, 7), a);
	assert_ptr_equal(stbls_find(&set, 9), c);
	assert_null(stbls_find(&set, 8));

	/* an id announced twice */
	add_table(&set, &b, 7, "again", &c);
	assert_null(c);
	assert_string_equal(set.why, "table id 7 sent twice");

	/* rows: for a known table; for an unknown one */
	b.len = 0;
	enc_rows_begin(&b, 7, 2);
	enc_val(&b, "1", 1);
	enc_val(&b, "2", 1);
	f = frame_of(FT_ROWS, &b);
	assert_ptr_equal(stbls_rows(&set, &f, &r), a);
	assert_int_equal(r.nrows, 2);
	a->s.rows += r.nrows;
	b.len = 0;
	enc_rows_begin(&b, 8, 0);
	f = frame_of(FT_ROWS, &b);
	assert_null(stbls_rows(&set, &f, &r));
	assert_string_equal(set.why, "rows for unknown table id 8");
	b.len = 1;
	f = frame_of(FT_ROWS, &b);
	assert_null(stbls_rows(&set, &f, &r));
	assert_string_equal(set.why, "corrupt rows frame");

	/* the end: its count must be the rows received */
	b.len = 0;
	enc_table_end(&b, 7, 3);
	f = frame_of(FT_TABLE_END, &b);
	assert_null(stbls_end(&set, &f));
	assert_string_equal(set.why, "db.a: 3 rows announced, 2 received");
	b.len = 0;
	enc_table_end(&b, 7, 2);
	f = frame_of(FT_TABLE_END, &b);
	assert_ptr_equal(stbls_end(&set, &f), a);
	assert_null(stbls_end(&set, &f));
	assert_string_equal(set.why, "db.a: a second end of the table");
	b.len = 0;
	enc_rows_begin(&b, 7, 1);
	enc_val(&b, "3", 1);
	f = frame_of(FT_ROWS, &b);
	assert_null(stbls_rows(&set, &f, &r));
	assert_string_equal(set.why, "db.a: rows after the table's end");
	b.len = 0;
	enc_table_end(&b, 5, 0);
	f = frame_of(FT_TABLE_END, &b);
	assert_null(stbls_end(&set, &f));
	assert_string_equal(set.why, "end of unknown table id 5");
	b.len = 0;
	f = frame_of(FT_TABLE_END, &b);
	assert_null(stbls_end(&set, &f));
	assert_string_equal(set.why, "corrupt table end frame");

	/* a damaged TABLE frame */
	b.len = 2;
	f = frame_of(FT_TABLE, &b);
	assert_null(stbls_add(&set, &f, sizeof(struct mine)));
	assert_string_equal(set.why, "corrupt or unreadable table frame");

	released = 0;
	stbls_free(&set);
	assert_int_equal(released, 2);
	assert_int_equal(set.n, 0);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checks),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
