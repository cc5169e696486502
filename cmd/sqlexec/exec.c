/*
 * exec: sqlexec's dispatcher.  Reads statement frames, classifies each
 * one, packs parallel statements into units for the workers and runs
 * barriers in order once every unit before them has committed.  Reports
 * the first error, the resume point and the summary.
 */
#include <err.h>
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errmsg.h>

#include "util.h"
#include "lit.h"
#include "load.h"
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
		if (sx_check_resume(x, d->o->skip_to, d->prev_hash) == -1)
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
	return sx_check_resume(x, d->consumed, d->hash);
}

static int
dispatch(struct dispatch *d, const struct rp_stmt *s)
{
	const char	*why, *fn, *eng;
	enum sx_action	 a = sx_classify(s, &why);
	char		 fnwhy[128];
	int		 rc, ac;

	if (resume_point(d, s) == -1)
		return -1;
	d->consumed = s->no;
	sx_check_use(d->x, s, &d->use_warned);
	if (a != ACT_SKIP && (s->no > d->o->skip_to || a == ACT_SESSION) &&
	    !d->o->dry_run && d->x->max_packet > 0 &&
	    s->len + 1 >= d->x->max_packet)
		return too_large(d, s);
	/* DDL (or a CALL, ...) may change the tables' engines */
	if (a == ACT_BARRIER && !st_transactional(s) && !d->o->dry_run)
		sx_nontx_forget(d->x);
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
	if ((rc = sx_order(d->x, s, &a, &why, d->serial || d->txn != 0)) == -1)
		return -1;
	if (rc == 1)
		st_go_serial(d, s, why);
	if ((rc = st_input_txn(d, s, a)) != 1)
		return rc;
	if (d->serial && a != ACT_SKIP)
		return st_barrier(d, s, 0, d->o->dry_run ? "one connection from "
		    "here on" : why);
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
			return rc == -1 ? -1 : st_barrier(d, s, 0, "");
		if (d->o->dry_run)
			st_plan_line(s, "parallel", why);
		if (st_unit_add(d, s) == -1) {
			sx_set_error(d->x, s->no, "%s", strerror(errno));
			return -1;
		}
		if (d->cur->text.len >= d->o->commit_every)
			st_unit_close(d);
		return 0;
	case ACT_BARRIER:
		return st_barrier(d, s, 0, why);
	case ACT_SESSION:
		return st_barrier(d, s, 1, why);
	}
	return 0;
}

static void
summary(struct dispatch *d, double secs)
{
	struct sx	*x = d->x;
	struct buf	 b = BUF_INIT;

	buf_addf(&b, "%s: %" PRIu64 " %s, %" PRIu64 " %s affected, ",
	    getprogname(), x->nstmts, x->nstmts == 1 ? "statement" :
	    "statements", x->rows, x->rows == 1 ? "row" : "rows");
	/* the paths the statements took (lit.c) */
	if (x->lit != NULL)
		buf_addf(&b, "%" PRIu64 " by bulk execute and %" PRIu64
		    " as text, ", x->nlit, x->nstmts - x->nlit);
	sx_add_bytes(&b, (double)x->bytes);
	buf_addf(&b, " in %.2f s", secs);
	if (secs > 0) {
		buf_adds(&b, " (");
		sx_add_bytes(&b, x->bytes / secs);
		buf_addf(&b, "/s, %.0f statements/s)", x->nstmts / secs);
	}
	if (x->nskipped > 0)
		buf_addf(&b, ", %" PRIu64 " skipped", x->nskipped);
	if (d->resumed + d->resumed_session > 0)
		buf_addf(&b, ", %" PRIu64 " before --skip-to", d->resumed +
		    d->resumed_session);
	if (d->resumed_session > 0)
		buf_addf(&b, " (%" PRIu64 " SET or USE of them run again)",
		    d->resumed_session);
	if (x->nwarnings > 0)
		buf_addf(&b, ", %" PRIu64 " warning%s", x->nwarnings,
		    x->nwarnings == 1 ? "" : "s");
	if (x->nfailed > 0)
		buf_addf(&b, ", %" PRIu64 " FAILED", x->nfailed);

	fprintf(stderr, "%s\n", b.p);
	buf_release(&b);
}

/* The stream header: what the checkpoint records of the input. */
static int
header(struct dispatch *d, const struct frame *f)
{
	struct dec	 dd;
	struct rp_kv	 kv;

	if (d->o->dry_run || d->o->checkpoint == NULL)
		return 0;
	dec_init(&dd, f->p, f->len);
	if (dec_kv(&dd, &kv) == -1)
		return 0;	/* the reader checked it: cannot be */
	return sx_ckpt_input(d->x, &kv);
}

/*
 * A whole stream with no statement and no object (sqlsplit of an empty
 * text, a header and a trailer alone) is an error unless --allow-empty:
 * a zero-byte backup must not restore as a success.
 */
static int
empty_input(struct dispatch *d, int *input_err)
{
	fprintf(stderr, "%s: %s: empty input: the stream holds no statement "
	    "and no object (--allow-empty if that is expected)\n",
	    getprogname(), d->o->input_name != NULL ? d->o->input_name :
	    "stdin");
	d->x->no_resume = 1;
	*input_err = 2;
	return -1;
}

/* Read frames and dispatch statements until the trailer or a failure. */
static int
read_loop(struct dispatch *d, struct frame_reader *r, int *input_err)
{
	struct frame	 f;
	struct rp_stmt	 s;
	enum frame_status st;
	int		 stop;

	for (;;) {
		pthread_mutex_lock(&d->x->mu);
		stop = d->x->stop;
		pthread_mutex_unlock(&d->x->mu);
		if (stop)
			return -1;
		if ((st = frame_read(r, &f)) == FRAME_DONE)
			return d->consumed == 0 && !d->o->allow_empty ?
			    empty_input(d, input_err) : 0;
		if (st == FRAME_ERR) {
			*input_err = 1;
			return -1;
		}
		if (f.type == FT_HEADER) {
			buf_reset(&d->header);
			buf_add(&d->header, f.p, f.len);
			if (header(d, &f) == -1)
				return -1;
			continue;
		}
		/* A snapshot stream (dbsnap's): load.c takes it from here. */
		if (d->consumed == 0 &&
		    (f.type == FT_OBJECT || f.type == FT_TABLE)) {
			d->snapshot = 1;
			return sx_load(d->x, r, &d->header, &f, d->t0);
		}
		if (f.type != FT_STMT) {
			fprintf(stderr, "%s: frame %" PRIu64 " at offset %"
			    PRIu64 ": not a statement frame (type %d): "
			    "sqlexec runs the output of sqlsplit\n",
			    getprogname(), f.seq, f.offset, f.type);
			*input_err = 2;
			return -1;
		}
		if (dec_stmt(&f, &s) == -1) {
			fprintf(stderr, "%s: frame %" PRIu64 " at offset %"
			    PRIu64 ": corrupt statement frame\n",
			    getprogname(), f.seq, f.offset);
			*input_err = 2;
			return -1;
		}
		if (sx_rename_stmt(d->o, &s) == -1) {
			warn("rename");
			return -1;
		}
		if (dispatch(d, &s) == -1)
			return -1;
	}
}

int
sx_run(int fd, const struct sx_opts *given)
{
	struct sx_opts		 opts = *given, *o = &opts;	/* --resume sets skip_to */
	struct sx		 x;
	struct dispatch		 d;
	struct frame_reader	*r;
	struct stat		 sb;
	double			 t0 = mono_now();
	uint64_t		 end_no, end_hash;
	int			 rc, input_err = 0, ok, started;

	sx_set_default_db(o->db);
	memset(&x, 0, sizeof(x));
	memset(&d, 0, sizeof(d));
	x.o = o;
	x.qmax = o->jobs;
	x.stop_seq = UINT64_MAX;
	x.done_no = o->skip_to;
	x.done_hash = o->skip_hash;
	x.top_no = o->skip_top;
	x.top_hash = o->skip_hash;
	pthread_mutex_init(&x.mu, NULL);
	pthread_cond_init(&x.cv_work, NULL);
	pthread_cond_init(&x.cv_space, NULL);
	pthread_cond_init(&x.cv_commit, NULL);
	d.x = &x;
	d.o = o;
	d.t0 = t0;
	if (sx_id_init(&d.id, NULL) == -1 ||
	    (r = frame_reader_new(fd, 0)) == NULL) {
		warn("frame reader");
		sx_id_free(&d.id);
		return -1;
	}
	d.hash = sx_id_digest(&d.id);
	if (sx_order_new(&x) == -1) {
		warn("order");
		frame_reader_free(r);
		sx_id_free(&d.id);
		return -1;
	}
	if (!o->dry_run) {
		if (sx_connect(&x) == -1) {
			sx_disconnect(&x);
			sx_order_free(&x);
			frame_reader_free(r);
			sx_id_free(&d.id);
			return -1;
		}
		if (o->checkpoint != NULL && sx_ckpt_open(&x, &opts) == -1) {
			fprintf(stderr, "%s: %s\n", getprogname(), x.err.msg);
			free(x.err.msg);
			sx_disconnect(&x);
			sx_order_free(&x);
			frame_reader_free(r);
			sx_id_free(&d.id);
			return -1;
		}
		/* INSERTs of literals through bulk executes (lit.c) */
		if (!o->no_bulk && sx_bulk_supported(x.conn[0]) &&
		    sx_lit_new(&x) == -1)
			warn("bulk");		/* then as text */
		/* Before any thread: they inherit the blocked signals. */
		if (sx_intr_start(&x) == -1)
			warn("signals");	/* then they have their default effect */
		frame_reader_set_cancel(r, sx_intr_fd(&x));
		if (sx_start_workers(&x) == -1) {
			warn("pthread_create");
			x.stop = 1;
			sx_join_workers(&x);
			sx_intr_stop(&x);
			sx_disconnect(&x);
			sx_order_free(&x);
			frame_reader_free(r);
			return -1;
		}
		x.prog = progress_new(getprogname(), "statements",
		    o->progress);
		if (x.prog != NULL && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
			progress_total(x.prog, 0, 0, sb.st_size);
	}
	if (o->skip_to > 0 && !o->skip_has_hash)
		fprintf(stderr, "%s: warning: --skip-to %" PRIu64 " without the "
		    "input's identity (N:IDENTITY, as the resume line prints "
		    "it): not checked that this is the same input\n",
		    getprogname(), o->skip_to);

	rc = read_loop(&d, r, &input_err);
	if (d.snapshot) {
		ok = rc == 0;	/* sx_load() has reported */
		goto done;
	}
	if (rc == 0 && resume_end(&d) == -1)
		rc = -1;
	end_no = d.consumed;
	end_hash = d.hash;
	if (rc == 0 && d.txn != 0) {
		/* As the mysql client at its end: not committed. */
		fprintf(stderr, "%s: warning: the input ends inside the "
		    "transaction begun by statement %" PRIu64 ": rolled "
		    "back, as the mysql client does\n", getprogname(), d.txn);
		if (!o->dry_run)
			(void)st_input_txn_rollback(&x, d.txn);
		st_txn_undone(&d);
		end_no = d.txn - 1;
		end_hash = d.txn_hash;
	}
	if (rc == 0 || input_err) {
		if (rc == 0)
			st_unit_close(&d);
		else {
			sx_unit_free(d.cur);	/* the open batch: dropped */
			d.cur = NULL;
		}
		if (!o->dry_run && sx_drain(&x) == 0 && rc == 0)
			st_done(&x, end_no, end_hash);
	} else {
		sx_unit_free(d.cur);
		d.cur = NULL;
	}
	if (!o->dry_run) {
		sx_join_workers(&x);
		if (rc != 0 && d.txn != 0)	/* the input's, left open */
			(void)st_input_txn_rollback(&x, d.txn);
		if (rc == 0 && x.err.msg == NULL && x.interrupted == 0 &&
		    sx_ckpt_finish(&x, end_no, end_hash) == -1)
			rc = -1;
	}
	if (x.prog != NULL)
		progress_clear(x.prog);

	sx_report_end(&x, r, input_err);
	ok = rc == 0 && x.err.msg == NULL && x.nfailed == 0 &&
	    x.interrupted == 0;
	/* Input that never was a stream: its one error line says it all. */
	started = frame_reader_totals(r)->frames > 0;
	if (!o->dry_run && started && (!o->quiet || !ok))
		summary(&d, mono_now() - t0);
	if (!o->dry_run && !ok && !x.no_resume && ((started && (rc != 0 ||
	    x.err.msg != NULL)) || x.interrupted != 0))
		sx_print_resume(&x);
done:
	sx_intr_stop(&x);		/* a signal from now on: its default */

	st_cool_all(&d);
	free(d.warm);
	buf_release(&d.last);
	buf_release(&d.header);
	progress_free(x.prog);
	sx_lit_free(&x);
	sx_order_free(&x);
	if (!o->dry_run)
		sx_disconnect(&x);
	frame_reader_free(r);
	sx_id_free(&d.id);
	sx_wrote_free(&x);
	sx_nontx_free(&x);
	free(x.marks);
	free(x.pend_marks);
	free(x.doubt);
	free(x.doubt_what);
	if (opts.skip_marks != given->skip_marks)	/* the checkpoint's */
		free(opts.skip_marks);
	free(x.err.msg);
	pthread_mutex_destroy(&x.mu);
	pthread_cond_destroy(&x.cv_work);
	pthread_cond_destroy(&x.cv_space);
	pthread_cond_destroy(&x.cv_commit);
	return ok ? 0 : -1;
}
