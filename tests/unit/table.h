/*
 * table.h: the runner of the table-driven unit tests (sqltok.c,
 * sqllit.c), included by them, after cmocka.h.  A table is an array of
 * struct row, each with at least a name, a text and a want (what the
 * text must give, in the file's notation); every row is one TAP test,
 * and the file's other tests follow.
 */
#ifndef TESTS_UNIT_TABLE_H
#define TESTS_UNIT_TABLE_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/*
 * A cmocka test function fn for one row (its state): make(row, &b)
 * writes what the row's text gives into b (an empty string to begin
 * with), which must be the row's want; the text, what it got and the
 * want go out as TAP diagnostics where they differ.
 */
#define TABLE_ROW_TEST(fn, make)					\
static void								\
fn(void **state)							\
{									\
	const struct row *r = *state;					\
	struct buf	 b = BUF_INIT;					\
									\
	buf_adds(&b, "");						\
	make(r, &b);							\
	table_is(&b, r->text, r->want);					\
}

/* b (released here) must hold want, the result for text. */
static void
table_is(struct buf *b, const char *text, const char *want)
{
	assert_int_equal(b->err, 0);
	if (strcmp(b->p, want) != 0)
		print_message("# text: %s\n#  got: %s\n# want: %s\n", text,
		    b->p, want);
	assert_string_equal(b->p, want);
	buf_release(b);
}

/*
 * main()'s work: the group named group of one test per row of the
 * array rows (row_test, with the row as its state, named by its name),
 * then the cmocka_unit_test()s given after it; TAP output.  Returns
 * what cmocka's run returns (the number of tests that failed).
 */
#define TABLE_RUN(group, rows, row_test, ...)				\
	table_run(group, rows, sizeof(rows) / sizeof((rows)[0]),	\
	    sizeof((rows)[0]), offsetof(struct row, name), row_test,	\
	    (const struct CMUnitTest[]){ __VA_ARGS__ },		\
	    sizeof((const struct CMUnitTest[]){ __VA_ARGS__ }) /	\
	    sizeof(struct CMUnitTest))

static int
table_run(const char *group, const void *rows, size_t nrows, size_t size,
    size_t name_off, CMUnitTestFunction row_test,
    const struct CMUnitTest *more, size_t nmore)
{
	struct CMUnitTest *tests;
	const char	*row;
	size_t		 i;
	int		 rc;

	if ((tests = calloc(nrows + nmore, sizeof(*tests))) == NULL)
		return 1;
	for (i = 0; i < nrows; i++) {
		row = (const char *)rows + i * size;
		memcpy(&tests[i].name, row + name_off, sizeof(tests[i].name));
		tests[i].test_func = row_test;
		tests[i].initial_state = (void *)row;
	}
	memcpy(tests + nrows, more, nmore * sizeof(*more));
	cmocka_set_message_output(CM_OUTPUT_TAP);
	rc = _cmocka_run_group_tests(group, tests, nrows + nmore, NULL,
	    NULL);
	free(tests);
	return rc;
}

#endif
