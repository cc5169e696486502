/*
 * columns: --columns and --select, the columns dbsnap reads of a table
 * and the server-side expressions it reads in place of some (as
 * mydumper's columns_on_select), so that a value never leaves the server
 * as it is stored.
 *
 * A table read in part gets the CREATE TABLE of what it holds: the
 * columns not read are dropped from it as ALTER TABLE ... DROP COLUMN
 * would (lib/ddl, as rowmap --drop), and what needs one of them is an
 * error naming it.  An expression's value is converted to its column's
 * character set, so that the bytes are what the column stores.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ddl.h"
#include "dbsnap.h"
#include "report.h"
#include "quote.h"

/* Does spec ("t" or "db.t") name table t? */
static int
names_table(const char *spec, const struct table *t)
{
	size_t	 n = strlen(t->schema);

	return strcmp(spec, t->name) == 0 || (strncmp(spec, t->schema, n) ==
	    0 && spec[n] == '.' && strcmp(spec + n + 1, t->name) == 0);
}

static int
listed(const struct columns_opt *c, const char *name)
{
	size_t	 i;

	for (i = 0; i < c->ncols; i++)
		if (strcasecmp(c->cols[i], name) == 0)
			return 1;
	return 0;
}

/* The CREATE TABLE without the columns --columns leaves out. */
static void
rewrite_ddl(struct snap *s, struct table *t, const struct columns_opt *c)
{
	struct ddl_table d;
	struct ddl_elem	*el;
	const struct ddl_elem *why_el;
	struct buf	 b = BUF_INIT;
	const char	*why;
	char		 desc[300];
	size_t		 i;

	if (ddl_parse(t->ddl, t->ddl_len, &d) == -1)
		die(s, "--columns %s: %s: cannot read its CREATE TABLE text",
		    c->arg, ctx2(t->schema, t->name));
	for (i = 0; i < d.nel; i++) {
		el = &d.el[i];
		if (el->kind != EL_COLUMN || el->dropped || listed(c, el->name))
			continue;
		if (ddl_drop_column(&d, el, &why_el, &why) == -1) {
			if (why_el != NULL)
				ddl_elem_desc(why_el, desc, sizeof(desc));
			die(s, "--columns %s: %s: column %s is left out, but "
			    "%s %s", c->arg, ctx2(t->schema, t->name),
			    el->name, why_el ? desc : "the partitioning",
			    why_el ? why : "uses it");
		}
	}
	ddl_write(&d, &b);
	if (b.err)
		die(s, "out of memory");
	free(t->ddl);
	t->ddl = buf_detach(&b, &t->ddl_len);
	ddl_free(&d);
}

/* Keep only the listed columns; a key that loses one is not used. */
static void
keep_columns(struct snap *s, struct table *t, struct columns_opt *c)
{
	size_t	*map, i, n = 0, k;

	if (t->versioned)
		die(s, "--columns %s: %s is system-versioned: it is read "
		    "whole", c->arg, ctx2(t->schema, t->name));
	for (i = 0; i < c->ncols; i++)
		if (col_index(t, c->cols[i]) == -1)
			die(s, "--columns %s: %s has no column %s", c->arg,
			    ctx2(t->schema, t->name), c->cols[i]);
	rewrite_ddl(s, t, c);
	map = xcalloc(t->ncols + 1, sizeof(*map));
	for (i = 0; i < t->ncols; i++) {
		map[i] = SIZE_MAX;
		if (!listed(c, t->cols[i].name)) {
			t->left_out = reallocarray(t->left_out,
			    t->nleft_out + 1, sizeof(*t->left_out));
			if (t->left_out == NULL)
				die(s, "out of memory");
			t->left_out[t->nleft_out++] = t->cols[i].name;
			free(t->cols[i].data_type);
			free(t->cols[i].coltype);
			free(t->cols[i].charset);
			free(t->cols[i].collation);
			continue;
		}
		map[i] = n;
		t->cols[n++] = t->cols[i];
	}
	t->ncols = n;
	for (k = 0; k < t->nkey; k++)
		if ((t->key[k] = map[t->key[k]]) == SIZE_MAX)
			t->nkey = 0;	/* read whole, in no order */
	free(map);
}

static void
set_expr(struct snap *s, struct table *t, struct select_opt *e)
{
	ssize_t	 i;
	size_t	 k;

	if ((i = col_index(t, e->col)) == -1)
		die(s, "--select %s: %s has no column %s", e->arg,
		    ctx2(t->schema, t->name), e->col);
	if (t->cols[i].flags & (COL_GENERATED | COL_ROW_START | COL_ROW_END))
		die(s, "--select %s: %s.%s is generated: select the columns "
		    "it is computed from", e->arg, ctx2(t->schema, t->name),
		    e->col);
	for (k = 0; k < t->nkey; k++)
		if (t->key[k] == (size_t)i)
			die(s, "--select %s: %s.%s is in the key the table is "
			    "read in order of", e->arg, ctx2(t->schema,
			    t->name), e->col);
	t->cols[i].expr = e->expr;
}

void
select_columns(struct snap *s, struct table *t)
{
	size_t	 i;

	for (i = 0; i < s->o->ncolumns; i++)
		if (names_table(s->o->columns[i].table, t)) {
			s->o->columns[i].hit = 1;
			keep_columns(s, t, &s->o->columns[i]);
		}
	for (i = 0; i < s->o->nselects; i++)
		if (names_table(s->o->selects[i].table, t)) {
			s->o->selects[i].hit = 1;
			set_expr(s, t, &s->o->selects[i]);
		}
}

static const char *
attr(const struct object *o, const char *key)
{
	size_t	 i;

	for (i = 0; i < o->attrs.n; i++)
		if (strcmp(o->attrs.key[i], key) == 0)
			return o->attrs.val[i];
	return NULL;
}

/*
 * Does object o use a column of t that is not read?  A trigger of t by
 * any name (NEW.col), a view or routine by the quoted (view) or bare
 * (body) names of both.
 */
static void
check_users(struct snap *s, const struct table *t, const struct objlist *l)
{
	const struct object *o;
	const char	*on;
	size_t		 i, j;
	int		 mine;

	for (i = 0; i < l->n; i++) {
		o = &l->v[i];
		on = attr(o, "table");
		mine = o->kind == OBJ_TRIGGER && on != NULL &&
		    strcmp(on, t->name) == 0 && strcmp(o->schema, t->schema) == 0;
		if (!mine && !ddl_mentions(o->ddl, o->ddl_len, t->name,
		    o->kind != OBJ_VIEW))
			continue;
		for (j = 0; j < t->nleft_out; j++)
			if (ddl_mentions(o->ddl, o->ddl_len, t->left_out[j],
			    o->kind != OBJ_VIEW))
				die(s, "--columns: %s: %s uses column %s of "
				    "%s, which is left out", ctx2(o->schema,
				    o->name), o->kind == OBJ_VIEW ? "view" :
				    o->kind == OBJ_TRIGGER ? "trigger" :
				    "routine", t->left_out[j], t->name);
	}
}

void
select_columns_used(struct snap *s)
{
	size_t	 i;

	for (i = 0; i < s->ntables; i++)
		if (s->tables[i]->nleft_out > 0) {
			check_users(s, s->tables[i], &s->triggers);
			check_users(s, s->tables[i], &s->views);
			check_users(s, s->tables[i], &s->routines);
		}

	for (i = 0; i < s->o->ncolumns; i++)
		if (!s->o->columns[i].hit)
			die(s, "--columns %s: no such table is dumped",
			    s->o->columns[i].arg);
	for (i = 0; i < s->o->nselects; i++)
		if (!s->o->selects[i].hit)
			die(s, "--select %s: no such table is dumped",
			    s->o->selects[i].arg);
}
