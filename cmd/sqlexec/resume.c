/*
 * resume: where a run that stopped early may be continued, and with what.
 * The committed statements are always a prefix of the input (sqlexec.h);
 * this file says which, with one number that cannot be misread, and ties
 * that number to the input it came from.
 *
 * The resume token is N:H (sqlexec(1), RESUME POINTS): N is the last
 * committed statement, H (16 lowercase hex digits) the input's identity up
 * to N, a running XXH3_64bits over the input (xxHash, Cyan4973/xxHash):
 * for a statement stream, each statement 1..N as its length (8 bytes,
 * little-endian) and its text; for a snapshot stream, the same over what
 * it loads, after a seed of the header's producer, snapshot_time,
 * gtid_binlog_pos, binlog_file and binlog_pos.  Two inputs with the same
 * statements 1..N give the same result when resumed after N, whatever
 * follows; any other input is refused.
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "sqlexec.h"

int
sx_id_init(struct sx_id *id, const struct rp_kv *hdr)
{
	static const char *const keys[] = { "producer", "snapshot_time",
	    "gtid_binlog_pos", "binlog_file", "binlog_pos" };
	const char	*v;
	size_t		 i;

	if ((id->st = XXH3_createState()) == NULL)
		return -1;
	XXH3_64bits_reset(id->st);
	for (i = 0; hdr != NULL && i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = rp_kv_get(hdr, keys[i]);
		sx_id_add(id, keys[i], strlen(keys[i]));
		sx_id_add(id, v != NULL ? v : "", v != NULL ? strlen(v) : 0);
	}
	return 0;
}

void
sx_id_add(struct sx_id *id, const void *p, size_t len)
{
	unsigned char	 n[8];
	uint64_t	 v = len;
	int		 i;

	for (i = 0; i < 8; i++, v >>= 8)
		n[i] = v & 0xff;
	XXH3_64bits_update(id->st, n, sizeof(n));
	XXH3_64bits_update(id->st, p, len);
}

uint64_t
sx_id_digest(const struct sx_id *id)
{
	return XXH3_64bits_digest(id->st);
}

void
sx_id_free(struct sx_id *id)
{
	if (id->st != NULL)
		XXH3_freeState(id->st);
	id->st = NULL;
}

void
sx_token(char *b, size_t len, uint64_t no, uint64_t hash)
{
	snprintf(b, len, "%" PRIu64 ":%016" PRIx64, no, hash);
}

int
sx_token_parse(const char *s, uint64_t *no, uint64_t *hash, int *has_hash,
    const char **errstr)
{
	const char	*h;
	uint64_t	 n = 0;
	size_t		 i;

	*errstr = "expected N or N:IDENTITY, as the resume line prints it "
	    "(N a statement or frame number, IDENTITY 16 hex digits)";
	/* digits only: no sign, blank or base prefix, as it is printed */
	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (n > (UINT64_MAX - (s[i] - '0')) / 10) {
			*errstr = "N is out of range";
			return -1;
		}
		n = n * 10 + (s[i] - '0');
	}
	if (i == 0 || (s[i] != '\0' && s[i] != ':'))
		return -1;
	*no = n;
	*has_hash = 0;
	*hash = 0;
	if (s[i] == '\0')
		return 0;
	h = s + i + 1;
	for (i = 0; h[i] != '\0'; i++)
		if (strchr("0123456789abcdefABCDEF", h[i]) == NULL)
			break;
	if (i != 16 || h[i] != '\0') {
		*errstr = "the identity after N: is 16 hex digits";
		return -1;
	}
	/* No resume line names 0: with nothing committed it says to rerun. */
	if (*no == 0) {
		*errstr = "0 statements are committed at 0: there is nothing "
		    "to skip and no resume point to check; run the input "
		    "without --skip-to";
		return -1;
	}
	*hash = strtoull(h, NULL, 16);
	*has_hash = 1;
	return 0;
}

void
sx_resume_given(const struct sx *x, char *b, size_t len)
{
	char	 t[48];

	sx_token(t, sizeof(t), x->o->skip_to, x->o->skip_hash);
	if (x->o->resume)
		snprintf(b, len, "--resume (checkpoint %s, at %s)",
		    x->o->checkpoint, t);
	else if (x->o->skip_has_hash)
		snprintf(b, len, "--skip-to %s", t);
	else
		snprintf(b, len, "--skip-to %" PRIu64, x->o->skip_to);
}

/*
 * A snapshot stream on a pipe: maybe straight from dbsnap, whose next
 * run is another snapshot, another input, that a resume refuses.
 */
static int
live_stream(const struct sx *x)
{
	struct stat	 sb;

	return x->by_frame && x->o->ninputs == 0 &&
	    fstat(STDIN_FILENO, &sb) == 0 && (S_ISFIFO(sb.st_mode) ||
	    S_ISSOCK(sb.st_mode));
}

/* Tables named in a report (wrote_list()); the rest are counted. */
#define WROTE_NAMES	20

/* The tables committed work wrote to, "a, b and 3 more", into b. */
static void
wrote_list(struct sx *x, struct buf *b)
{
	size_t	 i;

	pthread_mutex_lock(&x->mu);
	for (i = 0; i < x->nwrote && i < WROTE_NAMES; i++)
		buf_addf(b, "%s%s", i ? ", " : "", x->wrote[i]);
	if (x->nwrote > WROTE_NAMES)
		buf_addf(b, " and %zu more", x->nwrote - WROTE_NAMES);
	pthread_mutex_unlock(&x->mu);
}

/*
 * What starting over takes, before "the same pipeline": the checkpoint
 * row deleted; with --no-create the tables are not created again, so
 * the rows this run committed must go first, or they are loaded twice.
 */
static void
start_over(struct sx *x, struct buf *b)
{
	struct buf	 t = BUF_INIT;

	if (x->o->checkpoint != NULL)
		buf_addf(b, "DELETE FROM %s, then ", x->o->checkpoint);
	if (x->o->no_create) {
		wrote_list(x, &t);
		buf_addf(b, "empty the tables %s loaded (with --no-create "
		    "they are not created again, and their rows would be "
		    "loaded twice%s%s), then ", t.len > 0 ? "this run" :
		    "the earlier run", t.len > 0 ? ": " : "",
		    t.len > 0 ? t.p : "");
	}
	buf_release(&t);
}

/*
 * After a resume point on a live stream: what else works.  (tee -p: on
 * a closed pipe tee goes on writing the file, so the copy is whole.)
 */
static void
live_advice(struct sx *x)
{
	struct buf	 over = BUF_INIT;

	if (!live_stream(x))
		return;
	start_over(x, &over);
	sx_report(x, "that takes this same stream: if it came straight from "
	    "dbsnap, a new dbsnap run is another snapshot, which %s refuses: "
	    "then start over (%sthe same pipeline); to be able to resume, "
	    "save the stream as it loads (dbsnap ... | tee -p FILE | "
	    "sqlexec ...) and resume from FILE", x->o->checkpoint != NULL ?
	    "--resume" : "--skip-to", over.len > 0 ? over.p : "");
	buf_release(&over);
}

void
sx_print_resume(struct sx *x)
{
	char		 t[48], what[64];
	uint64_t	 n, h;

	pthread_mutex_lock(&x->mu);
	n = x->done_no;
	h = x->done_hash;
	pthread_mutex_unlock(&x->mu);
	/* a snapshot stream's positions are its frames (load.c) */
	if (n == 0 && x->partial != 0) {
		/* nontx.c: not "nothing": the rows it left are still there */
		sx_report(x, "no %s is committed, but %s %" PRIu64 " left rows "
		    "in a table that is not transactional (said above): remove "
		    "them, or restore that table, before running the same "
		    "input again", x->by_frame ? "frame" : "statement",
		    x->by_frame ? "frame" : "statement", x->partial);
		return;
	}
	if (n == 0) {
		if (x->o->checkpoint != NULL)
			sx_report(x, "no %s is committed; run the input again "
			    "with --resume (checkpoint %s records the run)",
			    x->by_frame ? "frame" : "statement",
			    x->o->checkpoint);
		else
			sx_report(x, "no %s is committed; run the same input "
			    "again to restore it", x->by_frame ? "frame" :
			    "statement");
		return;
	}
	/*
	 * Stopped at or before the resume point it was given: nothing new
	 * is committed, and with a bare N the identity was never computed:
	 * the command given is the one to run again.
	 */
	if (n == x->o->skip_to && x->o->checkpoint == NULL && x->partial == 0) {
		char	 given[512];

		sx_resume_given(x, given, sizeof(given));
		sx_report(x, "nothing after the resume point is committed: "
		    "run the same command again (%s) once the cause is fixed",
		    given);
		return;
	}
	if (n == 1)
		snprintf(what, sizeof(what), "%s 1 is committed",
		    x->by_frame ? "frame" : "statement");
	else
		snprintf(what, sizeof(what), "%s 1-%" PRIu64 " are committed",
		    x->by_frame ? "frames" : "statements", n);
	sx_token(t, sizeof(t), n, h);
	/* nontx.c: what a resume would run over */
	if (x->partial > n)
		sx_report(x, "%s %" PRIu64 " left rows in a table that is not "
		    "transactional (said above), which a resume would write "
		    "again: remove them, or restore that table, before "
		    "resuming", x->by_frame ? "frame" : "statement",
		    x->partial);
	if (x->o->checkpoint != NULL)
		sx_report(x, "%s; resume with --resume (checkpoint %s records "
		    "it)", what, x->o->checkpoint);
	else
		sx_report(x, "%s; resume with --skip-to %s", what, t);
	live_advice(x);
}

/*
 * --resume, and the checkpoint names a statement that is not
 * transactional as begun: say what the user must decide.
 */
static int
pending(struct sx *x)
{
	const char	*what = x->by_frame ? "frame" : "statement";
	char		 a[48], b[48];

	sx_token(a, sizeof(a), x->pend_no, x->pend_hash);
	sx_token(b, sizeof(b), x->o->skip_to, x->o->skip_hash);
	/* before the first, "not" is a start from the beginning */
	sx_set_error(x, 0, "checkpoint %s: %s %" PRIu64 " had begun when the "
	    "run stopped, and it is not transactional (DDL, or a write to a "
	    "MyISAM or Aria table): check the target "
	    "for its effect, then resume with --skip-to %s if it took effect, "
	    "%s%s%s", x->o->checkpoint, what, x->pend_no, a,
	    x->o->skip_to > 0 ? "or --skip-to " : "or if not, delete the "
	    "checkpoint's row and run the input from the start",
	    x->o->skip_to > 0 ? b : "", x->o->skip_to > 0 ? " if not (and "
	    "--checkpoint as before)" : " (with --checkpoint as before)");
	x->no_resume = 1;
	return -1;
}

int
sx_check_resume(struct sx *x, uint64_t no, uint64_t hash)
{
	const struct sx_opts *o = x->o;
	struct buf	 b = BUF_INIT;
	char		 want[512], got[48];

	if (!o->skip_has_hash || o->skip_to == 0 || hash == o->skip_hash)
		return x->pend_no != 0 ? pending(x) : 0;
	sx_resume_given(x, want, sizeof(want));
	sx_token(got, sizeof(got), no, hash);
	buf_addf(&b, "%s: this input is not the one the resume point was made "
	    "from: its %s 1-%" PRIu64 " differ (they give %s); resume only "
	    "with the same input", want, x->by_frame ? "frames" : "statements",
	    no, got);
	if (live_stream(x)) {
		buf_adds(&b, " (a new dbsnap run is another snapshot: to start "
		    "over, ");
		start_over(x, &b);
		buf_addf(&b, "run without %s)", o->checkpoint != NULL ?
		    "--resume" : "--skip-to");
	}
	sx_set_error(x, no, "%s", b.p != NULL ? b.p : want);
	buf_release(&b);
	x->no_resume = 1;
	return -1;
}

void
sx_done(struct sx *x, uint64_t no, uint64_t hash)
{
	if (no > x->done_no) {
		x->done_no = no;
		x->done_hash = hash;
	}
}

void
sx_wrote(struct sx *x, const char *table)
{
	char	**w;
	size_t	 i;

	if (table == NULL || *table == '\0')
		return;
	for (i = x->nwrote; i > 0; i--)		/* the last ones first */
		if (strcmp(x->wrote[i - 1], table) == 0)
			return;
	if ((w = reallocarray(x->wrote, x->nwrote + 1, sizeof(*w))) == NULL)
		return;		/* the report then names fewer */
	x->wrote = w;
	if ((w[x->nwrote] = strdup(table)) != NULL)
		x->nwrote++;
}

void
sx_wrote_free(struct sx *x)
{
	while (x->nwrote > 0)
		free(x->wrote[--x->nwrote]);
	free(x->wrote);
	x->wrote = NULL;
}

void
sx_report_damage(struct sx *x, const char *why, int late)
{
	struct buf	 b = BUF_INIT;

	x->no_resume = 1;
	sx_report(x, "input damaged (%s)", why);
	wrote_list(x, &b);
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
