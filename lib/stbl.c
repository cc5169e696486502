/*
 * stbl: a snapshot stream's tables by TABLE frame id (stbl.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stbl.h"

static void *
none(struct stbls *set, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(set->why, sizeof(set->why), fmt, ap);
	va_end(ap);
	return NULL;
}

void *
stbls_find(struct stbls *set, uint64_t id)
{
	struct stbl	*s;

	if (set->last != NULL && set->last->id == id)
		return set->last;
	if ((s = hmap_get(&set->ids, &id, sizeof(id))) != NULL)
		set->last = s;
	return s;
}

void *
stbls_add(struct stbls *set, const struct frame *f, size_t size)
{
	struct rp_table	*t;
	struct stbl	*s, **v;
	uint64_t	 id;

	if ((t = dec_table(f)) == NULL)
		return none(set, "corrupt or unreadable table frame");
	if (stbls_find(set, t->id) != NULL) {
		id = t->id;
		rp_table_free(t);
		return none(set, "table id %" PRIu64 " sent twice", id);
	}
	if ((s = calloc(1, size)) == NULL ||
	    (v = reallocarray(set->v, set->n + 1, sizeof(*v))) == NULL ||
	    (set->v = v, hmap_put(&set->ids, &t->id, sizeof(t->id), s,
	    NULL)) == -1) {
		free(s);
		rp_table_free(t);
		return none(set, "%s", strerror(ENOMEM));
	}
	s->id = t->id;
	s->t = t;
	set->v[set->n++] = s;
	return s;
}

void *
stbls_rows(struct stbls *set, const struct frame *f, struct rp_rows *r)
{
	struct stbl	*s;

	if (dec_rows_begin(f, r) == -1)
		return none(set, "corrupt rows frame");
	if ((s = stbls_find(set, r->table_id)) == NULL)
		return none(set, "rows for unknown table id %" PRIu64,
		    r->table_id);
	if (s->ended)
		return none(set, "%s.%s: rows after the table's end",
		    s->t->schema, s->t->name);
	return s;
}

void *
stbls_end(struct stbls *set, const struct frame *f)
{
	struct stbl	*s;
	uint64_t	 id, rows;

	if (dec_table_end(f, &id, &rows) == -1)
		return none(set, "corrupt table end frame");
	if ((s = stbls_find(set, id)) == NULL)
		return none(set, "end of unknown table id %" PRIu64, id);
	if (s->ended)
		return none(set, "%s.%s: a second end of the table",
		    s->t->schema, s->t->name);
	if (rows != s->rows)
		return none(set, "%s.%s: %" PRIu64 " rows announced, %" PRIu64
		    " received", s->t->schema, s->t->name, rows, s->rows);
	s->ended = 1;
	return s;
}

void
stbls_free(struct stbls *set)
{
	size_t	 i;

	for (i = 0; i < set->n; i++) {
		if (set->release != NULL)
			set->release(set->v[i]);
		rp_table_free(set->v[i]->t);
		free(set->v[i]);
	}
	free(set->v);
	set->v = NULL;
	hmap_free(&set->ids, NULL);
	set->n = 0;
	set->last = NULL;
}
