/*
 * rebuild: what a resume can rebuild of the session (order.c's state of
 * the statements before the resume point), and where it cannot: the
 * first statement after which a resume would run with other values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "order.h"
#include "quote.h"

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

	sx_order_scan(s->text, s->len, s->mode, &w);
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
	sx_order_scan(s->text, s->len, s->mode, &w);
	if (sx_order_ddl(s->kind) && !(s->kind == STK_CREATE_TABLE && w.select))
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
	sx_order_scan(s->text, s->len, s->mode, &w);
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
		if (s->no <= x->o->skip_to && !sx_order_ddl(s->kind))
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
