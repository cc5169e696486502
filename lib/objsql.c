/*
 * objsql: the statements that recreate a frame stream's schema object in
 * its session context; see objsql.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "objsql.h"
#include "quote.h"
#include "sqltok.h"
#include "util.h"

/* A database seen in the stream: its default collation, for routines. */
struct dbinfo {
	char		*name;		/* source name */
	char		*collation;	/* default collation or charset, or NULL */
	int		 by_charset;	/* collation holds a charset name */
};

struct objsql {
	struct objsql_opts o;
	const struct names *n;		/* o.names, or an empty one */
	struct dbinfo	*dbs;
	size_t		 ndbs;
	objsql_warn_cb	 warn;
	void		*warn_arg;

	/* the object being converted */
	const struct rp_object *ob;
	const char	*tdb;		/* its target database */
	objsql_cb	 cb;
	void		*arg;
	struct buf	 b;		/* the statement being built */
	struct buf	 ddl;		/* its definition, as the target sees it */
	char		 err[512];
	int		 accounts;	/* the accounts' import role is set */
	int		 helper;	/* ... made: its CREATE ROLE was taken,
					   its DROP ROLE not yet */
	int		 trg_early;	/* renamed tables' triggers named early */
};

static const struct names no_names = NAMES_INIT;

/* Record why the object fails in x->err; -1. */
#define xfail(x, ...)	errf((x)->err, sizeof((x)->err), __VA_ARGS__)

struct objsql *
objsql_new(const struct objsql_opts *o)
{
	struct objsql	*x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return NULL;
	if (o != NULL)
		x->o = *o;
	x->n = x->o.names != NULL ? x->o.names : &no_names;
	return x;
}

void
objsql_free(struct objsql *x)
{
	size_t	 i;

	if (x == NULL)
		return;
	for (i = 0; i < x->ndbs; i++) {
		free(x->dbs[i].name);
		free(x->dbs[i].collation);
	}
	free(x->dbs);
	buf_release(&x->b);
	buf_release(&x->ddl);
	free(x);
}

void
objsql_set_warn(struct objsql *x, objsql_warn_cb cb, void *arg)
{
	x->warn = cb;
	x->warn_arg = arg;
}

const char *
objsql_errstr(const struct objsql *x)
{
	return x->err;
}

/* Hand out b as one statement; b is empty after. */
static int
emit_buf(struct objsql *x, struct buf *b, int role, int compound)
{
	struct objsql_stmt s;

	if (b->err)
		return xfail(x, "%s", strerror(b->err));
	memset(&s, 0, sizeof(s));
	s.text = b->p != NULL ? b->p : "";
	s.len = b->len;
	s.role = role;
	s.compound = compound;
	s.db = x->tdb;
	s.obj = x->ob;
	if (x->cb(x->arg, &s) == -1) {
		x->err[0] = '\0';
		return -1;
	}
	buf_reset(b);
	return 0;
}

/* Hand out x->b, the statement built. */
static int
emit(struct objsql *x, int role, int compound)
{
	return emit_buf(x, &x->b, role, compound);
}

/* A statement given as text. */
static int
emit_text(struct objsql *x, int role, const char *text)
{
	buf_adds(&x->b, text);
	return emit(x, role, 0);
}

/*
 * The settings of mysqldump's dump header (client/mysqldump.c,
 * write_header()), each saving the old value in @OLD_*, plus MariaDB's
 * CHECK_CONSTRAINT_CHECKS (rows that passed their CHECKs once load again,
 * even if a CHECK depends on the time) and MAX_STATEMENT_TIME (none).
 * The time zone statement comes after SET NAMES; see objsql_session().
 */
static const char *const session_before_tz[] = {
	"/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, "
	    "SQL_MODE='NO_AUTO_VALUE_ON_ZERO,ALLOW_INVALID_DATES' */",
	"/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */",
	"/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */",
	"/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */",
	"/*!40101 SET NAMES utf8mb4 */"
};
static const char *const session_after_tz[] = {
	"/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */",
	"/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, "
	    "FOREIGN_KEY_CHECKS=0 */",
	"/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */",
	"/*!100201 SET @OLD_CHECK_CONSTRAINT_CHECKS="
	    "@@CHECK_CONSTRAINT_CHECKS, CHECK_CONSTRAINT_CHECKS=0 */",
	"/*!100108 SET @OLD_MAX_STATEMENT_TIME=@@MAX_STATEMENT_TIME, "
	    "MAX_STATEMENT_TIME=0 */"
};

int
objsql_session(struct objsql *x, const char *tz, objsql_cb cb, void *arg)
{
	size_t	 i;

	if (tz == NULL || *tz == '\0')
		tz = "+00:00";
	if (strlen(tz) > 64 || strspn(tz, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/+-:") != strlen(tz))
		return xfail(x, "header: unusable time_zone");
	x->ob = NULL;
	x->tdb = NULL;
	x->cb = cb;
	x->arg = arg;
	buf_reset(&x->b);
	for (i = 0; i < sizeof(session_before_tz) / sizeof(*session_before_tz);
	    i++)
		if (emit_text(x, OBJSQL_CONTEXT, session_before_tz[i]) == -1)
			return -1;
	buf_addf(&x->b, "/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE, "
	    "TIME_ZONE='%s' */", tz);
	if (emit(x, OBJSQL_CONTEXT, 0) == -1)
		return -1;
	for (i = 0; i < sizeof(session_after_tz) / sizeof(*session_after_tz);
	    i++)
		if (emit_text(x, OBJSQL_CONTEXT, session_after_tz[i]) == -1)
			return -1;
	return 0;
}

static const char *
kind_word(int kind)
{
	switch (kind) {
	case OBJ_TABLE:		return "TABLE";
	case OBJ_VIEW:		return "VIEW";
	case OBJ_PROCEDURE:	return "PROCEDURE";
	case OBJ_FUNCTION:	return "FUNCTION";
	case OBJ_TRIGGER:	return "TRIGGER";
	case OBJ_EVENT:		return "EVENT";
	case OBJ_SEQUENCE:	return "SEQUENCE";
	case OBJ_PACKAGE:	return "PACKAGE";
	case OBJ_PACKAGE_BODY:	return "PACKAGE BODY";
	default:		return NULL;
	}
}

static struct dbinfo *
db_find(struct objsql *x, const char *name)
{
	size_t	 i;

	for (i = 0; i < x->ndbs; i++)
		if (strcmp(x->dbs[i].name, name) == 0)
			return &x->dbs[i];
	return NULL;
}

/*
 * The word after the keyword k1 (and k2, if not NULL; and an optional
 * "=") in a CREATE DATABASE text, in a new string; NULL if none.
 */
static char *
word_after(const char *ddl, size_t len, const char *k1, const char *k2)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (!sqltok_is(&t, k1) || (k2 != NULL &&
		    (sqltok_next(&l, &t) == SQLTOK_END || !sqltok_is(&t, k2))))
			continue;
		if (sqltok_next(&l, &t) == SQLTOK_PUNCT && *t.p == '=')
			sqltok_next(&l, &t);
		return t.kind == SQLTOK_WORD ? strndup(t.p, t.len) : NULL;
	}
	return NULL;
}

static int
database(struct objsql *x, const struct rp_object *ob)
{
	const char	*name = *ob->name ? ob->name : ob->schema;
	struct dbinfo	*d, *nd;

	if ((d = db_find(x, name)) == NULL) {
		nd = reallocarray(x->dbs, x->ndbs + 1, sizeof(*x->dbs));
		if (nd == NULL)
			return xfail(x, "%s", strerror(errno));
		x->dbs = nd;
		d = &x->dbs[x->ndbs++];
		memset(d, 0, sizeof(*d));
		d->name = strdup(name);
		if ((d->collation = word_after(ob->ddl, ob->ddl_len, "COLLATE",
		    NULL)) == NULL && (d->collation = word_after(ob->ddl,
		    ob->ddl_len, "CHARACTER", "SET")) != NULL)
			d->by_charset = 1;
	}
	if (x->o.no_create_db)
		return 0;
	x->tdb = names_db(x->n, name);
	if (names_ddl_name(&x->b, ob->ddl, ob->ddl_len, name, x->tdb,
	    strstr(ob->ddl, "IF NOT EXISTS") ? NULL : "IF NOT EXISTS ") == -1)
		return xfail(x, "database %s: no name in its DDL", name);
	return emit(x, OBJSQL_CREATE, 0);
}

/*
 * The clause "DEFINER=`user`@`host` " that SHOW CREATE writes just before
 * the first quoted name of a CREATE statement: its length, and its
 * offset in *skip_at; 0 if there is none.
 */
static size_t
definer_span(const char *ddl, size_t len, size_t *skip_at)
{
	struct sqltok_lexer l;
	struct sqltok	 t, prev[2], at, host;
	const char	*e;

	memset(prev, 0, sizeof(prev));
	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END && t.kind != SQLTOK_IDENT &&
	    t.kind != SQLTOK_STRING) {
		prev[0] = prev[1];
		prev[1] = t;
	}
	/* " DEFINER=" right before it, then user@host, touching */
	if (!names_quoted(&t) || prev[0].p == NULL || prev[0].p == ddl ||
	    prev[0].p[-1] != ' ' || prev[0].len != 7 ||
	    memcmp(prev[0].p, "DEFINER", 7) != 0 || prev[1].p != prev[0].p + 7 ||
	    *prev[1].p != '=' || t.p != prev[1].p + 1 ||
	    sqltok_next(&l, &at) != SQLTOK_PUNCT || *at.p != '@' ||
	    at.p != t.p + t.len || sqltok_next(&l, &host) == SQLTOK_END ||
	    !names_quoted(&host) || host.p != at.p + 1)
		return 0;
	e = host.p + host.len;
	if (e < ddl + len && *e == ' ')
		e++;
	*skip_at = (size_t)(prev[0].p - ddl);
	return (size_t)(e - prev[0].p);
}

/* The length of the backtick-quoted identifier at p, or 0. */
static size_t
quoted_len(const char *p, const char *e)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	if (p >= e || *p != '`')
		return 0;
	sqltok_init(&l, p, (size_t)(e - p), 0);
	if (sqltok_next(&l, &t) != SQLTOK_IDENT || t.p != p ||
	    (t.flags & SQLTOK_F_OPEN))
		return 0;
	return t.len;
}

/* Does [p, e) have the word w, outside strings and identifiers? */
static int
has_word(const char *p, const char *e, const char *w)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	sqltok_init(&l, p, (size_t)(e - p), 0);
	while (sqltok_next(&l, &t) != SQLTOK_END)
		if (t.kind == SQLTOK_WORD && sqltok_is(&t, w))
			return 1;
	return 0;
}

/* A "srid" attribute's entry: SRID digits and the quoted column name. */
struct srid {
	const char	*srid, *col;
	size_t		 nsrid, ncol;
	int		 used;
};

/* The entries of the srid attribute v into *out (malloc'd); n, or -1. */
static ssize_t
srid_entries(const char *v, struct srid **out)
{
	const char	*e = v + strlen(v), *q;
	struct srid	*s = NULL, *t;
	size_t		 n, ql, k = 0;

	for (; v < e; v = q + ql + (q + ql < e)) {
		if ((n = strspn(v, "0123456789")) == 0 || n > 10 ||
		    v[n] != '\t' || (ql = quoted_len(q = v + n + 1, e)) == 0 ||
		    (q + ql < e && q[ql] != '\n') ||
		    (t = reallocarray(s, k + 1, sizeof(*s))) == NULL) {
			free(s);
			return -1;
		}
		s = t;
		s[k].srid = v;
		s[k].nsrid = n;
		s[k].col = q;
		s[k].ncol = ql;
		s[k++].used = 0;
	}
	*out = s;
	return (ssize_t)k;
}

/*
 * Put back the SRIDs of a table's spatial columns (its "srid" attribute:
 * lines of SRID, a tab and the quoted column name; rowpipe-stream(5)) as
 * REF_SYSTEM_ID=SRID after each column's type, into b: MariaDB's SHOW
 * CREATE TABLE leaves them out.  A column line of SHOW CREATE TABLE
 * starts "\n  `name` type" (strings in it are escaped: no newline); one
 * that has REF_SYSTEM_ID already keeps it as it is.  A column that the
 * definition no longer names at all (rowmap dropped it) is skipped; one
 * it names but whose line is not found is an error: its SRID would be
 * lost.
 */
static int
add_srids(struct objsql *x, const struct rp_object *ob, const char *ddl,
    size_t len, struct buf *b)
{
	const char	*v = rp_kv_get(&ob->attrs, "srid"), *end = ddl + len;
	const char	*run = ddl, *p, *eol, *t;
	struct srid	*s;
	ssize_t		 n, i;
	size_t		 ql;

	if (v == NULL) {
		buf_add(b, ddl, len);
		return 0;
	}
	if ((n = srid_entries(v, &s)) == -1)
		return xfail(x, "%s.%s: bad srid attribute", ob->schema,
		    ob->name);
	for (p = ddl; (p = memmem(p, (size_t)(end - p), "\n  `", 4)) != NULL;
	    p = eol) {
		p += 3;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if ((ql = quoted_len(p, eol)) == 0 || p + ql >= eol ||
		    p[ql] != ' ')
			continue;
		for (i = 0; i < n && (s[i].used || s[i].ncol != ql ||
		    memcmp(s[i].col, p, ql) != 0); i++)
			;
		if (i == n)
			continue;
		s[i].used = 1;
		if (has_word(p, eol, "REF_SYSTEM_ID"))
			continue;
		for (t = p + ql + 1; t < eol && *t != ' ' && *t != ','; t++)
			;
		buf_add(b, run, (size_t)(t - run));
		buf_addf(b, " REF_SYSTEM_ID=%.*s", (int)s[i].nsrid, s[i].srid);
		run = t;
	}
	buf_add(b, run, (size_t)(end - run));
	for (i = 0; i < n; i++)
		if (!s[i].used && memmem(ddl, len, s[i].col, s[i].ncol) !=
		    NULL) {
			xfail(x, "%s.%s: column %.*s: its SRID %.*s cannot be "
			    "put back: no column line for it in the definition",
			    ob->schema, ob->name, (int)s[i].ncol, s[i].col,
			    (int)s[i].nsrid, s[i].srid);
			free(s);
			return -1;
		}
	free(s);
	return 0;
}

void
objsql_strip_definer(struct buf *b, const struct rp_object *ob)
{
	size_t	 at = 0, skip = 0;

	if (ob->kind != OBJ_TABLE && ob->kind != OBJ_SEQUENCE)
		skip = definer_span(ob->ddl, ob->ddl_len, &at);
	if (skip) {
		buf_add(b, ob->ddl, at);
		buf_add(b, ob->ddl + at + skip, ob->ddl_len - at - skip);
	} else
		buf_add(b, ob->ddl, ob->ddl_len);
}

/*
 * Its FOREIGN KEY names made the renamed table's, in r, if it is renamed
 * within its database (names.h).
 */
static int
fk_names(struct objsql *x, const struct rp_object *ob, struct buf *r)
{
	struct buf	 k = BUF_INIT;
	char		 why[300];

	if (names_rename_fks(x->n, &k, r->p, r->len, ob->schema, ob->name,
	    why, sizeof(why)) == -1) {
		buf_release(&k);
		return *why != '\0' ? xfail(x, "%s.%s: --rename: %s",
		    ob->schema, ob->name, why) : xfail(x, "%s",
		    strerror(ENOMEM));
	}
	buf_release(r);
	*r = k;
	return 0;
}

/* The DDL of ob as the target should see it, into b: renames, definer. */
static int
ddl_text(struct objsql *x, const struct rp_object *ob, struct buf *b)
{
	const char	*db = ob->schema, *trg;
	struct buf	 t = BUF_INIT;

	if (x->o.skip_definer)
		objsql_strip_definer(&t, ob);
	else
		buf_add(&t, ob->ddl, ob->ddl_len);
	if (ob->kind == OBJ_TRIGGER && (trg = rp_kv_get(&ob->attrs,
	    "table")) != NULL && strcmp(names_table(x->n, db, trg), trg) != 0) {
		struct buf	 r = BUF_INIT;

		names_trigger_table(&r, t.p, t.len, trg,
		    names_table(x->n, db, trg));
		buf_release(&t);
		t = r;
	}
	if (ob->kind == OBJ_TABLE || ob->kind == OBJ_SEQUENCE) {
		struct buf	 r = BUF_INIT;

		if (names_ddl_name(&r, t.p, t.len, ob->name,
		    names_table(x->n, db, ob->name), NULL) == -1) {
			buf_release(&r);
			buf_release(&t);
			return xfail(x, "%s.%s: no name in its DDL", db,
			    ob->name);
		}
		/*
		 * Renamed in its own database: its foreign keys' names are
		 * the database's and would collide with the original's.
		 */
		if (ob->kind == OBJ_TABLE && fk_names(x, ob, &r) == -1) {
			buf_release(&r);
			buf_release(&t);
			return -1;
		}
		/*
		 * A table names other objects qualified: DEFAULT
		 * nextval(`db`.`seq`), REFERENCES `otherdb`.`t`.
		 */
		buf_reset(&t);
		if (x->n->ndb_renames > 0 || x->n->nrenames > 0) {
			struct buf	 q = BUF_INIT;

			/* REFERENCES `t`: as `db`.`t`, which maps */
			names_fk_qualify(&q, r.p, r.len, db);
			names_ddl_refs(x->n, &t, q.p, q.len, db);
			if (q.err)
				t.err = q.err;
			buf_release(&q);
		} else
			buf_add(&t, r.p, r.len);
		buf_release(&r);
		if (add_srids(x, ob, t.p, t.len, b) == -1) {
			buf_release(&t);
			return -1;
		}
	} else if (x->n->ndb_renames > 0 || x->n->nrenames > 0)
		names_ddl_refs(x->n, b, t.p, t.len, db);
	else
		buf_add(b, t.p, t.len);
	buf_release(&t);
	return b->err ? xfail(x, "%s", strerror(b->err)) : 0;
}

/*
 * A table renamed within its database, whose triggers (dbsnap's
 * "triggers" attribute: how many) will be left out when they come, at
 * the stream's end: said now, before its rows, so that a pipeline that
 * dies before the end does not lose the warning.  Then the triggers
 * themselves are left out without a word (x->trg_early).
 */
static void
renamed_triggers(struct objsql *x, const struct rp_object *ob)
{
	const char	*n = rp_kv_get(&ob->attrs, "triggers"), *to;
	char		 msg[1024];

	if (n == NULL || strcmp(n, "0") == 0 ||
	    strcmp(to = names_table(x->n, ob->schema, ob->name),
	    ob->name) == 0 ||
	    strcmp(names_table_db(x->n, ob->schema, ob->name), ob->schema) != 0)
		return;
	snprintf(msg, sizeof(msg), "%s.%s: renamed to %s: its %s trigger%s "
	    "will be left out (trigger names are per database; create %s "
	    "under new names by hand)", ob->schema, ob->name, to, n,
	    strcmp(n, "1") == 0 ? "" : "s", strcmp(n, "1") == 0 ? "it" :
	    "them");
	x->trg_early = 1;
	if (x->warn != NULL)
		x->warn(x->warn_arg, msg);
}

/* Is ob to be recreated, given --tables and --no-create? */
static int
wanted(struct objsql *x, const struct rp_object *ob)
{
	const char	*t;
	char		 msg[1024];

	if (x->o.no_create)
		return 0;
	switch (ob->kind) {
	case OBJ_TABLE:
		if (!names_keep(x->n, ob->schema, ob->name))
			return 0;
		renamed_triggers(x, ob);
		return 1;
	case OBJ_SEQUENCE:
	case OBJ_VIEW:
		return names_keep(x->n, ob->schema, ob->name);
	case OBJ_TRIGGER:
		t = rp_kv_get(&ob->attrs, "table");
		if (!(x->n->ntables == 0 || (t != NULL &&
		    names_keep(x->n, ob->schema, t))))
			return 0;
		/*
		 * Trigger names are per database: a renamed table's trigger,
		 * dropped and created under its name in the same database,
		 * would take the trigger away from the original table.  With
		 * the database renamed too, it moves along safely.
		 */
		if (t != NULL && strcmp(names_table(x->n, ob->schema, t),
		    t) != 0 &&
		    strcmp(names_table_db(x->n, ob->schema, t), ob->schema) ==
		    0) {
			snprintf(msg, sizeof(msg), "%s.%s: trigger of renamed "
			    "table %s left out (trigger names are per "
			    "database; create it under a new name by hand)",
			    ob->schema, ob->name, t);
			if (x->warn != NULL && !x->trg_early)
				x->warn(x->warn_arg, msg);
			return 0;
		}
		return 1;
	default:
		return x->n->ntables == 0;
	}
}

static void
set_attr(struct buf *b, const struct rp_object *ob, const char *key,
    const char *var, int *first)
{
	const char	*v = rp_kv_get(&ob->attrs, key);
	size_t		 i;

	/* An empty sql_mode is a mode too: the header's must not carry over. */
	if (v == NULL || (*v == '\0' && strcmp(key, "sql_mode") != 0))
		return;
	buf_adds(b, *first ? "/*!50003 SET " : ", ");
	*first = 0;
	buf_adds(b, var);
	buf_addc(b, '=');
	if (strcmp(key, "sql_mode") == 0 || strcmp(key, "time_zone") == 0) {
		quote_string(b, v, strlen(v));
		return;
	}
	/* A charset or collation name: a bare word, checked. */
	for (i = 0; v[i] != '\0'; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' &&
		    v[i] <= 'Z') || (v[i] >= '0' && v[i] <= '9') ||
		    v[i] == '_')) {
			buf_adds(b, "DEFAULT");
			return;
		}
	buf_adds(b, v);
}

/*
 * Save the session context and set the one ob was created in: character
 * set, collation, sql_mode, time zone and, for routines, the database
 * collation (*restore: the collation to put back after, or NULL).
 */
static int
context_begin(struct objsql *x, const struct rp_object *ob, int routine,
    const char **restore)
{
	const char	*cdb;
	struct dbinfo	*d;
	int		 first = 1;

	*restore = NULL;
	if (emit_text(x, OBJSQL_CONTEXT, "/*!50003 SET @rp_saved_cs_client="
	    "@@character_set_client, @rp_saved_cs_results="
	    "@@character_set_results, @rp_saved_col_connection="
	    "@@collation_connection, @rp_saved_sql_mode=@@sql_mode, "
	    "@rp_saved_time_zone=@@time_zone */") == -1)
		return -1;
	set_attr(&x->b, ob, "character_set_client", "character_set_client",
	    &first);
	set_attr(&x->b, ob, "character_set_client", "character_set_results",
	    &first);
	set_attr(&x->b, ob, "collation_connection", "collation_connection",
	    &first);
	set_attr(&x->b, ob, "sql_mode", "sql_mode", &first);
	set_attr(&x->b, ob, "time_zone", "time_zone", &first);
	if (!first) {
		buf_adds(&x->b, " */");
		if (emit(x, OBJSQL_CONTEXT, 0) == -1)
			return -1;
	}
	cdb = rp_kv_get(&ob->attrs, "collation_database");
	d = db_find(x, ob->schema);
	if (!routine || cdb == NULL || d == NULL || d->collation == NULL ||
	    d->by_charset || strcmp(cdb, d->collation) == 0 ||
	    strspn(cdb, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
	    strlen(cdb))
		return 0;
	*restore = d->collation;
	buf_adds(&x->b, "/*!50003 ALTER DATABASE ");
	quote_ident(&x->b, x->tdb, strlen(x->tdb));
	buf_addf(&x->b, " COLLATE %s */", cdb);
	return emit(x, OBJSQL_CONTEXT, 0);
}

static int
context_end(struct objsql *x, const char *restore)
{
	if (restore != NULL) {
		buf_adds(&x->b, "/*!50003 ALTER DATABASE ");
		quote_ident(&x->b, x->tdb, strlen(x->tdb));
		buf_addf(&x->b, " COLLATE %s */", restore);
		if (emit(x, OBJSQL_CONTEXT, 0) == -1)
			return -1;
	}
	return emit_text(x, OBJSQL_CONTEXT, "/*!50003 SET character_set_client="
	    "@rp_saved_cs_client, character_set_results="
	    "@rp_saved_cs_results, collation_connection="
	    "@rp_saved_col_connection, sql_mode=@rp_saved_sql_mode, "
	    "time_zone=@rp_saved_time_zone */");
}

/*
 * A sequence's position, as mysqldump restores it, and its round (how
 * often a CYCLE sequence went round): SETVAL(s, next, 0, round), MariaDB
 * "SETVAL" in the Knowledge Base.
 */
static int
sequence_state(struct objsql *x, const struct rp_object *ob, const char *name)
{
	const char	*v = rp_kv_get(&ob->attrs, "next_value");
	const char	*round = rp_kv_get(&ob->attrs, "round");
	size_t		 neg;

	if (v == NULL || *v == '\0')
		return 0;
	neg = *v == '-';
	if (v[neg] == '\0' || strspn(v + neg, "0123456789") != strlen(v) - neg)
		return xfail(x, "%s.%s: bad next_value", ob->schema, ob->name);
	if (round != NULL && (*round == '\0' ||
	    strspn(round, "0123456789") != strlen(round)))
		return xfail(x, "%s.%s: bad round", ob->schema, ob->name);
	buf_adds(&x->b, "DO SETVAL(");
	quote_ident(&x->b, name, strlen(name));
	buf_addf(&x->b, ", %s, 0", v);
	if (round != NULL && strcmp(round, "0") != 0)
		buf_addf(&x->b, ", %s", round);
	buf_addc(&x->b, ')');
	return emit(x, OBJSQL_STATE, 0);
}

/* The database ob goes into: a table's or trigger's follows the table. */
static const char *
target_db(struct objsql *x, const struct rp_object *ob)
{
	const char	*t;

	if (ob->kind == OBJ_TABLE || ob->kind == OBJ_SEQUENCE)
		return names_table_db(x->n, ob->schema, ob->name);
	if (ob->kind == OBJ_TRIGGER &&
	    (t = rp_kv_get(&ob->attrs, "table")) != NULL)
		return names_table_db(x->n, ob->schema, t);
	return names_db(x->n, ob->schema);
}

static int
drop(struct objsql *x, const char *word, const char *name)
{
	if (x->o.skip_drop)
		return 0;
	buf_addf(&x->b, "DROP %s IF EXISTS ", word);
	quote_ident(&x->b, name, strlen(name));
	return emit(x, OBJSQL_DROP, 0);
}

static int
object(struct objsql *x, const struct rp_object *ob)
{
	const char	*word = kind_word(ob->kind), *name, *restore = NULL;
	int		 table, routine, package;

	if (word == NULL)
		return xfail(x, "unknown object kind %d", ob->kind);
	if (!wanted(x, ob))
		return 0;
	x->tdb = target_db(x, ob);
	buf_adds(&x->b, "USE ");
	quote_ident(&x->b, x->tdb, strlen(x->tdb));
	if (emit(x, OBJSQL_USE, 0) == -1)
		return -1;
	table = ob->kind == OBJ_TABLE || ob->kind == OBJ_SEQUENCE;
	package = ob->kind == OBJ_PACKAGE || ob->kind == OBJ_PACKAGE_BODY;
	routine = ob->kind == OBJ_PROCEDURE || ob->kind == OBJ_FUNCTION ||
	    ob->kind == OBJ_TRIGGER || ob->kind == OBJ_EVENT || package;
	name = table ? names_table(x->n, ob->schema, ob->name) : ob->name;
	/*
	 * DROP PACKAGE parses only in the sql_mode a package is made in
	 * (ORACLE, up to MariaDB 11.3): inside its context.
	 */
	if ((!package && drop(x, word, name) == -1) ||
	    ddl_text(x, ob, &x->ddl) == -1)
		return -1;
	if (table)
		return emit_buf(x, &x->ddl, OBJSQL_CREATE, 0) == -1 ||
		    (ob->kind == OBJ_SEQUENCE &&
		    sequence_state(x, ob, name) == -1) ? -1 : 0;
	if (context_begin(x, ob, routine, &restore) == -1 ||
	    (package && drop(x, word, name) == -1) ||
	    emit_buf(x, &x->ddl, OBJSQL_CREATE, routine) == -1 ||
	    context_end(x, restore) == -1)
		return -1;
	return 0;
}

/*
 * CREATE USER or CREATE ROLE with IF NOT EXISTS: an account that the
 * target already has (root@localhost, the restoring account itself)
 * keeps its password and settings; the grants that follow add to it.
 */
static int
create_if_missing(struct objsql *x, const struct rp_object *ob,
    const char *prefix)
{
	size_t	 n = strlen(prefix);

	if (ob->ddl_len > n && memcmp(ob->ddl, prefix, n) == 0 &&
	    strncmp(ob->ddl + n, "IF NOT EXISTS", 13) != 0) {
		buf_add(&x->b, ob->ddl, n);
		buf_adds(&x->b, "IF NOT EXISTS ");
		buf_add(&x->b, ob->ddl + n, ob->ddl_len - n);
	} else
		buf_add(&x->b, ob->ddl, ob->ddl_len);
	return emit(x, OBJSQL_CREATE, 0);
}

/*
 * A line of SHOW GRANTS without its IDENTIFIED ... clause (MariaDB puts
 * the account's authentication in the first GRANT line; CREATE USER
 * carries it, and an account that exists keeps its own), into b.
 * Returns 1 if what is left grants nothing (GRANT USAGE ON *.* TO the
 * account, with no REQUIRE, WITH or anything after it), else 0.
 */
static int
grant_text(struct buf *b, const char *ddl, size_t len)
{
	struct sqltok_lexer	 l;
	struct sqltok		 t, first[3];
	const char		*cut = NULL, *resume = NULL;
	int			 n = 0, after_to = 0, tail = 0;

	sqltok_init(&l, ddl, len, 0);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (n < 3)
			first[n] = t;
		n++;
		if (cut != NULL && resume == NULL && t.kind == SQLTOK_WORD &&
		    (sqltok_is(&t, "REQUIRE") || sqltok_is(&t, "WITH")))
			resume = t.p;
		if (cut == NULL && after_to && t.kind == SQLTOK_WORD &&
		    sqltok_is(&t, "IDENTIFIED"))
			cut = t.p;
		else if (cut == NULL && after_to && t.kind == SQLTOK_WORD)
			tail = 1;	/* something after the grantee */
		if (t.kind == SQLTOK_WORD && sqltok_is(&t, "TO"))
			after_to = 1;
	}
	if (cut == NULL) {
		buf_add(b, ddl, len);
	} else {
		while (cut > ddl && (cut[-1] == ' ' || cut[-1] == '\t'))
			cut--;
		buf_add(b, ddl, (size_t)(cut - ddl));
		if (resume != NULL) {
			buf_addc(b, ' ');
			buf_add(b, resume, (size_t)(ddl + len - resume));
			tail = 1;
		}
	}
	return n >= 3 && sqltok_is(&first[0], "GRANT") &&
	    sqltok_is(&first[1], "USAGE") && sqltok_is(&first[2], "ON") &&
	    !tail && (cut == NULL || resume == NULL);
}

static int
grant(struct objsql *x, const struct rp_object *ob)
{
	struct buf	 t = BUF_INIT;
	int		 empty;

	empty = grant_text(&t, ob->ddl, ob->ddl_len);
	if (t.err) {
		buf_release(&t);
		return xfail(x, "%s", strerror(ENOMEM));
	}
	if (empty) {
		buf_release(&t);
		return 0;
	}
	/* --rename-db: the databases the grant names (`db`.* , `db`.`t`) */
	if (x->n->ndb_renames > 0)
		names_ddl_refs(x->n, &x->b, t.p, t.len, "");
	else
		buf_add(&x->b, t.p, t.len);
	buf_release(&t);
	return emit(x, OBJSQL_CREATE, 0);
}

/*
 * dbsnap --users: accounts, roles and grants; no USE, no DROP.  As
 * mariadb-dump does (client/mysqldump.c, dump_all_users_roles_and_
 * grants()), a role of its own administers the roles while they are
 * made, so that the restoring account can grant them without becoming
 * their admin; the grants then make the source's admins (WITH ADMIN
 * OPTION), and the helper role goes at the end (the object marked
 * last=1).  An object with helper=0 (dbsnap: the grants of privileges
 * and PROXY, after the last=1 one) runs without it: a restore that
 * stops there leaves no helper role behind.
 */
#define IMPORT_ROLE_NAME "rowpipe_import_role"
#define IMPORT_ROLE	"`" IMPORT_ROLE_NAME "`"

static int
accounts_begin(struct objsql *x)
{
	if (x->accounts)
		return 0;
	x->accounts = 1;
	if (emit_text(x, OBJSQL_CONTEXT,
	    "CREATE ROLE IF NOT EXISTS " IMPORT_ROLE) == -1)
		return -1;
	x->helper = 1;
	return emit_text(x, OBJSQL_CONTEXT,
	    "GRANT " IMPORT_ROLE " TO CURRENT_USER()") == -1 ||
	    emit_text(x, OBJSQL_CONTEXT, "SET ROLE " IMPORT_ROLE) == -1 ?
	    -1 : 0;
}

static int
accounts_end(struct objsql *x, const struct rp_object *ob)
{
	const char	*last = rp_kv_get(&ob->attrs, "last");

	if (!x->accounts || last == NULL || strcmp(last, "1") != 0)
		return 0;
	x->accounts = 0;
	if (emit_text(x, OBJSQL_CONTEXT, "SET ROLE NONE") == -1 ||
	    emit_text(x, OBJSQL_CONTEXT, "DROP ROLE " IMPORT_ROLE) == -1)
		return -1;
	x->helper = 0;
	return 0;
}

const char *
objsql_helper_role(const struct objsql *x)
{
	return x->helper ? IMPORT_ROLE_NAME : NULL;
}

static int
account(struct objsql *x, const struct rp_object *ob)
{
	const char	*helper;
	int		 r;

	if (x->o.no_create || x->n->ntables > 0)
		return 0;
	x->tdb = "";
	helper = rp_kv_get(&ob->attrs, "helper");
	if ((helper == NULL || strcmp(helper, "0") != 0) &&
	    accounts_begin(x) == -1)
		return -1;
	switch (ob->kind) {
	case OBJ_USER:
		r = create_if_missing(x, ob, "CREATE USER ");
		break;
	case OBJ_ROLE:
		if (ob->ddl_len <= 12 || memcmp(ob->ddl, "CREATE ROLE ", 12) != 0)
			return xfail(x, "role %s: not a CREATE ROLE", ob->name);
		buf_addf(&x->b, "CREATE ROLE IF NOT EXISTS %.*s WITH ADMIN "
		    IMPORT_ROLE, (int)(ob->ddl_len - 12), ob->ddl + 12);
		r = emit(x, OBJSQL_CREATE, 0);
		break;
	default:
		r = grant(x, ob);
		break;
	}
	return r == -1 ? -1 : accounts_end(x, ob);
}

int
objsql_object(struct objsql *x, const struct rp_object *ob, objsql_cb cb,
    void *arg)
{
	int	 r;

	x->err[0] = '\0';
	x->ob = ob;
	x->tdb = NULL;
	x->cb = cb;
	x->arg = arg;
	buf_reset(&x->b);
	buf_reset(&x->ddl);
	x->b.err = x->ddl.err = 0;
	if (ob->kind == OBJ_DATABASE)
		r = database(x, ob);
	else if (ob->kind == OBJ_USER || ob->kind == OBJ_ROLE ||
	    ob->kind == OBJ_GRANT)
		r = account(x, ob);
	else
		r = object(x, ob);
	x->ob = NULL;
	return r;
}
