/*
 * check: rowmap's column transforms against the CREATE TABLE texts of the
 * stream, and the texts rewritten to match.
 *
 * The rules follow what the server itself does and refuses (MariaDB KB
 * "ALTER TABLE", DROP COLUMN): a dropped column leaves its plain indexes
 * (an index left with no column goes); a key that would lose uniqueness
 * (a PRIMARY or UNIQUE key of more columns), a foreign key, a CHECK
 * constraint, a generated column, a period or a partitioning that uses the
 * column is an error naming it.  --null makes the column nullable and may
 * not touch a primary key; --set may not touch any key; --hash keeps keys
 * and needs the other side of a foreign key hashed under the same key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quote.h"
#include "state.h"

static const char *
op_word(int op)
{
	switch (op) {
	case OP_DROP:	return "--drop";
	case OP_NULL:	return "--null";
	case OP_SET:	return "--set";
	default:	return "--hash";
	}
}

static int
broken(struct rm *st, const struct rtab *t, const struct rm_colop *op,
    const struct ddl_elem *el, const char *why)
{
	char	 d[300];

	ddl_elem_desc(el, d, sizeof(d));
	return rm_fail(st, "%s %s: %s.%s: %s %s", op_word(op->op), op->arg,
	    t->db, t->name, d, why);
}

/* The transform of column col of table t, or NULL. */
static const struct rm_colop *
op_of(const struct rtab *t, const char *col)
{
	size_t	 i;

	if (t == NULL)
		return NULL;
	for (i = 0; i < t->nops; i++)
		if (strcasecmp(t->ops[i]->col, col) == 0)
			return t->ops[i];
	return NULL;
}

/* A column dropped: its key parts, the elements that use it. */
static int
check_drop(struct rm *st, struct rtab *t, const struct rm_colop *op,
    struct ddl_elem *col)
{
	const struct ddl_elem *el;
	const char	*why;

	if (ddl_drop_column(&t->dt, col, &el, &why) == 0)
		return 0;
	if (el != NULL)
		return broken(st, t, op, el, why);
	return rm_fail(st, "%s %s: %s.%s: its partitioning uses it",
	    op_word(op->op), op->arg, t->db, t->name);
}

/*
 * Can column col (element) take a pseudonym?  With shape, also: is it
 * the same as *shape (hex << 8 | length) (else set it)?
 */
static int
check_hash_col(struct rm *st, const struct rtab *t, const struct rm_colop *op,
    const struct ddl_elem *col, unsigned *shape)
{
	char	*type = ddl_column_type(col);
	size_t	 len = 0;
	int	 hex = 0, r;

	r = type == NULL ? -1 : rm_hash_shape(type, &hex, &len);
	if (r == -1) {
		r = rm_fail(st, "--hash %s: %s.%s: a %s column %s", op->arg,
		    t->db, t->name, type ? type : "?", len ? "is too short "
		    "for a pseudonym" : "cannot take a pseudonym (only "
		    "text and binary strings can)");
		free(type);
		return r;
	}
	free(type);
	if (shape == NULL)
		return 0;
	if (*shape != 0 && *shape != ((unsigned)hex << 8 | (unsigned)len))
		return broken(st, t, op, col, "is not of the length of the "
		    "column its foreign key refers to: their pseudonyms "
		    "would differ");
	*shape = (unsigned)hex << 8 | (unsigned)len;
	return 0;
}

/* Checks of one transform against the table's own elements. */
static int
check_op(struct rm *st, struct rtab *t, const struct rm_colop *op)
{
	struct ddl_elem	*col, *el;
	size_t		 i;

	if ((col = ddl_column(&t->dt, op->col)) == NULL)
		return rm_fail(st, "%s %s: %s.%s has no column %s",
		    op_word(op->op), op->arg, t->db, t->name, op->col);
	if (op->op == OP_DROP)
		return check_drop(st, t, op, col);
	for (i = 0; i < t->dt.nel; i++) {
		el = &t->dt.el[i];
		if (!ddl_has_part(el, op->col))
			continue;
		if ((op->op == OP_NULL && el->kind == EL_PRIMARY) ||
		    (op->op == OP_SET && (el->kind == EL_PRIMARY ||
		    el->kind == EL_UNIQUE || el->kind == EL_FOREIGN)))
			return broken(st, t, op, el, "needs its values");
	}
	if (op->op == OP_HASH)
		return check_hash_col(st, t, op, col, NULL);
	if (op->op == OP_NULL && ddl_make_nullable(col) == -1)
		return rm_fail(st, "%s", strerror(ENOMEM));
	return 0;
}

/*
 * A foreign key of table t (element fk) against the transforms on both
 * of its sides.
 */
static int
check_fk(struct rm *st, struct rtab *t, const struct ddl_elem *fk)
{
	const struct rm_colop *mine, *theirs;
	struct ddl_elem	*c;
	struct rtab	*rt;
	unsigned	 shape;
	size_t		 i;

	rt = rm_tab(st, fk->ref_db ? fk->ref_db : t->db, fk->ref_table, 0);
	for (i = 0; i < fk->nparts && i < fk->nref; i++) {
		mine = op_of(t, fk->parts[i].col);
		theirs = op_of(rt, fk->ref_cols[i]);
		shape = 0;
		if (mine != NULL && theirs != NULL && mine->op == OP_HASH &&
		    theirs->op == OP_HASH && rt->parsed &&
		    (c = ddl_column(&rt->dt, fk->ref_cols[i])) != NULL &&
		    (check_hash_col(st, rt, theirs, c, &shape) == -1 ||
		    (c = ddl_column(&t->dt, fk->parts[i].col)) == NULL ||
		    check_hash_col(st, t, mine, c, &shape) == -1))
			return -1;
		if (theirs != NULL && theirs->op != OP_HASH)
			return broken(st, t, theirs, fk, "refers to it");
		if (mine != NULL && mine->op == OP_HASH && (theirs == NULL ||
		    theirs->key != mine->key))
			return broken(st, t, mine, fk, "refers to a column "
			    "not hashed with the same key");
		if (theirs != NULL && (mine == NULL || mine->op != OP_HASH ||
		    mine->key != theirs->key))
			return broken(st, t, theirs, fk, "refers to it, and "
			    "its column is not hashed with the same key");
	}
	return 0;
}

int
rm_check_tables(struct rm *st)
{
	struct rtab	*t;
	size_t		 i, j;

	for (i = 0; i < st->ntabs; i++) {
		t = st->tabs[i];
		if (t->ddl == NULL || t->parsed)
			continue;
		if (ddl_parse(t->ddl, t->ddl_len, &t->dt) == -1) {
			if (t->nops > 0)
				return rm_fail(st, "%s.%s: cannot read its "
				    "CREATE TABLE text", t->db, t->name);
			continue;	/* no transform needs it */
		}
		t->parsed = 1;
	}
	for (i = 0; i < st->ntabs; i++) {
		t = st->tabs[i];
		if (!t->keep && t->nops > 0)
			return rm_fail(st, "%s %s: %s.%s is left out by --tables "
			    "or --exclude", op_word(t->ops[0]->op),
			    t->ops[0]->arg, t->db, t->name);
		for (j = 0; t->parsed && j < t->nops; j++) {
			((struct rm_colop *)t->ops[j])->hit = 1;
			if (check_op(st, t, t->ops[j]) == -1)
				return -1;
		}
	}
	for (i = 0; i < st->ntabs; i++) {
		t = st->tabs[i];
		for (j = 0; t->parsed && j < t->dt.nel; j++)
			if (t->dt.el[j].kind == EL_FOREIGN &&
			    check_fk(st, t, &t->dt.el[j]) == -1)
				return -1;
	}
	/* A stream that announced its tables must have the named ones. */
	for (i = 0; st->table_objects && i < st->o->nops; i++)
		if (!st->o->ops[i].hit)
			return rm_fail(st, "%s %s: no such table in the stream",
			    op_word(st->o->ops[i].op), st->o->ops[i].arg);
	return 0;
}

/*
 * A foreign key's REFERENCES when the table it names, or the table that
 * holds it, is renamed or moved: the source name, qualified, for
 * names_ddl_refs() to rewrite with the rest.
 */
static void
fk_refs(struct rm *st, struct rtab *t)
{
	const struct names *n = &st->o->names;
	struct ddl_elem	*el;
	struct buf	 b = BUF_INIT;
	const char	*p, *e;
	struct tok	 tk;
	size_t		 i;

	for (i = 0; i < t->dt.nel; i++) {
		el = &t->dt.el[i];
		if (el->kind != EL_FOREIGN || el->ref_db != NULL ||
		    el->dropped || (strcmp(names_table(n, t->db,
		    el->ref_table), el->ref_table) == 0 &&
		    strcmp(names_table_db(n, t->db, el->ref_table),
		    names_table_db(n, t->db, t->name)) == 0))
			continue;
		p = el->p;
		e = el->p + el->len;
		while (ddl_tok(&p, e, &tk) != TK_END && !tok_word(&tk,
		    "REFERENCES"))
			;
		buf_add(&b, el->p, (size_t)(p - el->p));
		buf_addc(&b, ' ');
		quote_ident2(&b, t->db, el->ref_table);
		ddl_tok(&p, e, &tk);		/* the table */
		buf_add(&b, p, (size_t)(e - p));
		if (!b.err) {
			free(el->repl);
			el->repl = buf_detach(&b, NULL);
		}
		buf_release(&b);
	}
}

int
rm_table_ddl(struct rm *st, struct rtab *t, const struct rp_object *ob,
    struct buf *b)
{
	const struct names *n = &st->o->names;
	struct buf	 a = BUF_INIT, c = BUF_INIT, k = BUF_INIT;
	char		 why[300];
	int		 r = 0;

	if (t->parsed) {
		fk_refs(st, t);
		ddl_write(&t->dt, &a);
	} else
		buf_add(&a, ob->ddl, ob->ddl_len);
	if (names_ddl_name(&c, a.p, a.len, ob->name, names_table(n,
	    ob->schema, ob->name), NULL) == -1)
		r = rm_fail(st, "%s.%s: no name in its DDL", ob->schema,
		    ob->name);
	/* renamed in its database: its foreign keys' names would collide */
	else if (names_rename_fks(n, &k, c.p, c.len, ob->schema, ob->name,
	    why, sizeof(why)) == -1)
		r = rm_fail(st, "%s.%s: --rename: %s", ob->schema, ob->name,
		    *why != '\0' ? why : strerror(ENOMEM));
	else
		names_ddl_refs(n, b, k.p, k.len, ob->schema);
	buf_release(&a);
	buf_release(&c);
	buf_release(&k);
	return r;
}

/* Where a trigger's body starts: after FOR EACH ROW (its ON clause is
 * rewritten apart). */
static const char *
trigger_body(const char *s, size_t len)
{
	const char	*p = s, *e = s + len;
	struct tok	 t;
	int		 state = 0;

	while (ddl_tok(&p, e, &t) != TK_END && t.kind != TK_BAD) {
		if (tok_word(&t, state == 0 ? "FOR" : state == 1 ? "EACH" :
		    "ROW")) {
			if (++state == 3)
				return p;
		} else
			state = 0;
	}
	return s;
}

int
rm_check_body(struct rm *st, const struct rp_object *ob, int words)
{
	const struct names *n = &st->o->names;
	const struct rtab *t;
	const char	*body = ob->ddl, *on = NULL;
	size_t		 len = ob->ddl_len, i, j;
	int		 own, moved = 0;

	if (ob->kind == OBJ_TRIGGER) {
		on = rp_kv_get(&ob->attrs, "table");
		body = trigger_body(ob->ddl, ob->ddl_len);
		len = ob->ddl_len - (size_t)(body - ob->ddl);
		moved = on != NULL && strcmp(names_table_db(n, ob->schema, on),
		    names_db(n, ob->schema)) != 0;
	}
	for (i = 0; i < st->ntabs; i++) {
		t = st->tabs[i];
		own = on != NULL && strcmp(t->db, ob->schema) == 0 &&
		    strcmp(t->name, on) == 0;
		if (!own && !ddl_mentions(body, len, t->name, words))
			continue;
		/* (views come after the rows: say the way out) */
		if (!t->keep && ob->kind == OBJ_VIEW)
			return rm_fail(st, "%s.%s: view uses %s.%s, which is "
			    "left out (leave the view out too: --exclude %s.%s "
			    "as well)", ob->schema, ob->name, t->db, t->name,
			    ob->schema, ob->name);
		for (j = 0; j < t->nops; j++)
			if (t->ops[j]->op == OP_DROP && ddl_mentions(body, len,
			    t->ops[j]->col, words))
				return rm_fail(st, "--drop %s: %s.%s uses it",
				    t->ops[j]->arg, ob->schema, ob->name);
		if (moved && !own && strcmp(t->db, ob->schema) == 0)
			return rm_fail(st, "%s.%s: trigger moves with its "
			    "table into %s but names %s of %s", ob->schema,
			    ob->name, names_table_db(n, ob->schema, on),
			    t->name, ob->schema);
		/* Unqualified names in bodies are not rewritten. */
		if (words && !own && strcmp(t->db, ob->schema) == 0 &&
		    (strcmp(names_table(n, t->db, t->name), t->name) != 0 ||
		    strcmp(names_table_db(n, t->db, t->name),
		    names_db(n, t->db)) != 0))
			return rm_fail(st, "%s.%s names %s, which is renamed "
			    "or moved: rename it by hand", ob->schema,
			    ob->name, t->name);
	}
	return 0;
}
