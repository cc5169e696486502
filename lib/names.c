/*
 * names: the table filter and renames of --tables, --rename and
 * --rename-db, and the rewriting of names in DDL; see names.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "names.h"
#include "quote.h"
#include "sqltok.h"

/* Split "db.name" (db optional) at the first dot, in place. */
static void
split_dotted(char *s, char **db, char **name)
{
	char	*dot = strchr(s, '.');

	if (dot == NULL) {
		*db = NULL;
		*name = s;
	} else {
		*dot = '\0';
		*db = s;
		*name = dot + 1;
	}
}

/*
 * Each entry owns one allocation: old_db (or old) points at its start,
 * the other names into it.
 */
int
names_add_rename(struct names *n, const char *arg, int dotted,
    const char **errstr)
{
	struct names_rename *v, *r;
	char		*s, *eq;
	size_t		*cnt = dotted ? &n->nrenames : &n->ndb_renames;

	if ((eq = strchr(arg, '=')) == NULL || eq == arg || eq[1] == '\0') {
		*errstr = "expected OLD=NEW";
		errno = EINVAL;
		return -1;
	}
	if ((s = strdup(arg)) == NULL)
		goto nomem;
	eq = s + (eq - arg);
	*eq = '\0';
	v = reallocarray(dotted ? n->renames : n->db_renames, *cnt + 1,
	    sizeof(*v));
	if (v == NULL) {
		free(s);
		goto nomem;
	}
	if (dotted)
		n->renames = v;
	else
		n->db_renames = v;
	r = &v[*cnt];
	r->new = eq + 1;
	if (dotted)
		split_dotted(s, &r->old_db, &r->old);
	else {
		r->old_db = NULL;
		r->old = s;
	}
	if (*r->old == '\0' || (r->old_db != NULL && *r->old_db == '\0')) {
		free(s);
		*errstr = "empty name";
		errno = EINVAL;
		return -1;
	}
	(*cnt)++;
	return 0;
nomem:
	*errstr = "out of memory";
	errno = ENOMEM;
	return -1;
}

int
names_add_tables(struct names *n, const char *arg, const char **errstr)
{
	struct names_table *v, *t;
	char		*s, *rest, *w;

	if ((s = strdup(arg)) == NULL)
		goto nomem;
	rest = s;
	while ((w = strsep(&rest, ",")) != NULL) {
		if (*w == '\0')
			continue;
		if ((w = strdup(w)) == NULL)
			goto nomem;
		if ((v = reallocarray(n->tables, n->ntables + 1,
		    sizeof(*v))) == NULL) {
			free(w);
			goto nomem;
		}
		n->tables = v;
		t = &v[n->ntables];
		split_dotted(w, &t->db, &t->name);
		if (*t->name == '\0') {
			free(w);
			free(s);
			*errstr = "empty table name";
			errno = EINVAL;
			return -1;
		}
		n->ntables++;
	}
	free(s);
	return 0;
nomem:
	free(s);
	*errstr = "out of memory";
	errno = ENOMEM;
	return -1;
}

void
names_release(struct names *n)
{
	size_t	 i;

	for (i = 0; i < n->nrenames; i++)
		free(n->renames[i].old_db != NULL ? n->renames[i].old_db :
		    n->renames[i].old);
	for (i = 0; i < n->ndb_renames; i++)
		free(n->db_renames[i].old);
	for (i = 0; i < n->ntables; i++)
		free(n->tables[i].db != NULL ? n->tables[i].db :
		    n->tables[i].name);
	free(n->renames);
	free(n->db_renames);
	free(n->tables);
	memset(n, 0, sizeof(*n));
}

const char *
names_db(const struct names *n, const char *db)
{
	size_t	 i;

	for (i = 0; i < n->ndb_renames; i++)
		if (strcmp(n->db_renames[i].old, db) == 0)
			return n->db_renames[i].new;
	return db;
}

const char *
names_table(const struct names *n, const char *db, const char *name)
{
	const struct names_rename *r;
	size_t	 i;

	for (i = 0; i < n->nrenames; i++) {
		r = &n->renames[i];
		if (strcmp(r->old, name) == 0 &&
		    (r->old_db == NULL || strcmp(r->old_db, db) == 0))
			return r->new;
	}
	return name;
}

int
names_keep(const struct names *n, const char *db, const char *name)
{
	const struct names_table *t;
	size_t	 i;

	if (n->ntables == 0)
		return 1;
	for (i = 0; i < n->ntables; i++) {
		t = &n->tables[i];
		if (strcmp(t->name, name) == 0 &&
		    (t->db == NULL || strcmp(t->db, db) == 0))
			return 1;
	}
	return 0;
}

int
names_quoted(const struct sqltok *t)
{
	return (t->kind == SQLTOK_IDENT || (t->kind == SQLTOK_STRING &&
	    *t->p == '"')) && !(t->flags & SQLTOK_F_OPEN);
}

int
names_ident_eq(const char *q, size_t qlen, const char *s)
{
	struct buf	 b = BUF_INIT;
	int		 eq;

	quote_ident(&b, s, strlen(s));
	eq = !b.err && b.len == qlen && memcmp(b.p, q, qlen) == 0;
	buf_release(&b);
	return eq;
}

int
names_ddl_name(struct buf *b, const char *ddl, size_t len, const char *from,
    const char *to, const char *ine)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END)
		if (t.kind == SQLTOK_IDENT && *t.p == '`' &&
		    !(t.flags & SQLTOK_F_OPEN))
			break;
	if (t.kind == SQLTOK_END)
		return -1;
	buf_add(b, ddl, (size_t)(t.p - ddl));
	if (ine != NULL)
		buf_adds(b, ine);
	if (strcmp(from, to) != 0 && names_ident_eq(t.p, t.len, from))
		quote_ident(b, to, strlen(to));
	else
		buf_add(b, t.p, t.len);
	buf_add(b, t.p + t.len, (size_t)(ddl + len - t.p - t.len));
	return 0;
}

/*
 * The source database a quoted identifier (l bytes at p) names, if it is
 * db or one that --rename-db renames; else NULL.
 */
static const char *
qualifier_db(const struct names *n, const char *db, const char *p, size_t l)
{
	size_t	 i;

	if (names_ident_eq(p, l, db))
		return db;
	for (i = 0; i < n->ndb_renames; i++)
		if (names_ident_eq(p, l, n->db_renames[i].old))
			return n->db_renames[i].old;
	return NULL;
}

/* The next token, if it follows the one that ends at end directly. */
static int
next_touching(struct sqltok_lexer *l, const char *end, struct sqltok *t)
{
	struct sqltok_lexer save = *l;

	if (sqltok_next(l, t) != SQLTOK_END && t->p == end)
		return 1;
	*l = save;
	return 0;
}

void
names_ddl_refs(const struct names *n, struct buf *b, const char *s,
    size_t len, const char *db)
{
	struct sqltok_lexer l;
	struct sqltok	 t, dot, tt;
	const char	*run = s, *qdb, *td, *nt;
	size_t		 i;

	sqltok_init(&l, s, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (!names_quoted(&t) || !next_touching(&l, t.p + t.len, &dot))
			continue;
		if (dot.kind != SQLTOK_PUNCT || *dot.p != '.' ||
		    (qdb = qualifier_db(n, db, t.p, t.len)) == NULL) {
			l.p = dot.p;		/* read it again */
			continue;
		}
		buf_add(b, run, (size_t)(t.p - run));
		td = names_db(n, qdb);
		quote_ident(b, td, strlen(td));
		buf_addc(b, '.');
		run = dot.p + 1;
		if (!next_touching(&l, run, &tt))
			continue;
		if (!names_quoted(&tt)) {
			l.p = tt.p;
			continue;
		}
		/* The table: renamed if --rename names it. */
		for (i = 0; i < n->nrenames; i++) {
			nt = n->renames[i].old;
			if (names_ident_eq(tt.p, tt.len, nt) &&
			    strcmp(names_table(n, qdb, nt), nt) != 0) {
				nt = names_table(n, qdb, nt);
				quote_ident(b, nt, strlen(nt));
				run = tt.p + tt.len;
				break;
			}
		}
	}
	buf_add(b, run, (size_t)(s + len - run));
}

/* Is t a name (a word or a quoted identifier) that stands for name? */
static int
names_token(const struct sqltok *t, const char *name)
{
	if (t->kind == SQLTOK_WORD)
		return strlen(name) == t->len && memcmp(t->p, name, t->len) == 0;
	return names_quoted(t) && names_ident_eq(t->p, t->len, name);
}

void
names_trigger_table(struct buf *b, const char *s, size_t len, const char *old,
    const char *new)
{
	struct sqltok_lexer l;
	struct sqltok	 t, name, dot;
	int		 state = 0;	/* 0: before TRIGGER, 1: before ON */

	sqltok_init(&l, s, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (state == 0 && sqltok_is(&t, "TRIGGER"))
			state = 1;
		else if (state == 1 && sqltok_is(&t, "ON"))
			break;
	}
	if (t.kind == SQLTOK_END || sqltok_next(&l, &name) == SQLTOK_END)
		goto asis;
	/* db.table: the table is the part after the dot. */
	if (next_touching(&l, name.p + name.len, &dot) &&
	    dot.kind == SQLTOK_PUNCT && *dot.p == '.' &&
	    sqltok_next(&l, &name) == SQLTOK_END)
		goto asis;
	if (!names_token(&name, old))
		goto asis;
	buf_add(b, s, (size_t)(name.p - s));
	quote_ident(b, new, strlen(new));
	buf_add(b, name.p + name.len, (size_t)(s + len - name.p - name.len));
	return;
asis:
	buf_add(b, s, len);
}
