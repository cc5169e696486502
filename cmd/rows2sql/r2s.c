/*
 * r2s: the frame stream to SQL text conversion behind rows2sql(1).
 *
 * All text is built in one output buffer and written with write(2) only
 * at statement boundaries, so a failure leaves valid SQL up to the last
 * complete statement (and no trailer line: sqlsplit then reports the cut).
 * The statement count and XXH3 of everything written feed the trailer
 * (lib/sqltrailer.h).
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "progress.h"
#include "quote.h"
#include "sqltrailer.h"
#include "util.h"
#include "r2s.h"

/* Write the buffer out once it holds this much (at a statement end). */
#define OUT_FLUSH_AT	((size_t)4 << 20)
/* Values longer than this move into user variables in an oversize row. */
#define PIECE_MIN	256

struct tbl {
	uint64_t	 id;
	struct rp_table	*t;
	int		 keep;
	int		 versioned;
	char		*db;		/* target names */
	char		*name;
	struct col	*cols;
	struct rp_val	*vals;
	struct buf	 prefix;	/* INSERT INTO `t` (`a`,`b`) VALUES  */
	struct buf	 suffix;	/* ON DUPLICATE KEY UPDATE ... */
	uint64_t	 rows;
};

struct dbinfo {
	char		*name;		/* source name */
	char		*collation;	/* default collation or charset, or NULL */
	int		 by_charset;	/* collation holds a charset name */
};

struct r2s {
	const struct r2s_opts *o;
	int		 out_fd;
	struct buf	 out;
	uint64_t	 stmts;
	uint64_t	 written;
	struct r2s_hash	*xxh;
	int		 werr;

	struct tbl	**tbls;
	size_t		 ntbls;
	struct tbl	*last;

	struct dbinfo	*dbs;
	size_t		 ndbs;

	char		*cur_db;	/* target database of the last USE */
	struct tbl	*open;		/* table with an INSERT being built */
	size_t		 stmt_start;	/* offset of the open INSERT */
	size_t		 committed;	/* end of the last whole statement */
	int		 content;	/* a frame past the header was taken */
	int		 insert_history;
	size_t		 limit;		/* max statement bytes for the target */
	size_t		 max_stmt;

	struct progress	*prog;
	uint64_t	 tot_tables, tot_rows;

	const struct frame *f;		/* frame being converted */
	char		 errbuf[512];
};

static int
fail(struct r2s *st, const char *fmt, ...)
{
	va_list	 ap;
	int	 n = 0;

	if (st->f != NULL)
		n = snprintf(st->errbuf, sizeof(st->errbuf),
		    "frame %" PRIu64 " at offset %" PRIu64 ": ", st->f->seq,
		    st->f->offset);
	if (n < 0 || (size_t)n >= sizeof(st->errbuf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(st->errbuf + n, sizeof(st->errbuf) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Output. */

static int
out_flush(struct r2s *st)
{
	if (st->out.len == 0 || st->werr)
		return st->werr ? -1 : 0;
	r2s_hash_update(st->xxh, st->out.p, st->out.len);
	if (write_all(st->out_fd, st->out.p, st->out.len) == -1) {
		st->werr = errno;
		return -1;
	}
	st->written += st->out.len;
	progress_add(st->prog, 0, 0, st->out.len);
	st->out.len = 0;
	st->committed = 0;
	return 0;
}

/*
 * Write out the whole statements before the open INSERT and move that to
 * the front of the buffer.
 */
static int
out_flush_committed(struct r2s *st)
{
	size_t	 c = st->committed, rest = st->out.len - c;

	if (c == 0 || st->werr)
		return st->werr ? -1 : 0;
	r2s_hash_update(st->xxh, st->out.p, c);
	if (write_all(st->out_fd, st->out.p, c) == -1) {
		st->werr = errno;
		return -1;
	}
	st->written += c;
	progress_add(st->prog, 0, 0, c);
	memmove(st->out.p, st->out.p + c, rest);
	st->out.len = rest;
	st->out.p[rest] = '\0';
	st->committed = 0;
	if (st->open != NULL)
		st->stmt_start -= c;
	return 0;
}

/* A statement is complete in the buffer: terminate it. */
static int
stmt_end(struct r2s *st, const char *delim)
{
	buf_adds(&st->out, delim);
	buf_addc(&st->out, '\n');
	st->stmts++;
	if (st->out.err)
		return fail(st, "%s", strerror(st->out.err));
	st->committed = st->out.len;
	if (st->out.len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

/* A whole statement given as text. */
static int
stmt(struct r2s *st, const char *text)
{
	buf_adds(&st->out, text);
	return stmt_end(st, ";");
}

static int
close_insert(struct r2s *st)
{
	struct tbl	*tb = st->open;

	if (tb == NULL)
		return 0;
	st->open = NULL;
	buf_add(&st->out, tb->suffix.p, tb->suffix.len);
	return stmt_end(st, ";");
}

static int
use_db(struct r2s *st, const char *db)
{
	if (st->cur_db != NULL && strcmp(st->cur_db, db) == 0)
		return 0;
	free(st->cur_db);
	if ((st->cur_db = strdup(db)) == NULL)
		return fail(st, "%s", strerror(errno));
	buf_adds(&st->out, "USE ");
	quote_ident(&st->out, db, strlen(db));
	return stmt_end(st, ";");
}

/* Names and filters. */

static const char *
target_db(struct r2s *st, const char *db)
{
	size_t	 i;

	for (i = 0; i < st->o->ndb_renames; i++)
		if (strcmp(st->o->db_renames[i].old, db) == 0)
			return st->o->db_renames[i].new;
	return db;
}

static const char *
target_table(struct r2s *st, const char *db, const char *name)
{
	const struct r2s_rename *r;
	size_t	 i;

	for (i = 0; i < st->o->nrenames; i++) {
		r = &st->o->renames[i];
		if (strcmp(r->old, name) == 0 &&
		    (r->old_db == NULL || strcmp(r->old_db, db) == 0))
			return r->new;
	}
	return name;
}

static int
keep_table(struct r2s *st, const char *db, const char *name)
{
	const struct r2s_name *n;
	size_t	 i;

	if (st->o->ntables == 0)
		return 1;
	for (i = 0; i < st->o->ntables; i++) {
		n = &st->o->tables[i];
		if (strcmp(n->name, name) == 0 &&
		    (n->db == NULL || strcmp(n->db, db) == 0))
			return 1;
	}
	return 0;
}

/* DDL rewriting. */

/*
 * Length of the quoted identifier at s (with its quotes: backticks, or
 * double quotes as SHOW CREATE writes them under ANSI_QUOTES), or 0.
 */
static size_t
ident_len(const char *s, const char *e)
{
	const char	*p = s + 1;
	char		 q;

	if (s >= e || (*s != '`' && *s != '"'))
		return 0;
	q = *s;
	while (p < e) {
		if (*p == q) {
			if (p + 1 < e && p[1] == q) {
				p += 2;
				continue;
			}
			return (size_t)(p + 1 - s);
		}
		p++;
	}
	return 0;
}

/* Does the quoted identifier q (qlen bytes, quotes included) name s? */
static int
ident_eq(const char *q, size_t qlen, const char *s)
{
	struct buf	 b = BUF_INIT;
	int		 eq;

	quote_ident(&b, s, strlen(s));
	eq = !b.err && b.len == qlen && memcmp(b.p, q, qlen) == 0;
	buf_release(&b);
	return eq;
}

/*
 * Append ddl with the first backtick-quoted identifier replaced by the
 * quoted name to (if it differs from from), and with "IF NOT EXISTS "
 * inserted before it if ine.  -1 if there is no identifier to replace.
 */
static int
add_ddl_renamed(struct buf *b, const char *ddl, size_t len, const char *from,
    const char *to, const char *ine)
{
	const char	*e = ddl + len, *q = memchr(ddl, '`', len);
	size_t		 ql;

	if (q == NULL || (ql = ident_len(q, e)) == 0)
		return -1;
	buf_add(b, ddl, (size_t)(q - ddl));
	if (ine != NULL)
		buf_adds(b, ine);
	if (strcmp(from, to) != 0 && ident_eq(q, ql, from))
		quote_ident(b, to, strlen(to));
	else
		buf_add(b, q, ql);
	buf_add(b, q + ql, (size_t)(e - q - ql));
	return 0;
}

/*
 * Drop "DEFINER=`user`@`host` " from the head of a CREATE statement (the
 * clause SHOW CREATE writes just before the first quoted identifier).
 * Returns the bytes to skip at *skip_at, or 0 if there is none.
 */
static size_t
definer_span(const char *ddl, size_t len, size_t *skip_at)
{
	const char	*e = ddl + len, *q, *p;
	size_t		 l;

	q = ddl + strcspn(ddl, "`\"'");
	if (q >= e || q - ddl < 9 || memcmp(q - 8, "DEFINER=", 8) != 0 ||
	    q[-9] != ' ')
		return 0;
	if ((l = ident_len(q, e)) == 0)
		return 0;
	p = q + l;
	if (p >= e || *p != '@')
		return 0;
	p++;
	if ((l = ident_len(p, e)) == 0)
		return 0;
	p += l;
	if (p < e && *p == ' ')
		p++;
	*skip_at = (size_t)(q - 8 - ddl);
	return (size_t)(p - (q - 8));
}

/*
 * Append text with the qualified references `db`. and `db`.`table` (outside
 * string literals and comments) renamed by --rename-db and --rename, as
 * SHOW CREATE VIEW writes them.
 */
/*
 * The source database a quoted identifier (l bytes at p) names, if it is
 * db or one that --rename-db renames; else NULL.
 */
static const char *
qualifier_db(struct r2s *st, const char *db, const char *p, size_t l)
{
	size_t	 i;

	if (ident_eq(p, l, db))
		return db;
	for (i = 0; i < st->o->ndb_renames; i++)
		if (ident_eq(p, l, st->o->db_renames[i].old))
			return st->o->db_renames[i].old;
	return NULL;
}

static void
add_renamed_refs(struct r2s *st, struct buf *b, const char *s, size_t len,
    const char *db)
{
	const char	*e = s + len, *p = s, *run = s, *t, *nt, *qdb;
	size_t		 l, tl, i;
	char		 c;

	while (p < e) {
		c = *p;
		if (c == '\'' || (c == '"' && ident_len(p, e) == 0)) {
			for (p++; p < e && *p != c; p++)
				if (*p == '\\' && p + 1 < e)
					p++;
			p++;
		} else if (c == '`' || c == '"') {
			if ((l = ident_len(p, e)) == 0)
				break;
			if (p + l < e && p[l] == '.' &&
			    (qdb = qualifier_db(st, db, p, l)) != NULL) {
				buf_add(b, run, (size_t)(p - run));
				t = target_db(st, qdb);
				quote_ident(b, t, strlen(t));
				buf_addc(b, '.');
				run = p += l + 1;
				if ((tl = ident_len(p, e)) == 0)
					continue;
				/* The table: renamed if --rename names it. */
				for (i = 0; i < st->o->nrenames; i++) {
					nt = st->o->renames[i].old;
					if (ident_eq(p, tl, nt) &&
					    strcmp(target_table(st, qdb, nt),
					    nt) != 0) {
						nt = target_table(st, qdb, nt);
						quote_ident(b, nt, strlen(nt));
						run = p + tl;
						break;
					}
				}
				p += tl;
				continue;
			}
			p += l;
		} else if (c == '/' && p + 1 < e && p[1] == '*') {
			const char *ce = memmem(p + 2, (size_t)(e - p - 2),
			    "*/", 2);
			p = ce ? ce + 2 : e;
		} else if (c == '#' || (c == '-' && p + 2 < e && p[1] == '-' &&
		    (p[2] == ' ' || p[2] == '\t' || p[2] == '\n'))) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			p = nl ? nl : e;
		} else
			p++;
	}
	if (run > e)
		run = e;
	buf_add(b, run, (size_t)(e - run));
}

/*
 * The next token of SQL text from *pp: a quoted identifier or a word
 * (letters, digits, _ and $), skipping blanks and comments.  Returns its
 * length (0 at the end or at other characters) and sets *tok.
 */
static size_t
next_token(const char **pp, const char *e, const char **tok)
{
	const char	*p = *pp, *q;
	size_t		 l;

	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
		    *p == '\r'))
			p++;
		if (p + 1 < e && p[0] == '/' && p[1] == '*') {
			q = memmem(p + 2, (size_t)(e - p - 2), "*/", 2);
			p = q ? q + 2 : e;
		} else if (p + 2 < e && p[0] == '-' && p[1] == '-' &&
		    (p[2] == ' ' || p[2] == '\t')) {
			q = memchr(p, '\n', (size_t)(e - p));
			p = q ? q : e;
		} else
			break;
	}
	*tok = p;
	if ((l = ident_len(p, e)) == 0)
		while (p + l < e && (((p[l] | 0x20) >= 'a' && (p[l] | 0x20) <=
		    'z') || (p[l] >= '0' && p[l] <= '9') || p[l] == '_' ||
		    p[l] == '$' || (unsigned char)p[l] >= 0x80))
			l++;
	*pp = p + l;
	return l;
}

/*
 * Append a CREATE TRIGGER text with the table after ON renamed from old
 * to new (quoted), or as it is when it names another table.
 */
static void
add_trigger_renamed(struct buf *b, const char *s, size_t len, const char *old,
    const char *new)
{
	const char	*e = s + len, *p = s, *tok, *name = NULL;
	size_t		 l, nl = 0;
	int		 state = 0;	/* 0: before TRIGGER, 1: before ON */

	while ((l = next_token(&p, e, &tok)) > 0 || (p < e && ++p)) {
		if (l == 0)
			continue;
		if (state == 0 && l == 7 && strncasecmp(tok, "TRIGGER", 7) == 0)
			state = 1;
		else if (state == 1 && l == 2 && strncasecmp(tok, "ON", 2) == 0) {
			name = tok = NULL;
			if ((nl = next_token(&p, e, &name)) == 0)
				break;
			/* db.table: the table is the part after the dot. */
			if (p < e && *p == '.') {
				p++;
				if ((nl = next_token(&p, e, &name)) == 0)
					break;
			}
			break;
		}
	}
	if (name != NULL && nl > 0 && ((ident_len(name, e) == nl &&
	    ident_eq(name, nl, old)) || (ident_len(name, e) == 0 &&
	    strlen(old) == nl && memcmp(name, old, nl) == 0))) {
		buf_add(b, s, (size_t)(name - s));
		quote_ident(b, new, strlen(new));
		buf_add(b, name + nl, (size_t)(e - name - nl));
	} else
		buf_add(b, s, len);
}

/* Objects. */

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
	default:		return NULL;
	}
}

static struct dbinfo *
db_find(struct r2s *st, const char *name)
{
	size_t	 i;

	for (i = 0; i < st->ndbs; i++)
		if (strcmp(st->dbs[i].name, name) == 0)
			return &st->dbs[i];
	return NULL;
}

/* The word after key in a CREATE DATABASE text, or NULL. */
static char *
word_after(const char *ddl, const char *key)
{
	const char	*p = strstr(ddl, key), *w;

	if (p == NULL)
		return NULL;
	p += strlen(key);
	for (w = p; *w != '\0' && *w != ' ' && *w != '*'; w++)
		;
	return strndup(p, (size_t)(w - p));
}

static int
do_database(struct r2s *st, const struct rp_object *ob)
{
	const char	*name = *ob->name ? ob->name : ob->schema;
	struct dbinfo	*d, *nd;

	if ((d = db_find(st, name)) == NULL) {
		nd = reallocarray(st->dbs, st->ndbs + 1, sizeof(*st->dbs));
		if (nd == NULL)
			return fail(st, "%s", strerror(errno));
		st->dbs = nd;
		d = &st->dbs[st->ndbs++];
		memset(d, 0, sizeof(*d));
		d->name = strdup(name);
		if ((d->collation = word_after(ob->ddl, "COLLATE ")) == NULL &&
		    (d->collation = word_after(ob->ddl, "CHARACTER SET ")) !=
		    NULL)
			d->by_charset = 1;
	}
	if (st->o->no_create_db)
		return 0;
	if (add_ddl_renamed(&st->out, ob->ddl, ob->ddl_len, name,
	    target_db(st, name), strstr(ob->ddl, "IF NOT EXISTS") ? NULL :
	    "IF NOT EXISTS ") == -1)
		return fail(st, "database %s: no name in its DDL", name);
	return stmt_end(st, ";");
}

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

/* The DDL of ob as the target should see it: renames, definer. */
static int
ddl_text(struct r2s *st, const struct rp_object *ob, const char *db,
    struct buf *b)
{
	const char	*ddl = ob->ddl;
	size_t		 len = ob->ddl_len, at = 0, skip = 0;
	struct buf	 t = BUF_INIT;
	const char	*trg;

	if (st->o->skip_definer && ob->kind != OBJ_TABLE &&
	    ob->kind != OBJ_SEQUENCE)
		skip = definer_span(ddl, len, &at);
	if (skip) {
		buf_add(&t, ddl, at);
		buf_add(&t, ddl + at + skip, len - at - skip);
	} else
		buf_add(&t, ddl, len);
	if (ob->kind == OBJ_TRIGGER && (trg = rp_kv_get(&ob->attrs,
	    "table")) != NULL && strcmp(target_table(st, db, trg), trg) != 0) {
		struct buf	 r = BUF_INIT;

		add_trigger_renamed(&r, t.p, t.len, trg,
		    target_table(st, db, trg));
		buf_release(&t);
		t = r;
	}
	if (ob->kind == OBJ_TABLE || ob->kind == OBJ_SEQUENCE) {
		if (add_ddl_renamed(b, t.p, t.len, ob->name,
		    target_table(st, db, ob->name), NULL) == -1) {
			buf_release(&t);
			return fail(st, "%s.%s: no name in its DDL", db,
			    ob->name);
		}
	} else if (st->o->ndb_renames > 0 || st->o->nrenames > 0)
		add_renamed_refs(st, b, t.p, t.len, db);
	else
		buf_add(b, t.p, t.len);
	buf_release(&t);
	return b->err ? fail(st, "%s", strerror(b->err)) : 0;
}

/* Is ob to be written, given --tables and --no-create? */
static int
object_wanted(struct r2s *st, const struct rp_object *ob)
{
	const char	*t;

	if (st->o->no_create)
		return 0;
	switch (ob->kind) {
	case OBJ_TABLE:
	case OBJ_SEQUENCE:
	case OBJ_VIEW:
		return keep_table(st, ob->schema, ob->name);
	case OBJ_TRIGGER:
		t = rp_kv_get(&ob->attrs, "table");
		if (!(st->o->ntables == 0 || (t != NULL &&
		    keep_table(st, ob->schema, t))))
			return 0;
		/*
		 * Trigger names are per database: a renamed table's trigger,
		 * dropped and created under its name in the same database,
		 * would take the trigger away from the original table.  With
		 * the database renamed too, it moves along safely.
		 */
		if (t != NULL && strcmp(target_table(st, ob->schema, t), t) != 0 &&
		    strcmp(target_db(st, ob->schema), ob->schema) == 0) {
			warnx("%s.%s: trigger of renamed table %s left out "
			    "(trigger names are per database; create it under "
			    "a new name by hand)", ob->schema, ob->name, t);
			return 0;
		}
		return 1;
	default:
		return st->o->ntables == 0;
	}
}

/*
 * Save the session context and set the one ob was created in: character
 * set, collation, sql_mode, time zone and, for routines, the database
 * collation (*restore: the collation to put back after, or NULL).
 */
static int
context_begin(struct r2s *st, const struct rp_object *ob, int routine,
    const char **restore)
{
	const char	*cdb, *tdb = target_db(st, ob->schema);
	struct dbinfo	*d;
	int		 first = 1;

	*restore = NULL;
	if (stmt(st, "/*!50003 SET @rp_saved_cs_client="
	    "@@character_set_client, @rp_saved_cs_results="
	    "@@character_set_results, @rp_saved_col_connection="
	    "@@collation_connection, @rp_saved_sql_mode=@@sql_mode, "
	    "@rp_saved_time_zone=@@time_zone */") == -1)
		return -1;
	set_attr(&st->out, ob, "character_set_client", "character_set_client",
	    &first);
	set_attr(&st->out, ob, "character_set_client",
	    "character_set_results", &first);
	set_attr(&st->out, ob, "collation_connection", "collation_connection",
	    &first);
	set_attr(&st->out, ob, "sql_mode", "sql_mode", &first);
	set_attr(&st->out, ob, "time_zone", "time_zone", &first);
	if (!first) {
		buf_adds(&st->out, " */");
		if (stmt_end(st, ";") == -1)
			return -1;
	}
	cdb = rp_kv_get(&ob->attrs, "collation_database");
	d = db_find(st, ob->schema);
	if (!routine || cdb == NULL || d == NULL || d->collation == NULL ||
	    d->by_charset || strcmp(cdb, d->collation) == 0 ||
	    strspn(cdb, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
	    strlen(cdb))
		return 0;
	*restore = d->collation;
	buf_adds(&st->out, "/*!50003 ALTER DATABASE ");
	quote_ident(&st->out, tdb, strlen(tdb));
	buf_addf(&st->out, " COLLATE %s */", cdb);
	return stmt_end(st, ";");
}

static int
context_end(struct r2s *st, const struct rp_object *ob, const char *restore)
{
	const char	*tdb = target_db(st, ob->schema);

	if (restore != NULL) {
		buf_adds(&st->out, "/*!50003 ALTER DATABASE ");
		quote_ident(&st->out, tdb, strlen(tdb));
		buf_addf(&st->out, " COLLATE %s */", restore);
		if (stmt_end(st, ";") == -1)
			return -1;
	}
	return stmt(st, "/*!50003 SET character_set_client="
	    "@rp_saved_cs_client, character_set_results="
	    "@rp_saved_cs_results, collation_connection="
	    "@rp_saved_col_connection, sql_mode=@rp_saved_sql_mode, "
	    "time_zone=@rp_saved_time_zone */");
}

/* The definition itself, in a DELIMITER block for routines. */
static int
definition(struct r2s *st, const struct rp_object *ob, const struct buf *ddl,
    int routine)
{
	const char	*delim = ";", *nl, *last;
	size_t		 ll;

	if (routine) {
		if ((delim = pick_delim(ddl->p, ddl->len)) == NULL)
			return fail(st, "%s.%s: no usable DELIMITER",
			    ob->schema, ob->name);
		buf_addf(&st->out, "DELIMITER %s\n", delim);
	}
	buf_add(&st->out, ddl->p, ddl->len);
	/*
	 * A text whose last line may end in a comment ("SELECT 1 -- c")
	 * would hide the delimiter: put it on a line of its own then.
	 */
	nl = memrchr(ddl->p, '\n', ddl->len);
	last = nl ? nl + 1 : ddl->p;
	ll = ddl->len - (size_t)(last - ddl->p);
	if (memmem(last, ll, "--", 2) != NULL || memchr(last, '#', ll) != NULL)
		buf_addc(&st->out, '\n');
	if (stmt_end(st, delim) == -1)
		return -1;
	if (routine) {
		/* Part of the block: a cut after it keeps it. */
		buf_adds(&st->out, "DELIMITER ;\n");
		if (!st->out.err)
			st->committed = st->out.len;
	}
	return 0;
}

/* A sequence's position, as mysqldump restores it. */
static int
sequence_state(struct r2s *st, const struct rp_object *ob, const char *name)
{
	const char	*v = rp_kv_get(&ob->attrs, "next_value");
	size_t		 neg;

	if (v == NULL || *v == '\0')
		return 0;
	neg = *v == '-';
	if (v[neg] == '\0' || strspn(v + neg, "0123456789") != strlen(v) - neg)
		return fail(st, "%s.%s: bad next_value", ob->schema, ob->name);
	buf_adds(&st->out, "DO SETVAL(");
	quote_ident(&st->out, name, strlen(name));
	buf_addf(&st->out, ", %s, 0)", v);
	return stmt_end(st, ";");
}

static int
do_object(struct r2s *st, const struct rp_object *ob)
{
	const char	*word = kind_word(ob->kind), *name, *restore = NULL;
	struct buf	 ddl = BUF_INIT;
	int		 table, routine, r = -1;

	if (word == NULL)
		return fail(st, "unknown object kind %d", ob->kind);
	if (!object_wanted(st, ob))
		return 0;
	if (close_insert(st) == -1 ||
	    use_db(st, target_db(st, ob->schema)) == -1)
		return -1;
	table = ob->kind == OBJ_TABLE || ob->kind == OBJ_SEQUENCE;
	routine = ob->kind == OBJ_PROCEDURE || ob->kind == OBJ_FUNCTION ||
	    ob->kind == OBJ_TRIGGER || ob->kind == OBJ_EVENT;
	name = table ? target_table(st, ob->schema, ob->name) : ob->name;
	if (!st->o->skip_drop) {
		buf_addf(&st->out, "DROP %s IF EXISTS ", word);
		quote_ident(&st->out, name, strlen(name));
		if (stmt_end(st, ";") == -1)
			return -1;
	}
	if (ddl_text(st, ob, ob->schema, &ddl) == -1)
		goto out;
	if (table) {
		if (definition(st, ob, &ddl, 0) == -1 ||
		    (ob->kind == OBJ_SEQUENCE &&
		    sequence_state(st, ob, name) == -1))
			goto out;
	} else if (context_begin(st, ob, routine, &restore) == -1 ||
	    definition(st, ob, &ddl, routine) == -1 ||
	    context_end(st, ob, restore) == -1)
		goto out;
	r = 0;
out:
	buf_release(&ddl);
	return r;
}

/* Tables and rows. */

static struct tbl *
tbl_find(struct r2s *st, uint64_t id)
{
	size_t	 i;

	if (st->last != NULL && st->last->id == id)
		return st->last;
	for (i = 0; i < st->ntbls; i++)
		if (st->tbls[i]->id == id)
			return st->last = st->tbls[i];
	return NULL;
}

static void
tbl_free(struct tbl *tb)
{
	if (tb == NULL)
		return;
	rp_table_free(tb->t);
	free(tb->cols);
	free(tb->vals);
	buf_release(&tb->prefix);
	buf_release(&tb->suffix);
	free(tb);
}

static int
is_temporal(unsigned type)
{
	/* MYSQL_TYPE_TIMESTAMP .. NEWDATE, TIMESTAMP2 .. TIME2. */
	return type == 7 || type == 10 || type == 11 || type == 12 ||
	    type == 14 || type == 17 || type == 18 || type == 19;
}

static void
col_setup(const struct r2s_opts *o, const struct rp_column *c, struct col *k)
{
	const char	*cs, *ct = c->coltype ? c->coltype : "";
	int		 cls;

	k->intro = "";
	k->intro_len = 0;
	if (c->flags & COL_NUMERIC)
		k->kind = VK_NUM;
	else if (c->type == 16 || strncmp(ct, "bit", 3) == 0)
		k->kind = VK_HEX;		/* BIT: an integer */
	else if (is_temporal(c->type) || strncmp(ct, "inet", 4) == 0 ||
	    strncmp(ct, "uuid", 4) == 0)
		k->kind = is_temporal(c->type) ? VK_TEMPORAL : VK_STR;
	else if ((c->flags & COL_BINARY) || c->type == 255 ||
	    c->charsetnr == 63)
		k->kind = o->hex_blob ? VK_HEX : VK_BINSTR;
	else {
		cls = charset_class(c->charsetnr, &cs);
		k->kind = cls;
		snprintf(k->introbuf, sizeof(k->introbuf), "_%s ", cs);
		k->intro = k->introbuf;
		k->intro_len = strlen(k->introbuf);
	}
}

static int
do_table(struct r2s *st, const struct frame *f)
{
	struct rp_table	*t;
	struct tbl	*tb, **nt;
	struct buf	*p;
	size_t		 i, n = 0, nupd = 0;

	if ((t = dec_table(f)) == NULL)
		return fail(st, "corrupt or unreadable table frame");
	if (t->ncols == 0) {
		rp_table_free(t);
		return fail(st, "table frame with no columns");
	}
	if ((tb = calloc(1, sizeof(*tb))) == NULL ||
	    (tb->cols = calloc(t->ncols, sizeof(*tb->cols))) == NULL ||
	    (tb->vals = calloc(t->ncols, sizeof(*tb->vals))) == NULL) {
		tbl_free(tb);
		rp_table_free(t);
		return fail(st, "%s", strerror(ENOMEM));
	}
	tb->t = t;
	tb->id = t->id;
	if (tbl_find(st, t->id) != NULL) {
		tbl_free(tb);
		return fail(st, "table id %" PRIu64 " sent twice", t->id);
	}
	nt = reallocarray(st->tbls, st->ntbls + 1, sizeof(*st->tbls));
	if (nt == NULL) {
		tbl_free(tb);
		return fail(st, "%s", strerror(ENOMEM));
	}
	st->tbls = nt;
	st->tbls[st->ntbls++] = tb;
	tb->keep = keep_table(st, t->schema, t->name) && !st->o->no_data;
	if (tb->keep) {
		const char *est = rp_kv_get(&t->attrs, "rows_estimate");

		st->tot_tables++;
		if (est != NULL)
			st->tot_rows += strtoull(est, NULL, 10);
		progress_total(st->prog, st->tot_tables, st->tot_rows, 0);
	}
	tb->db = (char *)target_db(st, t->schema);
	tb->name = (char *)target_table(st, t->schema, t->name);

	p = &tb->prefix;
	switch (st->o->insert) {
	case INS_IGNORE:	buf_adds(p, "INSERT IGNORE INTO "); break;
	case INS_REPLACE:	buf_adds(p, "REPLACE INTO "); break;
	default:		buf_adds(p, "INSERT INTO "); break;
	}
	quote_ident(p, tb->name, strlen(tb->name));
	buf_adds(p, " (");
	for (i = 0; i < t->ncols; i++) {
		struct rp_column *c = &t->cols[i];

		if (c->flags & (COL_ROW_START | COL_ROW_END))
			tb->versioned = 1;
		if ((c->flags & COL_GENERATED) &&
		    !(c->flags & (COL_ROW_START | COL_ROW_END)))
			continue;
		tb->cols[i].emit = 1;
		col_setup(st->o, c, &tb->cols[i]);
		if (n++ > 0)
			buf_addc(p, ',');
		quote_ident(p, c->name, strlen(c->name));
		if (st->o->insert == INS_UPSERT &&
		    !(c->flags & (COL_PRIMARY | COL_ROW_START | COL_ROW_END))) {
			buf_adds(&tb->suffix, nupd++ ? "," :
			    " ON DUPLICATE KEY UPDATE ");
			quote_ident(&tb->suffix, c->name, strlen(c->name));
			buf_adds(&tb->suffix, "=VALUES(");
			quote_ident(&tb->suffix, c->name, strlen(c->name));
			buf_addc(&tb->suffix, ')');
		}
	}
	buf_adds(p, ") VALUES ");
	/* An allocated (possibly empty) suffix: memcpy never sees NULL. */
	if (buf_grow(&tb->suffix, 1) == 0)
		tb->suffix.p[tb->suffix.len] = '\0';
	if (n == 0) {
		/* Only generated columns: rows are implied; write none. */
		tb->keep = 0;
	}
	if (p->err || tb->suffix.err)
		return fail(st, "%s", strerror(ENOMEM));
	return 0;
}

/* Lower bound of a row's tuple text: every value takes its length. */
static size_t
row_min(const struct tbl *tb)
{
	size_t	 i, n = 2;

	for (i = 0; i < tb->t->ncols; i++)
		if (tb->cols[i].emit)
			n += 1 + tb->vals[i].len;
	return n;
}

/* Upper bound of a row's tuple text. */
static size_t
row_bound(const struct tbl *tb)
{
	size_t	 i, n = 2;

	for (i = 0; i < tb->t->ncols; i++)
		if (tb->cols[i].emit)
			n += 1 + VALUE_MAX(tb->vals[i].len,
			    tb->cols[i].intro_len);
	return n;
}

/*
 * A row whose INSERT would not fit the target's max_allowed_packet: its
 * large values go into user variables in pieces (SET @v=0x...; SET
 * @v=CONCAT(@v,0x...)), then a single-row INSERT names the variables.
 * Works without a key; the server's max_allowed_packet still bounds one
 * value (CONCAT yields NULL beyond it).
 */
static int
row_pieces(struct r2s *st, struct tbl *tb)
{
	size_t	 i, off, n, chunk = (st->limit - 256) / 2, nvar = 0, start;
	char	*o;
	int	 first = 1;
	char	 var[32];

	for (i = 0; i < tb->t->ncols; i++) {
		const struct rp_val *v = &tb->vals[i];

		if (!tb->cols[i].emit || v->p == NULL ||
		    tb->cols[i].kind == VK_NUM || v->len <= PIECE_MIN)
			continue;
		snprintf(var, sizeof(var), "@rp_v%zu", i);
		for (off = 0; off < v->len; off += n) {
			n = v->len - off < chunk ? v->len - off : chunk;
			if (off == 0)
				buf_addf(&st->out, "SET %s=0x", var);
			else
				buf_addf(&st->out, "SET %s=IFNULL(CONCAT(%s,0x",
				    var, var);
			if (buf_grow(&st->out, 2 * n + 8) == -1)
				return fail(st, "%s", strerror(ENOMEM));
			o = hex_put(st->out.p + st->out.len, v->p + off, n);
			st->out.len = (size_t)(o - st->out.p);
			/*
			 * CONCAT yields NULL (a mere warning) past the
			 * server's max_allowed_packet: make that an error
			 * (1242, "Subquery returns more than 1 row") rather
			 * than a silent NULL.
			 */
			if (off > 0)
				buf_adds(&st->out,
				    "),(SELECT 1 UNION SELECT 2))");
			if (stmt_end(st, ";") == -1)
				return -1;
		}
		nvar++;
	}
	start = st->out.len;
	buf_add(&st->out, tb->prefix.p, tb->prefix.len);
	buf_addc(&st->out, '(');
	for (i = 0; i < tb->t->ncols; i++) {
		const struct col *k = &tb->cols[i];
		const struct rp_val *v = &tb->vals[i];

		if (!k->emit)
			continue;
		if (!first)
			buf_addc(&st->out, ',');
		first = 0;
		if (v->p != NULL && k->kind != VK_NUM && v->len > PIECE_MIN) {
			buf_addf(&st->out, "@rp_v%zu", i);
			continue;
		}
		if (buf_grow(&st->out, VALUE_MAX(v->len, k->intro_len)) == -1)
			return fail(st, "%s", strerror(ENOMEM));
		o = value_put(st->out.p + st->out.len, k->kind, k->intro,
		    k->intro_len, v->p, v->len);
		st->out.len = (size_t)(o - st->out.p);
	}
	buf_addc(&st->out, ')');
	buf_add(&st->out, tb->suffix.p, tb->suffix.len);
	if (st->out.err)
		return fail(st, "%s", strerror(ENOMEM));
	if (st->out.len - start + 1 > st->limit)
		return fail(st, "%s.%s: row %" PRIu64 " does not fit "
		    "max_allowed_packet %zu even in pieces", tb->t->schema,
		    tb->t->name, tb->rows, st->o->max_packet);
	if (stmt_end(st, ";") == -1)
		return -1;
	if (nvar == 0)
		return 0;
	buf_adds(&st->out, "SET ");
	first = 1;
	for (i = 0; i < tb->t->ncols; i++) {
		const struct rp_val *v = &tb->vals[i];

		if (!tb->cols[i].emit || v->p == NULL ||
		    tb->cols[i].kind == VK_NUM || v->len <= PIECE_MIN)
			continue;
		buf_addf(&st->out, "%s@rp_v%zu=NULL", first ? "" : ",", i);
		first = 0;
	}
	return stmt_end(st, ";");
}

static int
start_insert(struct r2s *st, struct tbl *tb)
{
	if (close_insert(st) == -1 || use_db(st, tb->db) == -1)
		return -1;
	if (tb->versioned && !st->insert_history) {
		if (stmt(st, "/*!101100 SET @@system_versioning_insert_history"
		    "=1 */") == -1)
			return -1;
		st->insert_history = 1;
	}
	return 0;
}

/* Append the current row of tb (in tb->vals) to the open INSERT. */
static int
add_row(struct r2s *st, struct tbl *tb)
{
	struct buf	*b = &st->out;
	size_t		 need, t0, tl, cut, extra;
	char		*o;

	need = row_bound(tb) + tb->prefix.len + tb->suffix.len + 8;
	if (st->open != tb && start_insert(st, tb) == -1)
		return -1;
	if (need > st->limit && row_min(tb) + tb->prefix.len > st->limit) {
		/* Surely oversize: no need to encode it whole first. */
		if (close_insert(st) == -1)
			return -1;
		return row_pieces(st, tb);
	}
	if (buf_grow(b, need) == -1)
		return fail(st, "%s", strerror(ENOMEM));
	if (st->open == NULL) {
		st->stmt_start = b->len;
		buf_put(b, tb->prefix.p, tb->prefix.len);
	} else
		b->p[b->len++] = ',';
	t0 = b->len;
	o = row_put(b->p + t0, tb->cols, tb->vals, tb->t->ncols,
	    (const char *)st->f->p + st->f->len);
	b->len = (size_t)(o - b->p);
	b->p[b->len] = '\0';
	tl = b->len - t0;

	if (tb->prefix.len + tl + tb->suffix.len + 1 > st->limit) {
		/* Oversize even alone: take it out and write it in pieces. */
		b->len = st->open == tb ? t0 - 1 : st->stmt_start;
		if (close_insert(st) == -1)
			return -1;
		return row_pieces(st, tb);
	}
	if (st->open == tb && b->len - st->stmt_start + tb->suffix.len + 1 >
	    st->max_stmt) {
		/* Close the statement before this row, start another. */
		extra = tb->suffix.len + 2 + tb->prefix.len;
		if (buf_grow(b, extra) == -1)
			return fail(st, "%s", strerror(ENOMEM));
		cut = t0 - 1;
		memmove(b->p + cut + extra, b->p + t0, tl);
		memcpy(b->p + cut, tb->suffix.p, tb->suffix.len);
		memcpy(b->p + cut + tb->suffix.len, ";\n", 2);
		memcpy(b->p + cut + tb->suffix.len + 2, tb->prefix.p,
		    tb->prefix.len);
		b->len = cut + extra + tl;
		b->p[b->len] = '\0';
		st->stmts++;
		st->stmt_start = cut + tb->suffix.len + 2;
		st->committed = st->stmt_start;
		if (st->committed >= OUT_FLUSH_AT) {
			st->open = tb;
			if (out_flush_committed(st) == -1)
				return -1;
		}
	}
	st->open = tb;
	if (b->len - st->stmt_start + tb->suffix.len + 1 >= st->max_stmt)
		return close_insert(st);
	return 0;
}

static int
do_rows(struct r2s *st, const struct frame *f)
{
	struct rp_rows	 r;
	struct tbl	*tb;
	int		 k;

	if (dec_rows_begin(f, &r) == -1)
		return fail(st, "corrupt rows frame");
	if ((tb = tbl_find(st, r.table_id)) == NULL)
		return fail(st, "rows for unknown table id %" PRIu64,
		    r.table_id);
	if (!tb->keep) {
		tb->rows += r.nrows;
		return 0;
	}
	progress_add(st->prog, 0, r.nrows, 0);
	while ((k = dec_rows_next(&r, tb->vals, tb->t->ncols)) == 1) {
		tb->rows++;
		if (add_row(st, tb) == -1)
			return -1;
	}
	if (k == -1)
		return fail(st, "%s.%s: corrupt row %" PRIu64, tb->t->schema,
		    tb->t->name, tb->rows + 1);
	/* Keep big outputs moving even inside one long INSERT run. */
	if (st->open == NULL && st->out.len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

static int
do_table_end(struct r2s *st, const struct frame *f)
{
	uint64_t	 id, rows;
	struct tbl	*tb;

	if (dec_table_end(f, &id, &rows) == -1)
		return fail(st, "corrupt table end frame");
	if ((tb = tbl_find(st, id)) == NULL)
		return fail(st, "end of unknown table id %" PRIu64, id);
	if (rows != tb->rows)
		return fail(st, "%s.%s: %" PRIu64 " rows announced, %" PRIu64
		    " received", tb->t->schema, tb->t->name, rows, tb->rows);
	if (tb->keep)
		progress_add(st->prog, 1, 0, 0);
	if (st->open == tb)
		return close_insert(st);
	return 0;
}

/* Header and footer. */

/* A header value for a comment line: printable ASCII only. */
static void
add_clean(struct buf *b, const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		buf_addc(b, *s >= 0x20 && *s < 0x7f ? *s : '?');
}

static int
do_header(struct r2s *st, const struct frame *f)
{
	static const char *const keys[] = { "producer", "server_version",
	    "snapshot_time", "consistency", "binlog_file", "binlog_pos",
	    "gtid_binlog_pos" };
	struct rp_kv	 kv;
	struct dec	 d;
	const char	*v, *tz;
	size_t		 i;

	dec_init(&d, f->p, f->len);
	if (dec_kv(&d, &kv) == -1)
		return fail(st, "corrupt header frame");
	buf_adds(&st->out, SQLTRAILER_HEADER);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if ((v = rp_kv_get(&kv, keys[i])) == NULL || *v == '\0')
			continue;
		buf_addf(&st->out, "-- %s: ", keys[i]);
		add_clean(&st->out, v);
		buf_addc(&st->out, '\n');
	}
	/* The zone TIMESTAMP values were read in (UTC from dbsnap). */
	if ((tz = rp_kv_get(&kv, "time_zone")) == NULL || *tz == '\0')
		tz = "+00:00";
	if (strlen(tz) > 64 || strspn(tz, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/+-:") != strlen(tz))
		return fail(st, "header: unusable time_zone");
	buf_adds(&st->out, "\n");
	if (stmt(st, "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, "
	    "SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */") == -1 ||
	    stmt(st, "/*!40101 SET @OLD_CHARACTER_SET_CLIENT="
	    "@@CHARACTER_SET_CLIENT */") == -1 ||
	    stmt(st, "/*!40101 SET @OLD_CHARACTER_SET_RESULTS="
	    "@@CHARACTER_SET_RESULTS */") == -1 ||
	    stmt(st, "/*!40101 SET @OLD_COLLATION_CONNECTION="
	    "@@COLLATION_CONNECTION */") == -1 ||
	    stmt(st, "/*!40101 SET NAMES utf8mb4 */") == -1)
		return -1;
	buf_addf(&st->out, "/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE, "
	    "TIME_ZONE='%s' */", tz);
	if (stmt_end(st, ";") == -1 ||
	    stmt(st, "/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, "
	    "UNIQUE_CHECKS=0 */") == -1 ||
	    stmt(st, "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS="
	    "@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */") == -1 ||
	    stmt(st, "/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, "
	    "SQL_NOTES=0 */") == -1 ||
	    /* MariaDB: rows that passed their CHECKs once load again even if
	     * a CHECK depends on the time; no statement timeout. */
	    stmt(st, "/*!100201 SET @OLD_CHECK_CONSTRAINT_CHECKS="
	    "@@CHECK_CONSTRAINT_CHECKS, CHECK_CONSTRAINT_CHECKS=0 */") == -1 ||
	    stmt(st, "/*!100108 SET @OLD_MAX_STATEMENT_TIME="
	    "@@MAX_STATEMENT_TIME, MAX_STATEMENT_TIME=0 */") == -1)
		return -1;
	return 0;
}

static int
do_footer(struct r2s *st)
{
	if (close_insert(st) == -1)
		return -1;
	if (st->insert_history && stmt(st, "/*!101100 SET "
	    "@@system_versioning_insert_history=0 */") == -1)
		return -1;
	if (stmt(st, "/*!40101 SET SQL_MODE=@OLD_SQL_MODE */") == -1 ||
	    stmt(st, "/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS "
	    "*/") == -1 ||
	    stmt(st, "/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */") == -1 ||
	    stmt(st, "/*!40101 SET CHARACTER_SET_CLIENT="
	    "@OLD_CHARACTER_SET_CLIENT */") == -1 ||
	    stmt(st, "/*!40101 SET CHARACTER_SET_RESULTS="
	    "@OLD_CHARACTER_SET_RESULTS */") == -1 ||
	    stmt(st, "/*!40101 SET COLLATION_CONNECTION="
	    "@OLD_COLLATION_CONNECTION */") == -1 ||
	    stmt(st, "/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */") == -1 ||
	    stmt(st, "/*!100201 SET CHECK_CONSTRAINT_CHECKS="
	    "@OLD_CHECK_CONSTRAINT_CHECKS */") == -1 ||
	    stmt(st, "/*!100108 SET MAX_STATEMENT_TIME=@OLD_MAX_STATEMENT_TIME "
	    "*/") == -1 ||
	    stmt(st, "/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */") == -1)
		return -1;
	return 0;
}

static int
do_trailer(struct r2s *st)
{
	struct sqltrailer t;
	struct buf	 b = BUF_INIT;

	if (out_flush(st) == -1)
		return -1;
	t.statements = st->stmts;
	t.bytes = st->written;
	t.xxh3 = r2s_hash_digest(st->xxh);
	sqltrailer_format(&b, &t);
	if (b.err || write_all(st->out_fd, b.p, b.len) == -1) {
		st->werr = b.err ? b.err : errno;
		buf_release(&b);
		return -1;
	}
	buf_release(&b);
	return 0;
}

static int
do_frame(struct r2s *st, const struct frame *f)
{
	struct rp_object ob;

	switch (f->type) {
	case FT_HEADER:
		return do_header(st, f);
	case FT_OBJECT:
		if (dec_object(f, &ob) == -1)
			return fail(st, "corrupt object frame");
		if (ob.kind == OBJ_DATABASE)
			return close_insert(st) == -1 ? -1 :
			    do_database(st, &ob);
		return do_object(st, &ob);
	case FT_TABLE:
		return do_table(st, f);
	case FT_ROWS:
		return do_rows(st, f);
	case FT_TABLE_END:
		return do_table_end(st, f);
	case FT_STMT:
		return fail(st, "a statement stream (from sqlsplit), not rows "
		    "and objects (from dbsnap)");
	default:
		return fail(st, "unexpected frame type %d", f->type);
	}
}

static void
r2s_free(struct r2s *st)
{
	size_t	 i;

	for (i = 0; i < st->ntbls; i++)
		tbl_free(st->tbls[i]);
	free(st->tbls);
	for (i = 0; i < st->ndbs; i++) {
		free(st->dbs[i].name);
		free(st->dbs[i].collation);
	}
	free(st->dbs);
	free(st->cur_db);
	buf_release(&st->out);
	r2s_hash_free(st->xxh);
}

int
rows2sql(int fd, int out_fd, const struct r2s_opts *o, const char **errmsg)
{
	static char	 msg[600];
	struct r2s	 st;
	struct frame_reader *fr;
	struct frame	 f;
	enum frame_status s;
	int		 r = -1;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.out_fd = out_fd;
	st.limit = o->max_packet > R2S_PACKET_SLACK * 2 ?
	    o->max_packet - R2S_PACKET_SLACK : o->max_packet / 2;
	st.max_stmt = o->max_stmt < st.limit ? o->max_stmt : st.limit;
	if ((fr = frame_reader_new(fd, 0)) == NULL ||
	    (st.prog = progress_new("rows2sql", "tables", o->progress)) ==
	    NULL ||
	    (st.xxh = r2s_hash_new()) == NULL) {
		snprintf(msg, sizeof(msg), "%s", strerror(ENOMEM));
		goto out;
	}
	for (;;) {
		s = frame_read(fr, &f);
		if (s == FRAME_ERR) {
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    frame_reader_errstr(fr));
			break;
		}
		if (s == FRAME_DONE) {
			st.f = NULL;
			if (do_footer(&st) == 0 && (o->no_trailer ?
			    out_flush(&st) : do_trailer(&st)) == 0)
				r = 0;
			break;
		}
		st.f = &f;
		if (do_frame(&st, &f) == -1)
			break;
		if (f.type != FT_HEADER)
			st.content = 1;
	}
	if (r == -1 && !st.werr) {
		/*
		 * Keep only whole statements, then write them out; none if
		 * nothing came after the header (not a snapshot stream, or
		 * one cut at once): a session preamble alone is no dump.
		 */
		st.out.len = st.content ? st.committed : 0;
		st.out.err = 0;
		if (out_flush(&st) == -1 && st.errbuf[0] == '\0')
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    strerror(st.werr));
	}
	if (st.werr && r == -1)
		snprintf(msg, sizeof(msg), "write: %s", strerror(st.werr));
	else
		snprintf(msg, sizeof(msg), "%s", st.errbuf[0] ? st.errbuf :
		    "out of memory");
out:
	if (r == 0)
		progress_done(st.prog);
	else if (st.prog != NULL)
		progress_clear(st.prog);
	progress_free(st.prog);
	frame_reader_free(fr);
	r2s_free(&st);
	*errmsg = msg;
	return r;
}
