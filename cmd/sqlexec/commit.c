/*
 * commit: the commit protocol, the only code that knows it (engine.h
 * gives the model, the invariant and the lock rule).  The dispatcher
 * queues units in input order (sx_push, turns.c); a worker runs a
 * unit (sx_unit_run): START TRANSACTION, its work, its turn once every
 * earlier unit has committed (sx_wait_turn), the checkpoint and COMMIT,
 * or ROLLBACK; a failed unit stops the run and every later unit rolls
 * back (sx_fail_unit); sx_drain is the barrier: every queued unit
 * committed.  Barriers (sx_barrier_stmt, sx_barrier_ddl) and the input's
 * own transaction (sx_input_stmt) commit here too.  Every operation on a
 * connection goes through the executor x->ex (engine.h), so that
 * tests/unit/engine.c can drive this file without a server.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "load.h"

/* "statements 5-9 (tables d.t, d.u)" of statement unit u, into b. */
static void
unit_what(struct buf *b, const struct sx_unit *u)
{
	const char	*last = NULL, *t;
	size_t		 k;

	buf_addf(b, "statements %" PRIu64 "-%" PRIu64, u->st[0].no,
	    u->st[u->n - 1].no);
	for (k = 0; k < u->n; k++) {
		if (u->st[k].ctx == SX_NOCTX)
			continue;
		t = u->ctx.p + u->st[k].ctx;
		if (last == NULL || strcmp(last, t) != 0)
			buf_addf(b, "%s%s", last == NULL ? " (tables " : ", ",
			    t);
		last = t;
	}
	if (last != NULL)
		buf_adds(b, ")");
}

int
sx_unit_rollback(struct sx *x, MYSQL *m, struct sx_unit *u)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	unit_what(&b, u);
	rc = sx_rollback(x, m, u->st[0].no, b.p);
	buf_release(&b);
	return rc == 1 ? -1 : 0;
}

/* sx_unit_rollback() through the executor, of either kind of unit. */
static int
unit_rollback(struct sx *x, int c, struct sx_unit *u)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	if (u->rows != NULL)
		sx_rows_where(&b, u);
	else
		unit_what(&b, u);
	rc = x->ex->rollback(x, c, u->rows != NULL ? u->rows->first_frame :
	    u->st[0].no, b.p);
	buf_release(&b);
	return rc == 1 ? -1 : 0;
}

/* "ERROR n (state): message" of the last failure on c, into b. */
static void
add_error(struct sx *x, int c, struct buf *b)
{
	struct sx_err	 e;

	(void)x->ex->fault(x, c, &e);
	buf_addf(b, "ERROR %u (%s): %s", e.no, e.state, e.msg);
}

/*
 * Unit u failed at what ("COMMIT"): "s.t: rows a-b (frames x-y): what:
 * ERROR ..." or "statement N (line L): what: ERROR ...", recorded.
 */
static void
unit_error(struct sx *x, int c, struct sx_unit *u, const char *what)
{
	struct buf	 b = BUF_INIT;
	uint64_t	 no;

	if (u->rows != NULL) {
		sx_rows_where(&b, u);
		no = u->rows->first_frame;
	} else {
		sx_where(&b, u->st[0].no, u->st[0].line, NULL);
		no = u->st[0].no;
	}
	buf_addf(&b, ": %s: ", what);
	add_error(x, c, &b);
	sx_set_error(x, no, "%s", b.p);
	buf_release(&b);
}

int
sx_unit_begin(struct sx *x, int c, struct sx_unit *u)
{
	if (x->ex->begin(x, c) == 0)
		return 0;
	unit_error(x, c, u, "START TRANSACTION");
	return -1;
}

/* Where work is to commit: position no (identity hash), and unit u. */
struct at {
	uint64_t	 no;
	uint64_t	 hash;
	const struct sx_unit *u;
};

/*
 * Write the checkpoint on c: position pos, and pend as begun (NULL:
 * none), then COMMIT if commit; without --checkpoint only the COMMIT.
 * A snapshot stream's point carries the tables' marks committed
 * (sx_point()).  0, or -1 (the failure on c).
 */
static int
ckpt(struct sx *x, int c, const struct at *pos, const struct at *pend,
    int commit)
{
	struct sx_point	 p, pp;
	int		 rc = 0;

	if (x->o->checkpoint == NULL)
		return commit ? x->ex->commit(x, c) : 0;
	memset(&p, 0, sizeof(p));
	memset(&pp, 0, sizeof(pp));
	if (!x->by_frame) {
		/* a statement stream's point is a prefix */
		p.no = p.top = pos->no;
		p.hash = pos->hash;
		if (pend != NULL) {
			pp.no = pp.top = pend->no;
			pp.hash = pend->hash;
		}
	} else {
		pthread_mutex_lock(&x->mu);
		if (sx_point(x, pos->no, pos->hash, pos->u, &p) == -1 ||
		    (pend != NULL && sx_point(x, pend->no, pend->hash,
		    pend->u, &pp) == -1))
			rc = -1;
		pthread_mutex_unlock(&x->mu);
	}
	if (rc == 0)
		rc = x->ex->ckpt(x, c, &p, pend != NULL ? &pp : NULL, commit);
	sx_point_free(&p);
	sx_point_free(&pp);
	return rc;
}

/* ckpt() at position no alone, committed. */
static int
ckpt_at(struct sx *x, int c, uint64_t no, uint64_t hash)
{
	struct at	 a = { no, hash, NULL };

	return ckpt(x, c, &a, NULL, 1);
}

/*
 * The COMMIT of u (or of what names: "statement 5") on c failed: if it
 * got no answer the server may have committed it: in doubt (resume.c).
 */
static void
doubt(struct sx *x, int c, const struct sx_unit *u, const char *what,
    const char *lost)
{
	struct sx_err	 e;

	if (x->ex->fault(x, c, &e) == SX_LOST)
		sx_commit_failed(x, u, what, lost, e.msg, e.no);
}

/* The same for work at position no that runs alone. */
static void
doubt_at(struct sx *x, int c, uint64_t no, uint64_t hash, const char *what,
    const char *lost)
{
	struct sx_unit	 u;

	memset(&u, 0, sizeof(u));
	u.end_no = no;
	u.end_hash = hash;
	doubt(x, c, &u, what, lost);
}

/* The resume point moves past no (identity hash). */
static void
done(struct sx *x, uint64_t no, uint64_t hash)
{
	pthread_mutex_lock(&x->mu);
	sx_done(x, no, hash);
	pthread_mutex_unlock(&x->mu);
}

/* "statement N (line L, table T): ERROR ..." of u's statement k, recorded. */
static void
stmt_error(struct sx *x, int c, struct sx_unit *u, size_t k)
{
	struct buf	 b = BUF_INIT;
	struct sx_stmt	*s = &u->st[k];

	sx_where(&b, s->no, s->line,
	    s->ctx == SX_NOCTX ? NULL : u->ctx.p + s->ctx);
	buf_adds(&b, ": ");
	add_error(x, c, &b);
	sx_set_error(x, s->no, "%s", b.p);
	buf_release(&b);
}

/*
 * --force, after a statement of u failed and u rolled back, in its turn:
 * each statement alone, committed on its own (with the checkpoint), as
 * mysql --force runs them; one to be undone (--strict) rolls back.  Each
 * in a transaction of its own, so that only its COMMIT decides (in
 * autocommit, a statement whose answer was lost, or whose COMMIT was
 * refused after it, was done but not counted).  0, or -1 recorded.
 */
static int
replay(struct sx *x, int c, struct sx_unit *u, struct sx_pass *p)
{
	struct buf	 b = BUF_INIT;
	struct at	 a;
	size_t		 k;
	int		 rc;

	for (k = 0; k < u->n; k++) {
		if (sx_unit_begin(x, c, u) == -1 ||
		    (rc = x->ex->work_one(x, c, u, k, p)) == -1)
			return -1;
		a.no = k + 1 < u->n ? u->st[k].no : u->end_no;
		a.hash = k + 1 < u->n ? u->st[k].hash : u->end_hash;
		a.u = NULL;
		sx_where(&b, u->st[k].no, u->st[k].line, NULL);
		if (rc == 1) {
			if ((rc = x->ex->rollback(x, c, u->st[k].no,
			    b.p)) == 1) {
				buf_release(&b);
				return -1;	/* recorded */
			}
		} else if ((rc = ckpt(x, c, &a, NULL, 1)) != 0)
			doubt_at(x, c, a.no, a.hash, b.p, "its COMMIT");
		buf_release(&b);
		if (rc != 0) {
			stmt_error(x, c, u, k);
			return -1;
		}
		/* committed: a stop after it resumes after it */
		if (k + 1 < u->n)
			done(x, a.no, a.hash);
	}
	return 0;
}

/*
 * Rows of a table that is not transactional (nontx.c): the unit runs
 * alone (load.c), in its turn, in autocommit, so that no ROLLBACK can
 * leave its rows behind to be loaded again.  With --checkpoint it is
 * pending while it runs, and stays so if it stops part way: then only
 * the user can tell what is in the table, and the run says so.
 */
static int
rows_nontx(struct sx *x, int c, struct sx_unit *u, struct sx_pass *p)
{
	struct at	 now = { 0, 0, NULL }, at = { u->end_no, u->end_hash, u };
	struct buf	 b = BUF_INIT;

	if (!x->ex->turn(x, u))
		return -1;
	if (x->o->checkpoint != NULL && ckpt(x, c, &now, &at, 1) != 0) {
		unit_error(x, c, u, "checkpoint");
		sx_fail_unit(x, u);
		return -1;
	}
	if (x->ex->work(x, c, u, p) == -1) {
		sx_rows_where(&b, u);
		sx_nontx_note(x, u->rows->first_frame, b.p, u->rows->t->engine,
		    0, p->rows);
		buf_release(&b);
		pthread_mutex_lock(&x->mu);
		x->rows += p->rows;	/* they are in the table */
		pthread_mutex_unlock(&x->mu);
		sx_fail_unit(x, u);
		return -1;
	}
	/* done in autocommit: without --checkpoint no COMMIT to fail */
	if (x->o->checkpoint != NULL && ckpt(x, c, &at, NULL, 1) != 0) {
		unit_error(x, c, u, "checkpoint");
		sx_fail_unit(x, u);
		return -1;
	}
	return 0;
}

/*
 * Unit u as one transaction on c, committed in its turn with the
 * checkpoint (engine.h).  0 committed; -1 not (recorded, or the run
 * stopped before u).
 */
static int
unit_txn(struct sx *x, int c, struct sx_unit *u, struct sx_pass *p)
{
	struct at	 at = { u->end_no, u->end_hash, u };
	struct buf	 b = BUF_INIT;
	int		 rc, alone, t = 1;

	if (u->rows != NULL && u->rows->t->engine != NULL)
		return rows_nontx(x, c, u, p);
	for (;;) {
		if ((alone = sx_unit_start(x, u)) == -1)
			return -1;
		memset(p, 0, sizeof(*p));
		p->alone = alone;
		if (sx_unit_begin(x, c, u) == -1)
			goto failed;
		rc = x->ex->work(x, c, u, p);
		if (rc == SX_WORK_LOCK) {
			buf_reset(&b);
			add_error(x, c, &b);
			if (unit_rollback(x, c, u) == -1)
				goto failed;
			sx_unit_release(x);
			sx_wound(x, u, b.p);
			continue;
		}
		if (rc == -1) {
			(void)unit_rollback(x, c, u);
			goto failed;
		}
		/* --force: replayed below, unless the ROLLBACK left rows */
		if (rc == 1 && unit_rollback(x, c, u) == -1)
			goto failed;
		/* alone: its turn already, unless the run stopped since */
		if ((t = x->ex->turn(x, u)) == 1)
			break;
		if (t == 0) {
			if (rc != 1)
				(void)unit_rollback(x, c, u);
			sx_unit_release(x);
			buf_release(&b);
			return -1;
		}
		/* 2: a conflict since its work began: again, in its turn */
		if (rc != 1 && unit_rollback(x, c, u) == -1)
			goto failed;
		sx_unit_release(x);
	}
	buf_release(&b);
	if (rc == 1) {
		/* alone, as mysql --force runs statements one by one */
		if (!alone) {
			sx_unit_release(x);
			sx_wound(x, u, NULL);
			if (sx_unit_start(x, u) == -1)
				return -1;
		}
		memset(p, 0, sizeof(*p));
		rc = replay(x, c, u, p);
		sx_unit_release(x);
		if (rc == 0)
			return 0;
		/* what it committed before it stopped counts */
		pthread_mutex_lock(&x->mu);
		x->rows += p->rows;
		x->nwarnings += p->warns;
		x->nfailed += p->failed;
		pthread_mutex_unlock(&x->mu);
		sx_fail_unit(x, u);
		return -1;
	}
	rc = ckpt(x, c, &at, NULL, 1);
	sx_unit_release(x);
	if (rc == 0)
		return 0;
	if (u->rows != NULL)
		sx_rows_where(&b, u);
	else
		buf_addf(&b, "statements %" PRIu64 "-%" PRIu64, u->st[0].no,
		    u->st[u->n - 1].no);
	doubt(x, c, u, b.p, "its COMMIT");
	if (u->rows != NULL)
		unit_error(x, c, u, "COMMIT");
	else {
		buf_reset(&b);
		buf_addf(&b, "commit of statements %" PRIu64 "-%" PRIu64 ": ",
		    u->st[0].no, u->st[u->n - 1].no);
		add_error(x, c, &b);
		sx_set_error(x, u->st[0].no, "%s", b.p);
	}
	buf_release(&b);
	sx_fail_unit(x, u);
	return -1;
failed:
	sx_unit_release(x);
	buf_release(&b);
	sx_fail_unit(x, u);
	return -1;
}

/*
 * A snapshot stream's table object as a unit (snapobj.c): its DDL at
 * once on c, overlapping the units before it (the DDL of the objects
 * before it, when dbsnap gives them in a run), and the resume point
 * past it only in its turn.  If the run stops before its turn, what it
 * made stays behind the point: the resume runs DROP TABLE IF EXISTS and
 * CREATE TABLE again, the same empty table (its rows come after it).  An
 * answer lost in its turn leaves it in doubt, as a barrier's.  0 done;
 * -1 not (recorded, or the run stopped before it).
 */
static int
unit_ddl(struct sx *x, int c, struct sx_unit *u)
{
	struct buf	 b = BUF_INIT;
	int		 rc, t;

	rc = x->ex->ddl(x, c, u);
	if ((t = x->ex->turn(x, u)) == 1 && rc == 0)
		return 0;
	if (t == 1) {
		buf_addf(&b, "frame %" PRIu64, u->end_no);
		doubt(x, c, u, b.p, "its DDL");
		buf_release(&b);
		sx_fail_unit(x, u);
	}
	return -1;
}

/* The tables a committed unit wrote to (sx_wrote()); x->mu held. */
static void
unit_tables(struct sx *x, const struct sx_unit *u)
{
	const char	*last = NULL, *t;
	size_t		 k;

	if (u->rows != NULL) {
		sx_wrote(x, u->rows->t->name);
		return;
	}
	for (k = 0; k < u->n; k++) {
		if (u->st[k].ctx == SX_NOCTX)
			continue;
		t = u->ctx.p + u->st[k].ctx;
		if (last == NULL || strcmp(last, t) != 0)
			sx_wrote(x, t);
		last = t;
	}
}

void
sx_unit_run(struct sx *x, int c, struct sx_unit *u)
{
	struct sx_pass	 p;
	size_t		 bytes;
	int		 stopped, rc;

	pthread_mutex_lock(&x->mu);
	stopped = x->stop_seq <= u->seq;
	pthread_mutex_unlock(&x->mu);
	if (stopped)
		return;
	memset(&p, 0, sizeof(p));
	/* a bulk unit alone: MariaDB bulk-loads the empty table (worker.c) */
	if (u->bulk && !x->o->keep_checks)
		x->ex->unique_checks(x, c, 0);
	rc = u->ddl != NULL ? unit_ddl(x, c, u) : unit_txn(x, c, u, &p);
	if (u->bulk && !x->o->keep_checks)
		x->ex->unique_checks(x, c, 1);
	if (rc == -1)
		return;
	/* bytes: of statement text, or of the rows' frames */
	bytes = u->ddl != NULL ? 0 : u->rows != NULL ? u->rows->data.len :
	    u->text.len - 3 * (u->n - 1);
	/* done with c: from here on the dispatcher may use it */
	pthread_mutex_lock(&x->mu);
	x->committed_seq = u->seq;
	sx_done(x, u->end_no, u->end_hash);
	sx_mark(x, u);
	unit_tables(x, u);
	x->nstmts += u->n;
	x->nfailed += p.failed;
	x->rows += p.rows;
	x->nwarnings += p.warns;
	x->nlit += p.lit;
	x->bytes += bytes;
	pthread_cond_broadcast(&x->cv_commit);
	pthread_mutex_unlock(&x->mu);
	if (x->prog != NULL)
		progress_add(x->prog, u->n, p.rows, bytes);
}

/* A failed checkpoint write for the work at where: recorded, -1. */
static int
ckpt_error(struct sx *x, uint64_t no, const char *where)
{
	struct buf	 b = BUF_INIT;

	buf_addf(&b, "%s: checkpoint %s: ", where, x->o->checkpoint);
	add_error(x, 0, &b);
	sx_set_error(x, no, "%s", b.p);
	buf_release(&b);
	(void)x->ex->rollback(x, 0, no, where);
	return -1;
}

/*
 * Work at position no that commits on its own (DDL; a write to a table
 * that is not transactional), on connection 1: with --checkpoint pending
 * while it runs, so that a stop in the middle is not mistaken for either
 * outcome.  clear: once it failed as a whole (the server refused it,
 * before anything ran), it is no longer pending; a write to a table
 * that is not transactional may have stopped part way: it stays
 * pending, for the user to decide.  0, or -1 recorded.
 */
static int
alone(struct sx *x, uint64_t no, uint64_t prev_hash, uint64_t hash,
    int (*run)(void *), void *arg, int clear, const char *where)
{
	struct at	 before = { no - 1, prev_hash, NULL };
	struct at	 at = { no, hash, NULL };
	int		 ck = x->o->checkpoint != NULL, ran;

	if (ck && ckpt(x, 0, &before, &at, 1) == -1)
		return ckpt_error(x, no, where);
	if (run(arg) == -1) {
		pthread_mutex_lock(&x->mu);
		ran = x->done_no >= no;	/* --strict: it ran, with warnings */
		pthread_mutex_unlock(&x->mu);
		if (ck && ran)
			(void)ckpt_at(x, 0, no, hash);
		else if (ck && clear && x->engine == NULL &&
		    x->ex->fault(x, 0, NULL) == SX_REFUSED)
			(void)ckpt_at(x, 0, no - 1, prev_hash);
		else if (!ck)
			doubt_at(x, 0, no, hash, where, "its DDL");
		return -1;
	}
	if (ck && ckpt_at(x, 0, no, hash) == -1)
		return ckpt_error(x, no, where);
	done(x, no, hash);
	return 0;
}

int
sx_barrier_ddl(struct sx *x, uint64_t no, uint64_t prev_hash, uint64_t hash,
    int (*run)(void *), void *arg, const char *where)
{
	return alone(x, no, prev_hash, hash, run, arg, 0, where);
}

struct stmt_arg {
	struct sx	*x;
	const struct rp_stmt *s;
};

static int
run_stmt(void *arg)
{
	struct stmt_arg	*a = arg;

	return a->x->ex->stmt(a->x, 0, a->s, 0);
}

/*
 * A DML barrier with --checkpoint: in one transaction with the row.
 * 0, or -1 recorded.
 */
static int
barrier_dml(struct sx *x, const struct rp_stmt *s, uint64_t hash,
    const char *where)
{
	if (x->ex->begin(x, 0) != 0)
		return ckpt_error(x, s->no, where);
	if (x->ex->stmt(x, 0, s, 1) == -1) {
		(void)x->ex->rollback(x, 0, s->no, where);
		return -1;
	}
	if (ckpt_at(x, 0, s->no, hash) == -1)
		return ckpt_error(x, s->no, where);
	done(x, s->no, hash);
	return 0;
}

int
sx_barrier_stmt(struct sx *x, const struct rp_stmt *s, uint64_t prev_hash,
    uint64_t hash, int flags)
{
	struct stmt_arg	 a = { x, s };
	struct buf	 b = BUF_INIT;
	int		 c, rc = 0;

	sx_where(&b, s->no, s->line, NULL);
	if (!(flags & SX_BAR_EVERY) && x->o->checkpoint != NULL)
		rc = (flags & SX_BAR_DML) && x->engine == NULL ?
		    barrier_dml(x, s, hash, b.p) :
		    alone(x, s->no, prev_hash, hash, run_stmt, &a, 1, b.p);
	else {
		/* in autocommit, alone: an answer lost leaves it in doubt */
		for (c = 0; c < ((flags & SX_BAR_EVERY) &&
		    !(flags & SX_BAR_ONE) ? x->nconn : 1); c++)
			if ((rc = x->ex->stmt(x, c, s, 0)) == -1)
				break;
		buf_reset(&b);
		buf_addf(&b, "statement %" PRIu64, s->no);
		if (rc == -1 && c == 0)
			doubt_at(x, 0, s->no, hash, b.p, "the statement");
		else if (rc == 0)
			done(x, s->no, hash);
	}
	buf_release(&b);
	return rc;
}

int
sx_input_stmt(struct sx *x, const struct rp_stmt *s, uint64_t prev_hash,
    uint64_t hash, uint64_t begin_no, int flags, int *open)
{
	struct at	 before = { s->no - 1, prev_hash, NULL };
	struct at	 at = { s->no, hash, NULL };
	struct buf	 b = BUF_INIT;
	int		 ck = x->o->checkpoint != NULL, rc = 0;

	/* a COMMIT: the row first, so that both commit together */
	if (ck && (flags & SX_IN_COMMIT))
		rc = ckpt(x, 0, &at, NULL, 0);
	/* DDL commits the row with the transaction: pending first */
	else if (ck && (flags & SX_IN_NONTX))
		rc = ckpt(x, 0, &before, &at, 0);
	if (rc == 0 && x->ex->stmt(x, 0, s, 1) == -1) {
		/* a DDL that failed after its implicit commit: not pending */
		if (ck && (flags & SX_IN_NONTX) && !x->ex->in_txn(x, 0) &&
		    x->ex->fault(x, 0, NULL) == SX_REFUSED)
			(void)ckpt_at(x, 0, s->no - 1, prev_hash);
		buf_addf(&b, "statements %" PRIu64 "-%" PRIu64 " (the input's "
		    "transaction)", begin_no, s->no);
		if (flags & SX_IN_COMMIT)
			doubt_at(x, 0, s->no, hash, b.p, "its COMMIT");
		buf_release(&b);
		return -1;
	}
	if (rc == 0 && *open && !x->ex->in_txn(x, 0))
		*open = 0;	/* ended implicitly (DDL, LOCK TABLES) */
	/* ended otherwise (ROLLBACK, XA, a DDL): the row on its own */
	if (rc == 0 && ck && !*open && !(flags & SX_IN_COMMIT))
		rc = ckpt_at(x, 0, s->no, hash);
	else if (rc == 0 && ck && (flags & SX_IN_NONTX))
		rc = ckpt(x, 0, &at, NULL, 0);
	if (rc == -1) {
		sx_where(&b, s->no, s->line, NULL);
		rc = ckpt_error(x, s->no, b.p);
		buf_release(&b);
		return rc;
	}
	if (!*open)
		done(x, s->no, hash);
	return 0;
}

int
sx_group_begin(struct sx *x, const struct rp_stmt *s)
{
	struct buf	 b = BUF_INIT;

	if (x->ex->begin(x, 0) == 0)
		return 0;
	sx_where(&b, s->no, s->line, NULL);
	buf_adds(&b, ": START TRANSACTION: ");
	add_error(x, 0, &b);
	sx_set_error(x, s->no, "%s", b.p);
	buf_release(&b);
	return -1;
}

int
sx_group_stmt(struct sx *x, const struct rp_stmt *s)
{
	return x->ex->stmt(x, 0, s, 1);
}

int
sx_group_end(struct sx *x, uint64_t first_no, uint64_t no, uint64_t hash,
    int commit)
{
	struct buf	 b = BUF_INIT;

	buf_addf(&b, "statements %" PRIu64 "-%" PRIu64, first_no, no);
	if (!commit) {
		(void)x->ex->rollback(x, 0, first_no, b.p);
		buf_release(&b);
		return 0;
	}
	if (ckpt_at(x, 0, no, hash) == 0) {
		buf_release(&b);
		done(x, no, hash);
		return 0;
	}
	doubt_at(x, 0, no, hash, b.p, "its COMMIT");
	buf_reset(&b);
	buf_addf(&b, "commit of statements %" PRIu64 "-%" PRIu64 ": ",
	    first_no, no);
	add_error(x, 0, &b);
	sx_set_error(x, first_no, "%s", b.p);
	buf_release(&b);
	return -1;
}
