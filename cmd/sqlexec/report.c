/*
 * report: sqlexec's error sink and what it says on stderr: the first
 * error of a run (the lowest statement or frame number wins; recording
 * one stops the run), one-line reports clear of the progress line, how a
 * run ended, and the tables it wrote, named after damage.  It calls
 * nothing of sqlexec's but target.c, so that every other file may call
 * it.
 */
#include <sys/stat.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <errmsg.h>
#include <mysqld_error.h>

#include "load.h"
#include "sqlexec.h"
#include "util.h"

/* Tables named in a report (sx_wrote_list()); the rest are counted. */
#define WROTE_NAMES	20

void
sx_where(struct buf *b, uint64_t no, uint64_t line, const char *ctx)
{
	sx_where_kind(b, no, line, "table", ctx);
}

void
sx_set_error(struct sx *x, uint64_t no, const char *fmt, ...)
{
	struct buf	 b = BUF_INIT;
	va_list		 ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&x->mu);
	/* After an interrupt the errors are those of the killed statements. */
	if (x->interrupted == 0 && (x->err.no == 0 || no < x->err.no)) {
		free(x->err.msg);
		x->err.msg = buf_detach(&b, NULL);
		x->err.no = no;
	}
	x->stop = 1;
	pthread_cond_broadcast(&x->cv_work);
	pthread_cond_broadcast(&x->cv_space);
	pthread_cond_broadcast(&x->cv_commit);
	pthread_mutex_unlock(&x->mu);
	buf_release(&b);
}

int
sx_held_error(struct sx *x, const char *msg, uint64_t no)
{
	if (msg == NULL)
		return 0;
	sx_set_error(x, no, "%s", msg);
	return -1;
}

void
sx_report(struct sx *x, const char *fmt, ...)
{
	va_list		 ap;

	if (x->prog != NULL)
		progress_clear(x->prog);
	fprintf(stderr, "%s: ", getprogname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* An error after which the connection or its transaction is gone. */
int
sx_fatal_errno(unsigned e)
{
	/* the client's own errors; the server's go on from 3000 to 4999 */
	return (e >= CR_MIN_ERROR && e <= CR_MAX_ERROR) ||
	    (e >= CER_MIN_ERROR && e <= CER_MAX_ERROR) || e == ER_LOCK_DEADLOCK ||
	    e == ER_QUERY_INTERRUPTED || e == ER_CONNECTION_KILLED ||
	    e == ER_SERVER_SHUTDOWN || e == ER_NET_PACKET_TOO_LARGE;
}

/*
 * The input ended before its trailer (cut): a resume point says what is
 * committed, but a cut file given again ends at the same place, so say
 * that the resume needs the complete input.
 */
static void
report_cut(struct sx *x)
{
	const char	*name = x->o->input_name;
	struct stat	 sb;

	x->input_cut = 1;
	if (x->o->ninputs > 1)
		sx_report(x, "a part ended early, before its trailer (said "
		    "above): that file is incomplete (cut), and loading it "
		    "again stops at the same place: resuming needs the "
		    "complete part");
	else if (name != NULL ? stat(name, &sb) == 0 && S_ISREG(sb.st_mode) :
	    fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode))
		sx_report(x, "%s ended early, before its trailer: the file is "
		    "incomplete (cut), and loading it again stops at the same "
		    "place: resuming needs the complete file", name != NULL ?
		    name : "stdin");
	else
		sx_report(x, "the input ended early, before its trailer: it "
		    "is incomplete (cut): resuming needs the complete input "
		    "(from a file that is cut, a load stops at the same "
		    "place)");
}

/* The server's refusals of a GRANT the account may not give. */
static const int grant_denied[] = {
	ER_DBACCESS_DENIED_ERROR, ER_ACCESS_DENIED_ERROR,
	ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR,
	ER_PROCACCESS_DENIED_ERROR, ER_ACCESS_DENIED_NO_PASSWORD_ERROR
};

int
sx_error_grant(const char *msg)
{
	char	 e[32];
	size_t	 i;

	/* "frame N: grant `u`@`h`: GRANT ...: ERROR ..."; not a role's */
	if (msg == NULL || strncmp(msg, "frame ", 6) != 0 ||
	    strstr(msg, ": grant ") == NULL ||
	    strstr(msg, ": GRANT ") == NULL || strstr(msg, ": GRANT `") != NULL)
		return SX_GRANT_NONE;
	if (strstr(msg, ": GRANT PROXY ON ") != NULL)
		return SX_GRANT_PROXY;
	for (i = 0; i < sizeof(grant_denied) / sizeof(grant_denied[0]); i++) {
		snprintf(e, sizeof(e), ": ERROR %d (", grant_denied[i]);
		if (strstr(msg, e) != NULL)
			return SX_GRANT_DENIED;
	}
	return SX_GRANT_NONE;
}

/*
 * The way out of "No database selected" (a mysqldump file made without
 * --databases has no USE): name the database, then run or resume.  And
 * of errno 121 in a CREATE or ALTER TABLE: a foreign key name another
 * table of the database holds (they are per database), which no resume
 * gets past until one of the two is renamed (issue 25).
 */
static const char *
error_hint(const char *msg)
{
	char	 e[32];

	if (sx_error_grant(msg) == SX_GRANT_PROXY)
		return " (only an account with PROXY WITH GRANT OPTION on the "
		    "proxied account, as root has, can give it: a resume by "
		    "this account runs it again and fails the same way; "
		    "dbsnap --skip-proxy-grants leaves the PROXY grants out of "
		    "a dump)";
	if (sx_error_grant(msg) == SX_GRANT_DENIED)
		return " (only an account that holds these privileges with "
		    "GRANT OPTION can give them: a resume by this account runs "
		    "it again and fails the same way)";

	snprintf(e, sizeof(e), "ERROR %d (3D000): ", ER_NO_DB_ERROR);
	if (sx_default_db()[0] == '\0' && strstr(msg, e) != NULL)
		return " (the input has no USE and no database is named: "
		    "name it, sqlexec ... DB, to load it or to resume)";
	snprintf(e, sizeof(e), "ERROR %d (HY000): ", ER_CANT_CREATE_TABLE);
	if (strstr(msg, e) != NULL && strstr(msg, "(errno: 121 ") != NULL)
		return " (a foreign key of this table has a name that "
		    "another table of the database holds: such names are per "
		    "database; rename the key in the input, or drop the other "
		    "table's, then run or resume)";
	return "";
}

/*
 * How the run ended, if not well: an interrupt, the input's fault, or the
 * first failed statement.  (The resume point follows the summary.)
 */
void
sx_report_end(struct sx *x, struct frame_reader *r, int input_err)
{
	const char	*why;
	int		 reason = frame_reader_aborted(r, &why), cut;

	if (x->interrupted != 0)
		fprintf(stderr, "%s: interrupted (%s): the running statements "
		    "were killed and what was not committed is rolled back\n",
		    getprogname(), strsignal(x->interrupted));
	else if (input_err == 1 && (reason == FRAME_ABORT_DAMAGED ||
	    reason == FRAME_ABORT_DAMAGED_LATE))
		sx_report_damage(x, why, reason == FRAME_ABORT_DAMAGED_LATE);
	else if (input_err == 1 && reason != 0)
		sx_report_abort(x, reason, why);
	else if (input_err == 1) {
		/* frame.h: "truncated at byte N", as against corrupt */
		cut = strncmp(frame_reader_errstr(r), "truncated", 9) == 0;
		/* --input: parts.c named the file and where it ends */
		why = frame_reader_errstr(r);
		/* "corrupt: ...": a frame failed its checks: damage */
		x->input_damaged = strncmp(why, "corrupt: ", 9) == 0;
		if (x->input_damaged)
			fprintf(stderr, "%s: %s: input damaged (%s): loading "
			    "this copy again stops at the same place\n",
			    getprogname(), x->o->input_name != NULL ?
			    x->o->input_name : "stdin", why + 9);
		else if (!cut || x->o->ninputs == 0)
			fprintf(stderr, "%s: %s: %s\n", getprogname(),
			    x->o->input_name != NULL ? x->o->input_name :
			    "stdin", why);
		if (cut)
			report_cut(x);
	}
	if (x->interrupted == 0 && x->err.msg != NULL)
		fprintf(stderr, "%s: %s%s\n", getprogname(), x->err.msg,
		    error_hint(x->err.msg));
}

void
sx_add_bytes(struct buf *b, double v)
{
	char	 s[FMT_BYTES_MAX];

	buf_adds(b, fmt_bytes(s, sizeof(s), v));
}

void
sx_wrote_list(struct sx *x, struct buf *b)
{
	size_t	 i;

	pthread_mutex_lock(&x->mu);
	for (i = 0; i < x->nwrote && i < WROTE_NAMES; i++)
		buf_addf(b, "%s%s", i ? ", " : "", x->wrote[i]);
	if (x->nwrote > WROTE_NAMES)
		buf_addf(b, " and %zu more", x->nwrote - WROTE_NAMES);
	pthread_mutex_unlock(&x->mu);
}

void
sx_wrote(struct sx *x, const char *table)
{
	char	**w;
	size_t	 len;

	if (table == NULL || *table == '\0' || hmap_get(&x->wrote_set, table,
	    len = strlen(table)) != NULL)
		return;
	/* (out of memory: the report then names fewer) */
	if ((w = reallocarray(x->wrote, x->nwrote + 1, sizeof(*w))) == NULL)
		return;
	x->wrote = w;
	if ((w[x->nwrote] = strdup(table)) == NULL)
		return;
	if (hmap_put(&x->wrote_set, table, len, w[x->nwrote], NULL) == -1) {
		free(w[x->nwrote]);
		return;
	}
	x->nwrote++;
}

void
sx_wrote_free(struct sx *x)
{
	hmap_free(&x->wrote_set, NULL);
	while (x->nwrote > 0)
		free(x->wrote[--x->nwrote]);
	free(x->wrote);
	x->wrote = NULL;
}

int
sx_unmatched_rename(struct sx *x)
{
	struct buf	 b = BUF_INIT;

	if (names_unmatched_rename(&x->o->names, &b) == 0) {
		buf_release(&b);
		return 0;
	}
	x->no_resume = 1;	/* the same option fails the same way */
	sx_set_error(x, 0, "%s in the stream", b.p);
	buf_release(&b);
	return -1;
}

void
sx_report_damage(struct sx *x, const char *why, int late)
{
	struct buf	 b = BUF_INIT;

	x->no_resume = 1;
	sx_report(x, "input damaged (%s)", why);
	sx_wrote_list(x, &b);
	if (late && b.len == 0)
		sx_report(x, "the damage was found only after the input "
		    "before it had been sent; no table was created or loaded "
		    "from this input: restore it from a good copy");
	else if (late)
		sx_report(x, "the damage was found only after the input "
		    "before it had run, damaged part included: these tables "
		    "were created or loaded from this input: %s: the target "
		    "must be restored again, from a good copy of the input",
		    b.p);
	else if (b.len == 0)
		sx_report(x, "nothing of the damaged part ran, and nothing of "
		    "this input is committed: restore it from a good copy");
	else
		sx_report(x, "nothing of the damaged part ran, but these "
		    "tables were created or loaded from this input: %s: the "
		    "target must be restored again, from a good copy of the "
		    "input", b.p);
	buf_release(&b);
}

void
sx_report_abort(struct sx *x, int reason, const char *why)
{
	struct buf	 b = BUF_INIT;

	if (!frame_abort_resumable(reason))
		x->no_resume = 1;
	sx_report(x, "%s: %s: %s", x->o->input_name != NULL ?
	    x->o->input_name : "stdin", frame_abort_phrase(reason), why);
	sx_wrote_list(x, &b);
	if (reason == FRAME_ABORT_CUT)
		report_cut(x);
	if (b.len > 0 && !frame_abort_resumable(reason))
		sx_report(x, "nothing after the abort ran, but these tables "
		    "hold what came before it: %s: load again once the cause "
		    "is fixed", b.p);
	buf_release(&b);
}

void
sx_report_deferred(struct sx *x, const struct sx_deferred *d, size_t n)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	if (n == 0)
		return;
	for (i = 0; i < n && i < WROTE_NAMES; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", d[i].table != NULL ?
		    d[i].table : "?");
	if (n > WROTE_NAMES)
		buf_addf(&b, " and %zu more", n - WROTE_NAMES);
	/* snapobj.c resumed(): a resume adds what a table lacks */
	sx_report(x, "%zu table%s left without %s secondary indexes, which "
	    "are added once the rows are in (--defer-indexes): %s: %s", n,
	    n == 1 ? " is" : "s are", n == 1 ? "its" : "their", b.p,
	    x->no_resume ? "no resume of this run adds them: loading the "
	    "input again from the start, into an empty target, creates the "
	    "tables with them" : "resuming as printed adds them (unless "
	    "with --no-defer-indexes)");
	buf_release(&b);
}
