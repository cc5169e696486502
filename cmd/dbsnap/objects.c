/*
 * objects: the definitions to dump (SHOW CREATE ... with the session
 * context columns it reports): tables, sequences and their position,
 * views in dependency order, routines, triggers, events and databases.
 */
#include <errno.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"
#include "names.h"
#include "quote.h"
#include "sqltok.h"

/* One row of SHOW CREATE ...; fails if there is none. */
static MYSQL_RES *
show_create(struct snap *s, const char *what, const char *schema,
    const char *name, MYSQL_ROW *rowp, const char *ctx)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;

	buf_addf(&q, "SHOW CREATE %s ", what);
	if (name != NULL)
		quote_ident2(&q, schema, name);
	else
		quote_ident(&q, schema, strlen(schema));
	r = query_cat(s, ctx, &q);
	buf_release(&q);
	if (r == NULL || (*rowp = mysql_fetch_row(r)) == NULL)
		die(s, "%s: SHOW CREATE %s returned nothing", ctx, what);
	return r;
}

static void
take_attr(struct object *o, MYSQL_RES *r, MYSQL_ROW row, const char *col,
    const char *key)
{
	const char	*v;

	if ((v = row_col(r, row, col, NULL)) != NULL)
		attrs_add(&o->attrs, key, v);
}

/*
 * Fill o from a SHOW CREATE row: the DDL column and the session context
 * columns.  A NULL DDL means the account may not read the definition.
 */
static void
object_from(struct snap *s, struct object *o, MYSQL_RES *r, MYSQL_ROW row,
    const char *ddlcol, const char *dbcoll)
{
	const char	*ddl;
	size_t		 len = 0;

	if ((ddl = row_col(r, row, ddlcol, &len)) == NULL)
		die(s, "%s.%s: no privilege to read its definition",
		    o->schema, o->name);
	o->ddl = xstrndup(ddl, len);
	o->ddl_len = len;
	take_attr(o, r, row, "sql_mode", "sql_mode");
	take_attr(o, r, row, "time_zone", "time_zone");
	take_attr(o, r, row, "character_set_client", "character_set_client");
	take_attr(o, r, row, "collation_connection", "collation_connection");
	if (row_col(r, row, "Database Collation", NULL) != NULL)
		take_attr(o, r, row, "Database Collation",
		    "collation_database");
	else
		attrs_add(&o->attrs, "collation_database", dbcoll);
}

void
table_details(struct snap *s, struct table *t, const char *dbcoll)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct object	 o;
	const char	*ddl, *ctx = ctx2(t->schema, t->name);
	size_t		 len = 0;
	struct buf	 q = BUF_INIT;

	if (t->is_view) {
		memset(&o, 0, sizeof(o));
		o.kind = OBJ_VIEW;
		o.schema = t->schema;
		o.name = t->name;
		r = show_create(s, "VIEW", t->schema, t->name, &row, ctx);
		object_from(s, &o, r, row, "Create View", dbcoll);
		mysql_free_result(r);
		if (!s->o->no_create)
			obj_push(&s->views, &o);
		return;
	}
	r = show_create(s, t->is_sequence ? "SEQUENCE" : "TABLE", t->schema,
	    t->name, &row, ctx);
	ddl = row_col(r, row, t->is_sequence ? "Create Table" : "Create Table",
	    &len);
	if (ddl == NULL && t->is_sequence)
		ddl = row_col(r, row, "Create Sequence", &len);
	if (ddl == NULL)
		die(s, "%s: SHOW CREATE TABLE gave no definition", ctx);
	t->ddl = xstrndup(ddl, len);
	t->ddl_len = len;
	mysql_free_result(r);
	if (t->is_sequence) {
		buf_adds(&q, "SELECT next_not_cached_value, cycle_count FROM ");
		quote_ident2(&q, t->schema, t->name);
		r = query_buf(s, ctx, &q);
		if ((row = mysql_fetch_row(r)) != NULL && row[0] != NULL) {
			t->next_value = xstrdup(row[0]);
			t->round = row[1] != NULL ? strtoull(row[1], NULL, 10) :
			    0;
		}
		mysql_free_result(r);
		buf_release(&q);
		return;
	}
	if (t->ncols == 0)
		die(s, "%s: no columns found in information_schema", ctx);
	if (t->versioned)
		versioning_cols(t);
}

/*
 * A warning for each table whose rows this run reads (--part: the
 * tables with rows in this part, once plan_chunks() has given them an
 * id; --plan: every table, once) that is not transactional.
 */
void
warn_nontransactional(struct snap *s)
{
	const struct table *t;
	size_t		 i;

	for (i = 0; i < s->ntables && !s->o->no_data; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence || t->rows_elsewhere ||
		    t->engine == NULL || strcasecmp(t->engine, "InnoDB") == 0 ||
		    (s->o->plan_parts == 0 && t->id == 0))
			continue;
		warnx("warning: %s: engine %s is not transactional: its rows "
		    "are read without the snapshot's guarantee",
		    ctx2(t->schema, t->name), t->engine);
	}
}

/*
 * The kind of an information_schema.ROUTINES ROUTINE_TYPE: FUNCTION,
 * PROCEDURE, and MariaDB's sql_mode=ORACLE PACKAGE and PACKAGE BODY; and
 * the SHOW CREATE column that holds its definition.
 */
static int
routine_kind(const char *type)
{
	if (strcmp(type, "FUNCTION") == 0)
		return OBJ_FUNCTION;
	if (strcmp(type, "PACKAGE") == 0)
		return OBJ_PACKAGE;
	if (strcmp(type, "PACKAGE BODY") == 0)
		return OBJ_PACKAGE_BODY;
	return OBJ_PROCEDURE;
}

static const char *
routine_ddl_col(int kind)
{
	switch (kind) {
	case OBJ_FUNCTION:	return "Create Function";
	case OBJ_PACKAGE:	return "Create Package";
	case OBJ_PACKAGE_BODY:	return "Create Package Body";
	default:		return "Create Procedure";
	}
}

/*
 * The SRID of each spatial column of t that has one (REF_SYSTEM_ID):
 * MariaDB's SHOW CREATE TABLE leaves it out, information_schema
 * .GEOMETRY_COLUMNS has it (MariaDB KB "Information Schema
 * GEOMETRY_COLUMNS Table").  MySQL prints it in SHOW CREATE TABLE.
 * Asked by F_TABLE_SCHEMA and F_TABLE_NAME, the two columns the server
 * looks a table up by (EXPLAIN: "Scanned 0 databases"): by
 * G_TABLE_SCHEMA it opened every table of the server, per database.
 */
static void
table_srids(struct snap *s, struct table *t)
{
	struct buf	 q = BUF_INIT, v = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;

	buf_adds(&q, "SELECT G_GEOMETRY_COLUMN, SRID FROM "
	    "information_schema.GEOMETRY_COLUMNS WHERE SRID <> 0 AND "
	    "F_TABLE_SCHEMA = ");
	lit(&q, t->schema);
	buf_adds(&q, " AND F_TABLE_NAME = ");
	lit(&q, t->name);
	r = query_cat(s, ctx2(t->schema, t->name), &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		if (row[0] == NULL || row[1] == NULL)
			continue;
		if (v.len > 0)
			buf_addc(&v, '\n');
		buf_addf(&v, "%s\t", row[1]);
		quote_ident(&v, row[0], strlen(row[0]));
	}
	must(&v);
	free(t->srid);
	t->srid = v.len > 0 ? xstrdup(v.p) : NULL;
	mysql_free_result(r);
	buf_release(&q);
	buf_release(&v);
}

/* The SRIDs of db's tables that have a spatial column; no query if none. */
void
discover_srids(struct snap *s, size_t dbi)
{
	size_t	 i, lo, hi;

	if (!is_mariadb(s->conns[0]))
		return;
	db_span(s, dbi, &lo, &hi);
	for (i = lo; i < hi; i++)
		if (!s->tables[i]->is_view && table_is_spatial(s->tables[i]))
			table_srids(s, s->tables[i]);
}

/* Routines, triggers or events listed by an information_schema query. */
static void
list_objects(struct snap *s, const char *db, const char *dbcoll,
    const char *listq, const char *showwhat, int kind, const char *ddlcol,
    struct objlist *out)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r, *r2;
	MYSQL_ROW	 row, row2;
	struct object	 o;
	char		*name, *type, *table;
	struct table	*tt;
	my_ulonglong	 i, n;

	buf_addf(&q, listq, "");
	lit(&q, db);
	if (kind == OBJ_TRIGGER)
		buf_adds(&q, " ORDER BY BINARY EVENT_OBJECT_TABLE, "
		    "ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER");
	else
		buf_adds(&q, " ORDER BY 2, BINARY 1");
	r = query_cat(s, db, &q);
	n = mysql_num_rows(r);
	for (i = 0; i < n; i++) {
		row = mysql_fetch_row(r);
		name = dup_col(r, row, 0);
		type = dup_col(r, row, 1);
		table = kind == OBJ_TRIGGER ? dup_col(r, row, 2) : NULL;
		if (table != NULL && ((tt = find_table(s, db, table)) == NULL ||
		    tt->is_view)) {
			free(name);
			free(type);
			free(table);
			continue;
		}
		memset(&o, 0, sizeof(o));
		o.kind = kind;
		if (kind == OBJ_FUNCTION || kind == OBJ_PROCEDURE)
			o.kind = routine_kind(type);
		o.schema = xstrdup(db);
		o.name = name;
		r2 = show_create(s, showwhat != NULL ? showwhat : type, db,
		    name, &row2, ctx2(db, name));
		object_from(s, &o, r2, row2, ddlcol != NULL ? ddlcol :
		    routine_ddl_col(o.kind), dbcoll);
		if (table != NULL) {
			attrs_add(&o.attrs, "table", table);
			tt->ntriggers++;
		}
		mysql_free_result(r2);
		obj_push(out, &o);
		free(type);
		free(table);
	}
	mysql_free_result(r);
	buf_release(&q);
}

void
database_object(struct snap *s, const char *db, const char *dbcoll)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	struct object	 o;

	memset(&o, 0, sizeof(o));
	o.kind = OBJ_DATABASE;
	o.schema = xstrdup(db);
	o.name = xstrdup(db);
	r = show_create(s, "DATABASE", db, NULL, &row, db);
	object_from(s, &o, r, row, "Create Database", dbcoll);
	mysql_free_result(r);
	obj_push(&s->dbobjs, &o);
}

/* Is the token t the word w (any case)? */
static int
is_word(const struct sqltok *t, const char *w)
{
	return t->kind == SQLTOK_WORD && t->len == strlen(w) &&
	    strncasecmp(t->p, w, t->len) == 0;
}

/*
 * o's DDL with its first DISABLE ON SLAVE (in the clauses before DO: a
 * word sequence, not a literal or an identifier) made ENABLE; 0, or -1
 * if it has none.
 */
static int
enable_event(struct object *o)
{
	struct sqltok_lexer l;
	struct sqltok	 a, b, c;
	struct buf	 d = BUF_INIT;
	size_t		 off;

	sqltok_init(&l, o->ddl, o->ddl_len, 0);
	sqltok_next(&l, &a);
	sqltok_next(&l, &b);
	while (sqltok_next(&l, &c) != SQLTOK_END && !is_word(&a, "DO")) {
		if (is_word(&a, "DISABLE") && is_word(&b, "ON") &&
		    is_word(&c, "SLAVE")) {
			off = (size_t)(a.p - o->ddl);
			buf_add(&d, o->ddl, off);
			buf_adds(&d, "ENABLE");
			off = (size_t)(c.p + c.len - o->ddl);
			buf_add(&d, o->ddl + off, o->ddl_len - off);
			must(&d);
			free(o->ddl);
			o->ddl = buf_detach(&d, &o->ddl_len);
			return 0;
		}
		a = b;
		b = c;
	}
	return -1;
}

/*
 * On a replica, every event that replication created is
 * SLAVESIDE_DISABLED (SHOW CREATE EVENT: DISABLE ON SLAVE), whether it is
 * ENABLE or DISABLE on its origin (MariaDB 10.11: the replica keeps no
 * trace of which); its ORIGINATOR is the origin's server_id.  So such an
 * event of db is dumped ENABLE, the status of the events that run on the
 * primary, and named in a note, since a replica cannot tell the ones
 * that are DISABLE there; --keep-replica-event-status keeps DISABLE ON
 * SLAVE.  The server's own DISABLE ON SLAVE (set there by hand, or by
 * replication on this very server) is kept.
 */
static void
origin_event_status(struct snap *s, const char *db)
{
	struct buf	 q = BUF_INIT, names = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	size_t		 i, n = 0;

	if (s->o->keep_replica_events)
		return;
	buf_adds(&q, "SELECT EVENT_NAME FROM information_schema.EVENTS "
	    "WHERE STATUS = 'SLAVESIDE_DISABLED' AND ORIGINATOR <> "
	    "@@server_id AND EVENT_SCHEMA = ");
	lit(&q, db);
	buf_adds(&q, " ORDER BY BINARY EVENT_NAME");
	r = query_cat(s, db, &q);
	while ((row = mysql_fetch_row(r)) != NULL)
		for (i = 0; row[0] != NULL && i < s->events.n; i++)
			if (strcmp(s->events.v[i].schema, db) == 0 &&
			    strcmp(s->events.v[i].name, row[0]) == 0 &&
			    enable_event(&s->events.v[i]) == 0) {
				if (n < 5)
					buf_addf(&names, "%s%s", n > 0 ?
					    ", " : "", ctx2(db, row[0]));
				else if (n == 5)
					buf_adds(&names, " and more");
				n++;
			}
	mysql_free_result(r);
	buf_release(&q);
	must(&names);
	if (n > 0)
		warnx("note: %s: %zu event%s that replication disabled here "
		    "dumped ENABLE, as on the primary (a replica cannot tell "
		    "those DISABLE there; --keep-replica-event-status keeps "
		    "DISABLE ON SLAVE): %s", db, n, n == 1 ? "" : "s",
		    names.p);
	buf_release(&names);
}

/* Routines, triggers and events of db, as the options ask for them. */
void
discover_routines(struct snap *s, const char *db, const char *dbcoll)
{
	int	 whole = s->o->ntables == 0;

	if (whole && s->o->routines)
		list_objects(s, db, dbcoll,
		    "SELECT ROUTINE_NAME, ROUTINE_TYPE FROM "
		    "information_schema.ROUTINES WHERE ROUTINE_TYPE IN "
		    "('FUNCTION', 'PROCEDURE', 'PACKAGE', 'PACKAGE BODY') "
		    "AND ROUTINE_SCHEMA = ",
		    NULL, OBJ_PROCEDURE, NULL, &s->routines);
	/*
	 * A trigger's schema is its table's (ER_TRG_IN_WRONG_SCHEMA), and
	 * EVENT_OBJECT_SCHEMA is the column the server looks the tables up
	 * by (EXPLAIN: "Scanned 1 database"); TRIGGER_SCHEMA = ? opened the
	 * trigger files of every table of the server, per database.
	 */
	if (s->o->triggers)
		list_objects(s, db, dbcoll,
		    "SELECT TRIGGER_NAME, 'TRIGGER', EVENT_OBJECT_TABLE "
		    "FROM information_schema.TRIGGERS WHERE "
		    "EVENT_OBJECT_SCHEMA = ", "TRIGGER", OBJ_TRIGGER,
		    "SQL Original Statement", &s->triggers);
	if (whole && s->o->events)
		list_objects(s, db, dbcoll,
		    "SELECT EVENT_NAME, 'EVENT' FROM "
		    "information_schema.EVENTS WHERE EVENT_SCHEMA = ",
		    "EVENT", OBJ_EVENT, "Create Event", &s->events);
	if (whole && s->o->events)
		origin_event_status(s, db);
}

/*
 * Views after the views they use: a view's DDL names every view it reads
 * as `schema`.`name` (in its code, not in a literal or a comment).
 * Depth-first; a cycle (impossible in a real server) just keeps the name
 * order.
 */
static int
uses(const struct object *v, const struct object *w)
{
	struct sqltok_lexer l;
	struct sqltok	 a, dot, b;

	sqltok_init(&l, v->ddl, v->ddl_len, 0);
	sqltok_next(&l, &a);
	sqltok_next(&l, &dot);
	while (sqltok_next(&l, &b) != SQLTOK_END) {
		if (a.kind == SQLTOK_IDENT && dot.kind == SQLTOK_PUNCT &&
		    *dot.p == '.' && b.kind == SQLTOK_IDENT &&
		    names_ident_eq(a.p, a.len, w->schema) &&
		    names_ident_eq(b.p, b.len, w->name))
			return 1;
		a = dot;
		dot = b;
	}
	return 0;
}

static void
visit(struct objlist *l, size_t i, int *mark, struct objlist *out)
{
	size_t	 j;

	if (mark[i])
		return;
	mark[i] = 1;
	for (j = 0; j < l->n; j++)
		if (j != i && uses(&l->v[i], &l->v[j]))
			visit(l, j, mark, out);
	obj_push(out, &l->v[i]);
}

void
order_views(struct objlist *l)
{
	struct objlist	 out = { NULL, 0, 0 };
	int		*mark;
	size_t		 i;

	if (l->n < 2)
		return;
	mark = xcalloc(l->n, sizeof(*mark));
	for (i = 0; i < l->n; i++)
		visit(l, i, mark, &out);
	free(mark);
	free(l->v);
	*l = out;
}
