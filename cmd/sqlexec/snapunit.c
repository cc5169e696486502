/*
 * snapunit: the snapshot stream's units (snap.h): each table's unit being
 * filled, queued once it holds about --commit-every bytes, with the
 * prefix it completes (end_point) and the mark it commits; barriers, and
 * the table objects queued as units folded back after them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snap.h"

int
ld_frame_error(struct loader *l, const struct frame *f, const char *fmt, ...)
{
	struct buf	 b = BUF_INIT;
	va_list		 ap;

	buf_addf(&b, "frame %" PRIu64 " at offset %" PRIu64 ": ", f->seq,
	    f->offset);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	sx_set_error(l->x, f->seq, "%s", b.p);
	buf_release(&b);
	return -1;
}

void
ld_unit_open(struct loader *l, struct ld_table *t)
{
	/* units open in frame order: the tail is the latest */
	t->onext = NULL;
	t->oprev = l->open_tail;
	if (l->open_tail != NULL)
		l->open_tail->onext = t;
	else
		l->open = t;
	l->open_tail = t;
}

/* t's unit is no longer open: out of the open ones. */
static void
unit_closed(struct loader *l, struct ld_table *t)
{
	if (t->oprev != NULL)
		t->oprev->onext = t->onext;
	else
		l->open = t->onext;
	if (t->onext != NULL)
		t->onext->oprev = t->oprev;
	else
		l->open_tail = t->oprev;
	t->onext = t->oprev = NULL;
	t->open = NULL;
}

/*
 * The resume point once unit u (of table t, being queued now) commits:
 * the frame before the first frame any other table's open unit holds,
 * or the frame at hand.  Monotonic: open units only ever start later.
 * The open units are in the order of their first frames: that one is
 * the first of them but t's.
 */
static uint64_t
end_point(struct loader *l, const struct ld_table *t, uint64_t *hash)
{
	const struct ld_table *o = l->open;

	if (o == t)
		o = o->onext;
	*hash = l->hash;
	if (o == NULL || o->open->rows->first_frame - 1 >= l->frame)
		return l->frame;
	*hash = o->open->rows->first_prev_hash;
	return o->open->rows->first_frame - 1;
}

/* Queue the unit table t is filling. */
void
ld_unit_push(struct loader *l, struct ld_table *t)
{
	struct sx_unit	*u = t->open;
	struct buf	 b = BUF_INIT;
	int		 bulk, alone;

	if (u == NULL || l->hold)
		return;
	u->end_no = end_point(l, t, &u->end_hash);
	unit_closed(l, t);
	/* committed, the table's frames up to its last are in */
	u->has_mark = 1;
	u->mark.table = t->t->id;
	u->mark.frame = u->rows->last_frame;
	u->mark_hash = u->rows->last_hash;
	/*
	 * Not the statement path's first unit alone with unique_checks=0
	 * (exec.c): MariaDB's bulk load of an empty table (MDEV-24818) cost
	 * the server more CPU than row inserts did for bulk executes here
	 * (1.74 s against 0.61 s, 200000 rows as one unit), and without it
	 * every unit can run in parallel.
	 */
	t->nunits++;
	bulk = u->bulk = 0;
	/* not transactional: alone, so that nothing rolls it back (nontx.c) */
	alone = t->engine != NULL;
	if (l->o->dry_run) {
		sx_rows_where(&b, u);
		printf("unit %" PRIu64 ": %s, %zu bytes: one transaction%s\n",
		    ++l->dry_seq, b.p, u->rows->data.len, bulk ?
		    ", alone (first into a table: bulk)" : "");
		buf_release(&b);
		sx_unit_free(u);
		return;
	}
	if (bulk || alone)
		sx_drain(l->x);
	sx_push(l->x, u);		/* the workers' now */
	if (bulk || alone)
		sx_drain(l->x);
}

static int
by_index(const void *a, const void *b)
{
	const struct ld_table *x = *(struct ld_table *const *)a;
	const struct ld_table *y = *(struct ld_table *const *)b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * In the tables' order, as every table was once walked here: only the
 * open ones now (a dump of thousands of tables has a few open at once).
 */
void
ld_push_all(struct loader *l)
{
	struct ld_table	*t, *few[16], **v = few;
	size_t		 i, n = 0;

	if (l->hold)
		return;
	for (t = l->open; t != NULL; t = t->onext)
		n++;
	if (n > sizeof(few) / sizeof(few[0]) &&
	    (v = reallocarray(NULL, n, sizeof(*v))) == NULL) {
		/* out of memory: in the order they opened, as good */
		while (l->open != NULL)
			ld_unit_push(l, l->open);
		return;
	}
	for (i = 0, t = l->open; t != NULL; t = t->onext)
		v[i++] = t;
	qsort(v, n, sizeof(*v), by_index);
	for (i = 0; i < n; i++)
		ld_unit_push(l, v[i]);
	if (v != few)
		free(v);
}

void
ld_drop_all(struct loader *l)
{
	struct ld_table	*t;

	while ((t = l->open) != NULL) {
		sx_unit_free(t->open);
		unit_closed(l, t);
	}
}

/* Wait for everything queued; frames before this one are done. */
int
ld_barrier(struct loader *l)
{
	struct sx	*x = l->x;
	int		 rc;

	/* resuming, before its last frame: nothing is queued */
	if (l->hold)
		return 0;
	ld_push_all(l);
	if (l->o->dry_run)
		return 0;
	rc = sx_drain(x);
	ld_ddl_fold(l, 0);
	if (rc == -1)
		return -1;
	l->ddl_run = 0;
	pthread_mutex_lock(&x->mu);
	sx_done(x, l->frame - 1, l->prev_hash);
	pthread_mutex_unlock(&x->mu);
	return 0;
}

void
ld_ddl_free(struct sx_ddl *d)
{
	size_t	 k;

	for (k = 0; k < d->n; k++) {
		free(d->st[k].db);
		free(d->st[k].text);
	}
	free(d->st);
	free((char *)d->ob.schema);
	free((char *)d->ob.name);
	free(d->target);
	free(d->engine);
	free(d);
}

void
ld_ddl_fold(struct loader *l, int all)
{
	struct sx_ddl	*d;
	size_t		 i;
	int		 done;

	while ((d = l->ddl) != NULL) {
		pthread_mutex_lock(&l->x->mu);
		done = d->done;
		pthread_mutex_unlock(&l->x->mu);
		if (done == 0 && !all)
			break;
		l->objects += d->created;
		if (done == 1) {
			(void)sx_nontx_set(l->x, d->target, d->ob.name,
			    d->engine);
			d->engine = NULL;
		}
		/* not created: no table is left without its deferred indexes */
		for (i = 0; done == 2 && i < l->ndefer; i++)
			if (l->defer[i].frame == d->frame) {
				free(l->defer[i].table);
				free(l->defer[i].sql);
				l->defer[i] = l->defer[--l->ndefer];
				break;
			}
		if ((l->ddl = d->next) == NULL)
			l->ddl_tail = NULL;
		ld_ddl_free(d);
	}
}
