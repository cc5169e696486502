/*
 * target: the kind of object a statement of the input names as its
 * target (the frame's schema and table, as sqlsplit(1) found them), so
 * that a message says "event shop.ev", not "table shop.ev".
 *
 * The frame's kind says create-view or create-event, but only "drop" or
 * "alter" for DROP EVENT or ALTER PROCEDURE, and nothing for CREATE
 * SEQUENCE: there the kind is the first object keyword after CREATE,
 * ALTER or DROP.  What may come between (OR REPLACE, TEMPORARY,
 * DEFINER=`u`@`h`, ALGORITHM=MERGE, SQL SECURITY INVOKER, IF [NOT]
 * EXISTS, ONLINE, IGNORE) is never one of those keywords; a user of the
 * DEFINER clause is quoted or a bare name, which cannot be a reserved
 * word such as TABLE.
 */
#include <inttypes.h>
#include <string.h>

#include "sqltok.h"
#include "sqlexec.h"

/* Tokens looked at for the object keyword, modifiers included. */
#define KIND_SCAN	32

/*
 * The object keyword of a CREATE, ALTER or DROP statement, in lower
 * case: "table", "view", ..., "package body"; NULL if there is none.
 * For CREATE TRIGGER and CREATE or DROP INDEX the frame names the table
 * they are on (sqlsplit reads the name after ON): "table".
 */
static const char *
ddl_kind(const struct rp_stmt *s)
{
	static const char *const words[] = { "TABLE", "VIEW", "PROCEDURE",
	    "FUNCTION", "TRIGGER", "EVENT", "SEQUENCE", "PACKAGE", "INDEX",
	    "DATABASE", "SCHEMA" };
	static const char *const kinds[] = { "table", "view", "procedure",
	    "function", "trigger", "event", "sequence", "package", "table",
	    "database", "database" };
	struct sqltok_lexer l;
	struct sqltok	 t;
	size_t		 i, n;
	int		 create;

	sqltok_init(&l, s->text, s->len, 0);
	if (sqltok_next(&l, &t) != SQLTOK_WORD || !(sqltok_is(&t, "CREATE") ||
	    sqltok_is(&t, "ALTER") || sqltok_is(&t, "DROP")))
		return NULL;
	create = sqltok_is(&t, "CREATE");
	for (n = 0; n < KIND_SCAN && sqltok_next(&l, &t) != SQLTOK_END; n++) {
		if (t.kind != SQLTOK_WORD)
			continue;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (sqltok_is(&t, words[i]))
				break;
		if (i == sizeof(words) / sizeof(words[0]))
			continue;
		if (create && i == 4)		/* CREATE TRIGGER ... ON t */
			return "table";
		if (i == 7 && sqltok_next(&l, &t) == SQLTOK_WORD &&
		    sqltok_is(&t, "BODY"))
			return "package body";
		return kinds[i];
	}
	return NULL;
}

const char *
sx_target_kind(const struct rp_stmt *s)
{
	const char	*k;

	switch (s->kind) {
	case STK_CREATE_VIEW:
		return "view";
	case STK_CREATE_EVENT:
		return "event";
	case STK_CREATE_ROUTINE:
	case STK_ALTER:
	case STK_DROP:
	case STK_OTHER:
		return (k = ddl_kind(s)) != NULL ? k : "table";
	default:
		return "table";
	}
}

void
sx_where_kind(struct buf *b, uint64_t no, uint64_t line, const char *kind,
    const char *ctx)
{
	buf_addf(b, "statement %" PRIu64 " (line %" PRIu64, no, line);
	if (ctx != NULL && *ctx != '\0')
		buf_addf(b, ", %s %s", kind, ctx);
	buf_adds(b, ")");
}

void
sx_where_stmt(struct buf *b, const struct rp_stmt *s)
{
	struct buf	 t = BUF_INIT;

	sx_target(&t, s);
	sx_where_kind(b, s->no, s->line, sx_target_kind(s), t.p);
	buf_release(&t);
}

/* The database argument, for targets the statement does not qualify. */
static const char *default_db = "";

void
sx_set_default_db(const char *db)
{
	default_db = db != NULL ? db : "";
}

const char *
sx_default_db(void)
{
	return default_db;
}

void
sx_target(struct buf *b, const struct rp_stmt *s)
{
	const char	*schema = s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : default_db;

	if (s->table[0] == '\0')
		return;
	if (schema[0] != '\0')
		buf_addf(b, "%s.%s", schema, s->table);
	else
		buf_adds(b, s->table);
}
