/*
 * ddl: a CREATE TABLE text cut into its elements; see ddl.h.  Dropping a
 * column follows the server's own ALTER TABLE ... DROP COLUMN (MariaDB KB
 * "ALTER TABLE"): its indexes lose it, and what would break refuses.
 *
 * The tokens are those of the SQL text SHOW CREATE writes: `quoted`
 * identifiers (`` inside), '...' and "..." strings (backslash escapes and
 * doubled quotes), words, comments, and single punctuation characters.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ddl.h"
#include "sqltok.h"

/* Tokens: lib/sqltok's, in the default sql_mode SHOW CREATE writes in. */

int
ddl_tok(const char **pp, const char *e, struct tok *t)
{
	struct sqltok_lexer l;
	struct sqltok	 k;

	sqltok_init(&l, *pp, (size_t)(e - *pp), 0);
	sqltok_next(&l, &k);
	t->p = k.p;
	t->len = k.len;
	*pp = l.p;
	switch (k.kind) {
	case SQLTOK_END:	t->kind = TK_END; break;
	case SQLTOK_WORD:
	case SQLTOK_NUMBER:	t->kind = TK_WORD; break;
	case SQLTOK_STRING:	t->kind = TK_STRING; break;
	case SQLTOK_IDENT:	t->kind = TK_IDENT; break;
	default:		t->kind = TK_PUNCT; break;
	}
	if (k.flags & SQLTOK_F_OPEN)
		t->kind = TK_BAD;
	return t->kind;
}

/* Is t the word w (any case)? */
int
tok_word(const struct tok *t, const char *w)
{
	struct sqltok	 k = { SQLTOK_WORD, 0, t->p, t->len };

	return t->kind == TK_WORD && sqltok_is(&k, w);
}

int
tok_punct(const struct tok *t, char c)
{
	return t->kind == TK_PUNCT && *t->p == c;
}

/* The name an identifier or word token stands for; malloc'd, or NULL. */
char *
tok_name(const struct tok *t)
{
	struct sqltok	 k = { t->kind == TK_IDENT ? SQLTOK_IDENT :
	    SQLTOK_WORD, 0, t->p, t->len };
	char		*s;

	if ((t->kind != TK_WORD && t->kind != TK_IDENT) ||
	    (s = malloc(t->len + 1)) == NULL)
		return NULL;
	sqltok_ident(&k, s, t->len + 1);
	return s;
}

/* Does the identifier or word t name s (case-insensitively, as columns)? */
int
tok_is_name(const struct tok *t, const char *s)
{
	char	*n;
	int	 eq;

	if (t->kind != TK_IDENT && t->kind != TK_WORD)
		return 0;
	if ((n = tok_name(t)) == NULL)
		return 0;
	eq = strcasecmp(n, s) == 0;
	free(n);
	return eq;
}

/*
 * Does text (len bytes) hold a `quoted` identifier naming s (or, with
 * words, also a bare word), outside strings and comments?  SHOW CREATE
 * quotes every name in table and view texts; routine bodies are as their
 * author wrote them.
 */
int
ddl_mentions(const char *text, size_t len, const char *s, int words)
{
	const char	*p = text, *e = text + len;
	struct tok	 t;

	while (ddl_tok(&p, e, &t) != TK_END && t.kind != TK_BAD)
		if ((t.kind == TK_IDENT || words) && tok_is_name(&t, s))
			return 1;
	return 0;
}

/* Elements. */

static void
elem_free(struct ddl_elem *el)
{
	size_t	 i;

	free(el->name);
	for (i = 0; i < el->nparts; i++)
		free(el->parts[i].col);
	free(el->parts);
	for (i = 0; i < el->nref; i++)
		free(el->ref_cols[i]);
	free(el->ref_cols);
	free(el->ref_db);
	free(el->ref_table);
	free(el->repl);
}

void
ddl_free(struct ddl_table *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nel; i++)
		elem_free(&t->el[i]);
	free(t->el);
	memset(t, 0, sizeof(*t));
}

/*
 * A parenthesized list of key parts at *pp: `col`[(n)] [ASC|DESC], ...
 * into parts (with their spans) or, if names, just the names.
 */
static int
parse_parts(const char **pp, const char *e, struct ddl_part **parts,
    char ***names, size_t *n)
{
	struct tok	 t;
	const char	*start;
	int		 depth;
	char		*nm;

	if (ddl_tok(pp, e, &t) != TK_PUNCT || *t.p != '(')
		return -1;
	for (;;) {
		if (ddl_tok(pp, e, &t) != TK_IDENT && t.kind != TK_WORD)
			return -1;
		start = t.p;
		if ((nm = tok_name(&t)) == NULL)
			return -1;
		depth = 0;
		for (;;) {
			const char *save = *pp;

			if (ddl_tok(pp, e, &t) == TK_END || t.kind == TK_BAD) {
				free(nm);
				return -1;
			}
			if (tok_punct(&t, '('))
				depth++;
			else if (tok_punct(&t, ')') && depth > 0)
				depth--;
			else if (depth == 0 && (tok_punct(&t, ',') ||
			    tok_punct(&t, ')'))) {
				if (parts != NULL) {
					struct ddl_part *v = reallocarray(
					    *parts, *n + 1, sizeof(**parts));
					if (v == NULL) {
						free(nm);
						return -1;
					}
					*parts = v;
					v[*n].col = nm;
					v[*n].off = start;
					v[*n].end = save;
					v[*n].dropped = 0;
				} else {
					char **v = reallocarray(*names, *n + 1,
					    sizeof(**names));
					if (v == NULL) {
						free(nm);
						return -1;
					}
					*names = v;
					v[*n] = nm;
				}
				(*n)++;
				break;
			}
		}
		if (tok_punct(&t, ')'))
			return 0;
	}
}

/* Trim the spaces around [p, e). */
static void
trim(const char **p, const char **e)
{
	while (*p < *e && isspace((unsigned char)**p))
		(*p)++;
	while (*e > *p && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* What an element is, and its names and parts. */
static int
classify(struct ddl_elem *el)
{
	const char	*p = el->p, *e = el->p + el->len;
	struct tok	 t;

	if (ddl_tok(&p, e, &t) == TK_IDENT) {
		el->kind = EL_COLUMN;
		return (el->name = tok_name(&t)) == NULL ? -1 : 0;
	}
	if (tok_word(&t, "CONSTRAINT")) {
		const char *save = p;

		if (ddl_tok(&p, e, &t) == TK_IDENT) {
			if ((el->name = tok_name(&t)) == NULL)
				return -1;
		} else
			p = save;
		ddl_tok(&p, e, &t);
	}
	if (tok_word(&t, "CHECK")) {
		el->kind = EL_CHECK;
		return 0;
	}
	if (tok_word(&t, "FOREIGN")) {
		el->kind = EL_FOREIGN;
		if (ddl_tok(&p, e, &t) != TK_WORD || !tok_word(&t, "KEY"))
			return -1;
		{
			const char *save = p;

			if (ddl_tok(&p, e, &t) == TK_IDENT && el->name == NULL)
				el->name = tok_name(&t);
			else if (t.kind != TK_IDENT)
				p = save;
		}
		if (parse_parts(&p, e, &el->parts, NULL, &el->nparts) == -1 ||
		    ddl_tok(&p, e, &t) != TK_WORD ||
		    !tok_word(&t, "REFERENCES") ||
		    ddl_tok(&p, e, &t) != TK_IDENT)
			return -1;
		el->ref_table = tok_name(&t);
		{
			const char *save = p;

			if (ddl_tok(&p, e, &t) == TK_PUNCT && *t.p == '.') {
				if (ddl_tok(&p, e, &t) != TK_IDENT)
					return -1;
				el->ref_db = el->ref_table;
				el->ref_table = tok_name(&t);
			} else
				p = save;
		}
		return parse_parts(&p, e, NULL, &el->ref_cols, &el->nref);
	}
	if (tok_word(&t, "PRIMARY"))
		el->kind = EL_PRIMARY;
	else if (tok_word(&t, "UNIQUE"))
		el->kind = EL_UNIQUE;
	else if (tok_word(&t, "KEY") || tok_word(&t, "INDEX") ||
	    tok_word(&t, "FULLTEXT") || tok_word(&t, "SPATIAL"))
		el->kind = EL_KEY;
	else {
		el->kind = EL_OTHER;	/* PERIOD FOR ..., anything new */
		return 0;
	}
	/* Up to the parts: KEY/INDEX words, then an optional name. */
	for (;;) {
		const char *save = p;

		if (ddl_tok(&p, e, &t) == TK_PUNCT && *t.p == '(') {
			p = save;
			break;
		}
		if (t.kind == TK_IDENT && el->name == NULL &&
		    (el->name = tok_name(&t)) == NULL)
			return -1;
		if (t.kind == TK_END || t.kind == TK_BAD)
			return -1;
	}
	return parse_parts(&p, e, &el->parts, NULL, &el->nparts);
}

int
ddl_parse(const char *text, size_t len, struct ddl_table *t)
{
	const char	*p = text, *e = text + len, *start, *s, *se;
	struct tok	 k;
	struct ddl_elem	*v;
	int		 depth = 0;

	memset(t, 0, sizeof(*t));
	t->text = text;
	t->len = len;
	while (ddl_tok(&p, e, &k) != TK_END && !tok_punct(&k, '('))
		if (k.kind == TK_BAD)
			return -1;
	if (k.kind == TK_END)
		return -1;
	t->head_len = (size_t)(p - text);
	start = p;
	for (;;) {
		if (ddl_tok(&p, e, &k) == TK_END || k.kind == TK_BAD)
			goto bad;
		if (tok_punct(&k, '('))
			depth++;
		else if (depth > 0 && tok_punct(&k, ')'))
			depth--;
		else if (depth == 0 && (tok_punct(&k, ',') ||
		    tok_punct(&k, ')'))) {
			s = start;
			se = k.p;
			trim(&s, &se);
			if ((v = reallocarray(t->el, t->nel + 1,
			    sizeof(*t->el))) == NULL)
				goto bad;
			t->el = v;
			memset(&v[t->nel], 0, sizeof(*v));
			v[t->nel].p = s;
			v[t->nel].len = (size_t)(se - s);
			if (classify(&v[t->nel++]) == -1)
				goto bad;
			start = p;
			if (tok_punct(&k, ')')) {
				t->tail = k.p;
				t->tail_len = (size_t)(e - k.p);
				t->sep_before_tail = (size_t)(k.p - se);
				return 0;
			}
		}
	}
bad:
	ddl_free(t);
	return -1;
}

/* The element for column name, or NULL. */
struct ddl_elem *
ddl_column(struct ddl_table *t, const char *name)
{
	size_t	 i;

	for (i = 0; i < t->nel; i++)
		if (t->el[i].kind == EL_COLUMN &&
		    strcasecmp(t->el[i].name, name) == 0)
			return &t->el[i];
	return NULL;
}

/* Does element el have column col among its key parts? */
int
ddl_has_part(const struct ddl_elem *el, const char *col)
{
	size_t	 i;

	for (i = 0; i < el->nparts; i++)
		if (strcasecmp(el->parts[i].col, col) == 0)
			return 1;
	return 0;
}

/* An element's text as rewritten: its replacement, or its key parts less
 * the dropped ones. */
static void
elem_write(const struct ddl_elem *el, struct buf *b)
{
	size_t	 i, n = 0;

	if (el->repl != NULL) {
		buf_adds(b, el->repl);
		return;
	}
	if (el->nparts == 0 || el->ndropped == 0) {
		buf_add(b, el->p, el->len);
		return;
	}
	buf_add(b, el->p, (size_t)(el->parts[0].off - el->p));
	for (i = 0; i < el->nparts; i++) {
		if (el->parts[i].dropped)
			continue;
		if (n++ > 0)
			buf_addc(b, ',');
		buf_add(b, el->parts[i].off,
		    (size_t)(el->parts[i].end - el->parts[i].off));
	}
	i = el->nparts - 1;
	buf_add(b, el->parts[i].end, (size_t)(el->p + el->len -
	    el->parts[i].end));
}

void
ddl_write(const struct ddl_table *t, struct buf *b)
{
	size_t	 i, n = 0;

	buf_add(b, t->text, t->head_len);
	for (i = 0; i < t->nel; i++) {
		if (t->el[i].dropped)
			continue;
		buf_adds(b, n++ ? ",\n  " : "\n  ");
		elem_write(&t->el[i], b);
	}
	buf_add(b, t->tail - t->sep_before_tail, t->sep_before_tail);
	buf_add(b, t->tail, t->tail_len);
}

/*
 * Make column element el nullable: its top-level NOT NULL becomes NULL
 * (an explicit NULL, so that a TIMESTAMP stays nullable whatever the
 * target's explicit_defaults_for_timestamp).  0 if changed, 1 if it had
 * no NOT NULL, -1 out of memory.
 */
int
ddl_make_nullable(struct ddl_elem *el)
{
	const char	*p = el->p, *e = el->p + el->len, *not = NULL;
	struct tok	 t;
	struct buf	 b = BUF_INIT;
	int		 depth = 0;

	while (ddl_tok(&p, e, &t) != TK_END && t.kind != TK_BAD) {
		if (tok_punct(&t, '('))
			depth++;
		else if (tok_punct(&t, ')'))
			depth--;
		else if (depth == 0 && tok_word(&t, "NOT"))
			not = t.p;
		else if (depth == 0 && not != NULL && tok_word(&t, "NULL")) {
			buf_add(&b, el->p, (size_t)(not - el->p));
			buf_adds(&b, "NULL");
			buf_add(&b, t.p + 4, (size_t)(e - t.p - 4));
			if (b.err)
				return -1;
			el->repl = buf_detach(&b, NULL);
			return 0;
		} else
			not = NULL;
	}
	return 1;
}

/*
 * The declared type of column element el ("varchar(50)"), malloc'd, or
 * NULL.
 */
char *
ddl_column_type(const struct ddl_elem *el)
{
	const char	*p = el->p, *e = el->p + el->len, *s, *end;
	struct tok	 t;
	int		 depth = 0;

	ddl_tok(&p, e, &t);			/* the name */
	if (ddl_tok(&p, e, &t) != TK_WORD)
		return NULL;
	s = t.p;
	end = p;
	for (;;) {
		const char *save = p;

		if (ddl_tok(&p, e, &t) == TK_END || t.kind == TK_BAD)
			break;
		if (depth == 0 && !tok_punct(&t, '(')) {
			p = save;
			break;
		}
		if (tok_punct(&t, '('))
			depth++;
		else if (tok_punct(&t, ')') && --depth == 0) {
			end = p;
			break;
		}
	}
	return strndup(s, (size_t)(end - s));
}

static const char *
elem_word(const struct ddl_elem *el)
{
	switch (el->kind) {
	case EL_PRIMARY:	return "the primary key";
	case EL_UNIQUE:		return "unique key";
	case EL_FOREIGN:	return "foreign key";
	case EL_CHECK:		return "constraint";
	case EL_COLUMN:		return "column";
	case EL_OTHER:		return "the definition";
	default:		return "key";
	}
}

void
ddl_elem_desc(const struct ddl_elem *el, char *buf, size_t n)
{
	if (el->kind == EL_PRIMARY || el->name == NULL)
		snprintf(buf, n, "%s", elem_word(el));
	else
		snprintf(buf, n, "%s `%s`", elem_word(el), el->name);
}

int
ddl_drop_column(struct ddl_table *t, struct ddl_elem *col,
    const struct ddl_elem **culprit, const char **why)
{
	struct ddl_elem	*el;
	const char	*p;
	struct tok	 tk;
	size_t		 i, j;

	col->dropped = 1;
	*culprit = NULL;
	for (i = 0; i < t->nel; i++) {
		el = &t->el[i];
		*culprit = el;
		if (el == col || el->dropped)
			continue;
		if (el->kind == EL_COLUMN || el->kind == EL_CHECK ||
		    el->kind == EL_OTHER) {
			p = el->p;
			if (el->kind == EL_COLUMN)	/* past its own name */
				ddl_tok(&p, el->p + el->len, &tk);
			*why = "uses it";
			if (ddl_mentions(p, (size_t)(el->p + el->len - p),
			    col->name, 0))
				return -1;
			continue;
		}
		if (!ddl_has_part(el, col->name))
			continue;
		*why = "needs it";
		if (el->kind == EL_FOREIGN)
			return -1;
		if (el->nparts - el->ndropped == 1) {
			el->dropped = 1;	/* its only column: it goes */
			continue;
		}
		*why = "would no longer be unique without it";
		if (el->kind != EL_KEY)
			return -1;
		for (j = 0; j < el->nparts; j++)
			if (strcasecmp(el->parts[j].col, col->name) == 0 &&
			    !el->parts[j].dropped) {
				el->parts[j].dropped = 1;
				el->ndropped++;
			}
	}
	*culprit = NULL;
	*why = "partitions the table by it";
	return ddl_mentions(t->tail, t->tail_len, col->name, 0) ? -1 : 0;
}
