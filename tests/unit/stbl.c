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

/*
 * One step on the set: a frame made of op's fields (cut, if not -1, cuts
 * it to that many bytes), and what the call must give: the table of id
 * want (0: none, and why then says why).
 */
enum { ADD, FIND, ROWS, END };
struct step {
	int		 op;
	uint64_t	 id;
	uint64_t	 n;		/* ROWS: rows; END: rows announced */
	const char	*name;		/* ADD */
	int		 cut;
	uint64_t	 want;
	const char	*why;
};

static const struct step steps[] = {
	{ ADD, 7, 0, "a", -1, 7, NULL },
	{ ADD, 9, 0, "c", -1, 9, NULL },
	{ FIND, 7, 0, NULL, -1, 7, NULL },
	{ FIND, 9, 0, NULL, -1, 9, NULL },
	{ FIND, 8, 0, NULL, -1, 0, NULL },
	{ ADD, 7, 0, "again", -1, 0, "table id 7 sent twice" },
	/* rows: for a known table; for an unknown one */
	{ ROWS, 7, 2, NULL, -1, 7, NULL },
	{ ROWS, 8, 0, NULL, -1, 0, "rows for unknown table id 8" },
	{ ROWS, 8, 0, NULL, 1, 0, "corrupt rows frame" },
	/* the end: its count must be the rows received */
	{ END, 7, 3, NULL, -1, 0, "db.a: 3 rows announced, 2 received" },
	{ END, 7, 2, NULL, -1, 7, NULL },
	{ END, 7, 2, NULL, -1, 0, "db.a: a second end of the table" },
	{ ROWS, 7, 1, NULL, -1, 0, "db.a: rows after the table's end" },
	{ END, 5, 0, NULL, -1, 0, "end of unknown table id 5" },
	{ END, 5, 0, NULL, 0, 0, "corrupt table end frame" },
	/* a damaged TABLE frame */
	{ ADD, 1, 0, "z", 2, 0, "corrupt or unreadable table frame" },
};

/* Runs step t on set (b: scratch); returns what the call gave. */
static struct mine *
run_step(struct stbls *set, struct buf *b, const struct step *t)
{
	struct rp_column c = { "id", 3, COL_NOT_NULL, 63, 0, "int(11)" };
	struct rp_table	 tb = { t->id, "db", (char *)t->name, 1, &c, { 0 },
			    NULL };
	struct rp_rows	 r;
	struct frame	 f;
	struct mine	*m;
	uint64_t	 i;
	int		 type;

	b->len = 0;
	switch (t->op) {
	case FIND:
		return (struct mine *)stbls_find(set, t->id);
	case ADD:
		enc_table(b, &tb);
		type = FT_TABLE;
		break;
	case ROWS:
		enc_rows_begin(b, t->id, t->n);
		for (i = 0; i < t->n; i++)
			enc_val(b, "1", 1);
		type = FT_ROWS;
		break;
	default:
		enc_table_end(b, t->id, t->n);
		type = FT_TABLE_END;
		break;
	}
	if (t->cut >= 0)
		b->len = (size_t)t->cut;
	f = frame_of(type, b);
	switch (t->op) {
	case ADD:
		if ((m = stbls_add(set, &f, sizeof(struct mine))) != NULL) {
			assert_int_equal(m->s.id, t->id);
			assert_string_equal(m->s.t->name, t->name);
			assert_non_null(m->extra = strdup("x"));
		}
		return m;
	case ROWS:
		if ((m = stbls_rows(set, &f, &r)) != NULL) {
			assert_int_equal(r.nrows, t->n);
			m->s.rows += r.nrows;
		}
		return m;
	default:
		return stbls_end(set, &f);
	}
}

static void
test_checks(void **state)
{
	struct stbls	 set = { .release = release };
	struct buf	 b = BUF_INIT;
	struct mine	*m;
	size_t		 i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		m = run_step(&set, &b, &steps[i]);
		if (steps[i].want == 0) {
			assert_null(m);
			if (steps[i].why != NULL)
				assert_string_equal(set.why, steps[i].why);
		} else {
			assert_non_null(m);
			assert_ptr_equal(m, stbls_find(&set, steps[i].want));
		}
	}
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
