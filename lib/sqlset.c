/*
 * sqlset: what a SET statement changes (sqlset.h): the scope of each
 * assignment's target, over lib/sqltok tokens (comments skipped,
 * executable comments stepped into, as the server does).
 */
#include <string.h>

#include "frame.h"
#include "sqlset.h"
#include "sqltok.h"

static int
punct(const struct sqltok *t, int c)
{
	return t->kind == SQLTOK_PUNCT && *t->p == c;
}

/* A scope word of MySQL and MariaDB that changes more than the session. */
static int
server_scope(const struct sqltok *t)
{
	return sqltok_is(t, "GLOBAL") || sqltok_is(t, "PERSIST") ||
	    sqltok_is(t, "PERSIST_ONLY");
}

/*
 * Does the assignment whose first token is t set state beyond the
 * session?  "GLOBAL x = ...", "@@GLOBAL.x = ...", "GLOBAL TRANSACTION
 * ..."; not "@global = ..." (a user variable) nor "global = ..." (a
 * variable of that name).  t is left on a token of the assignment.
 */
static int
server_target(struct sqltok_lexer *l, struct sqltok *t)
{
	struct sqltok_lexer save;
	struct sqltok	 n;

	if (server_scope(t)) {
		save = *l;
		sqltok_next(l, &n);
		*l = save;
		return !punct(&n, '=') && !punct(&n, ':');
	}
	if (!punct(t, '@'))
		return 0;
	if (sqltok_next(l, t) != SQLTOK_PUNCT || !punct(t, '@'))
		return 0;
	if (sqltok_next(l, t) != SQLTOK_WORD || !server_scope(t))
		return 0;
	save = *l;
	sqltok_next(l, &n);
	*l = save;
	return punct(&n, '.');
}

int
sqlset_next(struct sqltok_lexer *l, struct sqltok *t)
{
	int	 depth;

	for (depth = 0; t->kind != SQLTOK_END; sqltok_next(l, t)) {
		if (punct(t, '('))
			depth++;
		else if (punct(t, ')'))
			depth--;
		else if (punct(t, ',') && depth <= 0)
			break;
	}
	if (t->kind == SQLTOK_END)
		return 0;
	sqltok_next(l, t);
	return 1;
}

int
sqlset_kind(const char *text, size_t len, int mode)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	sqltok_init(&l, text, len, mode & (SQLTOK_NBE | SQLTOK_ANSIQ));
	if (sqltok_next(&l, &t) != SQLTOK_WORD || !sqltok_is(&t, "SET"))
		return STK_OTHER;
	sqltok_next(&l, &t);
	if (sqltok_is(&t, "STATEMENT"))
		return STK_OTHER;
	if (sqltok_is(&t, "PASSWORD"))
		return STK_SET_SERVER;
	if (sqltok_is(&t, "DEFAULT")) {
		sqltok_next(&l, &t);
		return sqltok_is(&t, "ROLE") ? STK_SET_SERVER : STK_SET;
	}
	/* one assignment a turn */
	do
		if (server_target(&l, &t))
			return STK_SET_SERVER;
	while (sqlset_next(&l, &t));
	return STK_SET;
}
