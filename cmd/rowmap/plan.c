/*
 * plan: rowmap's TABLE, ROWS and TABLE_END frames.  A kept table without
 * column transforms keeps its frames as they are (renamed in its TABLE
 * frame); one with transforms gets a plan, one entry per output column,
 * and every row is decoded and encoded again by it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqlvalue.h"
#include "state.h"

void
rm_stream_release(struct stbl *b)
{
	struct rstream	*s = (struct rstream *)b;

	free(s->plan);
	free(s->in);
	free(s->out);
}

/* Can column c of table t take the value of --set? */
static int
check_set(struct rm *st, const struct rm_colop *op, const struct rp_column *c)
{
	struct sqlval_col k;
	size_t		 i;

	sqlval_col_setup(&k, c, 1);
	if (k.kind == VK_CSHEX && op->vlen > 0)
		return rm_fail(st, "--set %s: a column in a wide character "
		    "set: its value cannot be given as text", op->arg);
	for (i = 0; k.kind == VK_ASCII && i < op->vlen; i++)
		if ((unsigned char)op->value[i] >= 0x80)
			return rm_fail(st, "--set %s: non-ASCII text for a "
			    "column not in UTF-8", op->arg);
	return 0;
}

/* One column's entry in the plan; 0, or -1 with the reason. */
static int
plan_column(struct rm *st, struct rstream *s, size_t i,
    const struct rm_colop *op, struct rp_column *c)
{
	struct cplan	*p = &s->plan[s->nout];
	struct sqlval_col k;

	if (op != NULL && op->op != OP_DROP && (c->flags & COL_GENERATED))
		return rm_fail(st, "%s: a generated column: transform the "
		    "columns it is computed from", op->arg);
	if (op != NULL && op->op == OP_HASH) {
		sqlval_col_setup(&k, c, 1);
		if (k.kind == VK_CSHEX || rm_hash_shape(c->coltype, &p->hex,
		    &p->hlen) == -1)
			return rm_fail(st, "--hash %s: a %s column cannot take "
			    "a pseudonym", op->arg, c->coltype);
	}
	if (op != NULL && op->op == OP_SET && check_set(st, op, c) == -1)
		return -1;
	if (op != NULL && op->op == OP_NULL)
		c->flags &= ~COL_NOT_NULL;
	p->src = i;
	p->op = op;
	s->nout++;
	return 0;
}

/* The op of table tab on column col, or NULL. */
static const struct rm_colop *
op_for(const struct rtab *tab, const char *col)
{
	size_t	 j;

	for (j = 0; tab != NULL && j < tab->nops; j++)
		if (strcasecmp(tab->ops[j]->col, col) == 0)
			return tab->ops[j];
	return NULL;
}

/*
 * The plan of stream s; its TABLE columns become the output's, in place
 * (s->nin keeps the input's count).
 */
static int
plan_table(struct rm *st, struct rstream *s, struct rtab *tab)
{
	struct rp_table	*t = s->s.t;
	const struct rm_colop *op;
	size_t		 i, j, n = 0;

	s->nin = t->ncols;
	for (j = 0; tab != NULL && j < tab->nops; j++) {
		for (i = 0; i < t->ncols; i++)
			if (strcasecmp(tab->ops[j]->col, t->cols[i].name) == 0)
				break;
		if (i == t->ncols)
			return rm_fail(st, "%s: %s.%s has no column %s",
			    tab->ops[j]->arg, t->schema, t->name,
			    tab->ops[j]->col);
		((struct rm_colop *)tab->ops[j])->hit = 1;
		s->copy = 0;
	}
	for (i = 0; i < t->ncols; i++) {
		op = op_for(tab, t->cols[i].name);
		if (plan_column(st, s, i, op, &t->cols[i]) == -1)
			return -1;
		if (op != NULL && op->op == OP_DROP) {
			s->nout--;
			free(t->cols[i].name);
			free(t->cols[i].coltype);
			continue;
		}
		t->cols[n++] = t->cols[i];
	}
	t->ncols = n;
	return 0;
}

/* A TABLE frame: keep, rename, plan, write. */
int
rm_do_table(struct rm *st, const struct frame *f)
{
	struct rstream	*s;
	struct rtab	*tab;
	struct rp_table	*t;
	char		*db, *name;
	size_t		 ncols;

	if ((s = stbls_add(&st->strs, f, sizeof(*s))) == NULL)
		return rm_fail(st, "%s", st->strs.why);
	t = s->s.t;
	ncols = t->ncols;
	if ((s->plan = calloc(ncols + 1, sizeof(*s->plan))) == NULL ||
	    (s->in = calloc(ncols + 1, sizeof(*s->in))) == NULL ||
	    (s->out = calloc(ncols + 1, sizeof(*s->out))) == NULL ||
	    (tab = rm_tab(st, t->schema, t->name, 1)) == NULL)
		return rm_fail(st, "%s", strerror(ENOMEM));
	s->tab = tab;
	s->keep = tab->keep;
	s->copy = 1;
	if (!s->keep && tab->nops > 0)
		return rm_fail(st, "%s: %s.%s is left out by --tables or "
		    "--exclude", tab->ops[0]->arg, t->schema, t->name);
	if (!s->keep)
		return 0;
	if (plan_table(st, s, tab) == -1)
		return -1;
	/* Renamed in the frame: the TABLE frame names the target. */
	db = t->schema;
	name = t->name;
	if ((t->schema = strdup(names_table_db(&st->o->names, db, name))) ==
	    NULL || (t->name = strdup(names_table(&st->o->names, db,
	    name))) == NULL) {
		free(db);
		free(name);
		return rm_fail(st, "%s", strerror(ENOMEM));
	}
	enc_table(frame_begin(st->fw), t);
	free(t->schema);
	free(t->name);
	t->schema = db;
	t->name = name;
	if (frame_end(st->fw, FT_TABLE, 0) == -1)
		return rm_wfail(st);
	progress_total(st->prog, st->strs.n, 0, 0);
	return 0;
}

/* The value of output column p of the row in s->in, into *v. */
static void
map_value(struct rm *st, struct rstream *s, struct cplan *p,
    struct rp_val *v)
{
	const struct rp_val *in = &s->in[p->src];

	*v = *in;
	if (p->op == NULL)
		return;
	switch (p->op->op) {
	case OP_NULL:
		v->p = NULL;
		v->len = 0;
		break;
	case OP_SET:
		v->p = p->op->value;
		v->len = p->op->vlen;
		break;
	case OP_HASH:
		if (in->p == NULL)
			break;
		rm_hash(&st->o->keys[p->op->key], in->p, in->len, p->hex,
		    p->hbuf, p->hlen);
		v->p = p->hbuf;
		v->len = p->hlen;
		break;
	}
}

int
rm_do_rows(struct rm *st, const struct frame *f)
{
	struct rp_rows	 r;
	struct rstream	*s;
	struct buf	*b;
	size_t		 i, at;
	uint32_t	 n = 0;
	int		 k;

	if ((s = stbls_rows(&st->strs, f, &r)) == NULL)
		return rm_fail(st, "%s", st->strs.why);
	s->s.rows += r.nrows;	/* of the frame: copied ones are not decoded */
	if (!s->keep)
		return 0;
	progress_add(st->prog, 0, r.nrows, f->len);	/* bytes of rows read */
	if (s->copy) {
		if (frame_write(st->fw, FT_ROWS, f->flags, f->p, f->len) == -1)
			return rm_wfail(st);
		return 0;
	}
	b = frame_begin(st->fw);
	enc_rows_begin(b, s->s.id, 0);
	at = b->len;
	while ((k = dec_rows_next(&r, s->in, s->nin)) == 1) {
		for (i = 0; i < s->nout; i++) {
			map_value(st, s, &s->plan[i], &s->out[i]);
			enc_val(b, s->out[i].p, s->out[i].len);
		}
		n++;
	}
	if (k == -1) {
		frame_cancel(st->fw);
		return rm_fail(st, "%s.%s: corrupt row", s->s.t->schema,
		    s->s.t->name);
	}
	enc_rows_patch(b, at, n);
	if (frame_end(st->fw, FT_ROWS, f->flags) == -1)
		return rm_wfail(st);
	return 0;
}

int
rm_do_table_end(struct rm *st, const struct frame *f)
{
	struct rstream	*s;

	if ((s = stbls_end(&st->strs, f)) == NULL)
		return rm_fail(st, "%s", st->strs.why);
	if (!s->keep)
		return 0;
	progress_add(st->prog, 1, 0, 0);
	if (frame_write(st->fw, FT_TABLE_END, f->flags, f->p, f->len) == -1)
		return rm_wfail(st);
	return 0;
}
