/*
 * stmtunit: the statement stream's units (stmts.h): consecutive parallel
 * INSERTs packed into a unit of about --commit-every bytes, the bulk
 * rule for the first unit into a table, and handing a unit to the
 * workers (or, with --dry-run, printing the plan).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errmsg.h>

#include "stmts.h"

/*
 * MariaDB (MDEV-24818) loads an empty InnoDB table or partition in bulk,
 * which is faster, when unique_checks and foreign_key_checks are both 0,
 * but under a table lock held until commit.  The first unit that writes a
 * table after a barrier is therefore a "bulk" unit: it runs with
 * unique_checks=0 and alone (the dispatcher waits for its commit before
 * queueing the next unit), so that no other unit can wait for its lock
 * while it waits for their commits.  Every other unit runs with
 * unique_checks=1 (worker.c), in parallel, under row locks.
 */
static int
check_warm(struct dispatch *d, const char *t, size_t len)
{
	size_t	 i;
	char	**w;

	if (d->last.p != NULL && d->last.len == len &&
	    memcmp(d->last.p, t, len) == 0)
		return 0;
	for (i = 0; i < d->nwarm; i++)
		if (strcmp(d->warm[i], t) == 0)
			break;
	if (i == d->nwarm) {
		if ((w = reallocarray(d->warm, d->nwarm + 1,
		    sizeof(*w))) == NULL)
			return -1;
		d->warm = w;
		if ((w[d->nwarm] = strdup(t)) == NULL)
			return -1;
		d->nwarm++;
		d->exclusive = 1;
	}
	buf_reset(&d->last);
	buf_add(&d->last, t, len);
	return d->last.err ? -1 : 0;
}

void
st_cool_all(struct dispatch *d)
{
	while (d->nwarm > 0)
		free(d->warm[--d->nwarm]);
	buf_reset(&d->last);
}

/*
 * Is s an INSERT IGNORE?  MariaDB's bulk load of an empty table
 * (MDEV-24818: unique_checks and foreign_key_checks 0) loses every row of
 * the transaction when an INSERT IGNORE in it meets a duplicate key
 * (10.11.19: INSERT INTO t VALUES (1); INSERT IGNORE INTO t VALUES (2),
 * (2); COMMIT leaves t empty), so a unit holding one is never a bulk
 * unit.  A word IGNORE before the values is enough: a false yes only
 * costs the bulk load.
 */
static int
insert_ignore(const struct rp_stmt *s)
{
	const char	*p = s->text, *e = s->text + s->len, *w;

	for (; p < e && *p != '(' && *p != '\''; p++) {
		if ((*p | 0x20) != 'i' || (size_t)(e - p) < 6 ||
		    strncasecmp(p, "IGNORE", 6) != 0)
			continue;
		w = p + 6;
		if ((p == s->text || !isalnum((unsigned char)p[-1])) &&
		    (w == e || !isalnum((unsigned char)*w)))
			return 1;
	}
	return 0;
}

int
st_large(const struct dispatch *d, const struct rp_stmt *s)
{
	return s->len / 2 > d->o->commit_every;
}

/*
 * The text of large statement s, the first of unit u, as the frame
 * reader's buffer it is in, taken (frame_reader_take()) and the text
 * moved to its start: 1, or 0 where it is not (then it is copied).
 * After it the frame's bytes before the text are gone.
 */
static int
take_text(struct dispatch *d, struct sx_unit *u, const struct rp_stmt *s)
{
	const struct frame *f = d->f;
	void		*p;
	size_t		 cap;

	if (u->n != 1 || u->text.p != NULL || f == NULL || d->x->rd == NULL ||
	    (const uint8_t *)s->text < f->p ||
	    (const uint8_t *)s->text + s->len >= f->p + f->len ||
	    frame_reader_take(d->x->rd, &p, &cap) == -1)
		return 0;
	/* the frame ends after the text (its tail): room for the NUL */
	memmove(p, s->text, s->len);
	((char *)p)[s->len] = '\0';
	u->text.p = p;
	u->text.len = s->len;
	u->text.cap = cap;
	d->f = NULL;
	return 1;
}

/* Append a parallel statement to the unit being filled. */
int
st_unit_add(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx_unit	*u = d->cur;
	struct sx_stmt	*st;
	size_t		 mark;

	if (u == NULL) {
		if ((u = d->cur = calloc(1, sizeof(*u))) == NULL)
			return -1;
	}
	if (u->n == u->cap) {
		st = reallocarray(u->st, u->cap ? u->cap * 2 : 64,
		    sizeof(*u->st));
		if (st == NULL)
			return -1;
		u->st = st;
		u->cap = u->cap ? u->cap * 2 : 64;
	}
	if (insert_ignore(s))
		d->ignore = 1;
	st = &u->st[u->n++];
	st->no = s->no;
	st->line = s->line;
	st->hash = d->hash;
	if (u->n > 1)
		buf_add(&u->text, "\n;\n", 3);
	st->off = u->text.len;
	st->len = s->len;
	mark = u->ctx.len;
	sx_target(&u->ctx, s);
	if (check_warm(d, u->ctx.p != NULL ? u->ctx.p + mark : "",
	    u->ctx.len - mark) == -1)
		return -1;
	if (u->ctx.len == mark)
		st->ctx = SX_NOCTX;
	else {
		st->ctx = mark;
		buf_add(&u->ctx, "", 1);	/* the NUL separator */
	}
	u->end_no = s->no;
	u->end_hash = d->hash;
	/* last: taking the text ends s's strings (its table's name...) */
	if (!st_large(d, s) || !take_text(d, u, s))
		buf_add(&u->text, s->text, s->len);
	if (u->text.err || u->ctx.err) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Hand the unit being filled to the workers. */
void
st_unit_close(struct dispatch *d)
{
	struct sx_unit	*u = d->cur;
	int		 bulk = d->exclusive && !d->ignore;

	if (u == NULL)
		return;
	d->cur = NULL;
	u->bulk = bulk;
	d->exclusive = 0;
	d->ignore = 0;
	if (d->o->dry_run) {
		printf("unit %" PRIu64 ": statements %" PRIu64 "-%" PRIu64
		    ", %zu bytes: one transaction%s\n", ++d->dry_seq,
		    u->st[0].no, u->st[u->n - 1].no, u->text.len,
		    u->bulk ? ", alone (first into a table: bulk)" : "");
		sx_unit_free(u);
		return;
	}
	/*
	 * Alone means alone: nothing before it may still be running either
	 * (a target named differently, or not known, could be the same table).
	 */
	if (bulk)
		sx_drain(d->x);
	sx_push(d->x, u);		/* u belongs to the workers now */
	if (bulk)
		sx_drain(d->x);
}

void
st_plan_line(const struct rp_stmt *s, const char *what, const char *why)
{
	struct buf	 b = BUF_INIT;

	sx_where_stmt(&b, s);
	printf("%s: %s: %s%s%s%s\n", b.p,
	    rp_stmt_kind_name(s->kind) ? rp_stmt_kind_name(s->kind) : "?",
	    what, *why ? " (" : "", why, *why ? ")" : "");
	buf_release(&b);
}

/* sx_done() under the lock. */
void
st_done(struct sx *x, uint64_t no, uint64_t hash)
{
	pthread_mutex_lock(&x->mu);
	sx_done(x, no, hash);
	pthread_mutex_unlock(&x->mu);
}

