/*
 * session: the session settings a dump sets at its start (after a
 * comment header naming the source) and puts back at its end, as
 * mysqldump does, and the trailer line that makes the text checkable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sqltrailer.h"
#include "util.h"
#include "state.h"

/* A header value for a comment line: printable ASCII only. */
static void
add_clean(struct buf *b, const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		buf_addc(b, *s >= 0x20 && *s < 0x7f ? *s : '?');
}

/* A statement of the session header (lib/objsql). */
static int
session_stmt(void *arg, const struct objsql_stmt *os)
{
	struct r2s	*st = arg;

	buf_add(&st->out, os->text, os->len);
	return stmt_end(st, ";");
}

/*
 * A part of a dbsnap plan (header key part, of parts > 1) is not a dump:
 * its text, loaded alone, gives a database that lacks the other parts'
 * rows and objects without a word.  Refused unless --part-ok; then its
 * header says so in a line of its own, and stderr too.
 */
static int
part(struct r2s *st, const struct rp_kv *kv)
{
	const char	*i = rp_kv_get(kv, "part"), *n = rp_kv_get(kv, "parts");
	const char	*plan = rp_kv_get(kv, "plan");

	if (i == NULL || (n != NULL && strcmp(n, "1") == 0))
		return 0;
	if (n == NULL)
		n = "?";
	if (plan == NULL)
		plan = "?";
	if (!st->o->part_ok)
		return fail(st, "the input is part %s of %s of dbsnap plan %s, "
		    "not a whole dump: load the parts together with sqlexec "
		    "--input FILE for each, or give --part-ok to convert this "
		    "part alone", i, n, plan);
	fprintf(stderr, "rows2sql: warning: the input is part %s of %s of "
	    "dbsnap plan %s: the text holds this part only\n", i, n, plan);
	buf_adds(&st->out, SQLTRAILER_PART "PART ");
	add_clean(&st->out, i);
	buf_adds(&st->out, " OF ");
	add_clean(&st->out, n);
	buf_adds(&st->out, " of dbsnap plan ");
	add_clean(&st->out, plan);
	buf_adds(&st->out, ": not a whole dump; load every part\n");
	return 0;
}

int
do_header(struct r2s *st, const struct frame *f)
{
	static const char *const keys[] = { "producer", "server_version",
	    "snapshot_time", "consistency", "binlog_file", "binlog_pos",
	    "gtid_binlog_pos", "gtid_pos", "plan", "part", "parts" };
	struct rp_kv	 kv;
	struct dec	 d;
	const char	*v, *tz, *why;
	size_t		 i;

	dec_init(&d, f->p, f->len);
	if (dec_kv(&d, &kv) == -1)
		return fail(st, "corrupt header frame");
	buf_adds(&st->out, SQLTRAILER_HEADER);
	/* checkpoint lines follow (output.c): a reader can check segments */
	buf_addf(&st->out, SQLTRAILER_SEGMENTS "%zu\n", (size_t)OUT_FLUSH_AT);
	if (part(st, &kv) == -1)
		return -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if ((v = rp_kv_get(&kv, keys[i])) == NULL || *v == '\0')
			continue;
		buf_addf(&st->out, "-- %s: ", keys[i]);
		add_clean(&st->out, v);
		buf_addc(&st->out, '\n');
	}
	/* The zone TIMESTAMP values were read in (UTC from dbsnap). */
	tz = rp_kv_get(&kv, "time_zone");
	buf_adds(&st->out, "\n");
	if (objsql_session(st->objs, tz, session_stmt, st) == 0)
		return 0;
	why = objsql_errstr(st->objs);
	return *why != '\0' ? fail(st, "%s", why) : -1;
}

/*
 * At the end: a --tables, --rename or --rename-db that matched nothing of
 * the stream is a mistyped name, not an empty selection.
 */
static int
unmatched(struct r2s *st)
{
	struct buf	 b = BUF_INIT;
	int		 rc = 0;

	if (names_unmatched(&st->o->names, &b))
		rc = fail(st, "--tables %s matched no table of the stream",
		    b.p);
	else if (names_unmatched_rename(&st->o->names, &b))
		rc = fail(st, "%s in the stream", b.p);
	buf_release(&b);
	return rc;
}

int
do_footer(struct r2s *st)
{
	if (unmatched(st) == -1 || close_insert(st) == -1)
		return -1;
	if (st->insert_history && stmt(st, "/*!101100 SET "
	    "@@system_versioning_insert_history=0 */") == -1)
		return -1;
	if (stmt(st, "/*!40101 SET SQL_MODE=@OLD_SQL_MODE */") == -1 ||
	    stmt(st, "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS "
	    "*/") == -1 ||
	    stmt(st, "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */") == -1 ||
	    stmt(st, "/*!40101 SET CHARACTER_SET_CLIENT="
	    "@OLD_CHARACTER_SET_CLIENT */") == -1 ||
	    stmt(st, "/*!40101 SET CHARACTER_SET_RESULTS="
	    "@OLD_CHARACTER_SET_RESULTS */") == -1 ||
	    stmt(st, "/*!40101 SET COLLATION_CONNECTION="
	    "@OLD_COLLATION_CONNECTION */") == -1 ||
	    stmt(st, "/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */") == -1 ||
	    stmt(st, "/*!100201 SET CHECK_CONSTRAINT_CHECKS="
	    "@OLD_CHECK_CONSTRAINT_CHECKS */") == -1 ||
	    stmt(st, "/*!100108 SET MAX_STATEMENT_TIME=@OLD_MAX_STATEMENT_TIME "
	    "*/") == -1 ||
	    stmt(st, "/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */") == -1)
		return -1;
	return 0;
}

/*
 * The abort line, and after it the statement that stops the mysql client
 * there with an error naming it: to the client the line is a comment, and
 * the text would load as if whole.
 */
int
abort_line(struct r2s *st, int reason, const char *why)
{
	struct buf	 b = BUF_INIT, m = BUF_INIT;
	int		 rc = 0;

	add_clean(&m, why);
	sqltrailer_abort_format(&b, reason, m.p != NULL ? m.p : "", m.len);
	sqltrailer_abort_stmt(&b, m.p != NULL ? m.p : "", m.len);
	if (m.err && !b.err)
		b.err = m.err;
	buf_release(&m);
	if (b.err || write_all(st->out_fd, b.p, b.len) == -1) {
		st->werr = b.err ? b.err : errno;
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

int
do_trailer(struct r2s *st)
{
	struct sqltrailer t;
	struct buf	 b = BUF_INIT;

	if (out_flush(st) == -1)
		return -1;
	t.statements = st->stmts;
	t.bytes = st->written;
	t.xxh3 = rp_xxh_digest(st->xxh);
	sqltrailer_format(&b, &t);
	if (b.err || write_all(st->out_fd, b.p, b.len) == -1) {
		st->werr = b.err ? b.err : errno;
		buf_release(&b);
		return -1;
	}
	buf_release(&b);
	return 0;
}
