/*
 * sqlrename: database renames in SQL text, token by token (sqltok), the
 * bytes between the renamed names copied as they are.
 */
#include <string.h>

#include "quote.h"
#include "sqlrename.h"
#include "sqltok.h"

struct renamer {
	const struct names *n;
	struct buf	*out;
	const char	*from;		/* text not yet copied */
	size_t		 count;
};

/* If t names a renamed database, copy up to it and write the new name. */
static void
rename_tok(struct renamer *r, const struct sqltok *t)
{
	char		 name[256];
	const char	*to;
	long		 n;

	if (t->kind != SQLTOK_WORD && t->kind != SQLTOK_IDENT)
		return;
	if ((n = sqltok_ident(t, name, sizeof(name))) < 0 ||
	    (size_t)n >= sizeof(name))
		return;
	to = names_db(r->n, name);
	if (strcmp(to, name) == 0)
		return;
	buf_add(r->out, r->from, (size_t)(t->p - r->from));
	if (t->kind == SQLTOK_WORD && names_bare_ok(to))
		buf_adds(r->out, to);	/* as it was written: unquoted */
	else
		quote_ident(r->out, to, strlen(to));
	r->from = t->p + t->len;
	r->count++;
}

static int
is_dot(const struct sqltok *t)
{
	return t->kind == SQLTOK_PUNCT && t->len == 1 && *t->p == '.';
}

size_t
sqlrename_db(const struct names *n, struct buf *out, const char *text,
    size_t len, int mode)
{
	struct renamer		 r = { n, out, text, 0 };
	struct sqltok_lexer	 lx;
	struct sqltok		 prev, cur, next;
	int			 nword = 0, dbword = 0, want = 0;

	if (n == NULL || n->ndb_renames == 0) {
		buf_add(out, text, len);
		return 0;
	}
	sqltok_init(&lx, text, len, mode);
	memset(&prev, 0, sizeof(prev));
	sqltok_next(&lx, &cur);
	while (cur.kind != SQLTOK_END) {
		sqltok_next(&lx, &next);
		if (cur.kind == SQLTOK_WORD && nword++ == 0 &&
		    sqltok_is(&cur, "USE"))
			want = 1;
		else if (cur.kind == SQLTOK_WORD && nword == 1 &&
		    (sqltok_is(&cur, "CREATE") || sqltok_is(&cur, "ALTER") ||
		    sqltok_is(&cur, "DROP")))
			dbword = 1;
		else if (dbword == 1 && cur.kind == SQLTOK_WORD &&
		    (sqltok_is(&cur, "DATABASE") || sqltok_is(&cur, "SCHEMA"))) {
			dbword = 0;
			want = 1;
		} else if (want && cur.kind == SQLTOK_WORD &&
		    (sqltok_is(&cur, "IF") || sqltok_is(&cur, "NOT") ||
		    sqltok_is(&cur, "EXISTS")))
			;		/* IF [NOT] EXISTS before the name */
		else if (want) {
			want = 0;
			rename_tok(&r, &cur);
		} else {
			dbword = 0;
			if (is_dot(&next) && !is_dot(&prev))
				rename_tok(&r, &cur);
		}
		prev = cur;
		cur = next;
	}
	buf_add(out, r.from, (size_t)(text + len - r.from));
	return r.count;
}
