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

size_t
names_ident_len(const char *s, const char *e)
{
	const char	*p = s + 1;
	char		 q;

	if (s >= e || (*s != '`' && *s != '"'))
		return 0;
	q = *s;
	while (p < e) {
		if (*p == q) {
			if (p + 1 < e && p[1] == q) {
				p += 2;
				continue;
			}
			return (size_t)(p + 1 - s);
		}
		p++;
	}
	return 0;
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
	const char	*e = ddl + len, *q = memchr(ddl, '`', len);
	size_t		 ql;

	if (q == NULL || (ql = names_ident_len(q, e)) == 0)
		return -1;
	buf_add(b, ddl, (size_t)(q - ddl));
	if (ine != NULL)
		buf_adds(b, ine);
	if (strcmp(from, to) != 0 && names_ident_eq(q, ql, from))
		quote_ident(b, to, strlen(to));
	else
		buf_add(b, q, ql);
	buf_add(b, q + ql, (size_t)(e - q - ql));
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

void
names_ddl_refs(const struct names *n, struct buf *b, const char *s, size_t len,
    const char *db)
{
	const char	*e = s + len, *p = s, *run = s, *t, *nt, *qdb;
	size_t		 l, tl, i;
	char		 c;

	while (p < e) {
		c = *p;
		if (c == '\'' || (c == '"' && names_ident_len(p, e) == 0)) {
			for (p++; p < e && *p != c; p++)
				if (*p == '\\' && p + 1 < e)
					p++;
			p++;
		} else if (c == '`' || c == '"') {
			if ((l = names_ident_len(p, e)) == 0)
				break;
			if (p + l < e && p[l] == '.' &&
			    (qdb = qualifier_db(n, db, p, l)) != NULL) {
				buf_add(b, run, (size_t)(p - run));
				t = names_db(n, qdb);
				quote_ident(b, t, strlen(t));
				buf_addc(b, '.');
				run = p += l + 1;
				if ((tl = names_ident_len(p, e)) == 0)
					continue;
				/* The table: renamed if --rename names it. */
				for (i = 0; i < n->nrenames; i++) {
					nt = n->renames[i].old;
					if (names_ident_eq(p, tl, nt) &&
					    strcmp(names_table(n, qdb, nt),
					    nt) != 0) {
						nt = names_table(n, qdb, nt);
						quote_ident(b, nt, strlen(nt));
						run = p + tl;
						break;
					}
				}
				p += tl;
				continue;
			}
			p += l;
		} else if (c == '/' && p + 1 < e && p[1] == '*') {
			const char *ce = memmem(p + 2, (size_t)(e - p - 2),
			    "*/", 2);
			p = ce ? ce + 2 : e;
		} else if (c == '#' || (c == '-' && p + 2 < e && p[1] == '-' &&
		    (p[2] == ' ' || p[2] == '\t' || p[2] == '\n'))) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl : e;
		} else
			p++;
	}
	if (run > e)
		run = e;
	buf_add(b, run, (size_t)(e - run));
}

/*
 * The next token of SQL text from *pp: a quoted identifier or a word
 * (letters, digits, _ and $), skipping blanks and comments.  Returns its
 * length (0 at the end or at other characters) and sets *tok.
 */
static size_t
next_token(const char **pp, const char *e, const char **tok)
{
	const char	*p = *pp, *q;
	size_t		 l;

	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r'))
			p++;
		if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			q = memmem(p + 2, (size_t)(e - p - 2), "*/", 2);
			p = q ? q + 2 : e;
		} else if (p + 2 < e && p[0] == '-' && p[1] == '-' &&
		    (p[2] == ' ' || p[2] == '\t')) {
			q = memchr(p, '\n', (size_t)(e - p));
			p = q ? q : e;
		} else
			break;
	}
	*tok = p;
	if ((l = names_ident_len(p, e)) == 0)
		while (p + l < e && (((p[l] | 0x20) >= 'a' && (p[l] | 0x20) <=
		    'z') || (p[l] >= '0' && p[l] <= '9') || p[l] == '_' ||
		    p[l] == '$' || (unsigned char)p[l] >= 0x80))
			l++;
	*pp = p + l;
	return l;
}

void
names_trigger_table(struct buf *b, const char *s, size_t len, const char *old,
    const char *new)
{
	const char	*e = s + len, *p = s, *tok, *name = NULL;
	size_t		 l, nl = 0;
	int		 state = 0;	/* 0: before TRIGGER, 1: before ON */

	while ((l = next_token(&p, e, &tok)) > 0 || (p < e && ++p)) {
		if (l == 0)
			continue;
		if (state == 0 && l == 7 && strncasecmp(tok, "TRIGGER", 7) == 0)
			state = 1;
		else if (state == 1 && l == 2 && strncasecmp(tok, "ON", 2) == 0) {
			name = tok = NULL;
			if ((nl = next_token(&p, e, &name)) == 0)
				break;
			/* db.table: the table is the part after the dot. */
			if (p < e && *p == '.') {
				p++;
				if ((nl = next_token(&p, e, &name)) == 0)
					break;
			}
			break;
		}
	}
	if (name != NULL && nl > 0 && ((names_ident_len(name, e) == nl &&
	    names_ident_eq(name, nl, old)) || (names_ident_len(name, e) == 0 &&
	    strlen(old) == nl && memcmp(name, old, nl) == 0))) {
		buf_add(b, s, (size_t)(name - s));
		quote_ident(b, new, strlen(new));
		buf_add(b, name + nl, (size_t)(e - name - nl));
	} else
		buf_add(b, s, len);
}
