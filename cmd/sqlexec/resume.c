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

/* Digits only (no sign, blank or base prefix, as printed) at *s. */
static int
parse_u64(const char **s, uint64_t *v)
{
	const char	*p = *s;
	uint64_t	 n = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - (*p - '0')) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	if (p == *s)
		return -1;
	*s = p;
	*v = n;
	return 0;
}

/* Marks at most: more tables than a run keeps in flight. */
#define MARKS_MAX	4096

int
sx_marks_parse(const char *s, size_t len, uint64_t no, struct sx_mark **mp,
    size_t *np, const char **errstr)
{
	struct sx_mark	*m = NULL, *nm;
	const char	*end = s + len;
	size_t		 n = 0, i;
	uint64_t	 t, f;

	*errstr = "expected TABLE=FRAME,... after N (as the resume line "
	    "prints it)";
	while (s < end) {
		if (n > 0 && *s++ != ',')
			goto bad;
		if (parse_u64(&s, &t) == -1 || s >= end || *s++ != '=' ||
		    parse_u64(&s, &f) == -1 || s > end)
			goto bad;
		if (f <= no) {
			*errstr = "a table's mark is a frame after N";
			goto bad;
		}
		for (i = 0; i < n; i++)
			if (m[i].table == t) {
				*errstr = "a table named twice";
				goto bad;
			}
		if (n == MARKS_MAX || (nm = reallocarray(m, n + 1,
		    sizeof(*m))) == NULL) {
			*errstr = "too many tables";
			goto bad;
		}
		m = nm;
		m[n].table = t;
		m[n++].frame = f;
	}
	*mp = m;
	*np = n;
	return 0;
bad:
	free(m);
	return -1;
}

/* ":" and 16 hex digits at h, to the end: 0, or -1. */
static int
parse_hash(const char *h, uint64_t *hash)
{
	size_t	 i;

	for (i = 0; h[i] != '\0'; i++)
		if (strchr("0123456789abcdefABCDEF", h[i]) == NULL)
			break;
	if (i != 16 || h[i] != '\0')
		return -1;
	*hash = strtoull(h, NULL, 16);
	return 0;
}

int
sx_token_parse(const char *s, struct sx_opts *o, const char **errstr)
{
	const char	*p = s, *colon;
	size_t		 i;

	*errstr = "expected N or N:IDENTITY, as the resume line prints it "
	    "(N a statement number, IDENTITY 16 hex digits; fN,...:IDENTITY "
	    "for a snapshot stream)";
	o->skip_frames = *p == 'f';
	if (o->skip_frames)
		p++;
	if (parse_u64(&p, &o->skip_to) == -1) {
		if (*p >= '0' && *p <= '9')
			*errstr = "N is out of range";
		return -1;
	}
	o->skip_top = o->skip_to;
	o->skip_has_hash = 0;
	o->skip_hash = 0;
	if ((colon = strchr(p, ':')) == NULL)
		colon = p + strlen(p);
	if (*p == ',' && o->skip_frames) {
		if (sx_marks_parse(p + 1, colon - p - 1, o->skip_to,
		    &o->skip_marks, &o->nskip_marks, errstr) == -1)
			return -1;
		for (i = 0; i < o->nskip_marks; i++)
			if (o->skip_marks[i].frame > o->skip_top)
				o->skip_top = o->skip_marks[i].frame;
	} else if (p != colon)
		return -1;
	if (*colon == '\0' && o->nskip_marks == 0)
		return 0;
	if (*colon == '\0')
		*errstr = "a point with tables' marks needs its :IDENTITY";
	else if (parse_hash(colon + 1, &o->skip_hash) == -1)
		*errstr = "the identity after N: is 16 hex digits";
	else if (o->skip_top == 0)
		/* No resume line names 0: with nothing committed, a rerun. */
		*errstr = "0 statements are committed at 0: there is nothing "
		    "to skip and no resume point to check; run the input "
		    "without --skip-to";
	else {
		o->skip_has_hash = 1;
		return 0;
	}
	free(o->skip_marks);
	o->skip_marks = NULL;
	o->nskip_marks = 0;
	return -1;
}

/* The mark of table in m[0..n), or 0. */
uint64_t
sx_mark_of(const struct sx_mark *m, size_t n, uint64_t table)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (m[i].table == table)
			return m[i].frame;
	return 0;
}

/* Raise table's mark in *mp to frame (kept if higher).  0, or -1. */
static int
mark_add(struct sx_mark **mp, size_t *np, uint64_t table, uint64_t frame)
{
	struct sx_mark	*m;
	size_t		 i;

	for (i = 0; i < *np; i++)
		if ((*mp)[i].table == table) {
			if (frame > (*mp)[i].frame)
				(*mp)[i].frame = frame;
			return 0;
		}
	if ((m = reallocarray(*mp, *np + 1, sizeof(*m))) == NULL)
		return -1;
	*mp = m;
	m[*np].table = table;
	m[(*np)++].frame = frame;
	return 0;
}

/*
 * Drop the marks the prefix covers (frame <= done_no: no point has them,
 * sx_point()), once they are twice as many as were kept, so that a
 * dump's thousands of tables leave a few marks to search, not one each.
 */
static void
marks_prune(struct sx *x)
{
	size_t	 i, n;

	if (x->nmarks < x->marks_prune)
		return;
	for (i = n = 0; i < x->nmarks; i++)
		if (x->marks[i].frame > x->done_no)
			x->marks[n++] = x->marks[i];
	x->nmarks = n;
	x->marks_prune = 2 * n + 64;
}

void
sx_mark(struct sx *x, const struct sx_unit *u)
{
	if (!u->has_mark)
		return;
	marks_prune(x);
	if (mark_add(&x->marks, &x->nmarks, u->mark.table,
	    u->mark.frame) == -1)
		x->marks_lost = 1;
	if (u->mark.frame > x->top_no) {
		x->top_no = u->mark.frame;
		x->top_hash = u->mark_hash;
	}
}

int
sx_point(const struct sx *x, uint64_t no, uint64_t hash,
    const struct sx_unit *u, struct sx_point *p)
{
	size_t	 i;

	memset(p, 0, sizeof(*p));
	p->no = x->done_no > no ? x->done_no : no;
	p->top = x->top_no;
	p->hash = x->top_hash;
	if (no > p->top) {
		p->top = no;
		p->hash = hash;
	}
	if (u != NULL && u->has_mark && u->mark.frame > p->top) {
		p->top = u->mark.frame;
		p->hash = u->mark_hash;
	}
	for (i = 0; i < x->nmarks; i++)
		if (x->marks[i].frame > p->no && mark_add(&p->m, &p->n,
		    x->marks[i].table, x->marks[i].frame) == -1)
			return -1;
	if (u != NULL && u->has_mark && u->mark.frame > p->no &&
	    mark_add(&p->m, &p->n, u->mark.table, u->mark.frame) == -1)
		return -1;
	return x->marks_lost ? -1 : 0;
}

void
sx_commit_failed(struct sx *x, const struct sx_unit *u, const char *what,
    const char *lost, const char *msg, unsigned e)
{
	struct sx_point	 q, *d = NULL;

	if (x->o->checkpoint != NULL)
		return;			/* the row commits with u: it tells */
	memset(&q, 0, sizeof(q));
	pthread_mutex_lock(&x->mu);
	/*
	 * The point with u, now: one unit only can be in doubt, later ones
	 * wait for its turn (a second: neither point would be exact).  One
	 * allocation, marks after it: free(3).
	 */
	if (x->doubt == NULL && sx_point(x, u->end_no, u->end_hash, u,
	    &q) == 0 && (d = malloc(sizeof(*d) + q.n * sizeof(*q.m))) !=
	    NULL && asprintf(&x->doubt_what, "%s: %s got no answer (%s "
	    "(%u))", what, lost, msg, e) != -1) {
		*d = q;
		d->m = (struct sx_mark *)(d + 1);
		if (q.n > 0)
			memcpy(d->m, q.m, q.n * sizeof(*q.m));
		x->doubt = d;
		d = NULL;
	} else
		x->doubt_lost = 1;
	pthread_mutex_unlock(&x->mu);
	sx_point_free(&q);
	free(d);
}

void
sx_point_free(struct sx_point *p)
{
	free(p->m);
	p->m = NULL;
	p->n = 0;
}

void
sx_point_marks(struct buf *b, const struct sx_mark *m, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		buf_addf(b, "%s%" PRIu64 "=%" PRIu64, i ? "," : "", m[i].table,
		    m[i].frame);
	if (b->p == NULL)
		buf_adds(b, "");
}

void
sx_point_token(struct buf *b, uint64_t no, const struct sx_mark *m,
    size_t n, uint64_t hash)
{
	buf_addf(b, "f%" PRIu64, no);
	if (n > 0)
		buf_addc(b, ',');
	sx_point_marks(b, m, n);
	buf_addf(b, ":%016" PRIx64, hash);
}

/* The resume point given (--skip-to, or the checkpoint's), into b. */
static void
given_token(const struct sx *x, struct buf *b)
{
	const struct sx_opts *o = x->o;
	char	 t[48];

	if (o->skip_frames) {
		sx_point_token(b, o->skip_to, o->skip_marks, o->nskip_marks,
		    o->skip_hash);
		return;
	}
	sx_token(t, sizeof(t), o->skip_to, o->skip_hash);
	buf_adds(b, t);
}

void
sx_resume_given(const struct sx *x, char *b, size_t len)
{
	struct buf	 t = BUF_INIT;

	given_token(x, &t);
	if (x->o->resume)
		snprintf(b, len, "--resume (checkpoint %s, at %s)",
		    x->o->checkpoint, t.p != NULL ? t.p : "");
	else if (x->o->skip_has_hash)
		snprintf(b, len, "--skip-to %s", t.p != NULL ? t.p : "");
	else
		snprintf(b, len, "--skip-to %s%" PRIu64, x->o->skip_frames ?
		    "f" : "", x->o->skip_to);
	buf_release(&t);
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
		sx_wrote_list(x, &t);
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

/* The token of point p, into b. */
static void
point_token(const struct sx *x, struct buf *b, const struct sx_point *p)
{
	char	 tok[48];

	if (x->by_frame) {
		sx_point_token(b, p->no, p->m, p->n, p->hash);
		return;
	}
	sx_token(tok, sizeof(tok), p->no, p->hash);
	buf_adds(b, tok);
}

/*
 * The resume line when a unit's COMMIT got no answer (sx_commit_failed()):
 * both points, without it (p) and with it, for the user to choose by
 * what the target holds.
 */
static void
print_doubt(struct sx *x, const struct sx_point *p)
{
	struct buf	 with = BUF_INIT, without = BUF_INIT;

	point_token(x, &with, x->doubt);
	if (p->top > 0)
		point_token(x, &without, p);
	sx_report(x, "%s: the server may have committed it or not: if the "
	    "target holds its work (its rows, or what its DDL made), "
	    "resume with --skip-to %s; if not, %s%s "
	    "(with --checkpoint the target records which)", x->doubt_what,
	    with.p, p->top > 0 ? "with --skip-to " : "run the same input "
	    "again", p->top > 0 ? without.p : "");
	buf_release(&with);
	buf_release(&without);
}

/* Where x->partial left rows (nontx.c), as the resume advice says it. */
static const char *
partial_where(const struct sx *x)
{
	return x->partial_tx ? "its table, which has triggers and so ran in "
	    "autocommit" : "a table that is not transactional";
}

void
sx_print_resume(struct sx *x)
{
	struct sx_point	 p;
	struct buf	 t = BUF_INIT, what = BUF_INIT;
	const char	*unit = x->by_frame ? "frame" : "statement";
	/* a GRANT the same account stops at again: who can run it */
	int		 grant = sx_error_grant(x->err.msg);
	const char	*who = grant == SX_GRANT_PROXY ?
			    "can give that GRANT PROXY" :
			    "holds that grant's privileges with GRANT OPTION";
	const char	*after = grant == SX_GRANT_PROXY ? " (and each GRANT "
			    "PROXY after it: dbsnap writes them last)" : "";
	uint64_t	 k;
	int		 rc = 0;

	pthread_mutex_lock(&x->mu);
	if (x->by_frame)
		rc = sx_point(x, 0, 0, NULL, &p);
	else {
		/* a statement stream's committed set is a prefix */
		memset(&p, 0, sizeof(p));
		p.no = p.top = x->done_no;
		p.hash = x->done_hash;
	}
	pthread_mutex_unlock(&x->mu);
	if (rc == -1) {
		sx_report(x, "out of memory: no resume point can be said");
		goto out;
	}
	/* sx_commit_failed() could not keep the point with the work */
	if (x->doubt_lost) {
		sx_report(x, "a COMMIT got no answer, and the point with its "
		    "work could not be kept (out of memory, or a second one "
		    "in doubt): no resume point can be said; restore from the "
		    "start into an empty target (with --checkpoint the target "
		    "records the point)");
		goto out;
	}
	/* past what a resume cannot rebuild (order.c): no point to offer */
	if (!x->by_frame && ((k = sx_order_lost(x, p.no, 1, &what)) != 0 ||
	    (x->doubt != NULL && (k = sx_order_lost(x, x->doubt->no, 1,
	    &what)) != 0))) {
		sx_report(x, "%s%" PRIu64 "%s committed%s; the input cannot be "
		    "resumed past statement %" PRIu64 ": %s, which a resume on "
		    "a new connection cannot rebuild; restore it from the start "
		    "into an empty target", p.no > 1 ? "statements 1-" :
		    "statement ", p.no, p.no > 1 ? " are" : " is",
		    x->doubt != NULL ? " (maybe more)" : "", k, what.p);
		goto out;
	}
	if (x->doubt != NULL) {
		print_doubt(x, &p);
		goto out;
	}
	if (p.top == 0 && x->partial != 0) {
		/* nontx.c: not "nothing": the rows it left are still there */
		sx_report(x, "no %s is committed, but %s %" PRIu64 " left rows "
		    "in %s (said above): remove them, or restore that table, "
		    "before running the same input again", unit, unit,
		    x->partial, partial_where(x));
		goto out;
	}
	if (p.top == 0) {
		if (x->o->checkpoint != NULL)
			sx_report(x, "no %s is committed; run the %s again "
			    "with --resume (checkpoint %s records the run)",
			    unit, x->input_damaged ? "a good copy of the input" :
			    "input", x->o->checkpoint);
		else
			sx_report(x, "no %s is committed; run the %s input "
			    "again to restore it", unit, x->input_cut ?
			    "complete" : x->input_damaged ? "a good copy of the" :
			    "same");
		goto out;
	}
	/*
	 * Stopped at or before the resume point it was given: nothing new
	 * is committed, and with a bare N the identity was never computed:
	 * the command given is the one to run again.
	 */
	if (p.no == x->o->skip_to && p.top == x->o->skip_top &&
	    x->o->checkpoint == NULL && x->partial == 0) {
		char	 given[512];

		sx_resume_given(x, given, sizeof(given));
		if (grant != SX_GRANT_NONE)
			sx_report(x, "nothing after the resume point is "
			    "committed: run the same command again (%s) as an "
			    "account that %s (root), or skip it with --skip-to f%"
			    PRIu64 "%s", given, who, x->err.no, after);
		else
			sx_report(x, "nothing after the resume point is "
			    "committed: run the same command again (%s) %s",
			    given, x->input_damaged ? "on a good copy of the "
			    "input" : "once the cause is fixed");
		goto out;
	}
	if (p.no == 0)
		buf_addf(&what, "no %s up to the first is committed", unit);
	else if (p.no == 1)
		buf_addf(&what, "%s 1 is committed", unit);
	else
		buf_addf(&what, "%ss 1-%" PRIu64 " are committed", unit, p.no);
	/* snapshot streams: tables whose frames commit after the prefix */
	if (p.n > 0)
		buf_addf(&what, ", and frames after %" PRIu64 " of %zu table%s "
		    "(up to frame %" PRIu64 ")", p.no, p.n, p.n == 1 ? "" : "s",
		    p.top);
	if (x->by_frame)
		sx_point_token(&t, p.no, p.m, p.n, p.hash);
	else {
		char	 tok[48];

		sx_token(tok, sizeof(tok), p.no, p.hash);
		buf_adds(&t, tok);
	}
	/* nontx.c: what a resume would run over */
	if (x->partial > p.no)
		sx_report(x, "%s %" PRIu64 " left rows in %s (said above), "
		    "which a resume would write again: remove them, or restore "
		    "that table, before resuming", unit, x->partial,
		    partial_where(x));
	/* a damaged copy stops a resume at the same frame: a good one */
	if (x->o->checkpoint != NULL && grant != SX_GRANT_NONE)
		/* the same account stops at the same GRANT */
		sx_report(x, "%s; resume as an account that %s (root) with "
		    "--resume (checkpoint %s records it)", what.p, who,
		    x->o->checkpoint);
	else if (x->o->checkpoint != NULL)
		sx_report(x, "%s; resume %swith --resume (checkpoint %s "
		    "records it)", what.p, x->input_damaged ? "from a good "
		    "copy of the input " : "", x->o->checkpoint);
	else if (grant != SX_GRANT_NONE)
		sx_report(x, "%s; resume as an account that %s (root) with "
		    "--skip-to %s, or skip it with --skip-to f%" PRIu64 "%s",
		    what.p, who, t.p, x->err.no, after);
	else
		sx_report(x, "%s; resume %swith --skip-to %s", what.p,
		    x->input_damaged ? "from a good copy of the input " : "",
		    t.p);
	live_advice(x);
out:
	sx_point_free(&p);
	buf_release(&t);
	buf_release(&what);
}

/*
 * --resume, and the checkpoint names a statement that is not
 * transactional as begun: say what the user must decide.
 */
static int
pending(struct sx *x)
{
	const char	*what = x->by_frame ? "frame" : "statement";
	struct buf	 a = BUF_INIT, b = BUF_INIT;
	char		 t[48];

	if (x->by_frame) {
		sx_point_token(&a, x->pend_no, x->pend_marks, x->npend_marks,
		    x->pend_hash);
	} else {
		sx_token(t, sizeof(t), x->pend_no, x->pend_hash);
		buf_adds(&a, t);
	}
	given_token(x, &b);
	/* before the first, "not" is a start from the beginning */
	sx_set_error(x, 0, "checkpoint %s: %s %" PRIu64 " had begun when the "
	    "run stopped, and it is not transactional (DDL, or a write to a "
	    "MyISAM or Aria table): check the target "
	    "for its effect, then resume with --skip-to %s if it took effect, "
	    "%s%s%s", x->o->checkpoint, what, x->pend_no, a.p,
	    x->o->skip_top > 0 ? "or --skip-to " : "or if not, delete the "
	    "checkpoint's row and run the input from the start",
	    x->o->skip_top > 0 ? b.p : "", x->o->skip_top > 0 ? " if not (and "
	    "--checkpoint as before)" : " (with --checkpoint as before)");
	buf_release(&a);
	buf_release(&b);
	x->no_resume = 1;
	return -1;
}

int
sx_check_resume(struct sx *x, uint64_t no, uint64_t hash)
{
	const struct sx_opts *o = x->o;
	struct buf	 b = BUF_INIT;
	char		 want[512];

	if (!o->skip_has_hash || o->skip_top == 0 || hash == o->skip_hash)
		return x->pend_no != 0 ? pending(x) : 0;
	sx_resume_given(x, want, sizeof(want));
	/*
	 * Not the token this input gives: copied into the command, it would
	 * pass the check that refuses another input (a new dump of a
	 * changed source).
	 */
	buf_addf(&b, "%s: this input is not the one the resume point was made "
	    "from: its %s 1-%" PRIu64 " differ; resume only with the same "
	    "input", want, x->by_frame ? "frames" : "statements", no);
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
	if (no > x->top_no) {
		x->top_no = no;
		x->top_hash = hash;
	}
}

