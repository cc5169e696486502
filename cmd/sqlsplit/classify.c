/*
 * classify: what a statement is (enum rp_stmt_kind) and what it touches
 * (schema, table; for a SET, whether it is the session's: lib/sqlset.h),
 * from its tokens (lib/sqltok, in the sql_mode in effect: it looks
 * through comments and into executable comments); and
 * the session's sql_mode, followed through SET, since the client lexes
 * by the server's NO_BACKSLASH_ESCAPES and ANSI_QUOTES status flags.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "frame.h"
#include "sqlset.h"
#include "state.h"

static int
punct(const struct sqltok *t, int c)
{
	return t->kind == SQLTOK_PUNCT && *t->p == c;
}

/* An identifier's name, unquoted, into b.  0, or -1 if not a name. */
static int
ident(const struct sqltok *t, struct buf *b)
{
	size_t	 i;
	char	 q;

	buf_reset(b);
	if (t->kind == SQLTOK_WORD) {
		buf_add(b, t->p, t->len);
		return 0;
	}
	if (t->kind != SQLTOK_IDENT || t->len < 2)
		return -1;
	q = t->p[0];
	for (i = 1; i + 1 < t->len; i++) {
		buf_addc(b, t->p[i]);
		if (t->p[i] == q && t->p[i + 1] == q)
			i++;
	}
	return 0;
}

/* [schema.]name into s->schema and s->table. */
static void
target(struct split *s, struct sqltok_lexer *l, struct sqltok *t)
{
	struct sqltok_lexer	 save;
	struct sqltok	 dot, n2;

	if (ident(t, &s->table) == -1)
		return;
	save = *l;
	sqltok_next(l, &dot);
	if (punct(&dot, '.')) {
		sqltok_next(l, &n2);
		if (n2.kind == SQLTOK_WORD || n2.kind == SQLTOK_IDENT) {
			ident(t, &s->schema);
			ident(&n2, &s->table);
			return;
		}
	}
	*l = save;
}

static void
skip_if_exists(struct sqltok_lexer *l, struct sqltok *t)
{
	struct sqltok_lexer	 save = *l;

	if (!sqltok_is(t, "IF"))
		return;
	sqltok_next(l, t);
	if (sqltok_is(t, "NOT"))
		sqltok_next(l, t);
	if (sqltok_is(t, "EXISTS")) {
		sqltok_next(l, t);
		return;
	}
	*l = save;
}

/* CREATE/ALTER modifiers before the object type. */
static void
skip_modifiers(struct sqltok_lexer *l, struct sqltok *t)
{
	for (;;) {
		if (sqltok_is(t, "OR") || sqltok_is(t, "REPLACE") || sqltok_is(t, "TEMPORARY") ||
		    sqltok_is(t, "AGGREGATE") || sqltok_is(t, "UNIQUE") ||
		    sqltok_is(t, "FULLTEXT") || sqltok_is(t, "SPATIAL") || sqltok_is(t, "ONLINE") ||
		    sqltok_is(t, "OFFLINE") || sqltok_is(t, "IGNORE")) {
			sqltok_next(l, t);
			continue;
		}
		if (sqltok_is(t, "SQL")) {		/* SQL SECURITY x */
			sqltok_next(l, t);
			if (sqltok_is(t, "SECURITY")) {
				sqltok_next(l, t);
				sqltok_next(l, t);
			}
			continue;
		}
		if (sqltok_is(t, "ALGORITHM")) {
			sqltok_next(l, t);
			if (punct(t, '='))
				sqltok_next(l, t);
			sqltok_next(l, t);
			continue;
		}
		if (sqltok_is(t, "DEFINER")) {
			sqltok_next(l, t);
			if (punct(t, '='))
				sqltok_next(l, t);
			if (sqltok_is(t, "CURRENT_USER") || sqltok_is(t, "CURRENT_ROLE")) {
				sqltok_next(l, t);
				if (punct(t, '(')) {
					sqltok_next(l, t);
					if (punct(t, ')'))
						sqltok_next(l, t);
				}
				continue;
			}
			sqltok_next(l, t);		/* user */
			if (punct(t, '@')) {
				sqltok_next(l, t);	/* host */
				sqltok_next(l, t);
			}
			continue;
		}
		/* SQL SECURITY DEFINER: DEFINER alone as a value */
		return;
	}
}

static struct uvar *
uvar_get(struct split *s, const struct sqltok *t, int create)
{
	size_t	 i, n = t->len;

	if (n >= sizeof(s->uvars[0].name))
		return NULL;
	for (i = 0; i < s->nuvars; i++)
		if (strlen(s->uvars[i].name) == n &&
		    strncasecmp(s->uvars[i].name, t->p, n) == 0)
			return &s->uvars[i];
	if (!create || s->nuvars == UVAR_MAX)
		return NULL;
	memcpy(s->uvars[s->nuvars].name, t->p, n);
	s->uvars[s->nuvars].name[n] = '\0';
	return &s->uvars[s->nuvars++];
}

/*
 * The value of a sql_mode expression: a literal, @@sql_mode, @var or
 * DEFAULT; -1 if unknown.  Leaves t on the token after it.
 */
static int
mode_value(struct split *s, struct sqltok_lexer *l, struct sqltok *t)
{
	struct uvar	*v;
	int		 m = -1;

	if (t->kind == SQLTOK_STRING && t->len >= 2) {
		m = sqltok_sql_mode(t->p + 1, t->len - 2);
		sqltok_next(l, t);
	} else if (sqltok_is(t, "DEFAULT")) {
		m = s->mode0;
		sqltok_next(l, t);
	} else if (t->kind == SQLTOK_NUMBER && t->len > 0 && t->len < 20 &&
	    strspn(t->p, "0123456789") >= t->len) {
		/* As mysqlbinlog writes it: ANSI_QUOTES is bit 2,
		 * NO_BACKSLASH_ESCAPES bit 20 (MariaDB's sql_mode flags). */
		unsigned long long	 v = strtoull(t->p, NULL, 10);

		m = (v & (1ULL << 20) ? MODE_NBE : 0) |
		    (v & (1ULL << 2) ? MODE_ANSIQ : 0);
		sqltok_next(l, t);
	} else if (punct(t, '@')) {
		sqltok_next(l, t);
		if (punct(t, '@')) {
			sqltok_next(l, t);
			if (sqltok_is(t, "SESSION") || sqltok_is(t, "LOCAL")) {
				sqltok_next(l, t);
				if (punct(t, '.'))
					sqltok_next(l, t);
			}
			if (sqltok_is(t, "SQL_MODE"))
				m = s->mode;
			sqltok_next(l, t);
		} else {
			if ((v = uvar_get(s, t, 0)) != NULL)
				m = v->mode;
			sqltok_next(l, t);
		}
	}
	if (!(t->kind == SQLTOK_END || punct(t, ',')))
		m = -1;
	return m;
}

/*
 * Character sets in which the second byte of a two-byte character may be
 * 0x5C (a backslash) or 0x60 (a backtick): sjis, cp932, gbk, big5 and
 * gb18030.  Text in them cannot be cut as bytes (the client reads it by
 * my_ismbchar() of the character set it was started with).  By name, or
 * by collation id as mysqlbinlog writes character_set_client (MariaDB
 * 10.11 information_schema.COLLATIONS, the _nopad ones included; MySQL
 * 8's gb18030 248-250).
 */
static int
unsafe_charset(const struct sqltok *t, char *name, size_t namesz)
{
	static const char *const names[] = { "sjis", "cp932", "gbk", "big5",
	    "gb18030", NULL };
	static const unsigned ids[] = { 1, 13, 28, 84, 87, 88, 95, 96, 248,
	    249, 250, 1025, 1037, 1052, 1108, 1111, 1112, 1119, 1120, 0 };
	char		 buf[65];
	unsigned long	 v;
	size_t		 i;

	if (t->kind == SQLTOK_NUMBER && t->len < 10 &&
	    strspn(t->p, "0123456789") >= t->len) {
		v = strtoul(t->p, NULL, 10);
		for (i = 0; ids[i] != 0; i++)
			if (v == ids[i]) {
				snprintf(name, namesz, "of collation id %lu",
				    v);
				return 1;
			}
		return 0;
	}
	if (t->kind == SQLTOK_STRING && t->len >= 2 && t->len - 2 < sizeof(buf)) {
		memcpy(buf, t->p + 1, t->len - 2);
		buf[t->len - 2] = '\0';
	} else if (t->kind == SQLTOK_WORD || t->kind == SQLTOK_IDENT) {
		if (sqltok_ident(t, buf, sizeof(buf)) < 0)
			return 0;
	} else
		return 0;
	for (i = 0; names[i] != NULL; i++)
		if (strcasecmp(buf, names[i]) == 0) {
			snprintf(name, namesz, "%s", names[i]);
			return 1;
		}
	return 0;
}

/*
 * SET ...: follow the session sql_mode, since the client lexes by the
 * server's NO_BACKSLASH_ESCAPES and ANSI_QUOTES status flags; and note
 * in s->badcs a switch of the client character set (SET NAMES, SET
 * CHARACTER SET, character_set_client) to one that cannot be cut as
 * bytes (unsafe_charset()), which emit_stmt() refuses.
 */
static void
track_set(struct split *s, struct sqltok_lexer *l)
{
	struct sqltok	 t, name;
	struct uvar	*v;
	int		 m, uv, global;

	sqltok_next(l, &t);
	for (;;) {
		global = uv = 0;
		if (sqltok_is(&t, "NAMES") || sqltok_is(&t, "CHARSET") ||
		    sqltok_is(&t, "CHARACTER")) {
			const char *what = sqltok_is(&t, "NAMES") ? "SET NAMES" :
			    "SET CHARACTER SET";

			sqltok_next(l, &t);
			if (sqltok_is(&t, "SET"))
				sqltok_next(l, &t);
			if (s->badcs[0] == '\0' &&
			    unsafe_charset(&t, s->badcs, sizeof(s->badcs)))
				snprintf(s->badwhat, sizeof(s->badwhat), "%s",
				    what);
			goto next;
		}
		if (sqltok_is(&t, "GLOBAL")) {
			global = 1;
			sqltok_next(l, &t);
		} else if (sqltok_is(&t, "SESSION") || sqltok_is(&t, "LOCAL"))
			sqltok_next(l, &t);
		if (punct(&t, '@')) {
			sqltok_next(l, &t);
			if (punct(&t, '@')) {
				sqltok_next(l, &t);
				if (sqltok_is(&t, "GLOBAL"))
					global = 1;
				if (sqltok_is(&t, "GLOBAL") || sqltok_is(&t, "SESSION") ||
				    sqltok_is(&t, "LOCAL")) {
					sqltok_next(l, &t);
					if (punct(&t, '.'))
						sqltok_next(l, &t);
				}
			} else
				uv = 1;
		}
		name = t;
		sqltok_next(l, &t);
		if (punct(&t, ':'))
			sqltok_next(l, &t);
		if (!punct(&t, '='))
			return;
		sqltok_next(l, &t);
		if (uv) {
			m = mode_value(s, l, &t);
			if ((v = uvar_get(s, &name, m != -1)) != NULL) {
				if (m == -1)
					*v = s->uvars[--s->nuvars];
				else
					v->mode = m;
			}
		} else if (sqltok_is(&name, "SQL_MODE") && !global) {
			m = mode_value(s, l, &t);
			if (m == -1)
				swarn(s, "cannot follow this sql_mode change; "
				    "backslash handling may differ from the "
				    "server's");
			else
				s->mode = m;
		} else if (sqltok_is(&name, "CHARACTER_SET_CLIENT") && !global &&
		    s->badcs[0] == '\0' &&
		    unsafe_charset(&t, s->badcs, sizeof(s->badcs)))
			snprintf(s->badwhat, sizeof(s->badwhat), "%s",
			    "SET character_set_client");
next:
		if (!sqlset_next(l, &t))
			return;
	}
}

int
classify(struct split *s, const char *p, size_t n)
{
	struct sqltok_lexer	 l;
	struct sqltok	 t;
	int		 kind = STK_OTHER;

	sqltok_init(&l, p, n, s->mode);
	buf_reset(&s->schema);
	buf_reset(&s->table);
	sqltok_next(&l, &t);
	if (sqltok_is(&t, "INSERT") || sqltok_is(&t, "REPLACE")) {
		kind = STK_INSERT;
		do
			sqltok_next(&l, &t);
		while (sqltok_is(&t, "LOW_PRIORITY") || sqltok_is(&t, "DELAYED") ||
		    sqltok_is(&t, "HIGH_PRIORITY") || sqltok_is(&t, "IGNORE"));
		if (sqltok_is(&t, "INTO"))
			sqltok_next(&l, &t);
		target(s, &l, &t);
	} else if (sqltok_is(&t, "CREATE") || sqltok_is(&t, "ALTER")) {
		int create = sqltok_is(&t, "CREATE");

		kind = create ? STK_OTHER : STK_ALTER;
		sqltok_next(&l, &t);
		skip_modifiers(&l, &t);
		if (sqltok_is(&t, "TABLE") || sqltok_is(&t, "SEQUENCE")) {
			if (create && sqltok_is(&t, "TABLE"))
				kind = STK_CREATE_TABLE;
			sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (sqltok_is(&t, "VIEW")) {
			if (create)
				kind = STK_CREATE_VIEW;
			sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (sqltok_is(&t, "PROCEDURE") || sqltok_is(&t, "FUNCTION") ||
		    sqltok_is(&t, "PACKAGE")) {
			if (create)
				kind = STK_CREATE_ROUTINE;
			sqltok_next(&l, &t);
			if (sqltok_is(&t, "BODY"))
				sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (sqltok_is(&t, "EVENT")) {
			if (create)
				kind = STK_CREATE_EVENT;
			sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (sqltok_is(&t, "DATABASE") || sqltok_is(&t, "SCHEMA")) {
			if (create)
				kind = STK_CREATE_DATABASE;
			sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (sqltok_is(&t, "TRIGGER") || sqltok_is(&t, "INDEX")) {
			if (create && sqltok_is(&t, "TRIGGER"))
				kind = STK_CREATE_TRIGGER;
			while (t.kind != SQLTOK_END && !sqltok_is(&t, "ON"))
				sqltok_next(&l, &t);
			sqltok_next(&l, &t);
			target(s, &l, &t);
		}
	} else if (sqltok_is(&t, "DROP")) {
		kind = STK_DROP;
		sqltok_next(&l, &t);
		if (sqltok_is(&t, "TEMPORARY"))
			sqltok_next(&l, &t);
		if (sqltok_is(&t, "DATABASE") || sqltok_is(&t, "SCHEMA")) {
			sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (sqltok_is(&t, "INDEX")) {
			while (t.kind != SQLTOK_END && !sqltok_is(&t, "ON"))
				sqltok_next(&l, &t);
			sqltok_next(&l, &t);
			target(s, &l, &t);
		} else if (t.kind == SQLTOK_WORD) {
			sqltok_next(&l, &t);
			if (sqltok_is(&t, "BODY"))
				sqltok_next(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		}
	} else if (sqltok_is(&t, "SET")) {
		/* (in the mode before the SET: it may change it) */
		kind = sqlset_kind(p, n, s->mode);
		track_set(s, &l);
	} else if (sqltok_is(&t, "USE")) {
		kind = STK_USE;
		sqltok_next(&l, &t);
		if (ident(&t, &s->schema) == 0 && s->schema.len > 0) {
			buf_reset(&s->db);
			buf_add(&s->db, s->schema.p, s->schema.len);
		}
	} else if (sqltok_is(&t, "LOCK")) {
		sqltok_next(&l, &t);
		if (sqltok_is(&t, "TABLES") || sqltok_is(&t, "TABLE")) {
			kind = STK_LOCK;
			sqltok_next(&l, &t);
			target(s, &l, &t);
		}
	} else if (sqltok_is(&t, "UNLOCK")) {
		kind = STK_UNLOCK;
	} else if (sqltok_is(&t, "BEGIN")) {
		sqltok_next(&l, &t);
		if (!sqltok_is(&t, "NOT") && (t.kind == SQLTOK_END || sqltok_is(&t, "WORK")))
			kind = STK_TRANSACTION;
	} else if (sqltok_is(&t, "START")) {
		sqltok_next(&l, &t);
		if (sqltok_is(&t, "TRANSACTION"))
			kind = STK_TRANSACTION;
	} else if (sqltok_is(&t, "COMMIT") || sqltok_is(&t, "ROLLBACK") ||
	    sqltok_is(&t, "SAVEPOINT") || sqltok_is(&t, "RELEASE")) {
		kind = STK_TRANSACTION;
	} else if (sqltok_is(&t, "UPDATE")) {
		kind = STK_UPDATE;
		do
			sqltok_next(&l, &t);
		while (sqltok_is(&t, "LOW_PRIORITY") || sqltok_is(&t, "IGNORE"));
		target(s, &l, &t);
	} else if (sqltok_is(&t, "DELETE")) {
		kind = STK_DELETE;
		do
			sqltok_next(&l, &t);
		while (sqltok_is(&t, "LOW_PRIORITY") || sqltok_is(&t, "QUICK") ||
		    sqltok_is(&t, "IGNORE"));
		if (sqltok_is(&t, "FROM"))
			sqltok_next(&l, &t);
		target(s, &l, &t);
	} else if (sqltok_is(&t, "TRUNCATE")) {
		kind = STK_DELETE;
		sqltok_next(&l, &t);
		if (sqltok_is(&t, "TABLE"))
			sqltok_next(&l, &t);
		target(s, &l, &t);
	} else if (sqltok_is(&t, "LOAD")) {
		sqltok_next(&l, &t);
		if (sqltok_is(&t, "DATA") || sqltok_is(&t, "XML")) {
			kind = STK_LOAD;
			while (t.kind != SQLTOK_END && !sqltok_is(&t, "INTO"))
				sqltok_next(&l, &t);
			sqltok_next(&l, &t);
			if (sqltok_is(&t, "TABLE"))
				sqltok_next(&l, &t);
			target(s, &l, &t);
		}
	}
	return kind;
}
