/*
 * words: what the words of a statement show for order.c's rule (struct
 * seen, order.h): calls of functions that are not pure, per-connection
 * functions and variables, user variables set and read, subqueries, the
 * clock.  Read with lib/sqltok in the statement's lexer mode; a word
 * this does not know counts against running the statement in parallel.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "order.h"

/*
 * Functions that read nothing per-connection and change nothing: those
 * of dumps and common DML, SLEEP, and the clock (its session parts, the
 * time zone and SET TIMESTAMP, are set on every connection).  Any other
 * word before "(" counts as a call.
 */
static const char *const pure[] = {
	"ABS", "AES_DECRYPT", "AES_ENCRYPT", "ASCII", "BIN", "CAST", "CEIL",
	"CEILING", "CHAR", "CHAR_LENGTH", "COALESCE", "COMPRESS", "CONCAT",
	"CONCAT_WS", "CONV", "CONVERT", "DATE", "DATE_ADD", "DATE_FORMAT",
	"DATE_SUB", "FLOOR", "FROM_BASE64", "FROM_UNIXTIME", "GREATEST",
	"HEX", "IF", "IFNULL", "IN", "INET6_ATON", "INET_ATON", "INTERVAL",
	"JSON_ARRAY", "JSON_OBJECT", "LEAST", "LEFT", "LENGTH", "LOWER", "LPAD",
	"MD5", "MOD", "NULLIF", "OCTET_LENGTH", "POINT", "REPEAT", "REPLACE",
	"REVERSE", "RIGHT", "ROUND", "RPAD", "SHA1", "SHA2", "SPACE",
	"STR_TO_DATE", "SUBSTR", "SUBSTRING", "ST_GEOMFROMTEXT",
	"ST_GEOMFROMWKB", "ST_GEOMETRYFROMTEXT", "ST_GEOMETRYFROMWKB",
	"ST_POINTFROMTEXT", "ST_POLYGONFROMTEXT", "TIMESTAMP", "TO_BASE64",
	"TRIM", "TRUNCATE", "UNCOMPRESS", "UNHEX", "UPPER", "VALUES",
	"SLEEP", "NOW", "CURRENT_TIMESTAMP", "CURDATE", "CURRENT_DATE",
	"CURTIME", "CURRENT_TIME", "UTC_TIMESTAMP", "UNIX_TIMESTAMP",
	"LOCALTIME", "LOCALTIMESTAMP",
	/* keywords that stand before "(" */
	"AND", "AS", "KEY", "NOT", "ON", "OR", "SET", "UPDATE", "VALUE",
	"WHERE", "XOR",
};

/* Is word t one of list[0..n)? */
static int
word_in(const struct sqltok *t, const char *const *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (sqltok_is(t, list[i]))
			return 1;
	return 0;
}

static int
is_pure(const struct sqltok *t)
{
	return word_in(t, pure, sizeof(pure) / sizeof(*pure));
}

/*
 * The clock, which the pure functions above include (a unit runs them
 * at about the time the client would), but which a resume reads anew.
 */
static const char *const clock_fn[] = {
	"NOW", "CURRENT_TIMESTAMP", "CURDATE", "CURRENT_DATE", "CURTIME",
	"CURRENT_TIME", "UTC_TIMESTAMP", "UTC_DATE", "UTC_TIME",
	"UNIX_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "SYSDATE",
};

static int
is_clock(const struct sqltok *t)
{
	return word_in(t, clock_fn, sizeof(clock_fn) / sizeof(*clock_fn));
}


/* Functions whose value is the connection's. */
static const char *const per_conn[] = {
	"LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS", "CONNECTION_ID",
	"GET_LOCK", "RELEASE_LOCK", "RELEASE_ALL_LOCKS", "IS_USED_LOCK",
	"IS_FREE_LOCK", "NEXTVAL", "LASTVAL", "SETVAL", "DATABASE", "SCHEMA",
	"USER", "CURRENT_USER", "SESSION_USER", "CURRENT_ROLE",
};

/* System variables whose value is the connection's (after "@@"). */
static const char *const per_conn_var[] = {
	"IDENTITY", "LAST_INSERT_ID", "INSERT_ID", "WARNING_COUNT",
	"ERROR_COUNT", "PSEUDO_THREAD_ID", "LAST_GTID",
};

static int target(const struct sqltok_lexer *, int);

/*
 * The name after "@@" ([SESSION. | LOCAL. | GLOBAL.]name), for w->conn;
 * set_eq as target()'s.
 */
static void
sysvar(struct sqltok_lexer *lx, struct seen *w, int set_eq)
{
	struct sqltok_lexer save = *lx;
	struct sqltok	 t, dot;
	size_t		 i;

	if (sqltok_next(lx, &t) != SQLTOK_WORD) {
		*lx = save;
		return;
	}
	if (sqltok_is(&t, "SESSION") || sqltok_is(&t, "LOCAL") ||
	    sqltok_is(&t, "GLOBAL")) {
		save = *lx;
		if (sqltok_next(lx, &dot) != SQLTOK_PUNCT || *dot.p != '.' ||
		    sqltok_next(lx, &t) != SQLTOK_WORD) {
			*lx = save;
			return;
		}
	}
	for (i = 0; i < sizeof(per_conn_var) / sizeof(*per_conn_var); i++)
		if (sqltok_is(&t, per_conn_var[i])) {
			w->conn = 1;
			if (target(lx, set_eq))
				continue;	/* SET @@pseudo_thread_id = 5 */
			if (w->fn.p == NULL) {
				w->fn = t;
				w->fnsys = 1;
			}
			w->connread = 1;
			w->lid |= i < 2;	/* IDENTITY, LAST_INSERT_ID */
		}
}

/*
 * After a user variable's name: is it assigned (":=", or "=" in a SET
 * at the top level)?  The lexer is left where it was.
 */
static int
target(const struct sqltok_lexer *lx, int set_eq)
{
	struct sqltok_lexer l = *lx;
	struct sqltok	 f;

	if (sqltok_next(&l, &f) != SQLTOK_PUNCT)
		return 0;
	if (*f.p == '=')
		return set_eq;
	return *f.p == ':' && sqltok_next(&l, &f) == SQLTOK_PUNCT &&
	    *f.p == '=';
}

/*
 * User variable n (the token after "@"), set (tgt) or read, into w's
 * lists.  Names sx_order() cannot compare as the server does are odd:
 * @'x', @`x`, @a.b (a name with a "."), a name with a byte over 0x7f
 * (the server folds its case by the connection's collation).
 */
static void
seen_var(struct seen *w, const struct sqltok_lexer *lx,
    const struct sqltok *n, int tgt)
{
	struct sqltok_lexer l = *lx;
	struct sqltok	 f;
	size_t		 i;

	for (i = 0; n->kind == SQLTOK_WORD && i < n->len; i++)
		if ((unsigned char)n->p[i] > 0x7f)
			break;
	if (n->kind != SQLTOK_WORD || i < n->len ||
	    (sqltok_next(&l, &f) == SQLTOK_PUNCT && *f.p == '.' &&
	    f.p == n->p + n->len)) {
		w->odd = 1;
		return;
	}
	if ((tgt ? w->nset : w->nread) == SEEN_VARS)
		w->odd = 1;
	else if (tgt)
		w->set[w->nset++] = *n;
	else
		w->read[w->nread++] = *n;
}

/*
 * The words of text[0..len) (lexed in mode, as sqlsplit lexed them), for
 * what they read or change.  "@" followed by a word is a variable; a
 * word before "(" a call.
 */
void
sx_order_scan(const char *text, size_t len, int mode, struct seen *w)
{
	struct sqltok_lexer lx;
	struct sqltok	 t, n, prev = { 0 };
	size_t		 i, ntok = 0;
	int		 set = 0, into = 0, depth = 0, known, item, tgt;

	memset(w, 0, sizeof(*w));
	sqltok_init(&lx, text, len, mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.flags & SQLTOK_F_OPEN) {
			w->why = "text it cannot read";
			w->onlyvars = 0;
			w->odd = 1;
			return;
		}
		if (prev.p == NULL)
			w->onlyvars = set = t.kind == SQLTOK_WORD &&
			    sqltok_is(&t, "SET");
		/* where a SET's next assignment begins */
		item = set && depth == 0 && (ntok == 1 ||
		    (prev.kind == SQLTOK_PUNCT && *prev.p == ','));
		ntok++;
		if (item && (t.kind != SQLTOK_PUNCT || *t.p != '@'))
			w->onlyvars = 0;
		if (t.kind == SQLTOK_PUNCT && *t.p == '(')
			depth++;
		else if (t.kind == SQLTOK_PUNCT && *t.p == ')')
			depth--;
		if (t.kind == SQLTOK_WORD)
			into = sqltok_is(&t, "INTO");
		else if (t.kind == SQLTOK_PUNCT && *t.p != ',' && *t.p != '@')
			into = 0;
		if (t.kind == SQLTOK_PUNCT && *t.p == '@') {
			/* @@name: a system variable; @name, @'name': user */
			if (sqltok_next(&lx, &n) == SQLTOK_PUNCT &&
			    *n.p == '@') {
				if (w->why == NULL)
					w->why = "a system variable";
				w->onlyvars &= !item;
				sysvar(&lx, w, set && depth == 0);
			} else {
				/* the name is n; a target unless read */
				if (w->why == NULL)
					w->why = "a user variable";
				/* "=" sets at an assignment's start only */
				tgt = into || target(&lx, item);
				seen_var(w, &lx, &n, tgt);
				w->onlyvars &= !item || tgt;
				if (!target(&lx, set && depth == 0) && !into)
					w->uservar = 1;
				else if (w->var.p == NULL)
					w->var = n;
				if (into)		/* SELECT ... INTO @v */
					w->assigns = w->setvar = 1;
				prev = n;
				continue;
			}
		} else if (t.kind == SQLTOK_PUNCT && *t.p == '=' &&
		    prev.kind == SQLTOK_PUNCT && *prev.p == ':')
			w->assigns = w->setvar = 1;
		else if (t.kind == SQLTOK_WORD && sqltok_is(&t, "SELECT"))
			w->select = 1;
		else if (t.kind == SQLTOK_WORD && sqltok_is(&t, "CALL"))
			w->call = 1;
		else if (t.kind == SQLTOK_PUNCT && *t.p == '(' &&
		    prev.kind == SQLTOK_WORD && !is_pure(&prev)) {
			if (w->fn.p == NULL)
				w->fn = prev;
			for (known = 0, i = 0; i < sizeof(per_conn) /
			    sizeof(*per_conn); i++)
				if (sqltok_is(&prev, per_conn[i]))
					known = w->conn = w->connread = 1;
			w->lid |= sqltok_is(&prev, "LAST_INSERT_ID");
			if (sqltok_is(&prev, "ROW_COUNT") ||
			    sqltok_is(&prev, "FOUND_ROWS"))
				w->rowcount = 1;
			/* a stored function may set variables, anything */
			if (!known)
				w->assigns = w->fncall = 1;
			if (w->why == NULL)
				w->why = "a function call";
		} else if (t.kind == SQLTOK_WORD && is_clock(&t)) {
			if (w->fn.p == NULL)
				w->fn = t;
			w->clock = 1;
		}
		prev = t;
	}
}

/* A statement that defines (and runs none of what it defines). */
int
sx_order_ddl(int kind)
{
	switch (kind) {
	case STK_CREATE_TABLE:
	case STK_CREATE_VIEW:
	case STK_CREATE_ROUTINE:
	case STK_CREATE_TRIGGER:
	case STK_CREATE_EVENT:
	case STK_CREATE_DATABASE:
	case STK_ALTER:
	case STK_DROP:
		return 1;
	default:
		return 0;
	}
}
