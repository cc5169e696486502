/*
 * state: the tables of one rowmap run by their source names, and its
 * error line.  The bottom of cmd/rowmap: map.c, check.c and plan.c all
 * use it, and it uses none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

int
rm_fail(struct rm *st, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	frame_verrf(st->errbuf, sizeof(st->errbuf), st->f, fmt, ap);
	va_end(ap);
	return -1;
}

int
rm_wfail(struct rm *st)
{
	snprintf(st->errbuf, sizeof(st->errbuf), "stdout: %s",
	    frame_writer_errstr(st->fw));
	return -1;
}

int
rm_op_on(const struct rm_colop *op, const char *db, const char *name)
{
	return strcmp(op->table, name) == 0 &&
	    (op->db == NULL || strcmp(op->db, db) == 0);
}

/* The table db.name (added if add and new), with its transforms. */
struct rtab *
rm_tab(struct rm *st, const char *db, const char *name, int add)
{
	struct rtab	*t, **v;
	size_t		 i;

	for (i = 0; i < st->ntabs; i++)
		if (strcmp(st->tabs[i]->name, name) == 0 &&
		    strcmp(st->tabs[i]->db, db) == 0)
			return st->tabs[i];
	if (!add)
		return NULL;
	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->db = strdup(db)) == NULL || (t->name = strdup(name)) == NULL ||
	    (t->ops = calloc(st->o->nops + 1, sizeof(*t->ops))) == NULL ||
	    (v = reallocarray(st->tabs, st->ntabs + 1, sizeof(*v))) == NULL) {
		if (t != NULL) {
			free(t->db);
			free(t->name);
			free(t->ops);
		}
		free(t);
		return NULL;
	}
	st->tabs = v;
	st->tabs[st->ntabs++] = t;
	t->keep = names_keep(&st->o->names, db, name);
	for (i = 0; i < st->o->nops; i++)
		if (rm_op_on(&st->o->ops[i], db, name))
			t->ops[t->nops++] = &st->o->ops[i];
	return t;
}

void
rm_tab_free(struct rtab *t)
{
	ddl_free(&t->dt);
	free(t->ddl);
	free(t->db);
	free(t->name);
	free(t->ops);
	free(t);
}
