/*
 * objects: schema objects as SQL text.  lib/objsql makes the statements;
 * this file writes them as the mysql client reads them: a compound body
 * in a DELIMITER block with a delimiter the body does not hold.
 */
#include <err.h>
#include <string.h>

#include "sqltok.h"
#include "state.h"

/* A delimiter for a DELIMITER block that does not occur in the text. */
static const char *
pick_delim(const char *ddl, size_t len)
{
	static const char *const cand[] = { ";;", "$$", "//", ";;;;",
	    "$$$$", "/*rp*/;;" };
	size_t	 i;

	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (memmem(ddl, len, cand[i], strlen(cand[i])) == NULL)
			return cand[i];
	return NULL;
}

/*
 * Does the statement end in a # or -- comment, lexed in the sql_mode it
 * is run in (the object's: the context statements set it)?
 */
static int
ends_in_line_comment(const struct objsql_stmt *os)
{
	struct sqltok_lexer l;
	struct sqltok	 t, last;
	const char	*m = rp_kv_get(&os->obj->attrs, "sql_mode");

	memset(&last, 0, sizeof(last));
	sqltok_init(&l, os->text, os->len, SQLTOK_COMMENTS |
	    (os->obj->kind == OBJ_TABLE || os->obj->kind == OBJ_SEQUENCE ||
	    os->obj->kind == OBJ_DATABASE ||
	    m == NULL ? 0 : sqltok_sql_mode(m, strlen(m))));
	while (sqltok_next(&l, &t) != SQLTOK_END)
		last = t;
	return last.kind == SQLTOK_COMMENT && (last.flags & SQLTOK_F_LINE) &&
	    last.p + last.len == os->text + os->len;
}

/* The definition itself, in a DELIMITER block for compound bodies. */
static int
definition(struct r2s *st, const struct objsql_stmt *os)
{
	const struct rp_object *ob = os->obj;
	const char	*delim = ";";

	if (os->compound) {
		if ((delim = pick_delim(os->text, os->len)) == NULL)
			return fail(st, "%s.%s: no usable DELIMITER",
			    ob->schema, ob->name);
		buf_addf(&st->out, "DELIMITER %s\n", delim);
	}
	buf_add(&st->out, os->text, os->len);
	/*
	 * A text that ends in a comment ("SELECT 1 -- c") would hide the
	 * delimiter: put it on a line of its own then.
	 */
	if (ends_in_line_comment(os))
		buf_addc(&st->out, '\n');
	if (stmt_end(st, delim) == -1)
		return -1;
	if (os->compound) {
		/* Part of the block: a cut after it keeps it. */
		buf_adds(&st->out, "DELIMITER ;\n");
		if (!st->out.err)
			st->committed = st->out.len;
	}
	return 0;
}

static int
write_stmt(void *arg, const struct objsql_stmt *os)
{
	struct r2s	*st = arg;

	if (close_insert(st) == -1)
		return -1;
	switch (os->role) {
	case OBJSQL_USE:
		return use_db(st, os->db);
	case OBJSQL_CREATE:
		return definition(st, os);
	default:
		buf_add(&st->out, os->text, os->len);
		return stmt_end(st, ";");
	}
}

static void
warn_cb(void *arg, const char *msg)
{
	warnx("%s", msg);
}

struct objsql *
objects_new(struct r2s *st)
{
	struct objsql_opts o = {
		.names = &st->o->names,
		.no_create = st->o->no_create,
		.no_create_db = st->o->no_create_db,
		.skip_drop = st->o->skip_drop,
		.skip_definer = st->o->skip_definer
	};
	struct objsql	*x;

	if ((x = objsql_new(&o)) != NULL)
		objsql_set_warn(x, warn_cb, st);
	return x;
}

int
do_object(struct r2s *st, const struct rp_object *ob)
{
	const char	*why;

	/* A database ends an open INSERT even if it writes nothing. */
	if (ob->kind == OBJ_DATABASE && close_insert(st) == -1)
		return -1;
	if (objsql_object(st->objs, ob, write_stmt, st) == 0)
		return 0;
	why = objsql_errstr(st->objs);
	return *why != '\0' ? fail(st, "%s", why) : -1;
}
