/*
 * order: the one rule for what may run out of order or on another
 * connection (issue #24), so that -j N gives what the mysql client gives
 * running the statements one by one, in order.
 *
 * Connection 1 is the serial order's connection: every barrier, every
 * session statement and the input's own transactions run there, in
 * order, so its per-connection state (LAST_INSERT_ID(), user variables,
 * temporary tables, prepared statements, locks, session variables) is
 * the one the mysql client's connection would have.  A unit may run on
 * any connection and before the units ahead of it have committed; so an
 * INSERT goes into a unit only when it neither reads nor changes that
 * state and leaves no AUTO_INCREMENT value to the server:
 *
 *   - its values are literals (lib/sqllit), or expressions of words that
 *     name no function but the pure ones below, no variable (@, @@) and
 *     no subquery;
 *   - its table has no AUTO_INCREMENT column, or every tuple gives that
 *     column a non-zero integer literal (NULL, 0, DEFAULT, a string or a
 *     column left out make the server assign one, which depends on the
 *     order of the INSERTs, and sets LAST_INSERT_ID(); an explicit value
 *     sets neither).  The column comes from the server, once per table
 *     until the next statement that may change tables (DDL, CALL...);
 *     triggers and views are nontx.c's: such INSERTs already run alone.
 *
 * Anything else, or anything this cannot tell, is ordered: it runs as a
 * barrier, on connection 1, after everything before it has committed.
 * Session statements run on every connection; once a statement that ran
 * on connection 1 only may have set a user variable (":=", INTO @, CALL,
 * a stored function), or a session statement read per-connection state,
 * the other connections' user variables are no longer those of the
 * serial order, and a session statement that reads one makes the run
 * serial from there (one connection).  So does CALL: a procedure may set
 * session variables on connection 1 only.
 *
 * A user variable is set where its readers run: what reads one is
 * ordered (connection 1) or a session statement.  So a SET of user
 * variables and nothing else runs on connection 1 alone when it is
 * large (rows2sql's SET @rp_v1=CONCAT(@rp_v1,...) pieces of a long
 * value: once, not once per connection) or when what it reads is right
 * only there; what it sets is stale on the other connections until a
 * SET on every connection sets it again, and a session statement of
 * any other kind that reads a stale variable makes the run serial
 * (session_where()).
 *
 * ROW_COUNT() and FOUND_ROWS() read what the statement before did: an
 * INSERT that reads them runs right after it on connection 1, in one
 * transaction with it (ordered.c); for any other statement the COMMIT of
 * a unit, or a look-up of sqlexec's own, may run between the two:
 * sqlexec says so, once.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quote.h"
#include "sqlexec.h"
#include "sqllit.h"
#include "sqltok.h"

/* What a table's AUTO_INCREMENT column is, as far as order.c knows. */
enum ai_state {
	AI_NONE,	/* no AUTO_INCREMENT column */
	AI_COLUMN,	/* one, named name, at visible position pos */
	AI_UNKNOWN	/* not known: every INSERT into it is ordered */
};

struct ai_table {
	char		*key;		/* "schema\0table" as "schema.table" */
	int		 state;
	char		 name[200];	/* the column */
	long		 pos;		/* among the visible columns, or -1 */
};

/* A TEMPORARY TABLE the input made, live over [from, to) (replay_*). */
struct replay_temp {
	char		*key;		/* "schema.table" */
	uint64_t	 from, to;	/* made by from, dropped by to (0: not) */
	uint64_t	 line;		/* from's */
};

struct sx_order {
	struct replay_temp *tmp;	/* what a resume cannot rebuild */
	size_t		 ntmp, captmp;
	uint64_t	 lost_no;	/* first state a resume cannot rebuild */
	char		 lost_why[200];	/* what lost_no did */
	uint64_t	 lid_before;	/* may have set LAST_INSERT_ID(), skipped */
	int		 lid_after;	/* a statement after --skip-to may have */
	struct ai_table	*t;
	size_t		 n, cap;
	struct sqllit_insert ins;
	int		 diverged;	/* other connections' user variables */
	char		**stale;	/* user variables set on connection 1 only */
	size_t		 nstale, capstale;
	int		 fk;		/* the input's foreign_key_checks (checks.c) */
	int		 rowcount_said;	/* the ROW_COUNT() warning was given */
	int		 reads_count;	/* the last statement reads ROW_COUNT() */
};

int
sx_order_new(struct sx *x)
{
	if ((x->order = calloc(1, sizeof(*x->order))) == NULL)
		return -1;
	return 0;
}

static void
forget(struct sx_order *o)
{
	while (o->n > 0)
		free(o->t[--o->n].key);
}

void
sx_order_free(struct sx *x)
{
	if (x->order == NULL)
		return;
	forget(x->order);
	while (x->order->ntmp > 0)
		free(x->order->tmp[--x->order->ntmp].key);
	free(x->order->tmp);
	while (x->order->nstale > 0)
		free(x->order->stale[--x->order->nstale]);
	free(x->order->stale);
	free(x->order->t);
	sqllit_release(&x->order->ins);
	free(x->order);
	x->order = NULL;
}

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

/* User variables a struct seen names, set and read, each. */
#define SEEN_VARS	8

/* What the words of a statement show (scan()). */
struct seen {
	const char	*why;		/* why it is ordered, or NULL */
	int		 select;	/* a subquery or SELECT */
	int		 assigns;	/* may set a user variable */
	int		 uservar;	/* names one */
	int		 call;		/* CALL */
	int		 rowcount;	/* ROW_COUNT() or FOUND_ROWS() */
	int		 conn;		/* a per-connection function */
	int		 setvar;	/* ":=" or INTO @: sets a user variable */
	int		 clock;		/* reads the clock (NOW()...) */
	int		 fncall;	/* calls a function not known */
	int		 fnsys;		/* fn is a per-connection @@name */
	int		 lid;		/* reads LAST_INSERT_ID() or @@IDENTITY */
	int		 connread;	/* reads a per-connection value */
	struct sqltok	 fn;		/* the first call or @@name read above */
	struct sqltok	 var;		/* the first user variable set */
	/* user variables by name, for sx_order()'s stale ones */
	int		 onlyvars;	/* SET @a = ..., @b := ...: nothing else */
	int		 odd;		/* names one that is not a plain word */
	size_t		 nset, nread;	/* set and read (more than SEEN_VARS: odd) */
	struct sqltok	 set[SEEN_VARS], read[SEEN_VARS];
};

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
static void
scan(const char *text, size_t len, int mode, struct seen *w)
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

/* Ask the server what schema.table's AUTO_INCREMENT column is.  0 or -1. */
static int
query_ai(MYSQL *m, const char *schema, const char *table, struct ai_table *e)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	long		 visible = 0;
	int		 rc = -1, hidden;

	/*
	 * The table's columns in order, and the AUTO_INCREMENT one's place
	 * among the visible ones (an INSERT without a column list gives
	 * those, in order: MariaDB KB "Invisible Columns"), counted here:
	 * with constants only, the server reads this table alone, where a
	 * correlated subquery read every table of the server (MariaDB KB
	 * "Information Schema Optimization").
	 */
	buf_adds(&q, "SELECT COLUMN_NAME, EXTRA FROM information_schema.COLUMNS"
	    " WHERE TABLE_SCHEMA = ");
	quote_string(&q, schema, strlen(schema));
	buf_adds(&q, " AND TABLE_NAME = ");
	quote_string(&q, table, strlen(table));
	buf_adds(&q, " ORDER BY ORDINAL_POSITION");
	if (q.err || mysql_real_query(m, q.p, q.len) != 0 ||
	    (res = mysql_store_result(m)) == NULL)
		goto out;
	e->state = AI_NONE;
	while ((row = mysql_fetch_row(res)) != NULL) {
		hidden = row[1] != NULL && strcasestr(row[1], "INVISIBLE");
		if (row[1] != NULL && strcasestr(row[1], "auto_increment")) {
			e->state = AI_COLUMN;
			snprintf(e->name, sizeof(e->name), "%s",
			    row[0] ? row[0] : "");
			e->pos = hidden ? -1 : visible;
			if (row[0] == NULL || strlen(row[0]) >= sizeof(e->name))
				e->state = AI_UNKNOWN;
			break;
		}
		visible += !hidden;
	}
	mysql_free_result(res);
	rc = 0;
out:
	buf_release(&q);
	return rc;
}

/*
 * The AUTO_INCREMENT column of the table s writes (cached).  With no
 * connection (--dry-run) a table not known counts as having none.
 * NULL (ENOMEM, or the server's error: recorded); with peek, NULL for a
 * table not cached, and nothing asked.
 */
static const struct ai_table *
ai_of(struct sx *x, const struct rp_stmt *s, const char *schema, int peek)
{
	struct sx_order	*o = x->order;
	struct ai_table	*e, *t;
	struct buf	 key = BUF_INIT;
	size_t		 i;

	buf_addf(&key, "%s.%s", schema, s->table);
	if (key.err)
		return NULL;
	for (i = o->n; i > 0; i--)
		if (strcmp(o->t[i - 1].key, key.p) == 0) {
			buf_release(&key);
			return &o->t[i - 1];
		}
	if (peek) {
		buf_release(&key);
		return NULL;
	}
	if (o->n == o->cap) {
		t = reallocarray(o->t, o->cap ? o->cap * 2 : 16, sizeof(*t));
		if (t == NULL) {
			buf_release(&key);
			return NULL;
		}
		o->t = t;
		o->cap = o->cap ? o->cap * 2 : 16;
	}
	e = &o->t[o->n];
	memset(e, 0, sizeof(*e));
	e->key = buf_detach(&key, NULL);
	e->state = AI_NONE;
	if (x->conn != NULL && x->o->dry_run == 0) {
		/* connection 1, idle: everything queued has committed */
		if (sx_drain(x) == -1 ||
		    query_ai(x->conn[0], schema, s->table, e) == -1) {
			if (!x->stop)
				sx_set_error(x, s->no, "statement %llu: the "
				    "AUTO_INCREMENT column of %s: ERROR %u "
				    "(%s): %s", (unsigned long long)s->no,
				    e->key, mysql_errno(x->conn[0]),
				    mysql_sqlstate(x->conn[0]),
				    mysql_error(x->conn[0]));
			free(e->key);
			return NULL;
		}
	}
	o->n++;
	return e;
}

/*
 * Does the column list cb..ce (of a cut INSERT, lexed in mode) name
 * name?  Its index.
 */
static long
list_index(const char *cb, const char *ce, int mode, const char *name)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;
	char		 id[200];
	long		 i = 0;

	sqltok_init(&lx, cb, (size_t)(ce - cb), mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.kind == SQLTOK_PUNCT && *t.p == ',') {
			i++;
			continue;
		}
		if (t.kind == SQLTOK_PUNCT && *t.p == '.')
			continue;	/* t.col: the last name counts */
		if (sqltok_ident(&t, id, sizeof(id)) < 0)
			return -2;	/* not a plain list */
		if (strcasecmp(id, name) == 0) {
			/* t.col or col: only if no further "." follows */
			struct sqltok_lexer save = lx;
			struct sqltok	 n;

			if (sqltok_next(&lx, &n) == SQLTOK_PUNCT &&
			    *n.p == '.') {
				lx = save;
				continue;
			}
			lx = save;
			return i;
		}
	}
	return -1;
}

/*
 * Does a cut INSERT give the AUTO_INCREMENT column a non-zero integer
 * in every tuple?  1, or 0 (the server assigns some, or not known).
 */
static int
explicit_ai(const struct sqllit_insert *ins, int mode,
    const struct ai_table *e)
{
	const char	*tb, *te, *cb, *ce;
	const struct sqllit *v;
	long		 k;
	size_t		 r;

	if (sqllit_target(ins, mode, &tb, &te, &cb, &ce) == -1)
		return 0;
	k = cb != NULL ? list_index(cb, ce, mode, e->name) : e->pos;
	if (k < 0 || (size_t)k >= ins->arity)
		return 0;
	for (r = 0; r < ins->ntuples; r++) {
		v = &ins->v[r * ins->arity + (size_t)k];
		if ((v->kind != SQLLIT_INT && v->kind != SQLLIT_UINT) ||
		    v->u == 0)
			return 0;
	}
	return 1;
}

/*
 * The end of an INSERT's VALUES (or VALUE) keyword, as an offset, or 0:
 * none before a SELECT, SET or the end of the first 64 KiB.
 */
static size_t
values_end(const struct rp_stmt *s)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;

	sqltok_init(&lx, s->text, s->len > 65536 ? 65536 : s->len, s->mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.kind != SQLTOK_WORD)
			continue;
		if (sqltok_is(&t, "VALUES") || sqltok_is(&t, "VALUE"))
			return (size_t)(t.p + t.len - s->text);
		if (sqltok_is(&t, "SELECT") || sqltok_is(&t, "SET"))
			return 0;
	}
	return 0;
}

/*
 * Value k of every tuple: which column holds the AUTO_INCREMENT one (the
 * column list up to from, or its place among the visible columns).  -1:
 * the INSERT leaves it out (the server assigns it); -2: not known.
 */
static long
ai_index(const struct rp_stmt *s, size_t from, const struct ai_table *e)
{
	struct sqllit_insert p;
	const char	*tb, *te, *cb, *ce;
	long		 k;

	memset(&p, 0, sizeof(p));
	p.prefix = s->text;
	p.plen = from;
	if (sqllit_target(&p, s->mode, &tb, &te, &cb, &ce) == -1)
		return -2;
	if (cb == NULL)
		return e->pos;
	return (k = list_index(cb, ce, s->mode, e->name)) < -1 ? -2 : k;
}

/* A parallel INSERT: may it stay so?  NULL, or why it is ordered. */
static const char *
insert_order(struct sx *x, const struct rp_stmt *s, const char *schema,
    struct seen *w, int *err)
{
	struct sx_order	*o = x->order;
	const struct ai_table *e;
	size_t		 from = values_end(s);
	long		 k;
	int		 quick, nz;

	*err = 0;
	/*
	 * The quick look, which every INSERT of a dump passes; with the
	 * table's AUTO_INCREMENT column known, its values in the same pass.
	 */
	k = -1;
	if ((e = s->table[0] != '\0' ? ai_of(x, s, schema, 1) : NULL) != NULL &&
	    e->state == AI_COLUMN && from > 0)
		k = ai_index(s, from, e);
	quick = from > 0 && sqllit_quick(s->text, s->len, from, k, s->mode, &nz);
	if (!quick) {
		scan(s->text, s->len, s->mode, w);
		if (w->select)
			return "INSERT with a subquery";
		if (w->why != NULL)
			return w->why;
	}
	if (s->table[0] == '\0')
		return "an INSERT whose table is not known";
	if (e == NULL) {
		if ((e = ai_of(x, s, schema, 0)) == NULL) {
			*err = 1;
			return NULL;
		}
		if (e->state == AI_COLUMN && from > 0 &&
		    (k = ai_index(s, from, e)) >= 0 && quick)
			(void)sqllit_quick(s->text, s->len, from, k, s->mode, &nz);
	}
	if (e->state == AI_NONE)
		return NULL;
	if (e->state == AI_UNKNOWN || from == 0 || k < 0)
		return "AUTO_INCREMENT values the server assigns";
	if (quick)
		return nz ? NULL : "AUTO_INCREMENT values the server assigns";
	/* expressions of pure words: the values, as the server reads them */
	if (sqllit_cut(&o->ins, s->text, s->len, s->mode) != 1 ||
	    !explicit_ai(&o->ins, s->mode, e))
		return "AUTO_INCREMENT values the server assigns";
	return NULL;
}

/* A statement that defines (and runs none of what it defines). */
static int
ddl(int kind)
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

/*
 * A SET of user variables this large runs on connection 1 only (the
 * other connections' copies are stale from then on): running it on each
 * costs the server the parse of its literal each time, where a smaller
 * one costs about a round trip, less than the serial order that a later
 * session statement reading a stale variable brings.  rows2sql's pieces
 * of a long value are about its --max-allowed-packet each.
 */
#define ONE_CONN_AT	65536

/* Where user variable n is in o->stale, or -1. */
static ssize_t
stale_at(const struct sx_order *o, const struct sqltok *n)
{
	size_t	 i;

	for (i = 0; i < o->nstale; i++)
		if (strlen(o->stale[i]) == n->len &&
		    strncasecmp(o->stale[i], n->p, n->len) == 0)
			return (ssize_t)i;
	return -1;
}

/*
 * Does w read a user variable whose value connection 1 alone has (one
 * of o->stale, or any once o->diverged)?  A name w cannot compare
 * (odd) counts as one.
 */
static int
reads_stale(const struct sx_order *o, const struct seen *w)
{
	size_t	 i;

	if (o->diverged && (w->uservar || w->nread > 0 || w->odd))
		return 1;
	if (o->nstale > 0 && w->odd)
		return 1;
	for (i = 0; i < w->nread; i++)
		if (stale_at(o, &w->read[i]) >= 0)
			return 1;
	return 0;
}

/* The variables w sets, stale (set on connection 1 only).  0, or -1. */
static int
stale_add(struct sx_order *o, const struct seen *w)
{
	char	**p;
	size_t	 i;

	for (i = 0; i < w->nset; i++) {
		if (stale_at(o, &w->set[i]) >= 0)
			continue;
		if (o->nstale == o->capstale) {
			if ((p = reallocarray(o->stale, o->capstale ?
			    o->capstale * 2 : 8, sizeof(*p))) == NULL)
				return -1;
			o->stale = p;
			o->capstale = o->capstale ? o->capstale * 2 : 8;
		}
		if ((o->stale[o->nstale] = strndup(w->set[i].p,
		    w->set[i].len)) == NULL)
			return -1;
		o->nstale++;
	}
	return 0;
}

/* The variables w sets, set on every connection: no longer stale. */
static void
stale_drop(struct sx_order *o, const struct seen *w)
{
	ssize_t	 k;
	size_t	 i;

	for (i = 0; i < w->nset; i++)
		if ((k = stale_at(o, &w->set[i])) >= 0) {
			free(o->stale[k]);
			o->stale[k] = o->stale[--o->nstale];
		}
}

/*
 * Session statement s (scanned into w), which runs on every connection
 * unless this says 2: a SET of user variables only runs on connection 1
 * alone when what it reads is right only there or when it is large
 * (ONE_CONN_AT); what it sets is then stale on the others until a SET
 * on every connection sets it.  Any other session statement that reads
 * a stale variable makes the run serial (1, with *why).
 */
static int
session_where(struct sx_order *o, const struct rp_stmt *s,
    const struct seen *w, const char **why)
{
	int	 stale = reads_stale(o, w);

	if (w->onlyvars && !w->odd && w->nset > 0 &&
	    (stale || s->len >= ONE_CONN_AT)) {
		if (stale_add(o, w) == 0) {
			*why = "user variables only: what reads them runs "
			    "on connection 1";
			return 2;
		}
		*why = "out of memory for the user variables set on "
		    "connection 1 only";
		return 1;
	}
	if (stale) {
		*why = "a session statement reads a user variable "
		    "that a statement on one connection may have set";
		return 1;
	}
	stale_drop(o, w);
	return 0;
}

int
sx_order_reads_count(const struct sx *x)
{
	return x->order != NULL && x->order->reads_count;
}

int
sx_order(struct sx *x, const struct rp_stmt *s, enum sx_action *a,
    const char **why, int ordered)
{
	struct sx_order	*o = x->order;
	const char	*schema = s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : x->o->db != NULL ? x->o->db : "";
	struct seen	 w;
	const char	*r;
	int		 err, rc = 0, dml, fk = 0;

	if (o != NULL)
		o->reads_count = 0;
	if (o == NULL || *a == ACT_SKIP)
		return 0;
	memset(&w, 0, sizeof(w));
	switch (ordered && *a == ACT_PARALLEL ? ACT_BARRIER : *a) {
	case ACT_PARALLEL:
		if ((r = insert_order(x, s, schema, &w, &err)) != NULL) {
			*a = ACT_BARRIER;
			*why = r;
		} else if (err)
			return -1;
		/*
		 * With foreign_key_checks on, a row may need another unit's
		 * (its parent) and a write fires cascades: in order (checks.c);
		 * it leaves LAST_INSERT_ID() alone.
		 */
		else if ((fk = sx_checks_on(x, &o->fk, s->no)) == -1)
			return -1;
		else if (fk) {
			*a = ACT_BARRIER;
			*why = "foreign_key_checks is on";
		}
		break;
	case ACT_SESSION:
		scan(s->text, s->len, s->mode, &w);
		if (ordered) {
			if (o->diverged && w.uservar) {
				*why = "a session statement reads a user "
				    "variable that a statement on one "
				    "connection may have set";
				rc = 1;
			}
		} else
			rc = session_where(o, s, &w, why);
		/* its value on the other connections is theirs */
		if (w.conn && rc != 2)
			o->diverged = 1;
		break;
	default:
		scan(s->text, s->len, s->mode, &w);
		dml = s->kind == STK_INSERT || s->kind == STK_UPDATE ||
		    s->kind == STK_DELETE || s->kind == STK_LOAD;
		/* DDL, CALL...: tables and their columns may have changed */
		if (!dml)
			forget(o);
		if (w.call && !ordered) {
			*why = "CALL (a procedure may set session state)";
			rc = 1;
		}
		break;
	}
	sx_checks_see(&o->fk, s, *a == ACT_SESSION, w.call);
	/*
	 * It runs on connection 1 only: what it sets, the others lack.  A
	 * definition (CREATE, ALTER, DROP) runs none of its body or its
	 * expressions, but CREATE TABLE ... SELECT does.
	 */
	/* what it may set LAST_INSERT_ID() to is this run's (replay_read()) */
	if ((*a != ACT_PARALLEL || ordered) && *a != ACT_SESSION &&
	    !ddl(s->kind) && !fk)
		o->lid_after = 1;
	if (*a != ACT_PARALLEL && *a != ACT_SESSION && (w.assigns || w.call) &&
	    (!ddl(s->kind) || (s->kind == STK_CREATE_TABLE && w.select)))
		o->diverged = 1;
	/*
	 * An INSERT that reads it runs right after the statement before on
	 * connection 1 (ordered.c); anything else may see a COMMIT of
	 * sqlexec's, or its look-ups, in between: not the client's value.
	 */
	o->reads_count = w.rowcount && s->kind == STK_INSERT;
	if (w.rowcount && !o->reads_count && !o->rowcount_said &&
	    !ddl(s->kind)) {
		o->rowcount_said = 1;
		sx_report(x, "warning: statement %llu (line %llu) reads "
		    "ROW_COUNT() or FOUND_ROWS() and is not an INSERT: "
		    "sqlexec's own statements may run between it and the "
		    "statement before, so its value may differ from the mysql "
		    "client's", (unsigned long long)s->no,
		    (unsigned long long)s->line);
	}
	return rc;
}

/*
 * What a resume can rebuild.  A resume after statement N runs the SET
 * and USE statements up to N again, on new connections, and nothing
 * else of them; the session it rebuilds is the one of the run that
 * stopped only if each of those SETs gives the same value again
 * (constants, @@session variables, which the SETs before rebuilt, user
 * variables of such SETs), no user variable was set by a statement that
 * does not run again (":=", SELECT ... INTO @v, CALL) and no TEMPORARY
 * TABLE made before N is still there.  The first statement that breaks
 * this is kept, for good: a resume past it is refused.  A function that
 * is not a per-connection one, in a statement that is not a SET, counts
 * as setting nothing (a stored function that sets a user variable does
 * not show).
 */
static void
lost(struct sx_order *o, const struct rp_stmt *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
lost(struct sx_order *o, const struct rp_stmt *s, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (o->lost_no != 0)
		return;
	o->lost_no = s->no;
	n = snprintf(o->lost_why, sizeof(o->lost_why), "statement %llu "
	    "(line %llu) ", (unsigned long long)s->no,
	    (unsigned long long)s->line);
	if (n < 0 || (size_t)n >= sizeof(o->lost_why))
		return;
	va_start(ap, fmt);
	(void)vsnprintf(o->lost_why + n, sizeof(o->lost_why) - n, fmt, ap);
	va_end(ap);
}

/* A SET run again: does it give the value it gave? */
static void
replay_set(struct sx_order *o, const struct rp_stmt *s)
{
	struct seen	 w;
	char		 var[80], fn[80];
	int		 n;

	scan(s->text, s->len, s->mode, &w);
	if (w.var.p != NULL)
		snprintf(var, sizeof(var), "@%.*s", (int)(w.var.len > 60 ? 60 :
		    w.var.len), w.var.p);
	else
		snprintf(var, sizeof(var), "a variable");
	n = w.fn.p == NULL ? 0 : (int)(w.fn.len > 60 ? 60 : w.fn.len);
	snprintf(fn, sizeof(fn), "%s%.*s%s", w.fnsys ? "@@" : "", n,
	    w.fn.p != NULL ? w.fn.p : "", w.fnsys ? "" : "()");
	if (w.why != NULL && strcmp(w.why, "text it cannot read") == 0)
		lost(o, s, "is a SET sqlexec cannot read");
	else if (w.select && s->kind != STK_SET)
		lost(o, s, "set %s by SELECT ... INTO", var);
	else if (w.select)
		lost(o, s, "set %s from a subquery", var);
	else if (w.connread || w.clock || w.fncall)
		lost(o, s, "set %s from %s", var, n > 0 ? fn : "a function");
}

/* Statement s, which does not run again: what does it leave? */
static void
replay_other(struct sx_order *o, const struct rp_stmt *s)
{
	struct seen	 w;

	/* the quick look, which every INSERT of a dump passes */
	if (s->kind != STK_OTHER && memchr(s->text, '@', s->len) == NULL)
		return;
	scan(s->text, s->len, s->mode, &w);
	if (ddl(s->kind) && !(s->kind == STK_CREATE_TABLE && w.select))
		return;		/* a definition runs none of its body */
	if (w.call)
		lost(o, s, "called a procedure, which may have set session "
		    "state");
	else if (w.setvar)
		lost(o, s, "set %s%.*s inside a statement that is not a SET",
		    w.var.p != NULL ? "@" : "a user variable",
		    w.var.p != NULL ? (int)(w.var.len > 60 ? 60 : w.var.len) : 0,
		    w.var.p != NULL ? w.var.p : "");
}

/* "schema.table" of s's table into b (the schema as sx_order() says). */
static void
replay_key(const struct sx *x, const struct rp_stmt *s, struct buf *b)
{
	buf_addf(b, "%s.%s", s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : x->o->db != NULL ? x->o->db : "",
	    s->table);
}

/* DROP [TEMPORARY] TABLE: 1, else 0. */
static int
drops_table(const struct rp_stmt *s)
{
	struct sqltok_lexer lx;
	struct sqltok	 t;

	if (s->kind != STK_DROP)
		return 0;
	sqltok_init(&lx, s->text, s->len > 256 ? 256 : s->len, s->mode);
	if (sqltok_next(&lx, &t) != SQLTOK_WORD || !sqltok_is(&t, "DROP") ||
	    sqltok_next(&lx, &t) != SQLTOK_WORD)
		return 0;
	if (sqltok_is(&t, "TEMPORARY") && sqltok_next(&lx, &t) != SQLTOK_WORD)
		return 0;
	return sqltok_is(&t, "TABLE");
}

/* A TEMPORARY TABLE made or dropped by s. */
static void
replay_temp(struct sx *x, const struct rp_stmt *s)
{
	struct sx_order	*o = x->order;
	struct replay_temp *t;
	struct buf	 key = BUF_INIT;
	size_t		 i;
	int		 made;

	/* sqlsplit's kind for CREATE TEMPORARY TABLE (or none known) */
	made = (s->kind == STK_CREATE_TABLE || s->kind == STK_OTHER) &&
	    sx_creates_temporary(s);
	if (!made && !drops_table(s))
		return;
	replay_key(x, s, &key);
	if (key.err || s->table[0] == '\0') {
		lost(o, s, "made or dropped a TEMPORARY TABLE sqlexec cannot "
		    "name");
		goto out;
	}
	/* the table dropped is the newest TEMPORARY TABLE of its name */
	for (i = o->ntmp; !made && i > 0; i--)
		if (o->tmp[i - 1].to == 0 &&
		    strcmp(o->tmp[i - 1].key, key.p) == 0) {
			o->tmp[i - 1].to = s->no;
			break;
		}
	if (!made)
		goto out;
	if (o->ntmp == o->captmp) {
		t = reallocarray(o->tmp, o->captmp ? o->captmp * 2 : 8,
		    sizeof(*t));
		if (t == NULL) {
			lost(o, s, "made a TEMPORARY TABLE (out of memory)");
			goto out;
		}
		o->tmp = t;
		o->captmp = o->captmp ? o->captmp * 2 : 8;
	}
	t = &o->tmp[o->ntmp++];
	t->from = s->no;
	t->line = s->line;
	t->to = 0;
	t->key = buf_detach(&key, NULL);
out:
	buf_release(&key);
}

/*
 * Does text[0..len) hold LAST_INSERT_ID, in any case?  (A quick look at
 * each "_", which memchr() finds fast: 0 is sure.)
 */
static int
mentions_lid(const char *text, size_t len)
{
	const char	*p = text, *e = text + len;

	while ((p = memchr(p, '_', (size_t)(e - p))) != NULL) {
		if (p - text >= 4 && e - p >= 10 &&
		    strncasecmp(p - 4, "LAST_INSERT_ID", 14) == 0)
			return 1;
		p++;
	}
	return 0;
}

/*
 * After --skip-to: does s read LAST_INSERT_ID(), which a statement
 * before the point may have set (on the connection that ended), before
 * any statement of this run may have set it?  1 with why in b.
 */
static int
replay_read(struct sx *x, const struct rp_stmt *s, struct buf *b)
{
	struct sx_order	*o = x->order;
	struct seen	 w;

	/* @@IDENTITY has an "@" */
	if (o->lid_before == 0 || o->lid_after ||
	    (memchr(s->text, '@', s->len) == NULL &&
	    !mentions_lid(s->text, s->len)))
		return 0;
	scan(s->text, s->len, s->mode, &w);
	if (!w.lid)
		return 0;
	buf_addf(b, "statement %llu (line %llu) reads LAST_INSERT_ID() "
	    "before any statement after the resume point set it, and "
	    "statement %llu before the point may have set it",
	    (unsigned long long)s->no, (unsigned long long)s->line,
	    (unsigned long long)o->lid_before);
	return 1;
}

int
sx_order_replay(struct sx *x, const struct rp_stmt *s, enum sx_action a,
    struct buf *why)
{
	struct sx_order	*o = x->order;

	if (o == NULL || a == ACT_SKIP)
		return 0;
	if (x->o->skip_to > 0 && s->no > x->o->skip_to &&
	    replay_read(x, s, why))
		return 1;
	/* also before --skip-to, where sx_order() sees nothing */
	sx_checks_see(&o->fk, s, a == ACT_SESSION, 0);
	if (a == ACT_SESSION && (s->kind == STK_SET || s->kind == STK_OTHER))
		replay_set(o, s);
	else if (a != ACT_SESSION) {
		replay_temp(x, s);
		replay_other(o, s);
		if (s->no <= x->o->skip_to && !ddl(s->kind))
			o->lid_before = s->no;
	}
	return 0;
}

uint64_t
sx_order_lost(const struct sx *x, uint64_t no, int temp, struct buf *why)
{
	const struct sx_order *o = x->order;
	size_t		 i;

	if (o == NULL || no == 0)
		return 0;
	if (o->lost_no != 0 && o->lost_no <= no) {
		buf_adds(why, o->lost_why);
		return o->lost_no;
	}
	for (i = 0; temp && i < o->ntmp; i++)
		if (o->tmp[i].from <= no &&
		    (o->tmp[i].to == 0 || o->tmp[i].to > no)) {
			buf_addf(why, "statement %llu (line %llu) made "
			    "TEMPORARY TABLE %s", (unsigned long long)o->tmp[i].from,
			    (unsigned long long)o->tmp[i].line, o->tmp[i].key);
			return o->tmp[i].from;
		}
	return 0;
}
