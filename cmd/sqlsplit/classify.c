/*
 * classify: what a statement is (enum rp_stmt_kind) and what it touches
 * (schema, table), from a tiny tokenizer over its text that looks
 * through comments and into executable comments; and the session's
 * sql_mode, followed through SET, since the client lexes by the
 * server's NO_BACKSLASH_ESCAPES and ANSI_QUOTES status flags.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "frame.h"
#include "state.h"

/*
 * Classification: a tiny tokenizer over the statement text that looks
 * through comments and into executable comments.
 */
enum { TK_END, TK_WORD, TK_QID, TK_STR, TK_PUNCT };


struct tok {
	int		 type;
	const char	*p;
	size_t		 len;
};

struct lexer {
	const char	*p, *e;
	int		 depth;		/* open version comments */
};

static int
is_word(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

static void
lex(struct lexer *l, struct tok *t)
{
	const char	*p = l->p, *e = l->e, *q;
	long		 ver;

	for (;;) {
		while (p < e && is_space((unsigned char)*p))
			p++;
		if (p >= e) {
			t->type = TK_END;
			l->p = p;
			return;
		}
		if (*p == '#' || (*p == '-' && e - p >= 2 && p[1] == '-' &&
		    (e - p == 2 || is_space((unsigned char)p[2]) ||
		    iscntrl((unsigned char)p[2])))) {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		if (*p == '/' && e - p >= 2 && p[1] == '*') {
			q = p + 2;
			if (q < e && *q == 'M' && q + 1 < e && q[1] == '!')
				q++;
			if (q < e && *q == '!') {
				q++;
				ver = 0;
				while (q < e && isdigit((unsigned char)*q)) {
					if (ver < 10000000)
						ver = ver * 10 + (*q - '0');
					q++;
				}
				if (ver < 999900) {
					l->depth++;
					p = q;
					continue;
				}
			}
			q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 2 <= e ? q + 2 : e;
			continue;
		}
		if (*p == '*' && l->depth > 0 && e - p >= 2 && p[1] == '/') {
			l->depth--;
			p += 2;
			continue;
		}
		break;
	}
	t->p = p;
	if (*p == '`' || *p == '\'' || *p == '"') {
		q = p + 1;
		while (q < e) {
			if (*q == '\\' && *p != '`' && q + 1 < e) {
				q += 2;
				continue;
			}
			if (*q == *p) {
				if (q + 1 < e && q[1] == *p) {
					q += 2;
					continue;
				}
				break;
			}
			q++;
		}
		t->type = *p == '`' ? TK_QID : TK_STR;
		t->len = (size_t)((q < e ? q + 1 : e) - p);
		l->p = p + t->len;
		return;
	}
	if (is_word((unsigned char)*p)) {
		for (q = p; q < e && is_word((unsigned char)*q); q++)
			;
		t->type = TK_WORD;
		t->len = (size_t)(q - p);
		l->p = q;
		return;
	}
	t->type = TK_PUNCT;
	t->len = 1;
	l->p = p + 1;
}

static int
kw(const struct tok *t, const char *w)
{
	return t->type == TK_WORD && strlen(w) == t->len &&
	    strncasecmp(t->p, w, t->len) == 0;
}

static int
punct(const struct tok *t, int c)
{
	return t->type == TK_PUNCT && *t->p == c;
}

/* An identifier's name, unquoted, into b.  0, or -1 if not a name. */
static int
ident(const struct tok *t, struct buf *b)
{
	size_t	 i;

	buf_reset(b);
	if (t->type == TK_WORD) {
		buf_add(b, t->p, t->len);
		return 0;
	}
	if (t->type != TK_QID || t->len < 2)
		return -1;
	for (i = 1; i + 1 < t->len; i++) {
		buf_addc(b, t->p[i]);
		if (t->p[i] == '`' && t->p[i + 1] == '`')
			i++;
	}
	return 0;
}

/* [schema.]name into s->schema and s->table. */
static void
target(struct split *s, struct lexer *l, struct tok *t)
{
	struct lexer	 save;
	struct tok	 dot, n2;

	if (ident(t, &s->table) == -1)
		return;
	save = *l;
	lex(l, &dot);
	if (punct(&dot, '.')) {
		lex(l, &n2);
		if (n2.type == TK_WORD || n2.type == TK_QID) {
			ident(t, &s->schema);
			ident(&n2, &s->table);
			return;
		}
	}
	*l = save;
}

static void
skip_if_exists(struct lexer *l, struct tok *t)
{
	struct lexer	 save = *l;

	if (!kw(t, "IF"))
		return;
	lex(l, t);
	if (kw(t, "NOT"))
		lex(l, t);
	if (kw(t, "EXISTS")) {
		lex(l, t);
		return;
	}
	*l = save;
}

/* CREATE/ALTER modifiers before the object type. */
static void
skip_modifiers(struct lexer *l, struct tok *t)
{
	for (;;) {
		if (kw(t, "OR") || kw(t, "REPLACE") || kw(t, "TEMPORARY") ||
		    kw(t, "AGGREGATE") || kw(t, "UNIQUE") ||
		    kw(t, "FULLTEXT") || kw(t, "SPATIAL") || kw(t, "ONLINE") ||
		    kw(t, "OFFLINE") || kw(t, "IGNORE")) {
			lex(l, t);
			continue;
		}
		if (kw(t, "SQL")) {		/* SQL SECURITY x */
			lex(l, t);
			if (kw(t, "SECURITY")) {
				lex(l, t);
				lex(l, t);
			}
			continue;
		}
		if (kw(t, "ALGORITHM")) {
			lex(l, t);
			if (punct(t, '='))
				lex(l, t);
			lex(l, t);
			continue;
		}
		if (kw(t, "DEFINER")) {
			lex(l, t);
			if (punct(t, '='))
				lex(l, t);
			if (kw(t, "CURRENT_USER") || kw(t, "CURRENT_ROLE")) {
				lex(l, t);
				if (punct(t, '(')) {
					lex(l, t);
					if (punct(t, ')'))
						lex(l, t);
				}
				continue;
			}
			lex(l, t);		/* user */
			if (punct(t, '@')) {
				lex(l, t);	/* host */
				lex(l, t);
			}
			continue;
		}
		/* SQL SECURITY DEFINER: DEFINER alone as a value */
		return;
	}
}

/* sql_mode flags of a mode list such as 'ANSI,NO_BACKSLASH_ESCAPES'. */
static int
mode_parse(const char *p, size_t n)
{
	static const char *const ansiq[] = { "ANSI_QUOTES", "ANSI", "ORACLE",
	    "MSSQL", "DB2", "POSTGRESQL", "MAXDB", NULL };
	const char	*e = p + n, *w;
	size_t		 wl;
	int		 m = 0, i;

	while (p < e) {
		while (p < e && (*p == ',' || *p == ' '))
			p++;
		for (w = p; p < e && *p != ','; p++)
			;
		wl = (size_t)(p - w);
		while (wl > 0 && w[wl - 1] == ' ')
			wl--;
		if (wl == 20 && strncasecmp(w, "NO_BACKSLASH_ESCAPES", 20) == 0)
			m |= MODE_NBE;
		for (i = 0; ansiq[i] != NULL; i++)
			if (strlen(ansiq[i]) == wl &&
			    strncasecmp(w, ansiq[i], wl) == 0)
				m |= MODE_ANSIQ;
	}
	return m;
}

static struct uvar *
uvar_get(struct split *s, const struct tok *t, int create)
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
mode_value(struct split *s, struct lexer *l, struct tok *t)
{
	struct uvar	*v;
	int		 m = -1;

	if (t->type == TK_STR && t->len >= 2) {
		m = mode_parse(t->p + 1, t->len - 2);
		lex(l, t);
	} else if (kw(t, "DEFAULT")) {
		m = s->mode0;
		lex(l, t);
	} else if (t->type == TK_WORD && t->len > 0 && t->len < 20 &&
	    strspn(t->p, "0123456789") >= t->len) {
		/* As mysqlbinlog writes it: ANSI_QUOTES is bit 2,
		 * NO_BACKSLASH_ESCAPES bit 20 (MariaDB's sql_mode flags). */
		unsigned long long	 v = strtoull(t->p, NULL, 10);

		m = (v & (1ULL << 20) ? MODE_NBE : 0) |
		    (v & (1ULL << 2) ? MODE_ANSIQ : 0);
		lex(l, t);
	} else if (punct(t, '@')) {
		lex(l, t);
		if (punct(t, '@')) {
			lex(l, t);
			if (kw(t, "SESSION") || kw(t, "LOCAL")) {
				lex(l, t);
				if (punct(t, '.'))
					lex(l, t);
			}
			if (kw(t, "SQL_MODE"))
				m = s->mode;
			lex(l, t);
		} else {
			if ((v = uvar_get(s, t, 0)) != NULL)
				m = v->mode;
			lex(l, t);
		}
	}
	if (!(t->type == TK_END || punct(t, ',')))
		m = -1;
	return m;
}

/*
 * SET ...: follow the session sql_mode, since the client lexes by the
 * server's NO_BACKSLASH_ESCAPES and ANSI_QUOTES status flags.
 */
static void
track_set(struct split *s, struct lexer *l)
{
	struct tok	 t, name;
	struct uvar	*v;
	int		 m, uv, global, depth;

	lex(l, &t);
	for (;;) {
		global = uv = 0;
		if (kw(&t, "GLOBAL")) {
			global = 1;
			lex(l, &t);
		} else if (kw(&t, "SESSION") || kw(&t, "LOCAL"))
			lex(l, &t);
		if (punct(&t, '@')) {
			lex(l, &t);
			if (punct(&t, '@')) {
				lex(l, &t);
				if (kw(&t, "GLOBAL"))
					global = 1;
				if (kw(&t, "GLOBAL") || kw(&t, "SESSION") ||
				    kw(&t, "LOCAL")) {
					lex(l, &t);
					if (punct(&t, '.'))
						lex(l, &t);
				}
			} else
				uv = 1;
		}
		name = t;
		lex(l, &t);
		if (punct(&t, ':'))
			lex(l, &t);
		if (!punct(&t, '='))
			return;
		lex(l, &t);
		if (uv) {
			m = mode_value(s, l, &t);
			if ((v = uvar_get(s, &name, m != -1)) != NULL) {
				if (m == -1)
					*v = s->uvars[--s->nuvars];
				else
					v->mode = m;
			}
		} else if (kw(&name, "SQL_MODE") && !global) {
			m = mode_value(s, l, &t);
			if (m == -1)
				swarn(s, "cannot follow this sql_mode change; "
				    "backslash handling may differ from the "
				    "server's");
			else
				s->mode = m;
		}
		/* skip to the next top-level comma */
		for (depth = 0; t.type != TK_END; lex(l, &t)) {
			if (punct(&t, '('))
				depth++;
			else if (punct(&t, ')'))
				depth--;
			else if (punct(&t, ',') && depth <= 0)
				break;
		}
		if (t.type == TK_END)
			return;
		lex(l, &t);
	}
}

int
classify(struct split *s, const char *p, size_t n)
{
	struct lexer	 l = { p, p + n, 0 };
	struct tok	 t;
	int		 kind = STK_OTHER;

	buf_reset(&s->schema);
	buf_reset(&s->table);
	lex(&l, &t);
	if (kw(&t, "INSERT") || kw(&t, "REPLACE")) {
		kind = STK_INSERT;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "DELAYED") ||
		    kw(&t, "HIGH_PRIORITY") || kw(&t, "IGNORE"));
		if (kw(&t, "INTO"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "CREATE") || kw(&t, "ALTER")) {
		int create = kw(&t, "CREATE");

		kind = create ? STK_OTHER : STK_ALTER;
		lex(&l, &t);
		skip_modifiers(&l, &t);
		if (kw(&t, "TABLE") || kw(&t, "SEQUENCE")) {
			if (create && kw(&t, "TABLE"))
				kind = STK_CREATE_TABLE;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "VIEW")) {
			if (create)
				kind = STK_CREATE_VIEW;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "PROCEDURE") || kw(&t, "FUNCTION") ||
		    kw(&t, "PACKAGE")) {
			if (create)
				kind = STK_CREATE_ROUTINE;
			lex(&l, &t);
			if (kw(&t, "BODY"))
				lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "EVENT")) {
			if (create)
				kind = STK_CREATE_EVENT;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "DATABASE") || kw(&t, "SCHEMA")) {
			if (create)
				kind = STK_CREATE_DATABASE;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (kw(&t, "TRIGGER") || kw(&t, "INDEX")) {
			if (create && kw(&t, "TRIGGER"))
				kind = STK_CREATE_TRIGGER;
			while (t.type != TK_END && !kw(&t, "ON"))
				lex(&l, &t);
			lex(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "DROP")) {
		kind = STK_DROP;
		lex(&l, &t);
		if (kw(&t, "TEMPORARY"))
			lex(&l, &t);
		if (kw(&t, "DATABASE") || kw(&t, "SCHEMA")) {
			lex(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (kw(&t, "INDEX")) {
			while (t.type != TK_END && !kw(&t, "ON"))
				lex(&l, &t);
			lex(&l, &t);
			target(s, &l, &t);
		} else if (t.type == TK_WORD) {
			lex(&l, &t);
			if (kw(&t, "BODY"))
				lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "SET")) {
		kind = STK_SET;
		track_set(s, &l);
	} else if (kw(&t, "USE")) {
		kind = STK_USE;
		lex(&l, &t);
		if (ident(&t, &s->schema) == 0 && s->schema.len > 0) {
			buf_reset(&s->db);
			buf_add(&s->db, s->schema.p, s->schema.len);
		}
	} else if (kw(&t, "LOCK")) {
		lex(&l, &t);
		if (kw(&t, "TABLES") || kw(&t, "TABLE")) {
			kind = STK_LOCK;
			lex(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "UNLOCK")) {
		kind = STK_UNLOCK;
	} else if (kw(&t, "BEGIN")) {
		lex(&l, &t);
		if (!kw(&t, "NOT") && (t.type == TK_END || kw(&t, "WORK")))
			kind = STK_TRANSACTION;
	} else if (kw(&t, "START")) {
		lex(&l, &t);
		if (kw(&t, "TRANSACTION"))
			kind = STK_TRANSACTION;
	} else if (kw(&t, "COMMIT") || kw(&t, "ROLLBACK") ||
	    kw(&t, "SAVEPOINT") || kw(&t, "RELEASE")) {
		kind = STK_TRANSACTION;
	} else if (kw(&t, "UPDATE")) {
		kind = STK_UPDATE;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "IGNORE"));
		target(s, &l, &t);
	} else if (kw(&t, "DELETE")) {
		kind = STK_DELETE;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "QUICK") ||
		    kw(&t, "IGNORE"));
		if (kw(&t, "FROM"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "TRUNCATE")) {
		kind = STK_DELETE;
		lex(&l, &t);
		if (kw(&t, "TABLE"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "LOAD")) {
		lex(&l, &t);
		if (kw(&t, "DATA") || kw(&t, "XML")) {
			kind = STK_LOAD;
			while (t.type != TK_END && !kw(&t, "INTO"))
				lex(&l, &t);
			lex(&l, &t);
			if (kw(&t, "TABLE"))
				lex(&l, &t);
			target(s, &l, &t);
		}
	}
	return kind;
}
