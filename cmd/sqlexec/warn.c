/*
 * warn: server warnings of the statements sqlexec runs.  A load into a
 * column too narrow for its values succeeds with "Data truncated"
 * warnings in a non-strict sql_mode; without them the user learns nothing.
 * See sqlexec.h for who counts what; this file prints the first ones
 * (SHOW WARNINGS, MariaDB KB) and makes them errors with --strict.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlexec.h"

/* Warning lines printed for one statement; the rest are counted. */
#define WARN_LINES	3

int
sx_warn_wanted(struct sx *x)
{
	int	 want;

	if (x->o->strict)
		return 1;
	pthread_mutex_lock(&x->mu);
	want = x->warn_shown < SX_WARN_SHOW;
	pthread_mutex_unlock(&x->mu);
	return want;
}

/*
 * A warning's text into b.  With rows (a load of a table's rows), the
 * server's "... at row R" at its end, R counting the rows of one execute
 * or INSERT from 1, becomes the row of the table it is: "at row F+R-1
 * of s.t", F the execute's first row in the table's stream.
 */
static void
add_text(struct buf *b, const char *msg, const struct sx_warn_rows *rows)
{
	const char	*at, *p;
	char		*end;
	uint64_t	 r;

	at = rows != NULL ? strstr(msg, " at row ") : NULL;
	for (p = at; p != NULL; p = strstr(p + 1, " at row "))
		at = p;			/* the last one */
	if (at == NULL || at[8] < '1' || at[8] > '9' ||
	    (r = strtoull(at + 8, &end, 10)) == 0 || *end != '\0' ||
	    r > UINT64_MAX - rows->first) {
		buf_adds(b, msg);
		return;
	}
	buf_add(b, msg, (size_t)(at - msg));
	buf_addf(b, " at row %" PRIu64 " of %s", rows->first + r - 1,
	    rows->table);
}

/* "Warning 1265: Data truncated ..." lines of SHOW WARNINGS on m, into b. */
static void
warning_lines(struct buf *b, MYSQL *m, const char *sep, unsigned *lines,
    const struct sx_warn_rows *rows)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;

	*lines = 0;
	if (mysql_query(m, "SHOW WARNINGS") != 0 ||
	    (res = mysql_store_result(m)) == NULL) {
		buf_addf(b, "%s(SHOW WARNINGS failed: %s)", sep, mysql_error(m));
		return;
	}
	while ((row = mysql_fetch_row(res)) != NULL && *lines < WARN_LINES) {
		buf_addf(b, "%s%s %s: ", (*lines)++ ? "; " : sep,
		    row[0] ? row[0] : "?", row[1] ? row[1] : "?");
		add_text(b, row[2] ? row[2] : "", rows);
	}
	mysql_free_result(res);
}

int
sx_warn(struct sx *x, MYSQL *m, unsigned n, uint64_t no, const char *where)
{
	return sx_warn_at(x, m, n, no, where, NULL);
}

int
sx_warn_at(struct sx *x, MYSQL *m, unsigned n, uint64_t no, const char *where,
    const struct sx_warn_rows *rows)
{
	struct buf	 b = BUF_INIT;
	unsigned	 lines;
	int		 show, rc = 0;

	pthread_mutex_lock(&x->mu);
	if ((show = x->warn_shown < SX_WARN_SHOW && !x->o->strict))
		x->warn_shown++;
	pthread_mutex_unlock(&x->mu);
	if (!show && !x->o->strict)
		return 0;
	buf_adds(&b, where);
	warning_lines(&b, m, ": ", &lines, rows);
	if (n > lines && lines > 0)
		buf_addf(&b, " (and %u more)", n - lines);
	if (x->o->strict && x->o->force) {
		sx_report(x, "%s (an error with --strict)", b.p);
		rc = 1;
	} else if (x->o->strict) {
		sx_set_error(x, no, "%s (an error with --strict)", b.p);
		rc = -1;
	} else
		sx_report(x, "warning: %s", b.p);
	buf_release(&b);
	return rc;
}
