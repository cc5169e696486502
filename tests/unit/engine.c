/*
 * Unit tests for sqlexec's engine.  First its resume model of snapshot
 * streams (resume.c: sx_done, sx_mark, sx_point, the token): interleaved
 * streams of 2 to 4 tables, cut into units as load.c cuts them
 * (consecutive ROWS frames of one table, about commit_every bytes; a
 * unit's prefix is the frame before the first frame an open unit of
 * another table holds), committed in queue order; the prefix alone (the
 * point before #23) is shown not to be exact.  Then the real engine
 * (commit.c, resume.c, worker.c's threads, -j 1 to 4) over a fake
 * executor that fails at every operation of small generated streams and
 * at random operations of large ones, statement streams and snapshot
 * streams both, with and without --checkpoint, with --force (statements
 * the server refuses, replayed alone) and with a MyISAM table's units
 * (alone, in autocommit): after each failure the point printed (or the
 * checkpoint row) describes exactly what the fake server committed, and
 * resuming from it commits everything else exactly once.  cmocka, TAP
 * output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <cmocka.h>

#include "../../cmd/sqlexec/sqlexec.h"

#define MAXF	4096		/* frames a stream */
#define MAXU	4096		/* units a stream */

/* A stream: frame f (1-based) is a ROWS frame of table tab[f], or 0. */
struct stream {
	int		 n;		/* frames */
	int		 tab[MAXF + 1];
	size_t		 len[MAXF + 1];
};

struct unit {
	int		 table;
	int		 first, last;	/* frames */
	uint64_t	 end_no;
};

struct cut {
	struct unit	 u[MAXU];
	int		 n;
	int		 unit_of[MAXF + 1];	/* frame -> unit index, or -1 */
};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/*
 * A stream as dbsnap -j writes one: a few objects first (frames that are
 * not rows), then the rows of ntab tables, each running from its own
 * start to its own end, interleaved at random.
 */
static void
gen(struct stream *s, int ntab, int frames_per_table)
{
	int	 left[8], i, t, live;

	s->n = 0;
	for (i = 0; i < 3; i++) {		/* header objects */
		s->n++;
		s->tab[s->n] = 0;
	}
	for (t = 1; t <= ntab; t++)
		left[t] = 1 + rnd(frames_per_table);
	live = ntab;
	while (live > 0 && s->n < MAXF - 1) {
		t = 1 + rnd(ntab);
		if (left[t] == 0)
			continue;
		s->n++;
		s->tab[s->n] = t;
		s->len[s->n] = 1 + rnd(4);
		if (--left[t] == 0)
			live--;
	}
}

/* load.c's end_point(): the frame before any other open unit's first. */
static uint64_t
end_point(const int *open_first, int ntab, int t, int frame)
{
	uint64_t	 e = frame;
	int		 o;

	for (o = 1; o <= ntab; o++)
		if (o != t && open_first[o] != 0 &&
		    (uint64_t)open_first[o] - 1 < e)
			e = open_first[o] - 1;
	return e;
}

static void
push(struct cut *c, int *open_first, int *open_last, int ntab, int t,
    int frame)
{
	struct unit	*u;

	if (open_first[t] == 0)
		return;
	u = &c->u[c->n];
	u->table = t;
	u->first = open_first[t];
	u->last = open_last[t];
	u->end_no = end_point(open_first, ntab, t, frame);
	open_first[t] = 0;
	c->n++;
}

/*
 * Cut frames of s into units as load.c does, skipping frame f when
 * skip(f) (a resumed run); every = bytes a unit.
 */
static void
cut(const struct stream *s, int ntab, size_t every, const struct sx_opts *o,
    struct cut *c)
{
	int	 open_first[8] = { 0 }, open_last[8] = { 0 };
	size_t	 bytes[8] = { 0 };
	int	 f, t, k;

	c->n = 0;
	for (f = 1; f <= s->n; f++)
		c->unit_of[f] = -1;
	for (f = 1; f <= s->n; f++) {
		if ((t = s->tab[f]) == 0)
			continue;
		if (o != NULL && ((uint64_t)f <= o->skip_to ||
		    (uint64_t)f <= sx_mark_of(o->skip_marks, o->nskip_marks,
		    t)))
			continue;
		if (open_first[t] == 0) {
			open_first[t] = f;
			bytes[t] = 0;
		}
		open_last[t] = f;
		bytes[t] += s->len[f];
		if (bytes[t] >= every)
			push(c, open_first, open_last, ntab, t, f);
	}
	for (t = 1; t <= ntab; t++)		/* the trailer: push_all() */
		push(c, open_first, open_last, ntab, t, s->n);
	for (k = 0; k < c->n; k++)
		for (f = c->u[k].first; f <= c->u[k].last; f++)
			if (s->tab[f] == c->u[k].table)
				c->unit_of[f] = k;
}

/* A fresh struct sx for a run resumed from o (NULL: from the start). */
static void
run_init(struct sx *x, const struct sx_opts *o)
{
	size_t	 i;

	memset(x, 0, sizeof(*x));
	x->by_frame = 1;
	if (o == NULL)
		return;
	x->done_no = o->skip_to;
	x->top_no = o->skip_top;
	x->top_hash = o->skip_hash;
	for (i = 0; i < o->nskip_marks; i++) {
		struct sx_unit	 u;

		memset(&u, 0, sizeof(u));
		u.has_mark = 1;
		u.mark = o->skip_marks[i];
		u.mark_hash = o->skip_hash;
		sx_mark(x, &u);
	}
}

/* The identity up to frame f, as a stand-in: any function of f. */
static uint64_t
id_at(uint64_t f)
{
	return f * 0x9e3779b97f4a7c15ULL + 1;
}

/* Units 0..ncommit-1 of c commit, in queue order (worker.c). */
static void
commit(struct sx *x, const struct cut *c, int ncommit)
{
	struct sx_unit	 u;
	int		 k;

	for (k = 0; k < ncommit; k++) {
		memset(&u, 0, sizeof(u));
		u.has_mark = 1;
		u.mark.table = c->u[k].table;
		u.mark.frame = c->u[k].last;
		u.mark_hash = id_at(c->u[k].last);
		sx_done(x, c->u[k].end_no, id_at(c->u[k].end_no));
		sx_mark(x, &u);
	}
}

/* Is frame f (of table t) in what point p says is committed? */
static int
described(const struct sx_point *p, uint64_t f, int t)
{
	return f <= p->no || f <= sx_mark_of(p->m, p->n, t);
}

/*
 * After a failure: the point printed, as a token, parsed back into o
 * (owned by the caller: free o->skip_marks).  Checks that it describes
 * exactly done[] (frames committed so far, over every run).
 */
static void
check_point(struct sx *x, const struct stream *s, const int *done,
    struct sx_opts *o)
{
	struct sx_point	 p;
	struct buf	 tok = BUF_INIT;
	const char	*why;
	int		 f;

	assert_int_equal(sx_point(x, 0, 0, NULL, &p), 0);
	for (f = 1; f <= s->n; f++)
		if (s->tab[f] != 0 && described(&p, f, s->tab[f]) != done[f]) {
			print_message("# frame %d of table %d: committed %d, "
			    "the point says %d\n", f, s->tab[f], done[f],
			    !done[f]);
			fail();
		}
	memset(o, 0, sizeof(*o));
	if (p.top == 0) {		/* "no frame is committed": rerun */
		sx_point_free(&p);
		return;
	}
	assert_int_equal(p.hash, id_at(p.top));
	sx_point_token(&tok, p.no, p.m, p.n, p.hash);
	assert_false(tok.err);
	if (sx_token_parse(tok.p, o, &why) != 0) {
		print_message("# %s: %s\n", tok.p, why);
		fail();
	}
	assert_int_equal(o->skip_frames, 1);
	assert_int_equal(o->skip_to, p.no);
	assert_int_equal(o->skip_top, p.top);
	assert_int_equal(o->nskip_marks, p.n);
	buf_release(&tok);
	sx_point_free(&p);
}

/*
 * One stream: fail after k committed units for every k (or nk random
 * ones), check the point; resume from it, fail again at a random point,
 * check; resume to the end: every frame loaded exactly once.
 */
static void
one_stream(const struct stream *s, int ntab, size_t every, int nk)
{
	struct cut	*c = malloc(sizeof(*c)), *c2 = malloc(sizeof(*c2));
	struct sx	 x;
	struct sx_opts	 o, o2;
	int		 done[MAXF + 1], k, k2, f, i, kk;

	assert_non_null(c);
	assert_non_null(c2);
	cut(s, ntab, every, NULL, c);
	for (i = 0; i <= (nk > 0 ? nk : c->n); i++) {
		k = nk > 0 ? (int)rnd(c->n + 1) : i;
		memset(done, 0, sizeof(done));
		run_init(&x, NULL);
		commit(&x, c, k);
		for (kk = 0; kk < k; kk++)
			for (f = c->u[kk].first; f <= c->u[kk].last; f++)
				if (s->tab[f] == c->u[kk].table)
					done[f]++;
		check_point(&x, s, done, &o);
		free(x.marks);
		/* the resumed run: it fails again, part way */
		cut(s, ntab, every, &o, c2);
		k2 = c2->n > 0 ? (int)rnd(c2->n + 1) : 0;
		run_init(&x, &o);
		commit(&x, c2, k2);
		for (kk = 0; kk < k2; kk++)
			for (f = c2->u[kk].first; f <= c2->u[kk].last; f++)
				if (s->tab[f] == c2->u[kk].table)
					done[f]++;
		for (f = 1; f <= s->n; f++)
			assert_true(done[f] <= 1);	/* never twice */
		check_point(&x, s, done, &o2);
		free(x.marks);
		/* and resumed to the end */
		cut(s, ntab, every, &o2, c2);
		for (kk = 0; kk < c2->n; kk++)
			for (f = c2->u[kk].first; f <= c2->u[kk].last; f++)
				if (s->tab[f] == c2->u[kk].table)
					done[f]++;
		for (f = 1; f <= s->n; f++)
			if (s->tab[f] != 0 && done[f] != 1) {
				print_message("# frame %d: loaded %d times\n",
				    f, done[f]);
				fail();
			}
		free(o.skip_marks);
		free(o2.skip_marks);
	}
	free(c);
	free(c2);
}

/* Small streams, every failure point, commit_every 1 to 6 "bytes". */
static void
test_exhaustive(void **state)
{
	struct stream	*s = malloc(sizeof(*s));
	int		 n, ntab;
	size_t		 every;

	(void)state;
	assert_non_null(s);
	for (n = 0; n < 300; n++)
		for (ntab = 1; ntab <= 4; ntab++)
			for (every = 1; every <= 6; every++) {
				gen(s, ntab, 8);
				one_stream(s, ntab, every, 0);
			}
	free(s);
}

/* Large streams, random failure points. */
static void
test_random(void **state)
{
	struct stream	*s = malloc(sizeof(*s));
	int		 n, ntab;

	(void)state;
	assert_non_null(s);
	for (n = 0; n < 40; n++)
		for (ntab = 2; ntab <= 4; ntab++) {
			gen(s, ntab, 900);
			one_stream(s, ntab, 2 + rnd(40), 25);
		}
	free(s);
}

/*
 * The point before #23, the prefix N alone, on the same kind of
 * streams: some failure leaves committed frames after N (a resume from
 * N would load them twice).  This is the defect the marks fix.
 */
static void
test_prefix_alone_is_not_exact(void **state)
{
	struct stream	*s = malloc(sizeof(*s));
	struct cut	*c = malloc(sizeof(*c));
	struct sx	 x;
	int		 n, k, kk, f, behind = 0;

	(void)state;
	assert_non_null(s);
	assert_non_null(c);
	for (n = 0; n < 200 && behind == 0; n++) {
		gen(s, 3, 10);
		cut(s, 3, 3, NULL, c);
		for (k = 1; k <= c->n; k++) {
			run_init(&x, NULL);
			commit(&x, c, k);
			for (kk = 0; kk < k; kk++)
				for (f = c->u[kk].first; f <= c->u[kk].last;
				    f++)
					if (s->tab[f] == c->u[kk].table &&
					    (uint64_t)f > x.done_no)
						behind++;
			free(x.marks);
		}
	}
	assert_true(behind > 0);
	free(s);
	free(c);
}

/* Tokens: the forms, and what is refused. */
static void
test_tokens(void **state)
{
	struct sx_opts	 o;
	const char	*why;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("f19,3=24,1=30:0123456789abcdef", &o,
	    &why), 0);
	assert_int_equal(o.skip_to, 19);
	assert_int_equal(o.skip_top, 30);
	assert_int_equal(o.nskip_marks, 2);
	assert_int_equal(sx_mark_of(o.skip_marks, o.nskip_marks, 3), 24);
	assert_int_equal(o.skip_hash, 0x0123456789abcdefULL);
	free(o.skip_marks);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("19:0123456789abcdef", &o, &why), 0);
	assert_int_equal(o.skip_frames, 0);	/* old form: load.c refuses */
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("f19,3=12:0123456789abcdef", &o,
	    &why), -1);			/* a mark at or before N */
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("f19,3=24,3=25:0123456789abcdef", &o,
	    &why), -1);			/* a table twice */
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("f19,3=24", &o, &why), -1);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("f19,3=:0123456789abcdef", &o, &why),
	    -1);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sx_token_parse("19,3=24:0123456789abcdef", &o, &why),
	    -1);			/* marks only in the f form */
}

/* The first line sx_print_resume() prints for x, into line. */
static void
resume_line(struct sx *x, char *line, size_t len)
{
	FILE	*f;
	int	 saved;

	assert_non_null(f = tmpfile());
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(f), STDERR_FILENO);
	sx_print_resume(x);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	assert_non_null(fgets(line, (int)len, f));
	fclose(f);
	print_message("# %s", line);
}

/*
 * A COMMIT that got no answer (a client error on its connection): the
 * resume line names both points, the one with the unit and the one
 * without it, and no single token at its end.  A second one in doubt
 * (or one whose point cannot be kept) leaves no point to offer.
 */
static void
test_commit_in_doubt(void **state)
{
	struct sx_opts	 o;
	struct sx	 x;
	struct sx_unit	 u, v;
	char		 line[2048];

	(void)state;
	memset(&o, 0, sizeof(o));
	run_init(&x, NULL);
	x.o = &o;
	pthread_mutex_init(&x.mu, NULL);
	/* frames 1-9 done, table 2 committed to 17; unit of table 3 to 25 */
	memset(&v, 0, sizeof(v));
	v.has_mark = 1;
	v.mark.table = 2;
	v.mark.frame = 17;
	v.mark_hash = id_at(17);
	sx_done(&x, 9, id_at(9));
	sx_mark(&x, &v);
	memset(&u, 0, sizeof(u));
	u.seq = 3;
	u.end_no = 9;
	u.end_hash = id_at(9);
	u.has_mark = 1;
	u.mark.table = 3;
	u.mark.frame = 25;
	u.mark_hash = id_at(25);
	/* what commit.c says of a COMMIT whose answer was lost */
	sx_commit_failed(&x, &u, "d.t: rows 1-10 (frames 18-25)", "its COMMIT",
	    "Lost connection to server during query", 2013);
	assert_non_null(x.doubt);
	resume_line(&x, line, 1024);
	assert_non_null(strstr(line, "d.t: rows 1-10 (frames 18-25): its "
	    "COMMIT got no answer"));
	snprintf(line + 1024, 1024, "resume with --skip-to f9,2=17,3=25:%016"
	    PRIx64 ";", id_at(25));
	assert_non_null(strstr(line, line + 1024));
	snprintf(line + 1024, 1024, "if not, with --skip-to f9,2=17:%016"
	    PRIx64 " ", id_at(17));
	assert_non_null(strstr(line, line + 1024));
	/* a second COMMIT in doubt: neither point is exact */
	u.end_no = 30;
	u.mark.frame = 31;
	sx_commit_failed(&x, &u, "d.t: rows 11-20 (frames 26-31)",
	    "its COMMIT", "Lost connection to server during query", 2013);
	resume_line(&x, line, sizeof(line));
	assert_non_null(strstr(line, "no resume point can be said"));
	assert_null(strstr(line, "--skip-to"));
	free(x.marks);
	free(x.doubt);
	free(x.doubt_what);
	pthread_mutex_destroy(&x.mu);
}

/*
 * The real engine over a fake executor.  commit.c (the protocol, the
 * turns), resume.c (the point, the resume line) and worker.c's threads
 * run as in production; the executor (engine.h) is a fake server that
 * keeps, per connection, an open transaction of items (statement
 * numbers, or frames) and a staged checkpoint row, applies them at
 * COMMIT (in autocommit at once), and drops them at ROLLBACK or when the
 * connection is lost.  One operation, by number, fails: the server
 * refuses it, the connection is lost before it reaches the server, or
 * after the server did it (its answer lost), or the run is interrupted
 * there (SIGINT): the statement killed, or done by the server with its
 * answer lost (the killer shut the socket while the run was stopping:
 * intr.c's shut_idle(), shut_all()).  Then the point printed (or the checkpoint row, with
 * --checkpoint; where it names two, the one the target shows) must
 * describe exactly the items applied, and resuming from it must apply
 * every other item exactly once.
 */
#include <signal.h>

#include "../../cmd/sqlexec/engine.h"
#include "../../cmd/sqlexec/load.h"

enum how { H_REFUSED, H_LOST_BEFORE, H_LOST_AFTER, H_STOP, H_STOP_LOST,
    H_NHOW };

#define FCONN	4
#define MAXIT	(MAXF + 1)

struct frow {				/* the checkpoint row */
	uint64_t	 no, hash;
	struct sx_mark	 m[8];
	size_t		 n;
	int		 pend;
	uint64_t	 pno;
	struct sx_mark	 pm[8];
	size_t		 pn;
};

struct fconn {
	int		 open;		/* in a transaction */
	int		 dead;		/* lost: every operation fails */
	int		*items;		/* of the open transaction */
	int		 nitems;
	int		 staged;	/* a row written in it */
	struct frow	 row;
	enum sx_fault	 fault;
	unsigned	 errno_;
};

struct fake {
	pthread_mutex_t	 mu;
	const struct stream *s;		/* snapshot streams: frames' tables */
	int		 applied[MAXIT];
	struct frow	 row;		/* committed */
	struct fconn	 c[FCONN];
	long		 ops;		/* operations so far */
	long		 fail_at;	/* the one to fail, 0: none */
	enum how	 how;
	struct sx	*x;
};

static struct fake F;

/* Session statements (kind 3) of the statement stream: not items. */
static int sess[MAXIT];
/*
 * --force: statements the server refuses (kind 5, or refused in a
 * replay), which the run skips, as mysql --force does: not items.
 */
static int bad[MAXIT];
static int opt_force;		/* runs with --force */
static int opt_nontx;		/* table 1 of snapshot streams is MyISAM */
/*
 * Snapshot streams' objects as units (snapobj.c's table objects at -j 2+
 * without --checkpoint): their DDL runs at once, ahead of its turn, and
 * may run again on resume (DROP TABLE IF EXISTS, CREATE TABLE: the same
 * empty table), so an object is applied at least once where the point
 * says so, and any number of times where it does not; rows stay exact.
 */
static int opt_ddl;

/* Is item i (of a statement stream if s is NULL) to be applied once? */
static int
item(const struct stream *s, int i)
{
	return s != NULL || (!sess[i] && !bad[i]);
}

/* Is item i applied as it should be, said (1) or not (0) by a point? */
static int
applied_ok(const struct stream *s, int i, int applied, int said)
{
	if (opt_ddl && s != NULL && s->tab[i] == 0)
		return said ? applied >= 1 : 1;
	return applied == said;
}

static void
fake_reset(const struct stream *s)
{
	int	 c;

	for (c = 0; c < FCONN; c++)
		free(F.c[c].items);
	memset(&F, 0, sizeof(F));
	pthread_mutex_init(&F.mu, NULL);
	F.s = s;
	for (c = 0; c < FCONN; c++) {
		F.c[c].items = calloc(MAXIT, sizeof(int));
		assert_non_null(F.c[c].items);
	}
}

/* The connection is lost: the server rolls back what was open. */
static void
lose(struct fconn *k)
{
	k->dead = 1;
	k->open = 0;
	k->nitems = 0;
	k->staged = 0;
	k->fault = SX_LOST;
	k->errno_ = 2013;
}

static void
apply(struct fconn *k)
{
	int	 i;

	for (i = 0; i < k->nitems; i++)
		F.applied[k->items[i]]++;
	if (k->staged)
		F.row = k->row;
	k->nitems = 0;
	k->staged = 0;
	k->open = 0;
}

/*
 * Count an operation on c; the failure it is to have, or -1 for none.
 * F.mu held.  An interrupt stops the run and kills the statement (a
 * server error, nothing done), or the server did it and the answer is
 * lost (H_STOP_LOST: as H_LOST_AFTER, the run stopping meanwhile).
 */
static int
op(int c)
{
	struct fconn	*k = &F.c[c];

	if (k->dead)
		return H_LOST_BEFORE;
	k->fault = SX_REFUSED;
	k->errno_ = 0;
	if (++F.ops != F.fail_at)
		return -1;
	if (getenv("ENGINE_TRACE") != NULL)
		print_message("# op %ld on %d fails (%d)\n", F.ops, c, F.how);
	if (F.how == H_STOP || F.how == H_STOP_LOST) {
		pthread_mutex_unlock(&F.mu);
		sx_interrupt(F.x, SIGINT);
		pthread_mutex_lock(&F.mu);
		if (F.how == H_STOP_LOST)
			return H_LOST_AFTER;
		k->errno_ = 1317;	/* ER_QUERY_INTERRUPTED */
		return H_REFUSED;
	}
	if (F.how == H_REFUSED)
		k->errno_ = 1205;	/* a lock wait timeout, say */
	return F.how;
}

/*
 * Items of unit u: its statements, up to one the server refuses (then
 * 1: --force replays them), or its table's frames.
 */
static int
add_unit(struct fconn *k, const struct sx_unit *u)
{
	uint64_t	 f;
	size_t		 i;

	if (u->rows == NULL) {
		for (i = 0; i < u->n; i++) {
			if (bad[u->st[i].no])
				return 1;
			k->items[k->nitems++] = (int)u->st[i].no;
		}
		return 0;
	}
	for (f = u->rows->first_frame; f <= u->rows->last_frame; f++)
		if ((uint64_t)F.s->tab[f] == u->mark.table)
			k->items[k->nitems++] = (int)f;
	return 0;
}

static int
f_begin(struct sx *x, int c)
{
	struct fconn	*k = &F.c[c];
	int		 h;

	(void)x;
	pthread_mutex_lock(&F.mu);
	if ((h = op(c)) == H_LOST_BEFORE || h == H_LOST_AFTER)
		lose(k);
	else if (h == -1) {
		apply(k);	/* START TRANSACTION commits what was open */
		k->open = 1;
	}
	pthread_mutex_unlock(&F.mu);
	return h == -1 ? 0 : -1;
}

/* The work: in autocommit (not transactional) done as it runs. */
static int
f_work(struct sx *x, int c, struct sx_unit *u, struct sx_pass *p)
{
	struct fconn	*k = &F.c[c];
	int		 h, refused = 0;

	pthread_mutex_lock(&F.mu);
	if ((h = op(c)) == H_LOST_AFTER && !k->open) {
		(void)add_unit(k, u);
		apply(k);
		lose(k);
	} else if (h == H_LOST_BEFORE || h == H_LOST_AFTER)
		lose(k);
	else if (h == -1) {
		refused = add_unit(k, u);
		if (!k->open)
			apply(k);
		p->rows += u->rows != NULL ? 1 : u->n;
	}
	pthread_mutex_unlock(&F.mu);
	if (refused)
		return 1;	/* only with --force: bad[] is empty without */
	if (h != -1)
		sx_set_error(x, u->rows != NULL ? u->rows->first_frame :
		    u->st[0].no, "the work failed");
	return h == -1 ? 0 : -1;
}

/*
 * --force: statement k of u alone (worker.c's unit_work_one()): one the
 * server refuses is reported, counted and skipped; a fatal failure (the
 * connection lost, an interrupt) stops the run.
 */
static int
f_work_one(struct sx *x, int c, struct sx_unit *u, size_t k,
    struct sx_pass *p)
{
	struct fconn	*kc = &F.c[c];
	int		 no = (int)u->st[k].no, h;

	pthread_mutex_lock(&F.mu);
	h = op(c);
	if (h == H_REFUSED && kc->errno_ == 1205)
		bad[no] = 1;		/* not fatal: skipped */
	if (h == H_LOST_AFTER && !kc->open && !bad[no]) {
		kc->items[kc->nitems++] = no;
		apply(kc);
		lose(kc);
	} else if (h == H_LOST_BEFORE || h == H_LOST_AFTER)
		lose(kc);
	else if ((h == -1 || h == H_REFUSED) && bad[no])
		p->failed++;
	else if (h == -1) {
		kc->items[kc->nitems++] = no;
		if (!kc->open)
			apply(kc);
		p->rows++;
	}
	pthread_mutex_unlock(&F.mu);
	if (h == -1 || bad[no])
		return 0;
	sx_set_error(x, no, "statement %d failed", no);
	return -1;
}

/* A statement alone: item no, in the open transaction or at once. */
static int
f_stmt_item(struct sx *x, int c, uint64_t no, int keep_txn)
{
	struct fconn	*k = &F.c[c < 0 ? 0 : c];
	int		 h;

	pthread_mutex_lock(&F.mu);
	h = op(c < 0 ? 0 : c);
	if (h == H_LOST_AFTER && !keep_txn && !k->open && c == 0) {
		F.applied[no]++;
		lose(k);
	} else if (h == H_LOST_BEFORE || h == H_LOST_AFTER)
		lose(k);
	else if (h == -1 && c == 0) {	/* items: once (EVERY: on each) */
		k->items[k->nitems++] = (int)no;
		if (!k->open)
			apply(k);
	}
	pthread_mutex_unlock(&F.mu);
	if (h != -1)
		sx_set_error(x, no, "statement %" PRIu64 " failed", no);
	return h == -1 ? 0 : -1;
}

/* A session statement (SET) is run again on resume: no item. */
static int
f_stmt(struct sx *x, int c, const struct rp_stmt *s, int keep_txn)
{
	return f_stmt_item(x, sess[s->no] ? -1 : c, s->no, keep_txn);
}

static void
f_unique_checks(struct sx *x, int c, int on)
{
	(void)x; (void)c; (void)on;
}

static void
row_of(struct frow *r, const struct sx_point *pos, const struct sx_point *pend)
{
	memset(r, 0, sizeof(*r));
	r->no = pos->no;
	r->hash = pos->hash;
	assert_true(pos->n <= 8);
	if (pos->n > 0)
		memcpy(r->m, pos->m, pos->n * sizeof(*pos->m));
	r->n = pos->n;
	if (pend == NULL)
		return;
	r->pend = 1;
	r->pno = pend->no;
	assert_true(pend->n <= 8);
	if (pend->n > 0)
		memcpy(r->pm, pend->m, pend->n * sizeof(*pend->m));
	r->pn = pend->n;
}

/* A COMMIT (commit 1) after what is open, or a row written (ckpt). */
static int
f_write(int c, const struct sx_point *pos, const struct sx_point *pend,
    int commit)
{
	struct fconn	*k = &F.c[c];
	int		 h;

	pthread_mutex_lock(&F.mu);
	h = op(c);
	if (h == -1 || h == H_LOST_AFTER) {
		if (pos != NULL) {
			row_of(&k->row, pos, pend);
			k->staged = 1;
		}
		if (commit || !k->open)
			apply(k);
	}
	if (h == H_LOST_BEFORE || h == H_LOST_AFTER)
		lose(k);
	pthread_mutex_unlock(&F.mu);
	return h == -1 ? 0 : -1;
}

static int
f_ckpt(struct sx *x, int c, const struct sx_point *pos,
    const struct sx_point *pend, int commit)
{
	(void)x;
	return f_write(c, pos, pend, commit);
}

static int
f_commit(struct sx *x, int c)
{
	(void)x;
	return f_write(c, NULL, NULL, 1);
}

static int
f_rollback(struct sx *x, int c, uint64_t no, const char *what)
{
	struct fconn	*k = &F.c[c];
	int		 h;

	(void)x; (void)no; (void)what;
	pthread_mutex_lock(&F.mu);
	if ((h = op(c)) != -1 && h != H_REFUSED)
		lose(k);
	k->open = 0;		/* even a refused ROLLBACK: it ends */
	k->nitems = 0;
	k->staged = 0;
	pthread_mutex_unlock(&F.mu);
	return h == -1 || h == H_REFUSED ? 0 : -1;
}

static int
f_in_txn(struct sx *x, int c)
{
	int	 open;

	(void)x;
	pthread_mutex_lock(&F.mu);
	open = F.c[c].open;
	pthread_mutex_unlock(&F.mu);
	return open;
}

/* The turn: an interrupt may come while a worker waits. */
static int
f_turn(struct sx *x, struct sx_unit *u)
{
	int	 stop;

	pthread_mutex_lock(&F.mu);
	stop = ++F.ops == F.fail_at;
	pthread_mutex_unlock(&F.mu);
	if (stop)
		sx_interrupt(x, SIGINT);
	return sx_wait_turn(x, u);
}

static enum sx_fault
f_fault(struct sx *x, int c, struct sx_err *e)
{
	enum sx_fault	 f;

	(void)x;
	pthread_mutex_lock(&F.mu);
	f = F.c[c].fault;
	if (e != NULL) {
		e->no = F.c[c].errno_;
		e->state = "HY000";
		e->msg = f == SX_LOST ? "Lost connection to server during "
		    "query" : "refused";
	}
	pthread_mutex_unlock(&F.mu);
	return f;
}

/* A table object as a unit: item u->end_no at once, in autocommit. */
static int
f_ddl(struct sx *x, int c, struct sx_unit *u)
{
	struct fconn	*k = &F.c[c];
	int		 h;

	pthread_mutex_lock(&F.mu);
	h = op(c);
	if (h == H_LOST_AFTER) {
		F.applied[u->end_no]++;
		lose(k);
	} else if (h == H_LOST_BEFORE)
		lose(k);
	else if (h == -1)
		F.applied[u->end_no]++;
	pthread_mutex_unlock(&F.mu);
	if (h != -1)
		sx_set_error(x, u->end_no, "frame %" PRIu64 " failed",
		    u->end_no);
	return h == -1 ? 0 : -1;
}

static const struct sx_exec fake_exec = {
	.begin = f_begin,
	.work = f_work,
	.work_one = f_work_one,
	.stmt = f_stmt,
	.unique_checks = f_unique_checks,
	.ckpt = f_ckpt,
	.commit = f_commit,
	.rollback = f_rollback,
	.in_txn = f_in_txn,
	.turn = f_turn,
	.fault = f_fault,
	.ddl = f_ddl,
};

/*
 * A statement stream: statement i (1-based) is an INSERT (kind 0, in
 * units), a DML barrier (1), a DDL barrier (2), a session statement
 * run on every connection (3), an ordered INSERT (4: ordered.c runs
 * those that come in a row in one transaction on connection 1, up to
 * unit_len of them), or with --force an INSERT the server refuses (5,
 * in a unit: replayed alone, skipped).
 */
struct sstream {
	int		 n;
	int		 kind[MAXF + 1];
	int		 unit_len[MAXF + 1];	/* INSERTs a unit, from i */
};

static void
gen_stmts(struct sstream *s, int n)
{
	int	 i, r;

	s->n = n;
	for (i = 1; i <= n; i++) {
		r = rnd(12);
		s->kind[i] = r < 7 ? 0 : r < 10 ? r - 6 : 4;
		if (opt_force && s->kind[i] == 0 && rnd(5) == 0)
			s->kind[i] = 5;
		s->unit_len[i] = 1 + rnd(3);
	}
}

static struct ld_table ftab[8];
static char ftab_name[8][8];

static void
ftab_init(void)
{
	int	 t;

	for (t = 0; t < 8; t++) {
		snprintf(ftab_name[t], sizeof(ftab_name[t]), "d.t%d", t);
		ftab[t].name = ftab_name[t];
		ftab[t].engine = opt_nontx && t == 1 ? "MyISAM" : NULL;
	}
}

/* One run of the engine with x's options, o: its resume point. */
struct run {
	struct sx	 x;
	struct sx_opts	 o;
	char		*out;		/* what it printed (the resume line) */
	int		 ok;		/* it got to the end */
	FILE		*err;		/* its stderr, while it runs */
	int		 saved;		/* the test's stderr */
};

static void
run_start(struct run *r, const struct sx_opts *from, int jobs, int ck,
    int by_frame)
{
	size_t	 i;

	memset(&r->o, 0, sizeof(r->o));
	r->o.jobs = jobs;
	r->o.commit_every = 1 << 20;	/* no unit is large (sx_push()) */
	r->o.checkpoint = ck ? "d.ckpt" : NULL;
	r->o.force = opt_force;
	if (from != NULL) {
		r->o.skip_to = from->skip_to;
		r->o.skip_top = from->skip_top;
		r->o.skip_hash = from->skip_hash;
		r->o.skip_has_hash = from->skip_has_hash;
		r->o.skip_frames = from->skip_frames;
		r->o.nskip_marks = from->nskip_marks;
		r->o.skip_marks = from->skip_marks;
	}
	memset(&r->x, 0, sizeof(r->x));
	r->x.o = &r->o;
	r->x.ex = &fake_exec;
	r->x.by_frame = by_frame;
	r->x.nconn = jobs;
	r->x.qmax = jobs;
	r->x.stop_seq = UINT64_MAX;
	r->x.done_no = r->o.skip_to;
	r->x.done_hash = r->o.skip_hash;
	r->x.top_no = r->o.skip_top;
	r->x.top_hash = r->o.skip_hash;
	for (i = 0; i < r->o.nskip_marks; i++) {
		struct sx_unit	 u;

		memset(&u, 0, sizeof(u));
		u.has_mark = 1;
		u.mark = r->o.skip_marks[i];
		u.mark_hash = r->o.skip_hash;
		sx_mark(&r->x, &u);
	}
	pthread_mutex_init(&r->x.mu, NULL);
	pthread_cond_init(&r->x.cv_work, NULL);
	pthread_cond_init(&r->x.cv_space, NULL);
	pthread_cond_init(&r->x.cv_commit, NULL);
	F.x = &r->x;
	/* what the run says (nontx.c's notes, the resume line): r->out */
	assert_non_null(r->err = tmpfile());
	fflush(stderr);
	r->saved = dup(STDERR_FILENO);
	dup2(fileno(r->err), STDERR_FILENO);
	assert_int_equal(sx_start_workers(&r->x), 0);
}

/* The end of a run: workers joined, what it said (and the resume line). */
static void
run_end(struct run *r, int ok)
{
	long	 len;

	if (ok && sx_drain(&r->x) == -1)
		ok = 0;
	sx_join_workers(&r->x);
	r->ok = ok && !r->x.stop;
	if (!r->ok)
		sx_print_resume(&r->x);
	fflush(stderr);
	dup2(r->saved, STDERR_FILENO);
	close(r->saved);
	len = ftell(r->err);
	rewind(r->err);
	assert_non_null(r->out = calloc(1, len + 1));
	assert_int_equal(fread(r->out, 1, len, r->err), (size_t)len);
	fclose(r->err);
}

static void
run_free(struct run *r)
{
	free(r->out);
	free(r->x.marks);
	free(r->x.doubt);
	free(r->x.doubt_what);
	free(r->x.err.msg);
	sx_wrote_free(&r->x);
	pthread_mutex_destroy(&r->x.mu);
	pthread_cond_destroy(&r->x.cv_work);
	pthread_cond_destroy(&r->x.cv_space);
	pthread_cond_destroy(&r->x.cv_commit);
}

static struct sx_unit *
stmt_unit(int first, int n)
{
	struct sx_unit	*u = calloc(1, sizeof(*u));
	int		 k;

	assert_non_null(u);
	assert_non_null(u->st = calloc(n, sizeof(*u->st)));
	for (k = 0; k < n; k++) {
		u->st[k].no = first + k;
		u->st[k].line = first + k;
		u->st[k].hash = id_at(first + k);
		u->st[k].ctx = SX_NOCTX;
		buf_adds(&u->text, "INSERT\n;\n");
	}
	u->n = n;
	u->end_no = first + n - 1;
	u->end_hash = id_at(u->end_no);
	return u;
}

/*
 * Ordered INSERTs i.. in one transaction on connection 1, as ordered.c
 * runs them: after sx_drain(), each statement in it, then its COMMIT
 * (sx_group_end()).  A statement that fails ends it: what ran before it
 * is committed if the transaction is still open (ordered.c's alive()),
 * else rolled back.  *ip: past the group.  0, or -1: the run stops.
 */
static int
feed_group(struct sx *x, const struct sstream *s, int *ip)
{
	struct rp_stmt	 st;
	int		 first = *ip, i;

	if (sx_drain(x) == -1)
		return -1;
	pthread_mutex_lock(&x->mu);
	sx_done(x, first - 1, id_at(first - 1));
	pthread_mutex_unlock(&x->mu);
	memset(&st, 0, sizeof(st));
	st.no = st.line = first;
	if (sx_group_begin(x, &st) == -1)
		return -1;
	for (i = first; i <= s->n && s->kind[i] == 4 &&
	    i < first + s->unit_len[first]; i++) {
		st.no = st.line = i;
		if (sx_group_stmt(x, &st) == -1) {
			(void)sx_group_end(x, first, i - 1, id_at(i - 1),
			    i > first && x->ex->in_txn(x, 0));
			return -1;
		}
	}
	*ip = i;
	return sx_group_end(x, first, i - 1, id_at(i - 1), 1);
}

/* The statement feeder: units and barriers, as exec.c orders them. */
static void
feed_stmts(struct run *r, const struct sstream *s)
{
	struct sx	*x = &r->x;
	struct rp_stmt	 st;
	int		 i = (int)r->o.skip_to + 1, n, ok = 1;

	while (ok && i <= s->n) {
		if (s->kind[i] == 4) {
			ok = feed_group(x, s, &i) == 0;
			continue;
		}
		if (s->kind[i] == 0 || s->kind[i] == 5) {
			for (n = 1; n < s->unit_len[i] && i + n <= s->n &&
			    (s->kind[i + n] == 0 || s->kind[i + n] == 5); n++)
				;
			sx_push(x, stmt_unit(i, n));
			i += n;
			continue;
		}
		/* a barrier: stmtbar.c's st_barrier() */
		if (sx_drain(x) == -1)
			break;
		pthread_mutex_lock(&x->mu);
		sx_done(x, i - 1, id_at(i - 1));
		pthread_mutex_unlock(&x->mu);
		memset(&st, 0, sizeof(st));
		st.no = i;
		st.line = i;
		ok = sx_barrier_stmt(x, &st, id_at(i - 1), id_at(i),
		    s->kind[i] == 1 ? SX_BAR_DML : s->kind[i] == 3 ?
		    SX_BAR_EVERY : 0) == 0;
		i++;
	}
	run_end(r, ok && i > s->n);
}

struct ddl_arg {
	struct sx	*x;
	uint64_t	 no;
};

static int
run_ddl(void *arg)
{
	struct ddl_arg	*a = arg;

	return f_stmt_item(a->x, 0, a->no, 0);
}

/* The snapshot feeder: objects (barriers), then units of interleaved rows. */
static void
feed_snap(struct run *r, const struct stream *s, int ntab, size_t every)
{
	struct sx	*x = &r->x;
	struct cut	*c = malloc(sizeof(*c));
	struct sx_unit	*u;
	struct ddl_arg	 a;
	int		 f, k, ok = 1;

	assert_non_null(c);
	for (f = 1; ok && f <= s->n && s->tab[f] == 0; f++) {
		if ((uint64_t)f <= r->o.skip_to)
			continue;
		if (opt_ddl && r->o.jobs > 1 && r->o.checkpoint == NULL) {
			/* snapobj.c's ddl_queue(): no barrier between them */
			assert_non_null(u = calloc(1, sizeof(*u)));
			u->ddl = (struct sx_ddl *)u;	/* not NULL: f_ddl() */
			u->end_no = f;
			u->end_hash = id_at(f);
			sx_push(x, u);
			continue;
		}
		if (sx_drain(x) == -1) {
			ok = 0;
			break;
		}
		a.x = x;
		a.no = f;
		ok = sx_barrier_ddl(x, f, id_at(f - 1), id_at(f), run_ddl, &a,
		    "frame") == 0;
	}
	cut(s, ntab, every, r->o.skip_to > 0 || r->o.nskip_marks > 0 ?
	    &r->o : NULL, c);
	for (k = 0; ok && k < c->n; k++) {
		assert_non_null(u = calloc(1, sizeof(*u)));
		assert_non_null(u->rows = calloc(1, sizeof(*u->rows)));
		u->rows->t = &ftab[c->u[k].table];
		u->rows->first_frame = c->u[k].first;
		u->rows->last_frame = c->u[k].last;
		u->rows->nrows = 1;
		u->has_mark = 1;
		u->mark.table = c->u[k].table;
		u->mark.frame = c->u[k].last;
		u->mark_hash = id_at(c->u[k].last);
		u->end_no = c->u[k].end_no;
		u->end_hash = id_at(u->end_no);
		/* not transactional: alone (snapunit.c's ld_unit_push()) */
		if (u->rows->t->engine != NULL)
			(void)sx_drain(x);
		sx_push(x, u);
		if (ftab[c->u[k].table].engine != NULL)
			(void)sx_drain(x);
	}
	free(c);
	run_end(r, ok);
}

/* Token after key in out, up to one of the stop characters, or NULL. */
static char *
token_after(const char *out, const char *key, const char *stop)
{
	const char	*p = strstr(out, key);

	if (p == NULL)
		return NULL;
	p += strlen(key);
	return strndup(p, strcspn(p, stop));
}

/* Is item i applied by what o says (a statement stream: a prefix)? */
static int
says(const struct sx_opts *o, const struct stream *s, int i)
{
	if ((uint64_t)i <= o->skip_to)
		return 1;
	return s != NULL && s->tab[i] != 0 && (uint64_t)i <=
	    sx_mark_of(o->skip_marks, o->nskip_marks, s->tab[i]);
}

/* Does o describe exactly what is applied, items 1..n? */
static int
exact(const struct sx_opts *o, const struct stream *s, int n)
{
	int	 i;

	for (i = 1; i <= n; i++)
		if (item(s, i) && !applied_ok(s, i, F.applied[i],
		    says(o, s, i)))
			return 0;
	return 1;
}

/* A point from a token ("" or NULL: from the start) into o. */
static void
parse_point(const char *tok, struct sx_opts *o)
{
	const char	*why;

	memset(o, 0, sizeof(*o));
	if (tok == NULL || *tok == '\0')
		return;
	if (sx_token_parse(tok, o, &why) != 0) {
		print_message("# %s: %s\n", tok, why);
		fail();
	}
	assert_int_equal(o->skip_hash, id_at(o->skip_top));
}

/* A point from the fake's checkpoint row (pending: as begun) into o. */
static void
row_point(const struct frow *w, int pending, struct sx_opts *o)
{
	size_t	 i;

	memset(o, 0, sizeof(*o));
	o->skip_to = o->skip_top = pending ? w->pno : w->no;
	o->nskip_marks = pending ? w->pn : w->n;
	if (o->nskip_marks > 0) {
		assert_non_null(o->skip_marks = calloc(o->nskip_marks,
		    sizeof(*o->skip_marks)));
		memcpy(o->skip_marks, pending ? w->pm : w->m,
		    o->nskip_marks * sizeof(*o->skip_marks));
	}
	for (i = 0; i < o->nskip_marks; i++)
		if (o->skip_marks[i].frame > o->skip_top)
			o->skip_top = o->skip_marks[i].frame;
	o->skip_frames = o->nskip_marks > 0;
	o->skip_hash = id_at(o->skip_top);
	o->skip_has_hash = o->skip_top > 0;
	if (!pending && o->skip_top > 0)
		assert_int_equal(w->hash, id_at(o->skip_top));
}

/*
 * nontx.c: a unit of a table that is not transactional stopped part
 * way; the run says to remove the rows it left (or restore the table)
 * before resuming, and so the user does: those the point does not name.
 */
#define NONTX_LEFT	"left rows in a table that is not transactional"

static void
remove_left(const struct sx_opts *o, const struct stream *s, int n)
{
	int	 i;

	for (i = 1; s != NULL && i <= n; i++)
		if (s->tab[i] != 0 && ftab[s->tab[i]].engine != NULL &&
		    !says(o, s, i))
			F.applied[i] = 0;
}

/*
 * After a failed run: the point it gives (the checkpoint row, or the
 * resume line), the one that is true where it names two, into o; it
 * must describe exactly what is applied.
 */
static void
check_failed(const struct run *r, const struct stream *s, int n,
    struct sx_opts *o)
{
	struct sx_opts	 a;
	char		*ta, *tb;

	if (r->o.checkpoint != NULL) {
		row_point(&F.row, 0, o);
		if (exact(o, s, n))
			return;
		if (!F.row.pend)	/* else it must be exact */
			goto bad;
		free(o->skip_marks);
		row_point(&F.row, 1, o);
		if (!exact(o, s, n))
			goto bad;
		return;
	}
	ta = token_after(r->out, "if the target holds its work (its rows, "
	    "or what its DDL made), resume with --skip-to ", ";");
	if (ta != NULL) {
		/* in doubt: the target tells */
		tb = token_after(r->out, "if not, with --skip-to ", " ");
		parse_point(ta, &a);
		if (exact(&a, s, n)) {
			*o = a;
			free(ta);
			free(tb);
			return;
		}
		free(a.skip_marks);
		parse_point(tb, o);
		free(ta);
		free(tb);
	} else if ((ta = token_after(r->out, "run the same command again "
	    "(--skip-to ", ")")) != NULL) {
		parse_point(ta, o);
		free(ta);
	} else {
		ta = token_after(r->out, "resume with --skip-to ", "\n");
		if (ta == NULL && strstr(r->out, "committed; run") == NULL &&
		    strstr(r->out, NONTX_LEFT) == NULL)
			goto bad;
		parse_point(ta, o);
		free(ta);
	}
	if (strstr(r->out, NONTX_LEFT) != NULL)
		remove_left(o, s, n);
	if (exact(o, s, n))
		return;
bad:
	print_message("# the point does not describe what is committed "
	    "(%s, -j %d, fail at %ld, how %d): %s", s != NULL ? "snapshot" :
	    "statements", r->o.jobs, F.fail_at, F.how, r->out != NULL &&
	    r->o.checkpoint == NULL ? r->out : "(checkpoint row)\n");
	if (r->o.checkpoint != NULL)
		print_message("# row: %" PRIu64 " +%zu marks, pending %d %"
		    PRIu64 "\n", F.row.no, F.row.n, F.row.pend, F.row.pno);
	for (; n > 0; n--)
		if (item(s, n) && !applied_ok(s, n, F.applied[n],
		    says(o, s, n)))
			print_message("#   item %d: applied %d, said %d\n", n,
			    F.applied[n], says(o, s, n));
	fail();
}

/*
 * One trial: a run that fails at operation fail_at (how), checked, then
 * resumed (failing again at a random operation, up to twice, when
 * again), to the end: every item applied exactly once.  ss or s: the
 * statement or the snapshot stream.  Returns the operations of the
 * first run.
 */
static long
trial(const struct sstream *ss, const struct stream *s, int ntab,
    size_t every, int jobs, int ck, long fail_at, enum how how, int again)
{
	struct run	 r;
	struct sx_opts	 o, from;
	int		 n = ss != NULL ? ss->n : s->n, i, round;
	long		 ops = 0;

	fake_reset(s);
	memset(sess, 0, sizeof(sess));
	memset(bad, 0, sizeof(bad));
	for (i = 1; ss != NULL && i <= ss->n; i++) {
		sess[i] = ss->kind[i] == 3;
		bad[i] = ss->kind[i] == 5;
	}
	memset(&from, 0, sizeof(from));
	for (round = 0; round < 4; round++) {
		F.ops = 0;
		F.fail_at = round == 0 ? fail_at : again && round < 3 &&
		    ops > 0 ? 1 + (long)rnd(ops) : 0;
		F.how = round == 0 ? how : (enum how)rnd(H_NHOW);
		for (i = 0; i < FCONN; i++) {
			F.c[i].open = F.c[i].dead = F.c[i].nitems = 0;
			F.c[i].staged = 0;
		}
		run_start(&r, round == 0 ? NULL : &from, jobs, ck, ss == NULL);
		if (ss != NULL)
			feed_stmts(&r, ss);
		else
			feed_snap(&r, s, ntab, every);
		if (round == 0)
			ops = F.ops;
		if (r.ok) {
			for (i = 1; i <= n; i++)
				if (item(ss == NULL ? s : NULL, i) &&
				    !applied_ok(ss == NULL ? s : NULL, i,
				    F.applied[i], 1)) {
					print_message("# item %d applied %d "
					    "times (-j %d, round %d)\n", i,
					    F.applied[i], jobs, round);
					fail();
				}
			run_free(&r);
			free(from.skip_marks);
			return ops;
		}
		check_failed(&r, ss != NULL ? NULL : s, n, &o);
		run_free(&r);
		free(from.skip_marks);
		from = o;
	}
	fail();			/* a run without a failure must end */
	return ops;
}

/* Every operation of one stream fails, each way: the trials run. */
static int
every_point(const struct sstream *ss, const struct stream *s, int ntab,
    int jobs, int ck)
{
	long	 ops, k;
	int	 h, trials = 0;

	ops = trial(ss, s, ntab, 2, jobs, ck, 0, H_REFUSED, 0);
	for (k = 1; k <= ops + 1; k++)
		for (h = 0; h < H_NHOW; h++, trials++)
			(void)trial(ss, s, ntab, 2, jobs, ck, k, h, 0);
	return trials;
}

/*
 * Every operation of small streams fails, each way, -j 1 to 4; with
 * force, statement streams with --force (statements the server refuses,
 * replayed alone); with nontx, snapshot streams whose table 1 is MyISAM
 * (its units alone, in autocommit).
 */
static void
exhaustive(int force, int nontx)
{
	struct sstream	*ss = malloc(sizeof(*ss));
	struct stream	*s = malloc(sizeof(*s));
	int		 n, j, ck, ntab, trials = 0;

	assert_non_null(ss);
	assert_non_null(s);
	opt_force = force;
	opt_nontx = nontx;
	ftab_init();
	for (n = 0; n < (force || nontx ? 3 : 6); n++)
		for (j = 1; j <= 4; j++)
			for (ck = 0; ck <= 1; ck++) {
				gen_stmts(ss, 6 + rnd(10));
				if (!nontx)
					trials += every_point(ss, NULL, 0, j,
					    ck);
				ntab = 1 + rnd(3);
				gen(s, ntab, 4);
				if (!force)
					trials += every_point(NULL, s, ntab, j,
					    ck);
			}
	print_message("# %d trials\n", trials);
	opt_force = opt_nontx = 0;
	ftab_init();
	free(ss);
	free(s);
}

static void
test_engine_exhaustive(void **state)
{
	(void)state;
	exhaustive(0, 0);
}

static void
test_engine_force(void **state)
{
	(void)state;
	exhaustive(1, 0);
}

static void
test_engine_nontx(void **state)
{
	(void)state;
	exhaustive(0, 1);
}

/* Snapshot streams whose objects are units (opt_ddl). */
static void
test_engine_ddl_units(void **state)
{
	(void)state;
	opt_ddl = 1;
	exhaustive(0, 0);
	opt_ddl = 0;
}

/* Large streams, random failure points, failing again on resume. */
static void
test_engine_random(void **state)
{
	struct sstream	*ss = malloc(sizeof(*ss));
	struct stream	*s = malloc(sizeof(*s));
	long		 ops;
	int		 n, j, ck, ntab;

	(void)state;
	opt_force = opt_nontx = opt_ddl = 0;	/* also after a test that failed */
	ftab_init();
	assert_non_null(ss);
	assert_non_null(s);
	for (n = 0; n < 10; n++)
		for (j = 1; j <= 4; j++) {
			ck = rnd(2);
			gen_stmts(ss, 300 + rnd(300));
			ops = trial(ss, NULL, 0, 0, j, ck, 0, H_REFUSED, 0);
			(void)trial(ss, NULL, 0, 0, j, ck, 1 + rnd(ops),
			    rnd(H_NHOW), 1);
			ntab = 2 + rnd(3);
			gen(s, ntab, 150);
			ops = trial(NULL, s, ntab, 2 + rnd(8), j, ck, 0,
			    H_REFUSED, 0);
			(void)trial(NULL, s, ntab, 2 + rnd(8), j, ck,
			    1 + rnd(ops), rnd(H_NHOW), 1);
		}
	free(ss);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_prefix_alone_is_not_exact),
		cmocka_unit_test(test_exhaustive),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_commit_in_doubt),
		cmocka_unit_test(test_engine_exhaustive),
		cmocka_unit_test(test_engine_force),
		cmocka_unit_test(test_engine_nontx),
		cmocka_unit_test(test_engine_ddl_units),
		cmocka_unit_test(test_engine_random),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
