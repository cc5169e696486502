/*
 * names: the table filter and renames of --tables, --rename and
 * --rename-db, and the rewriting of names in DDL; see names.h.
 */
#include <errno.h>
#include <fnmatch.h>
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
	r->new_db = NULL;
	r->hit = 0;
	if (dotted) {
		split_dotted(s, &r->old_db, &r->old);
		split_dotted(eq + 1, &r->new_db, &r->new);
	} else {
		r->old_db = NULL;
		r->old = s;
	}
	if (*r->old == '\0' || (r->old_db != NULL && *r->old_db == '\0') ||
	    *r->new == '\0' || (r->new_db != NULL && *r->new_db == '\0')) {
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
names_add_filter(struct names *n, const char *arg, int exclude,
    const char **errstr)
{
	struct names_table *v, *t, **vp = exclude ? &n->excludes : &n->tables;
	size_t		*cnt = exclude ? &n->nexcludes : &n->ntables;
	char		*s, *rest, *w;

	if ((s = strdup(arg)) == NULL)
		goto nomem;
	rest = s;
	while ((w = strsep(&rest, ",")) != NULL) {
		if (*w == '\0')
			continue;
		if ((w = strdup(w)) == NULL)
			goto nomem;
		if ((v = reallocarray(*vp, *cnt + 1, sizeof(*v))) == NULL) {
			free(w);
			goto nomem;
		}
		*vp = v;
		t = &v[*cnt];
		t->hit = 0;
		split_dotted(w, &t->db, &t->name);
		if (*t->name == '\0') {
			free(w);
			free(s);
			*errstr = "empty table name";
			errno = EINVAL;
			return -1;
		}
		(*cnt)++;
	}
	free(s);
	return 0;
nomem:
	free(s);
	*errstr = "out of memory";
	errno = ENOMEM;
	return -1;
}

int
names_add_tables(struct names *n, const char *arg, const char **errstr)
{
	return names_add_filter(n, arg, 0, errstr);
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
	for (i = 0; i < n->nexcludes; i++)
		free(n->excludes[i].db != NULL ? n->excludes[i].db :
		    n->excludes[i].name);
	free(n->renames);
	free(n->db_renames);
	free(n->tables);
	free(n->excludes);
	memset(n, 0, sizeof(*n));
}

const char *
names_db(const struct names *n, const char *db)
{
	size_t	 i;

	for (i = 0; i < n->ndb_renames; i++)
		if (strcmp(n->db_renames[i].old, db) == 0) {
			n->db_renames[i].hit = 1;
			return n->db_renames[i].new;
		}
	return db;
}

/* The --rename of table db.name, or NULL.  Marks it as hit. */
static const struct names_rename *
find_rename(const struct names *n, const char *db, const char *name)
{
	struct names_rename *r;
	size_t	 i;

	for (i = 0; i < n->nrenames; i++) {
		r = &n->renames[i];
		if (strcmp(r->old, name) == 0 &&
		    (r->old_db == NULL || strcmp(r->old_db, db) == 0)) {
			r->hit = 1;
			return r;
		}
	}
	return NULL;
}

const char *
names_table(const struct names *n, const char *db, const char *name)
{
	const struct names_rename *r = find_rename(n, db, name);

	return r != NULL ? r->new : name;
}

const char *
names_table_db(const struct names *n, const char *db, const char *name)
{
	const struct names_rename *r = find_rename(n, db, name);

	return r != NULL && r->new_db != NULL ? r->new_db : names_db(n, db);
}

/* Does any of the patterns match db.name?  Marks those that do. */
static int
match_any(struct names_table *v, size_t cnt, const char *db, const char *name)
{
	size_t	 i;
	int	 m = 0;

	for (i = 0; i < cnt; i++)
		if (fnmatch(v[i].name, name, 0) == 0 &&
		    (v[i].db == NULL || fnmatch(v[i].db, db, 0) == 0)) {
			v[i].hit = 1;
			m = 1;
		}
	return m;
}

int
names_keep(const struct names *n, const char *db, const char *name)
{
	int	 in;

	in = match_any(n->tables, n->ntables, db, name) || n->ntables == 0;
	return !match_any(n->excludes, n->nexcludes, db, name) && in;
}

int
names_unmatched(const struct names *n, struct buf *b)
{
	const struct names_table *t = NULL;
	size_t	 i;

	for (i = 0; t == NULL && i < n->ntables; i++)
		if (!n->tables[i].hit)
			t = &n->tables[i];
	for (i = 0; t == NULL && i < n->nexcludes; i++)
		if (!n->excludes[i].hit)
			t = &n->excludes[i];
	if (t == NULL)
		return 0;
	if (t->db != NULL)
		buf_addf(b, "%s.", t->db);
	buf_adds(b, t->name);
	return 1;
}

int
names_unmatched_rename(const struct names *n, struct buf *b)
{
	size_t	 i;

	for (i = 0; i < n->nrenames; i++)
		if (!n->renames[i].hit) {
			buf_adds(b, "--rename ");
			if (n->renames[i].old_db != NULL)
				buf_addf(b, "%s.", n->renames[i].old_db);
			buf_addf(b, "%s: no such table", n->renames[i].old);
			return 1;
		}
	for (i = 0; i < n->ndb_renames; i++)
		if (!n->db_renames[i].hit) {
			buf_addf(b, "--rename-db %s: no such database",
			    n->db_renames[i].old);
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

/* Characters of UTF-8 text s[0..n): the bytes that start one. */
static size_t
chars(const char *s, size_t n)
{
	size_t	 c = 0;

	while (n-- > 0)
		c += ((unsigned char)*s++ & 0xC0) != 0x80;
	return c;
}

int
names_fk_names(struct buf *b, const char *ddl, size_t len, const char *old,
    const char *new, char *why, size_t whysz)
{
	struct sqltok_lexer l;
	struct sqltok	 t, prev[2];
	const char	*run = ddl;
	char		 name[NAMES_IDENT_MAX * 4 + 1];
	struct buf	 nn = BUF_INIT;
	size_t		 olen = strlen(old);
	int		 rc = 0;

	prev[0].kind = prev[1].kind = SQLTOK_END;
	sqltok_init(&l, ddl, len, 0);
	while (rc == 0 && sqltok_next(&l, &t) != SQLTOK_END) {
		/* CONSTRAINT `name` FOREIGN: the name is prev[0] */
		if (sqltok_is(&t, "FOREIGN") && prev[1].kind != SQLTOK_END &&
		    sqltok_is(&prev[1], "CONSTRAINT") && names_quoted(&prev[0]) &&
		    sqltok_ident(&prev[0], name, sizeof(name)) >= 0) {
			buf_reset(&nn);
			if (strncmp(name, old, olen) == 0)
				buf_addf(&nn, "%s%s", new, name + olen);
			else
				buf_addf(&nn, "%s_%s", new, name);
			if (nn.err)
				rc = -1;
			else if (chars(nn.p, nn.len) > NAMES_IDENT_MAX) {
				snprintf(why, whysz, "foreign key %s: its name "
				    "for the renamed table, %s, is longer than "
				    "%d characters", name, nn.p,
				    NAMES_IDENT_MAX);
				rc = -1;
			} else {
				buf_add(b, run, (size_t)(prev[0].p - run));
				quote_ident(b, nn.p, nn.len);
				run = prev[0].p + prev[0].len;
			}
		}
		prev[1] = prev[0];
		prev[0] = t;
	}
	if (nn.err)
		*why = '\0';
	buf_release(&nn);
	if (rc == 0)
		buf_add(b, run, (size_t)(ddl + len - run));
	return rc;
}

int
names_rename_fks(const struct names *n, struct buf *b, const char *ddl,
    size_t len, const char *db, const char *name, char *why, size_t whysz)
{
	const char	*to = names_table(n, db, name);

	if (strcmp(to, name) == 0 || strcmp(names_table_db(n, db, name),
	    names_db(n, db)) != 0) {
		buf_add(b, ddl, len);
		return 0;
	}
	return names_fk_names(b, ddl, len, name, to, why, whysz);
}

void
names_fk_qualify(struct buf *b, const char *ddl, size_t len, const char *db)
{
	struct sqltok_lexer l;
	struct sqltok	 t, prev;
	const char	*run = ddl;

	prev.kind = SQLTOK_END;
	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		/* REFERENCES `t` (`col`: t not followed by a dot */
		if (prev.kind != SQLTOK_END && sqltok_is(&prev, "REFERENCES") &&
		    names_quoted(&t) &&
		    !(l.p < ddl + len && *l.p == '.')) {
			buf_add(b, run, (size_t)(t.p - run));
			quote_ident(b, db, strlen(db));
			buf_addc(b, '.');
			run = t.p;
		}
		prev = t;
	}
	buf_add(b, run, (size_t)(ddl + len - run));
}

/*
 * The source database a quoted identifier (l bytes at p) names, if it is
 * db or one that --rename-db renames; else NULL.
 */
/* Does the bare word p[0..l) name s? */
static int
word_eq(const char *p, size_t l, const char *s)
{
	return strlen(s) == l && memcmp(p, s, l) == 0;
}

static const char *
qualifier_db(const struct names *n, const char *db, const struct sqltok *t)
{
	int	(*eq)(const char *, size_t, const char *) =
		    t->kind == SQLTOK_WORD ? word_eq : names_ident_eq;
	size_t	 i;

	if (eq(t->p, t->len, db))
		return db;
	for (i = 0; i < n->ndb_renames; i++)
		if (eq(t->p, t->len, n->db_renames[i].old))
			return n->db_renames[i].old;
	for (i = 0; i < n->nrenames; i++)
		if (n->renames[i].old_db != NULL &&
		    eq(t->p, t->len, n->renames[i].old_db))
			return n->renames[i].old_db;
	return NULL;
}

int
names_bare_ok(const char *name)
{
	const char	*p;
	int		 digits = 1;

	for (p = name; *p != '\0'; p++) {
		if (!sqltok_is_word((unsigned char)*p))
			return 0;
		if (*p < '0' || *p > '9')
			digits = 0;
	}
	return *name != '\0' && !digits;
}

/*
 * The rename of table (the quoted identifier at q, l bytes) of database
 * qdb, or NULL.
 */
static const struct names_rename *
rename_of(const struct names *n, const char *qdb, const char *q, size_t l)
{
	const struct names_rename *r;
	size_t	 i;

	for (i = 0; i < n->nrenames; i++) {
		r = &n->renames[i];
		if (names_ident_eq(q, l, r->old) &&
		    (r->old_db == NULL || strcmp(r->old_db, qdb) == 0))
			return r;
	}
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
	const struct names_rename *r;
	struct sqltok_lexer l;
	struct sqltok	 t, dot, tt;
	const char	*run = s, *qdb, *td;
	int		 have, prev_dot = 0;

	sqltok_init(&l, s, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		/* `db`.x, or db.x as routine and trigger bodies may write it */
		if ((!names_quoted(&t) && t.kind != SQLTOK_WORD) ||
		    (prev_dot && t.kind == SQLTOK_WORD) ||
		    !next_touching(&l, t.p + t.len, &dot)) {
			prev_dot = t.kind == SQLTOK_PUNCT && *t.p == '.';
			continue;
		}
		prev_dot = 0;
		if (dot.kind != SQLTOK_PUNCT || *dot.p != '.' ||
		    (qdb = qualifier_db(n, db, &t)) == NULL) {
			l.p = dot.p;		/* read it again */
			continue;
		}
		/* The table: renamed, or moved, if --rename names it. */
		r = NULL;
		if ((have = next_touching(&l, dot.p + 1, &tt)) &&
		    names_quoted(&tt))
			r = rename_of(n, qdb, tt.p, tt.len);
		else if (have)
			l.p = tt.p;		/* read it again */
		buf_add(b, run, (size_t)(t.p - run));
		td = r != NULL ? names_table_db(n, qdb, r->old) :
		    names_db(n, qdb);
		if (t.kind == SQLTOK_WORD && names_bare_ok(td))
			buf_adds(b, td);
		else
			quote_ident(b, td, strlen(td));
		buf_addc(b, '.');
		run = dot.p + 1;
		if (r != NULL) {
			quote_ident(b, r->new, strlen(r->new));
			run = tt.p + tt.len;
		}
		prev_dot = r == NULL;	/* the table, read again, follows a dot */
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
