/*
 * Unit tests for sqlexec's resume model of snapshot streams (resume.c:
 * sx_done, sx_mark, sx_point, the token): interleaved streams of 2 to 4
 * tables, cut into units as load.c cuts them (consecutive ROWS frames of
 * one table, about commit_every bytes; a unit's prefix is the frame
 * before the first frame an open unit of another table holds), committed
 * in queue order as worker.c commits them whatever -j is.  A run fails
 * after every number of committed units (exhaustively for small streams,
 * at random points of large ones); then the point printed must describe
 * exactly the committed frames, and a resume from the token as parsed
 * (sx_token_parse) must load every other frame once, also when it fails
 * again.  The prefix alone (the point before #23) is shown not to be
 * exact on the same streams.  cmocka, TAP output.
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

/*
 * A COMMIT that got no answer (a client error on its connection): the
 * resume line names both points, the one with the unit and the one
 * without it, and no single token at its end.
 */
static void
test_commit_in_doubt(void **state)
{
	struct sx_opts	 o;
	struct sx	 x;
	struct sx_unit	 u, v;
	FILE		*f;
	char		 line[2048];
	int		 fd, saved;

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
	assert_non_null(f = tmpfile());
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = fileno(f);
	dup2(fd, STDERR_FILENO);
	sx_print_resume(&x);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	print_message("# %s", line);
	assert_non_null(strstr(line, "d.t: rows 1-10 (frames 18-25): its "
	    "COMMIT got no answer"));
	snprintf(line + 1024, 1024, "resume with --skip-to f9,2=17,3=25:%016"
	    PRIx64 ";", id_at(25));
	assert_non_null(strstr(line, line + 1024));
	snprintf(line + 1024, 1024, "if not, with --skip-to f9,2=17:%016"
	    PRIx64 " ", id_at(17));
	assert_non_null(strstr(line, line + 1024));
	free(x.marks);
	free(x.doubt);
	free(x.doubt_what);
	pthread_mutex_destroy(&x.mu);
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
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
