/*
 * rowmap: select, rename, drop and mask tables and columns in a rowpipe(5)
 * frame stream; shared between the files of cmd/rowmap and the tests.
 */
#ifndef ROWMAP_H
#define ROWMAP_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/hmac.h>

#include "buf.h"
#include "names.h"

/* Column transforms, by table.column. */
enum rm_op {
	OP_DROP = 1,	/* --drop: the column goes, from rows and DDL */
	OP_NULL,	/* --null: every value NULL, the column nullable */
	OP_SET,		/* --set: every value the same */
	OP_HASH		/* --hash: a keyed pseudonym */
};

struct rm_key {
	char		*file;		/* NULL: the run's random key */
	uint8_t		 key[64];
	size_t		 len;
	struct hmac_sha256_ctx ctx;	/* keyed, reset by every digest */
};

struct rm_colop {
	char		*db;		/* NULL: any database */
	char		*table;
	char		*col;
	int		 op;		/* enum rm_op */
	char		*value;		/* OP_SET */
	size_t		 vlen;
	size_t		 key;		/* OP_HASH: index into the keys */
	const char	*arg;		/* the option as given, for messages */
	int		 hit;		/* matched a column of the stream */
};

struct rowmap_opts {
	struct names	 names;		/* --tables, --exclude, --rename(-db) */
	struct rm_colop	*ops;
	size_t		 nops;
	struct rm_key	*keys;		/* one per key file, and the run's */
	size_t		 nkeys;
	int		 progress;	/* 1, 0, -1: if stderr is a terminal */
	/* main.c's: --hash arguments wait for --key-file. */
	int		 force;
	const char	*key_file;
	char		**hash_args;
	size_t		 nhash_args;
};

/*
 * Read a frame stream from fd, write the transformed stream to out_fd.
 * 0, or -1 with one line in *errmsg (static, valid until exit); the
 * output then has no trailer.
 */
int	 rowmap(int fd, int out_fd, const struct rowmap_opts *,
	    const char **errmsg);

/* ops.c: parsing the options.  0, or -1 with *errstr (static). */
int	 rm_add_op(struct rowmap_opts *, int op, const char *arg,
	    const char *key_file, const char **errstr);
/* Load every key file (the run's key is random).  0 or -1, errno set. */
int	 rm_load_keys(struct rowmap_opts *, const char **bad);
void	 rm_opts_release(struct rowmap_opts *);

/*
 * The pseudonym of (p, len) under key k: out_len bytes at out, lower-case
 * hex of HMAC-SHA256 (RFC 2104) if hex, else its raw bytes; out_len at
 * most 64 (hex) or 32.
 */
void	 rm_hash(struct rm_key *k, const char *p, size_t len, int hex,
	    char *out, size_t out_len);

/*
 * How a column of declared type coltype ("varchar(50)") takes a
 * pseudonym: hex digits (text types) or bytes (binary ones), and how
 * many.  0, or -1 for a type that cannot (numbers, dates, ENUM, ...) or
 * a column too short for one (*len then holds its length).
 */
int	 rm_hash_shape(const char *coltype, int *hex, size_t *len);

/* ddl.c: tokens of SHOW CREATE text. */
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

#endif
