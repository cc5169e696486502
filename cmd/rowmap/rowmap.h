/*
 * rowmap: select, rename, drop and mask tables and columns in a rowpipe-stream(5)
 * frame stream; shared between the files of cmd/rowmap and the tests.
 */
#ifndef ROWMAP_H
#define ROWMAP_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/hmac.h>

#include "buf.h"
#include "ddl.h"
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
	int		 skip_definer;	/* DEFINER= out of views, routines, ... */
	int		 allow_empty;	/* filters may leave nothing */
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

#endif
