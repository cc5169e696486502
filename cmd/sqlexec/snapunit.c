/*
 * snapunit: the snapshot stream's units (snap.h): each table's unit being
 * filled, queued once it holds about --commit-every bytes, with the
 * prefix it completes (end_point) and the mark it commits; barriers.
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

/*
 * The resume point once unit u (of table t, being queued now) commits:
 * the frame before the first frame any other table's open unit holds,
 * or the frame at hand.  Monotonic: open units only ever start later.
 */
static uint64_t
end_point(struct loader *l, const struct ld_table *t, uint64_t *hash)
{
	uint64_t	 e = l->frame;
	size_t		 i;

	*hash = l->hash;
	for (i = 0; i < l->ntbl; i++)
		if (l->tbl[i] != t && l->tbl[i]->open != NULL &&
		    l->tbl[i]->open->rows->first_frame - 1 < e) {
			e = l->tbl[i]->open->rows->first_frame - 1;
			*hash = l->tbl[i]->open->rows->first_prev_hash;
		}
	return e;
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
	t->open = NULL;
	u->end_no = end_point(l, t, &u->end_hash);
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

void
ld_push_all(struct loader *l)
{
	size_t	 i;

	for (i = 0; i < l->ntbl; i++)
		ld_unit_push(l, l->tbl[i]);
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
