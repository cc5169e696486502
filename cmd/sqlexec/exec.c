/*
 * exec: the statement feeder (run.h) of sqlexec, for statement streams
 * (sqlsplit's).  Classifies each statement, packs parallel statements
 * into units for the workers and runs barriers in order once every unit
 * before them has committed; checks the resume point's identity and
 * says the statement stream's summary.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lit.h"
#include "load.h"
#include "run.h"
#include "stmts.h"

/* The largest max_allowed_packet a server accepts (1G), in bytes. */
#define SX_PACKET_MAX	(1024UL * 1024 * 1024)

/*
 * A statement the server would refuse: a COM_QUERY packet is one command
 * byte and the statement (MariaDB protocol, "COM_QUERY"), and the server
 * refuses a packet of max_allowed_packet bytes or more (net_realloc() in
 * sql/net_serv.cc; tried: with 1M, 1048574 bytes of statement run and
 * 1048575 do not), mostly by dropping the connection, which the client
 * sees as "server has gone away".  So it is reported here, before it is
 * sent.  -1 with the error recorded (the run stops as for a failed
 * statement), or with --force 0, reported and counted.
 */
static int
too_large(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	struct buf	 b = BUF_INIT;
	size_t		 mib = 1024 * 1024, want;

	sx_where_stmt(&b, s);
	buf_addf(&b, ": %zu bytes: too large for the server's "
	    "max_allowed_packet (%zu): ", s->len, x->max_packet);
	want = (s->len + 2 + mib - 1) / mib * mib;
	if (want <= SX_PACKET_MAX)
		buf_addf(&b, "raise it on the server (SET GLOBAL "
		    "max_allowed_packet=%zu)", want);
	else
		buf_addf(&b, "a server accepts at most %lu: split the "
		    "statement", SX_PACKET_MAX);
	if (d->o->force) {
		sx_report(x, "%s", b.p);
		pthread_mutex_lock(&x->mu);
		x->nstmts++;
		x->nfailed++;
		pthread_mutex_unlock(&x->mu);
		if (d->cur != NULL) {
			d->cur->end_no = s->no;
			d->cur->end_hash = d->hash;
		}
	} else
		sx_set_error(x, s->no, "%s and resume", b.p);
	buf_release(&b);
	return d->o->force ? 0 : -1;
}

/*
 * The input's identity, statement by statement; at the first statement
 * after --skip-to N, check that statements 1..N are those of the input
 * the resume point was made from, before anything after N runs.
 */
static int
resume_point(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;

	d->prev_hash = d->hash;
	if (!d->checked && d->o->skip_frames) {
		char	 given[512];

		d->checked = 1;
		sx_resume_given(x, given, sizeof(given));
		sx_set_error(x, s->no, "%s: a snapshot stream's resume point "
		    "(frames), and this input is a statement stream: it is not "
		    "the input the resume point was made from", given);
		x->no_resume = 1;
		return -1;
	}
	if (!d->checked && s->no > d->o->skip_to) {
		d->checked = 1;
		pthread_mutex_lock(&x->mu);
		if (x->done_no == d->o->skip_to)
			x->done_hash = d->prev_hash;
		pthread_mutex_unlock(&x->mu);
		if (sx_check_resume(x, d->o->skip_to, d->prev_hash) == -1 ||
		    sx_held_error(x, d->held_err, d->held_no) == -1)
			return -1;
	}
	sx_id_add(&d->id, s->text, s->len);
	d->hash = sx_id_digest(&d->id);
	x->at_hash = d->hash;
	return 0;
}

/* At the end of the input: it must reach --skip-to N. */
static int
resume_end(struct dispatch *d)
{
	struct sx	*x = d->x;

	if (d->checked || d->o->skip_to == 0)
		return 0;
	if (d->consumed != d->o->skip_to) {
		char	 given[512];

		sx_resume_given(x, given, sizeof(given));
		sx_set_error(x, d->consumed, "%s: the input ends at statement %"
		    PRIu64 ": it is not the input the resume point was made "
		    "from", given, d->consumed);
		x->no_resume = 1;
		return -1;
	}
	d->checked = 1;
	pthread_mutex_lock(&x->mu);
	x->done_hash = d->hash;
	pthread_mutex_unlock(&x->mu);
	return sx_check_resume(x, d->consumed, d->hash) == -1 ? -1 :
	    sx_held_error(x, d->held_err, d->held_no);
}

/*
 * With --skip-to N: refuse, before s runs, a point past what running the
 * SETs again cannot rebuild, or s reading what they did not (order.c),
 * rather than finish the input with other values.
 */
static int
resume_lost(struct dispatch *d, const struct rp_stmt *s, enum sx_action a)
{
	struct buf	 why = BUF_INIT;
	char		 given[512];

	if (sx_order_replay(d->x, s, a, &why) == 0 &&
	    (s->no > d->o->skip_to || sx_order_lost(d->x, s->no,
	    s->no == d->o->skip_to, &why) == 0)) {
		buf_release(&why);
		return 0;
	}
	sx_resume_given(d->x, given, sizeof(given));
	sx_set_error(d->x, s->no, "%s: refused: %s, which a resume on a new "
	    "connection cannot rebuild: restore the input from the start "
	    "into an empty target", given, why.err ? "out of memory" : why.p);
	d->x->no_resume = 1;
	buf_release(&why);
	return -1;
}

static int
dispatch(struct dispatch *d, const struct rp_stmt *s)
{
	const char	*why, *fn, *eng;
	enum sx_action	 a = sx_classify(s, &why), a0;
	char		 fnwhy[128];
	int		 rc, ac, one;

	if (resume_point(d, s) == -1)
		return -1;
	d->consumed = s->no;
	sx_check_use(d->x, s, &d->use_warned);
	if (resume_lost(d, s, a) == -1)
		return -1;
	if (a != ACT_SKIP && (s->no > d->o->skip_to || a == ACT_SESSION) &&
	    !d->o->dry_run && d->x->max_packet > 0 &&
	    s->len + 1 >= d->x->max_packet)
		return too_large(d, s);
	/*
	 * DDL (or a CALL, ...) may change the tables' engines; a SELECT
	 * cannot (and a look-up after it would change its FOUND_ROWS())
	 */
	if (a == ACT_BARRIER && !sx_changes_rows(s) && !sx_is_select(s) &&
	    !d->o->dry_run)
		sx_nontx_forget(d->x);
	/*
	 * A frame without its lexer mode (an older sqlsplit) that sets
	 * sql_mode: what follows may be lexed here in another mode than the
	 * server's (NO_BACKSLASH_ESCAPES, ANSI_QUOTES), so the order rule
	 * may not see a user variable: the serial order needs no lexing.
	 */
	if (!s->said && s->kind == STK_SET &&
	    strcasestr(s->text, "sql_mode") != NULL)
		st_go_serial(d, s, "a SET of sql_mode in a stream without "
		    "lexer modes (an older sqlsplit)");
	if (s->no <= d->o->skip_to) {
		if (a == ACT_SESSION)
			return st_session_before(d, s);
		d->resumed++;
		if (d->o->dry_run)
			st_plan_line(s, "skipped", "--skip-to");
		return 0;
	}
	if (a == ACT_SESSION && (ac = sx_sets_autocommit(s)) != -1)
		d->autocommit_off = ac == 0;
	/* A temporary table exists only on the connection that made it. */
	if (a != ACT_SKIP && sx_creates_temporary(s))
		st_go_serial(d, s, "CREATE TEMPORARY TABLE (it exists only on "
		    "the connection that made it)");
	/*
	 * A session statement runs on every connection: one that calls a
	 * function (NEXTVAL, RAND, a stored function...) would run it once
	 * per connection, with its side effects, and give each its own
	 * value.
	 */
	if (a == ACT_SESSION && d->o->jobs > 1 && !d->serial &&
	    (fn = sx_calls_function(s)) != NULL) {
		snprintf(fnwhy, sizeof(fnwhy), "a session statement calls "
		    "%s()", fn);
		st_go_serial(d, s, fnwhy);
	}
	/* what the serial order needs (order.c) */
	a0 = a;
	if ((rc = sx_order(d->x, s, &a, &why, d->serial || d->txn != 0)) == -1)
		return -1;
	if (rc == 1)
		st_go_serial(d, s, why);
	one = rc == 2;
	/* INSERTs it ordered, in a row: one transaction (ordered.c) */
	if ((rc = st_ordered(d, s, a0 == ACT_PARALLEL &&
	    a == ACT_BARRIER)) != 1)
		return rc;
	if ((rc = st_input_txn(d, s, a)) != 1)
		return rc;
	if (d->serial && a != ACT_SKIP)
		return st_barrier(d, s, ST_BARRIER, d->o->dry_run ?
		    "one connection from here on" : why);
	switch (a) {
	case ACT_SKIP:
		if (d->o->dry_run)
			st_plan_line(s, "skipped", why);
		d->x->nskipped++;
		if (d->cur != NULL) {
			d->cur->end_no = s->no;
			d->cur->end_hash = d->hash;
		}
		return 0;
	case ACT_PARALLEL:
		/* not transactional: alone, autocommit, never run again */
		if (!d->o->dry_run && (rc = st_stmt_engine(d, s, &eng)) != 0)
			return rc == -1 ? -1 : st_barrier(d, s, ST_BARRIER, "");
		if (d->o->dry_run)
			st_plan_line(s, "parallel", why);
		/* a large one is a unit of its own, not copied (stmts.h) */
		if (st_large(d, s))
			st_unit_close(d);
		if (st_unit_add(d, s) == -1) {
			sx_set_error(d->x, s->no, "%s", strerror(errno));
			return -1;
		}
		if (d->cur->text.len >= d->o->commit_every)
			st_unit_close(d);
		return 0;
	case ACT_BARRIER:
		return st_barrier(d, s, ST_BARRIER, why);
	case ACT_SESSION:
		return st_barrier(d, s, one ? ST_SESSION_ONE : ST_EVERY, why);
	}
	return 0;
}

/* The summary line (run.h). */
static void
summary(void *st, struct buf *b, double secs)
{
	struct dispatch	*d = st;
	struct sx	*x = d->x;

	buf_addf(b, "%" PRIu64 " %s, %" PRIu64 " %s affected, ", x->nstmts,
	    x->nstmts == 1 ? "statement" : "statements", x->rows,
	    x->rows == 1 ? "row" : "rows");
	/* the paths the statements took (lit.c) */
	if (x->lit != NULL)
		buf_addf(b, "%" PRIu64 " by bulk execute and %" PRIu64
		    " as text, ", x->nlit, x->nstmts - x->nlit);
	sx_add_bytes(b, (double)x->bytes);
	buf_addf(b, " in %.2f s", secs);
	if (secs > 0) {
		buf_adds(b, " (");
		sx_add_bytes(b, x->bytes / secs);
		buf_addf(b, "/s, %.0f statements/s)", x->nstmts / secs);
	}
	if (x->nskipped > 0)
		buf_addf(b, ", %" PRIu64 " skipped", x->nskipped);
	if (d->resumed + d->resumed_session > 0)
		buf_addf(b, ", %" PRIu64 " before --skip-to", d->resumed +
		    d->resumed_session);
	if (d->resumed_session > 0)
		buf_addf(b, " (%" PRIu64 " SET or USE of them run again)",
		    d->resumed_session);
	if (x->nwarnings > 0)
		buf_addf(b, ", %" PRIu64 " warning%s", x->nwarnings,
		    x->nwarnings == 1 ? "" : "s");
	if (x->nfailed > 0)
		buf_addf(b, ", %" PRIu64 " FAILED", x->nfailed);
}

/* The feeder's state; the input's identity; literal INSERTs (lit.c). */
static int
start(struct sx *x, const struct buf *hdr, void **st)
{
	struct dispatch	*d;

	if ((*st = d = calloc(1, sizeof(*d))) == NULL) {
		sx_set_error(x, 0, "%s", strerror(errno));
		return -1;
	}
	d->x = x;
	d->o = x->o;
	if (sx_id_init(&d->id, NULL) == -1 || sx_order_new(x) == -1) {
		sx_set_error(x, 0, "%s", strerror(errno));
		return -1;
	}
	d->hash = sx_id_digest(&d->id);
	/* INSERTs of literals through bulk executes (lit.c) */
	if (!d->o->dry_run && !d->o->no_bulk &&
	    sx_bulk_supported(x->conn[0]) && sx_lit_new(x) == -1)
		warn("bulk");		/* then as text */
	return 0;
}

/* A statement frame, or the input's fault (*input_err 2). */
static int
frame(void *st, const struct frame *f, int *input_err)
{
	struct dispatch	*d = st;
	struct rp_stmt	 s;
	int		 rc;

	if (f->type != FT_STMT) {
		fprintf(stderr, "%s: frame %" PRIu64 " at offset %" PRIu64
		    ": not a statement frame (type %d): sqlexec runs the "
		    "output of sqlsplit\n", getprogname(), f->seq, f->offset,
		    f->type);
		*input_err = 2;
		return -1;
	}
	if (dec_stmt(f, &s) == -1) {
		fprintf(stderr, "%s: frame %" PRIu64 " at offset %" PRIu64
		    ": corrupt statement frame\n", getprogname(), f->seq,
		    f->offset);
		*input_err = 2;
		return -1;
	}
	if (sx_rename_stmt(d->o, &s) == -1) {
		sx_set_error(d->x, s.no, "rename: %s", strerror(errno));
		return -1;
	}
	d->f = f;
	rc = dispatch(d, &s);
	d->f = NULL;
	return rc;
}

/*
 * The input is over: what ran of the ordered INSERTs' transaction is
 * committed (it is still open only if all of it ran), the unit being filled is queued (or
 * dropped); the input's transaction left open is rolled back, as the
 * mysql client does at its end (then what it held is not done).
 */
static int
end(void *st, int rc, int input_err, uint64_t *no, uint64_t *hash)
{
	struct dispatch	*d = st;
	struct sx	*x = d->x;

	/* what ran of ordered INSERTs is committed, as by the client */
	if (!d->o->dry_run && st_ordered_end(d, 1) == -1)
		rc = -1;
	if (rc == 0 && resume_end(d) == -1)
		rc = -1;
	*no = d->consumed;
	*hash = d->hash;
	if (rc == 0 && d->txn != 0) {
		fprintf(stderr, "%s: warning: the input ends inside the "
		    "transaction begun by statement %" PRIu64 ": rolled "
		    "back, as the mysql client does\n", getprogname(), d->txn);
		if (!d->o->dry_run)
			(void)st_input_txn_rollback(x, d->txn);
		st_txn_undone(d);
		*no = d->txn - 1;
		*hash = d->txn_hash;
	} else if (d->txn != 0 && !d->o->dry_run)
		/* no unit is queued while it is open: connection 1 is idle */
		(void)st_input_txn_rollback(x, d->txn);
	if (rc == 0)
		st_unit_close(d);
	else {
		sx_unit_free(d->cur);	/* the open batch: dropped */
		d->cur = NULL;
	}
	return rc;
}

static void
feeder_free(void *st)
{
	struct dispatch	*d = st;

	if (d == NULL)
		return;
	st_cool_all(d);
	free(d->warm);
	free(d->held_err);
	buf_release(&d->last);
	sx_id_free(&d->id);
	sx_order_free(d->x);
	sx_lit_free(d->x);
	free(d);
}

const struct sx_feeder sx_stmt_feeder = {
	.unit = "statements",
	.start = start,
	.frame = frame,
	.end = end,
	.summary = summary,
	.free = feeder_free,
};
