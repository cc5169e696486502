/*
 * run: sqlexec's one lifecycle (run.h): set-up, the read loop, the end
 * of the run and its cleanup, for every kind of input.  The feeders
 * (exec.c, load.c) say what the frames mean; this file says when the
 * connections, the workers, the signals and the checkpoint begin and
 * end, and what a run says at its end: the error, the summary, the
 * resume line, by one rule for every stream.
 */
#include <sys/stat.h>

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "util.h"

/* One run's lifecycle state, the reader's thread's alone. */
struct run {
	struct sx	 x;
	struct sx_opts	 o;		/* the options given; --resume sets skip_to */
	const struct sx_opts *given;
	struct frame_reader *r;
	int		 fd;
	const struct sx_feeder *feed;	/* NULL until the first frame after the header */
	void		*st;		/* the feeder's state */
	struct buf	 hdr;		/* the header frame's payload */
	double		 t0;
	int		 input_err;	/* 1: the reader's error, 2: the input's, said */
	int		 dbs;		/* 1: in the stream's OBJECT database frames, 2: past them */
};

static void
run_init(struct run *R, int fd, const struct sx_opts *given)
{
	struct sx	*x = &R->x;

	memset(R, 0, sizeof(*R));
	R->o = *given;
	R->given = given;
	R->fd = fd;
	R->t0 = mono_now();
	sx_set_default_db(R->o.db);
	x->o = &R->o;
	x->qmax = R->o.jobs;
	x->stop_seq = UINT64_MAX;
	x->done_no = R->o.skip_to;
	x->done_hash = R->o.skip_hash;
	x->top_no = R->o.skip_top;
	x->top_hash = R->o.skip_hash;
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv_work, NULL);
	pthread_cond_init(&x->cv_space, NULL);
	pthread_cond_init(&x->cv_commit, NULL);
}

/*
 * Connections, the checkpoint, signals and the workers, before the first
 * frame.  0, or -1 after saying why (the cleanup undoes what was done).
 */
static int
run_setup(struct run *R)
{
	struct sx	*x = &R->x;

	if ((R->r = frame_reader_new(R->fd, 0)) == NULL) {
		warn("frame reader");
		return -1;
	}
	x->rd = R->r;
	if (R->o.dry_run)
		return 0;
	sx_intr_early("connecting");	/* no statement has run */
	if (sx_connect(x) == -1)
		return -1;
	sx_intr_early("opening the checkpoint");
	if (R->o.checkpoint != NULL && sx_ckpt_open(x, &R->o) == -1) {
		fprintf(stderr, "%s: %s\n", getprogname(), x->err.msg);
		return -1;
	}
	/* Before any thread: they inherit the blocked signals. */
	if (sx_intr_start(x) == -1) {
		warn("signals");	/* then they have their default effect */
		sx_intr_early_end();
	}
	frame_reader_set_cancel(R->r, sx_intr_fd(x));
	if (sx_start_workers(x) == -1) {
		warn("pthread_create");
		x->stop = 1;
		sx_join_workers(x);
		return -1;
	}
	return 0;
}

/* The stream header: what the checkpoint records of the input. */
static int
header(struct run *R, const struct frame *f)
{
	struct dec	 d;
	struct rp_kv	 kv;

	buf_reset(&R->hdr);
	buf_add(&R->hdr, f->p, f->len);
	if (R->o.dry_run || R->o.checkpoint == NULL)
		return 0;
	dec_init(&d, f->p, f->len);
	if (dec_kv(&d, &kv) == -1)
		return 0;	/* the reader checked it: cannot be */
	return sx_ckpt_input(&R->x, &kv);
}

/*
 * The feeder of the stream whose first frame after the header is f (NULL:
 * a stream of a header and a trailer alone, or none): objects and tables
 * begin a snapshot stream; anything else is the statement feeder's to
 * run or refuse.  0, or -1 (recorded).
 */
static int
choose(struct run *R, const struct frame *f)
{
	struct sx	*x = &R->x;
	struct stat	 sb;

	R->feed = f != NULL && (f->type == FT_OBJECT || f->type == FT_TABLE) ?
	    &sx_snap_feeder : &sx_stmt_feeder;
	if (!R->o.dry_run) {
		x->prog = progress_new(getprogname(), R->feed->unit,
		    R->o.progress);
		if (x->prog != NULL && fstat(R->fd, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			progress_total(x->prog, 0, 0, sb.st_size);
	}
	return R->feed->start(x, &R->hdr, &R->st);
}

/*
 * A whole stream with no statement and no object (sqlsplit of an empty
 * text, a header and a trailer alone) is an error unless --allow-empty:
 * a zero-byte backup must not restore as a success.
 */
static int
empty_input(struct run *R)
{
	fprintf(stderr, "%s: %s: empty input: the stream holds no statement "
	    "and no object (--allow-empty if that is expected)\n",
	    getprogname(), R->o.input_name != NULL ? R->o.input_name :
	    "stdin");
	R->x.no_resume = 1;
	R->input_err = 2;
	return -1;
}

/*
 * --rename-db of a database the input never names is a mistyped name,
 * not an empty rename (rows2sql's and rowmap's --rename and --rename-db
 * say the same).  Every OBJECT frame's database is looked up here, as
 * the reader sees it, skipped by --skip-to or not; statement frames are
 * renamed, and so looked up, as they are read (exec.c).  A whole stream
 * that begins with its databases (dbsnap: OBJECT database of each one
 * first) tells at its first other frame, before any table is created or
 * loaded; any input tells at its end.  0, or -1 (recorded).
 */
static int
rename_seen(struct run *R, const struct frame *f)
{
	struct rp_object ob;
	struct rp_kv	 kv;
	struct dec	 d;
	int		 kind = 0;

	if (R->o.names.ndb_renames == 0)
		return 0;
	if (f != NULL && f->type == FT_OBJECT && dec_object(f, &ob) == 0) {
		(void)names_db(&R->o.names, ob.schema);
		kind = ob.kind;
	}
	if (f != NULL) {
		/* the accounts (--users) come before the databases */
		if (R->dbs == 2 || kind == OBJ_USER || kind == OBJ_ROLE)
			return 0;
		if (kind == OBJ_DATABASE) {
			R->dbs = 1;
			return 0;
		}
		if (R->dbs == 0) {	/* no databases first: at the end */
			R->dbs = 2;
			return 0;
		}
		R->dbs = 2;
		/* the parts of a plan: a later part may name another */
		dec_init(&d, R->hdr.p, R->hdr.len);
		if (R->o.ninputs > 1 || (dec_kv(&d, &kv) == 0 &&
		    rp_kv_get(&kv, "part") != NULL))
			return 0;
	}
	return sx_unmatched_rename(&R->x);
}

/* The one read loop: frames to the feeder until the trailer or a stop. */
static int
run_read(struct run *R)
{
	struct sx	*x = &R->x;
	struct frame	 f;
	enum frame_status st;
	int		 stop;

	for (;;) {
		pthread_mutex_lock(&x->mu);
		/*
		 * With a large unit (sx_push()) on every connection, the
		 * next frame waits: one large statement or row per
		 * connection in memory, none read ahead of them.
		 */
		while (x->nconn > 0 && x->qlarge >= (size_t)x->nconn &&
		    !x->stop)
			pthread_cond_wait(&x->cv_space, &x->mu);
		stop = x->stop;	/* an error, or an interrupt (intr.c) */
		pthread_mutex_unlock(&x->mu);
		if (stop)
			return -1;
		if ((st = frame_read(R->r, &f)) == FRAME_DONE)
			return R->feed == NULL && !R->o.allow_empty ?
			    empty_input(R) : rename_seen(R, NULL);
		if (st == FRAME_ERR) {
			R->input_err = 1;
			return -1;
		}
		/* the reader takes it first, and only first */
		if (f.type == FT_HEADER) {
			if (header(R, &f) == -1)
				return -1;
			continue;
		}
		if (rename_seen(R, &f) == -1 ||
		    (R->feed == NULL && choose(R, &f) == -1))
			return -1;
		if (R->feed->frame(R->st, &f, &R->input_err) == -1)
			return -1;
	}
}

/*
 * The end of every run: the feeder queues what is whole, what is queued
 * commits (or, after a failure, what began to commit), the workers stop,
 * the checkpoint is finished, and the run says how it ended: the first
 * error, the summary, and the resume line if anything is left to resume.
 * rc: the read loop's.  0 on complete success, else -1.
 */
static int
run_end(struct run *R, int rc)
{
	struct sx	*x = &R->x;
	struct buf	 b = BUF_INIT;
	uint64_t	 no = 0, hash = 0;
	int		 ok, started;

	/* no frame after the header: as a statement stream */
	if (R->feed == NULL && choose(R, NULL) == -1)
		rc = -1;
	if (R->st != NULL)
		rc = R->feed->end(R->st, rc, R->input_err, &no, &hash);
	if (!R->o.dry_run) {
		if ((rc == 0 || R->input_err) && sx_drain(x) == 0 && rc == 0) {
			pthread_mutex_lock(&x->mu);
			sx_done(x, no, hash);
			pthread_mutex_unlock(&x->mu);
		}
		sx_join_workers(x);
		if (rc == 0 && x->err.msg == NULL && x->interrupted == 0 &&
		    sx_ckpt_finish(x, no, hash) == -1)
			rc = -1;
	}
	if (x->prog != NULL)
		progress_clear(x->prog);

	sx_report_end(x, R->r, R->input_err);
	ok = rc == 0 && x->err.msg == NULL && x->nfailed == 0 &&
	    x->interrupted == 0;
	/* Input that never was a stream: its one error line says it all. */
	started = frame_reader_totals(R->r)->frames > 0;
	if (!R->o.dry_run && started && (!R->o.quiet || !ok) &&
	    R->st != NULL) {
		R->feed->summary(R->st, &b, mono_now() - R->t0);
		fprintf(stderr, "%s: %s\n", getprogname(), b.p);
	}
	buf_release(&b);
	/* what ran to the end (--force) has nothing to resume */
	if (!R->o.dry_run && !ok && !x->no_resume && ((started && (rc != 0 ||
	    x->err.msg != NULL)) || x->interrupted != 0))
		sx_print_resume(x);
	if (!R->o.dry_run && !ok && R->st != NULL && R->feed->last != NULL)
		R->feed->last(R->st);
	return ok ? 0 : -1;
}

/* The one cleanup path, from wherever the run got to. */
static void
run_free(struct run *R)
{
	struct sx	*x = &R->x;

	sx_intr_stop(x);		/* a signal from now on: its default */
	if (R->feed != NULL)
		R->feed->free(R->st);
	progress_free(x->prog);
	if (!R->o.dry_run)
		sx_disconnect(x);
	frame_reader_free(R->r);
	buf_release(&R->hdr);
	sx_wrote_free(x);
	sx_nontx_free(x);
	free(x->marks);
	free(x->pend_marks);
	free(x->doubt);
	free(x->doubt_what);
	if (R->o.skip_marks != R->given->skip_marks)	/* the checkpoint's */
		free(R->o.skip_marks);
	free(x->err.msg);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv_work);
	pthread_cond_destroy(&x->cv_space);
	pthread_cond_destroy(&x->cv_commit);
}

int
sx_run(int fd, const struct sx_opts *given)
{
	struct run	*R;
	int		 rc;

	if ((R = malloc(sizeof(*R))) == NULL) {
		warn(NULL);
		return -1;
	}
	run_init(R, fd, given);
	if ((rc = run_setup(R)) == 0) {
		if (R->o.skip_to > 0 && !R->o.skip_has_hash)
			fprintf(stderr, "%s: warning: --skip-to %" PRIu64
			    " without the input's identity (N:IDENTITY, as "
			    "the resume line prints it): not checked that "
			    "this is the same input\n", getprogname(),
			    R->o.skip_to);
		rc = run_end(R, run_read(R));
	}
	run_free(R);
	free(R);
	return rc;
}
