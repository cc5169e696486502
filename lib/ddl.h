/*
 * ddl: a CREATE TABLE text as SHOW CREATE TABLE writes it (MariaDB KB
 * "SHOW CREATE TABLE", "CREATE TABLE"), cut into its elements (columns,
 * keys, constraints), for programs that change a table's columns in a
 * stream (rowmap(1), dbsnap --columns) and must change its definition to
 * match.  Texts are borrowed: a struct ddl_table points into the text it
 * was parsed from, which must outlive it.  Errors: -1 (malformed text, or
 * out of memory); nothing is printed.
 */
#ifndef ROWPIPE_DDL_H
#define ROWPIPE_DDL_H

#include <stddef.h>

#include "buf.h"

/* Tokens of SHOW CREATE text. */
enum { TK_END, TK_IDENT, TK_WORD, TK_STRING, TK_PUNCT, TK_BAD };
struct tok {
	int		 kind;
	const char	*p;		/* the token's text, quotes included */
	size_t		 len;
};
int	 ddl_tok(const char **pp, const char *e, struct tok *);
int	 tok_word(const struct tok *, const char *w);
int	 tok_punct(const struct tok *, char c);
char	*tok_name(const struct tok *);		/* malloc'd, or NULL */
int	 tok_is_name(const struct tok *, const char *s);
/*
 * Does the text hold a `quoted` identifier (or, with words, a bare word)
 * naming s, in any case, outside strings and comments?
 */
int	 ddl_mentions(const char *text, size_t len, const char *s, int words);

/* A CREATE TABLE cut into its elements. */
enum { EL_COLUMN = 1, EL_PRIMARY, EL_UNIQUE, EL_KEY, EL_FOREIGN, EL_CHECK,
	EL_OTHER };
struct ddl_part {
	char		*col;
	const char	*off, *end;	/* its text, in the element */
	int		 dropped;
};
struct ddl_elem {
	const char	*p;		/* text, in the DDL, without , */
	size_t		 len;
	int		 kind;		/* EL_* */
	char		*name;		/* column, key or constraint name */
	struct ddl_part	*parts;		/* key parts, FOREIGN KEY columns */
	size_t		 nparts, ndropped;
	char		*ref_db, *ref_table;	/* REFERENCES [db.]table */
	char		**ref_cols;
	size_t		 nref;
	char		*repl;		/* rewritten text, or NULL */
	int		 dropped;
};
struct ddl_table {
	const char	*text;		/* borrowed */
	size_t		 len, head_len;
	struct ddl_elem	*el;
	size_t		 nel;
	const char	*tail;		/* from the closing ) on */
	size_t		 tail_len, sep_before_tail;
};
int	 ddl_parse(const char *, size_t, struct ddl_table *);	/* 0 or -1 */
void	 ddl_free(struct ddl_table *);
struct ddl_elem *ddl_column(struct ddl_table *, const char *name);
int	 ddl_has_part(const struct ddl_elem *, const char *col);
int	 ddl_make_nullable(struct ddl_elem *);	/* 0, 1 unchanged, -1 */
char	*ddl_column_type(const struct ddl_elem *);	/* malloc'd or NULL */
/* The text with dropped elements and parts left out, replacements in. */
void	 ddl_write(const struct ddl_table *, struct buf *);

/*
 * Drop column col (its element must exist) as ALTER TABLE ... DROP
 * COLUMN would: its key parts leave their indexes, an index of it alone
 * goes.  0, or -1 if something needs it, with *culprit the element (NULL:
 * the partitioning) and *why what it does ("uses it", "needs it", "would
 * no longer be unique without it"); elements are then partly marked.
 */
int	 ddl_drop_column(struct ddl_table *, struct ddl_elem *col,
	    const struct ddl_elem **culprit, const char **why);
/* "unique key `k`", "the primary key", "column `c`", into buf. */
void	 ddl_elem_desc(const struct ddl_elem *, char *buf, size_t n);

#endif
