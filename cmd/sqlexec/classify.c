/*
 * classify: decide how sqlexec may run a statement (enum sx_action).
 *
 * The kind comes from the frame (sqlsplit's lexer), and so does whether
 * a SET is the session's (lib/sqlset.h); the few questions the kind does
 * not answer are settled by the words of the text, lexed in the frame's
 * sql_mode (lib/sqltok: literals, quoted identifiers and comments
 * skipped, executable comments stepped into, as the server does).  It
 * only needs to recognise
 * keywords, never to parse: when in doubt a statement becomes a barrier,
 * which is always correct, only slower.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "sqlexec.h"
#include "sqlset.h"
#include "sqltok.h"

int
sx_changes_rows(const struct rp_stmt *s)
{
	return s->kind == STK_INSERT || s->kind == STK_UPDATE ||
	    s->kind == STK_DELETE || s->kind == STK_LOAD;
}

/* A token that a word of next_token() is made of. */
static int
glues(const struct sqltok *t)
{
	return t->kind == SQLTOK_WORD || t->kind == SQLTOK_NUMBER ||
	    (t->kind == SQLTOK_PUNCT && (*t->p == '@' || *t->p == '.'));
}

/* Bytes of an INSERT searched for VALUES before giving up (barrier). */
#define SCAN_INSERT_MAX	65536

/*
 * The next word of a statement (lib/sqltok tokens; words, numbers, "@"
 * and "." that touch are glued: "@@SESSION.AUTOCOMMIT", "DB.T") into w,
 * upper case, truncated to wlen - 1.  Other punctuation yields a
 * one-character word; literals and quoted identifiers yield "'".
 * Returns 0 at the end.
 */
static int
next_token(struct sqltok_lexer *l, char *w, size_t wlen)
{
	struct sqltok_lexer save;
	struct sqltok	 t;
	const char	*end;
	size_t		 n = 0, i;

	if (sqltok_next(l, &t) == SQLTOK_END)
		return 0;
	if (t.kind == SQLTOK_STRING || t.kind == SQLTOK_IDENT) {
		strlcpy(w, "'", wlen);
		return 1;
	}
	if (!glues(&t)) {
		w[0] = *t.p;
		w[1] = '\0';
		return 1;
	}
	for (;;) {
		for (i = 0; i < t.len && n + 1 < wlen; i++)	/* not a 60 MB 0x */
			w[n++] = toupper((unsigned char)t.p[i]);
		end = t.p + t.len;
		save = *l;
		if (sqltok_next(l, &t) == SQLTOK_END || t.p != end ||
		    !glues(&t)) {
			*l = save;
			break;
		}
	}
	w[n] = '\0';
	return 1;
}

/*
 * INSERT/REPLACE ... VALUES (or SET) may run in parallel; INSERT ...
 * SELECT (or TABLE) reads other tables and must see everything before it.
 */
static enum sx_action
classify_insert(const struct rp_stmt *st, const char **why)
{
	struct sqltok_lexer s;
	char		 w[32];

	sqltok_init(&s, st->text, st->len > SCAN_INSERT_MAX ?
	    SCAN_INSERT_MAX : st->len, st->mode);
	while (next_token(&s, w, sizeof(w))) {
		if (strcmp(w, "VALUES") == 0 || strcmp(w, "VALUE") == 0 ||
		    strcmp(w, "SET") == 0)
			return ACT_PARALLEL;
		if (strcmp(w, "SELECT") == 0 || strcmp(w, "TABLE") == 0 ||
		    strcmp(w, "WITH") == 0) {
			*why = "INSERT ... SELECT";
			return ACT_BARRIER;
		}
	}
	*why = "INSERT without VALUES";
	return ACT_BARRIER;
}

/*
 * Which transaction statement (sqlsplit's STK_TRANSACTION) this is:
 * MariaDB KB "START TRANSACTION", "COMMIT", "ROLLBACK", "SAVEPOINT".
 * COMMIT or ROLLBACK AND CHAIN opens the next transaction at once: it
 * ends nothing.
 */
enum sx_txn
sx_txn_kind(const struct rp_stmt *st)
{
	struct sqltok_lexer s;
	char		 w[32], prev[32] = "";
	int		 end;

	sqltok_init(&s, st->text, st->len, st->mode);
	if (!next_token(&s, w, sizeof(w)))
		return TXN_OTHER;
	/* XA START ... XA COMMIT or ROLLBACK: MariaDB KB "XA Transactions" */
	if (strcmp(w, "XA") == 0) {
		if (!next_token(&s, w, sizeof(w)))
			return TXN_OTHER;
		if (strcmp(w, "START") == 0 || strcmp(w, "BEGIN") == 0)
			return TXN_BEGIN;
		return strcmp(w, "COMMIT") == 0 ? TXN_COMMIT :
		    strcmp(w, "ROLLBACK") == 0 ? TXN_ROLLBACK : TXN_OTHER;
	}
	if (strcmp(w, "BEGIN") == 0 || strcmp(w, "START") == 0)
		return TXN_BEGIN;
	if (strcmp(w, "COMMIT") == 0)
		end = TXN_COMMIT;
	else if (strcmp(w, "ROLLBACK") == 0)
		end = TXN_ROLLBACK;
	else
		return TXN_OTHER;	/* SAVEPOINT, RELEASE SAVEPOINT */
	while (next_token(&s, w, sizeof(w))) {
		/* ROLLBACK TO SAVEPOINT; COMMIT or ROLLBACK AND CHAIN */
		if (strcmp(w, "TO") == 0 || (strcmp(w, "CHAIN") == 0 &&
		    strcmp(prev, "NO") != 0))
			return end == TXN_ROLLBACK ? TXN_ROLLBACK_KEEP :
			    TXN_OTHER;
		strlcpy(prev, w, sizeof(prev));
	}
	return end;
}

static int
first_word(const struct rp_stmt *st, char *w, size_t wlen)
{
	struct sqltok_lexer s;

	sqltok_init(&s, st->text, st->len, st->mode);
	if (!next_token(&s, w, wlen))
		w[0] = '\0';
	return w[0] != '\0';
}

/*
 * SELECT ... INTO @var sets user variables, as SET does: it must run on
 * every connection, or the others see NULL.  (INTO OUTFILE and DUMPFILE
 * write a file: once.)
 */
static int
into_user_var(const struct rp_stmt *st)
{
	struct sqltok_lexer s;
	char		 w[64];
	int		 into = 0;

	sqltok_init(&s, st->text, st->len, st->mode);
	while (next_token(&s, w, sizeof(w))) {
		if (into && w[0] == '@' && w[1] != '@')
			return 1;
		into = strcmp(w, "INTO") == 0;
	}
	return 0;
}

int
sx_sets_autocommit(const struct rp_stmt *st)
{
	struct sqltok_lexer s;
	char		 w[40];
	int		 at = 0, eq = 0, set = -1;

	sqltok_init(&s, st->text, st->len, st->mode);
	while (next_token(&s, w, sizeof(w))) {
		if (eq) {
			if (strcmp(w, "0") == 0 || strcmp(w, "OFF") == 0 ||
			    strcmp(w, "FALSE") == 0)
				set = 0;
			else if (strcmp(w, "1") == 0 || strcmp(w, "ON") == 0 ||
			    strcmp(w, "TRUE") == 0)
				set = 1;
			at = eq = 0;
		} else if (at && (strcmp(w, "=") == 0 || strcmp(w, ":") == 0))
			eq = strcmp(w, "=") == 0;
		else
			at = strcmp(w, "AUTOCOMMIT") == 0 ||
			    strcmp(w, "@@AUTOCOMMIT") == 0 ||
			    strcmp(w, "@@SESSION.AUTOCOMMIT") == 0 ||
			    strcmp(w, "@@LOCAL.AUTOCOMMIT") == 0;
	}
	return set;
}

/*
 * Words that may stand before "(" in a session statement of a dump and
 * call nothing that has side effects: keywords, the functions dumps use
 * (rows2sql's pieces: IFNULL, CONCAT), and those that read the
 * connection's own state (order.c sees that the other connections' user
 * variables then differ from connection 1's, and orders what reads them).
 */
static const char *const pure_words[] = {
	"SET", "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "EXISTS",
	"UNION", "ALL", "ANY", "SOME", "AS", "ON", "JOIN", "VALUES", "INTO",
	"IS", "LIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "DISTINCT",
	"IFNULL", "CONCAT", "CONCAT_WS", "COALESCE", "NULLIF", "IF", "HEX",
	"UNHEX", "LENGTH", "OCTET_LENGTH", "CHAR_LENGTH", "SUBSTRING",
	"SUBSTR", "LEFT", "RIGHT", "REPLACE", "LOWER", "UPPER", "TRIM",
	"CAST", "CONVERT", "COUNT", "MAX", "MIN", "SUM", "AVG", "ABS",
	"ROUND", "FLOOR", "CEIL", "CEILING", "GREATEST", "LEAST",
	"LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS", "CONNECTION_ID", NULL
};

const char *
sx_calls_function(const struct rp_stmt *st)
{
	static char	 name[64];
	struct sqltok_lexer s;
	char		 w[64], prev[64] = "";
	size_t		 i;

	sqltok_init(&s, st->text, st->len, st->mode);
	while (next_token(&s, w, sizeof(w))) {
		if (strcmp(w, "(") == 0 && prev[0] != '\0' &&
		    (isalpha((unsigned char)prev[0]) || prev[0] == '_')) {
			for (i = 0; pure_words[i] != NULL; i++)
				if (strcmp(pure_words[i], prev) == 0)
					break;
			if (pure_words[i] == NULL) {
				strlcpy(name, prev, sizeof(name));
				return name;
			}
		}
		strlcpy(prev, w, sizeof(prev));
	}
	return NULL;
}

int
sx_is_select(const struct rp_stmt *st)
{
	char	 w[8];

	return st->kind == STK_OTHER && first_word(st, w, sizeof(w)) &&
	    strcmp(w, "SELECT") == 0;
}

int
sx_is_xa(const struct rp_stmt *st)
{
	char	 w[8];

	return first_word(st, w, sizeof(w)) && strcmp(w, "XA") == 0;
}

int
sx_creates_temporary(const struct rp_stmt *st)
{
	struct sqltok_lexer s;
	char		 w[32];

	sqltok_init(&s, st->text, st->len, st->mode);
	if (!next_token(&s, w, sizeof(w)) || strcmp(w, "CREATE") != 0 ||
	    !next_token(&s, w, sizeof(w)))
		return 0;
	if (strcmp(w, "OR") == 0 && (!next_token(&s, w, sizeof(w)) ||
	    !next_token(&s, w, sizeof(w))))
		return 0;
	return strcmp(w, "TEMPORARY") == 0;
}

enum sx_action
sx_classify(const struct rp_stmt *st, const char **why)
{
	char	 w[32] = "";
	int	 kind = st->kind;

	*why = "";
	if (kind == STK_OTHER)
		(void)first_word(st, w, sizeof(w));
	/*
	 * Session or server-wide SET: the frame's kind (sqlsplit decided);
	 * a frame that does not say so (an older producer) is asked the
	 * same rule.
	 */
	if ((kind == STK_SET && !st->said) || strcmp(w, "SET") == 0)
		kind = sqlset_kind(st->text, st->len, st->mode);
	else if (kind == STK_OTHER) {
		if (strcmp(w, "USE") == 0)
			kind = STK_USE;
		else if ((strcmp(w, "SELECT") == 0 || strcmp(w, "WITH") == 0 ||
		    strcmp(w, "(") == 0) && into_user_var(st)) {
			*why = "SELECT ... INTO @variable";
			return ACT_SESSION;
		}
	}
	switch (kind) {
	case STK_INSERT:
		return classify_insert(st, why);
	case STK_SET:
		return ACT_SESSION;
	case STK_SET_SERVER:
		*why = "a SET of more than the session";
		return ACT_BARRIER;
	case STK_USE:
		return ACT_SESSION;
	case STK_LOCK:
	case STK_UNLOCK:
		*why = "table locks";
		return ACT_SKIP;
	case STK_TRANSACTION:
		*why = "transaction control";
		return ACT_SKIP;
	default:
		return ACT_BARRIER;
	}
}

const char *
sx_action_name(enum sx_action a)
{
	switch (a) {
	case ACT_PARALLEL:
		return "parallel";
	case ACT_BARRIER:
		return "barrier";
	case ACT_SESSION:
		return "session";
	case ACT_SKIP:
		return "skip";
	}
	return "?";
}
