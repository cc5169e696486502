/*
 * checks: the input's foreign_key_checks, for the serial order (order.c).
 *
 * A statement stream runs with the server's session default (connect.c
 * sets no foreign_key_checks), and the input's own SETs decide, on every
 * connection, as they do for the mysql client.  While the checks are on,
 * a write may depend on rows that other connections have not committed
 * (a child row after its parent in another unit) and fires cascades
 * (ON DELETE/UPDATE CASCADE, SET NULL) on other tables: so every write
 * runs in order, on connection 1 (order.c).  Dumps turn the checks off
 * in their header (mysqldump, rows2sql, mydumper), so their INSERTs stay
 * parallel.
 *
 * The value is read from the SET statements as they come: a literal
 * (0, 1, ON, OFF, TRUE, FALSE) is known; anything else (@OLD_... of a
 * dump's end, DEFAULT, an expression) and the start of the run are
 * asked of connection 1, where session statements also ran, when a
 * parallel INSERT needs it.  A SET that ran on connection 1 only (with
 * a server-wide one, in a CALL) leaves the other connections as they
 * were: the checks then count as on, which orders every write.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqlexec.h"
#include "sqltok.h"

/*
 * The value after "=" (at lx), if it is a literal that stands alone up
 * to "," or the end: CK_OFF or CK_ON; else CK_UNKNOWN.
 */
static int
literal(struct sqltok_lexer *lx)
{
	struct sqltok	 v, n;
	int		 r = CK_UNKNOWN;

	if (sqltok_next(lx, &v) == SQLTOK_NUMBER && v.len == 1)
		r = *v.p == '0' ? CK_OFF : *v.p == '1' ? CK_ON : CK_UNKNOWN;
	else if (v.kind == SQLTOK_WORD)
		r = sqltok_is(&v, "OFF") || sqltok_is(&v, "FALSE") ? CK_OFF :
		    sqltok_is(&v, "ON") || sqltok_is(&v, "TRUE") ? CK_ON :
		    CK_UNKNOWN;
	if (sqltok_next(lx, &n) != SQLTOK_END &&
	    (n.kind != SQLTOK_PUNCT || *n.p != ','))
		r = CK_UNKNOWN;
	return r;
}

/*
 * What SET statement s leaves foreign_key_checks at for the session: the
 * last assignment of it ([SESSION | LOCAL] name, @@[session. | local.]
 * name; not GLOBAL), CK_NONE if s assigns none.
 */
static int
set_value(const struct rp_stmt *s)
{
	struct sqltok_lexer lx, save;
	struct sqltok	 t, prev = { 0 }, f;
	int		 r = CK_NONE, depth = 0, global = 0;

	sqltok_init(&lx, s->text, s->len, s->mode);
	while (sqltok_next(&lx, &t) != SQLTOK_END) {
		if (t.kind == SQLTOK_PUNCT && *t.p == '(')
			depth++;
		else if (t.kind == SQLTOK_PUNCT && *t.p == ')')
			depth--;
		else if (t.kind == SQLTOK_WORD && sqltok_is(&t, "GLOBAL"))
			global = 1;
		else if (t.kind == SQLTOK_WORD && (sqltok_is(&t, "SESSION") ||
		    sqltok_is(&t, "LOCAL")))
			global = 0;
		else if (t.kind == SQLTOK_WORD && depth == 0 &&
		    sqltok_is(&t, "FOREIGN_KEY_CHECKS") &&
		    !(prev.kind == SQLTOK_PUNCT && *prev.p == '@' &&
		    (prev.p == s->text || prev.p[-1] != '@'))) {
			/* a target: "=" or ":=" follows */
			save = lx;
			if (sqltok_next(&lx, &f) == SQLTOK_PUNCT && *f.p == ':')
				(void)sqltok_next(&lx, &f);
			if (f.kind == SQLTOK_PUNCT && *f.p == '=') {
				if (!global)
					r = literal(&lx);
				lx = save;
			} else
				lx = save;
		}
		prev = t;
	}
	return r;
}

void
sx_checks_see(int *fk, const struct rp_stmt *s, int session, int call)
{
	int	 v;

	if (call) {
		*fk = CK_ON;	/* a procedure may set it on connection 1 */
		return;
	}
	if ((s->kind != STK_SET && s->kind != STK_SET_SERVER) ||
	    strcasestr(s->text, "foreign_key_checks") == NULL)
		return;
	if (!session)
		*fk = CK_ON;	/* ran on connection 1 only: may differ */
	else if ((v = set_value(s)) != CK_NONE)
		*fk = v;
}

int
sx_checks_on(struct sx *x, int *fk, uint64_t no)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	MYSQL		*m;

	if (*fk != CK_UNKNOWN)
		return *fk == CK_ON;
	if (x->conn == NULL || x->o->dry_run) {
		*fk = CK_ON;	/* the server's default, as far as one knows */
		return 1;
	}
	/* connection 1, idle: every session statement before ran there */
	if (sx_drain(x) == -1)
		return -1;
	m = x->conn[0];
	if (mysql_query(m, "SELECT @@SESSION.foreign_key_checks") != 0 ||
	    (res = mysql_store_result(m)) == NULL) {
		if (!x->stop)
			sx_set_error(x, no, "statement %llu: SELECT "
			    "@@SESSION.foreign_key_checks: ERROR %u (%s): %s",
			    (unsigned long long)no, mysql_errno(m),
			    mysql_sqlstate(m), mysql_error(m));
		return -1;
	}
	row = mysql_fetch_row(res);
	*fk = row != NULL && row[0] != NULL && strcmp(row[0], "0") == 0 ?
	    CK_OFF : CK_ON;
	mysql_free_result(res);
	return *fk == CK_ON;
}
