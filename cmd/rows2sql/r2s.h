/*
 * rows2sql: the frame stream to SQL text converter, shared between main.c,
 * the tests and the fuzzer (which includes the .c files directly).
 */
#ifndef ROWS2SQL_R2S_H
#define ROWS2SQL_R2S_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum r2s_insert {
	INS_INSERT,
	INS_IGNORE,
	INS_REPLACE,
	INS_UPSERT
};

/* OLD=NEW pairs for --rename and --rename-db. */
struct r2s_rename {
	char	*old_db;	/* NULL: any database (--rename t=u) */
	char	*old;
	char	*new;
};

/* --tables entries: "t" (any database) or "db.t". */
struct r2s_name {
	char	*db;		/* NULL: any */
	char	*name;
};

struct r2s_opts {
	int			 insert;	/* enum r2s_insert */
	int			 hex_blob;	/* 1 by default */
	int			 no_data;
	int			 no_create;
	int			 no_create_db;
	int			 skip_drop;
	int			 skip_definer;
	int			 no_trailer;	/* for debugging only */
	int			 progress;	/* 1, 0, -1: if stderr is a tty */
	size_t			 max_stmt;	/* --max-statement-size */
	size_t			 max_packet;	/* --max-allowed-packet */
	struct r2s_rename	*renames;
	size_t			 nrenames;
	struct r2s_rename	*db_renames;
	size_t			 ndb_renames;
	struct r2s_name		*tables;
	size_t			 ntables;
};

#define R2S_MAX_STMT_DEFAULT	((size_t)1 << 20)
#define R2S_MAX_PACKET_DEFAULT	((size_t)16 << 20)
/* Room kept below max_allowed_packet for the packet header and slack. */
#define R2S_PACKET_SLACK	1024

/*
 * Read a frame stream from fd and write SQL text to out_fd.  Returns 0 on
 * success, or -1 after writing one line to *errmsg (static or owned by
 * the converter; valid until exit).  On error, the output ends with the
 * last complete statement and has no trailer.
 */
int	rows2sql(int fd, int out_fd, const struct r2s_opts *, const char **errmsg);

/* hash.c: XXH3_64bits, streaming, the fastest way this CPU allows. */
struct r2s_hash;
struct r2s_hash	*r2s_hash_new(void);	/* NULL: out of memory */
void		 r2s_hash_update(struct r2s_hash *, const void *, size_t);
uint64_t	 r2s_hash_digest(struct r2s_hash *);
void		 r2s_hash_free(struct r2s_hash *);

/* How one column's values are written. */
struct col {
	int		 kind;		/* enum r2s_vkind */
	int		 emit;		/* in the INSERT column list */
	const char	*intro;		/* "_latin1 " */
	size_t		 intro_len;
	char		 introbuf[24];
};

/* value.c: value literals. */
enum r2s_vkind {
	VK_NUM,		/* numeric literal as sent (checked) */
	VK_HEX,		/* 0x...: binary strings, BIT, GEOMETRY */
	VK_BINSTR,	/* _binary'...': --no-hex-blob */
	VK_STR,		/* '...' always: INET6, UUID */
	VK_TEMPORAL,	/* '...' always, usually digits and -: . */
	VK_UTF8,	/* '...' if valid UTF-8, else _cs 0x... */
	VK_ASCII,	/* '...' if all bytes < 0x80, else _cs 0x... */
	VK_CSHEX	/* _cs 0x... always (UCS-2, UTF-16, UTF-32, unknown) */
};

/* Class of a collation id: VK_UTF8, VK_ASCII or VK_CSHEX; *csname its
 * character set ("binary" when unknown). */
int	charset_class(unsigned collation, const char **csname);

/*
 * Upper bound of the bytes value_put() writes for a value of len bytes
 * with an introducer of intro_len bytes.
 */
#define VALUE_MAX(len, intro_len)	(2 * (size_t)(len) + (intro_len) + 16)

/*
 * Append the literal for (p, len) of kind k (intro: "_latin1 " or similar,
 * used by VK_UTF8/VK_ASCII/VK_CSHEX) at o, which must have room for
 * VALUE_MAX(len, strlen(intro)).  p == NULL is SQL NULL.  Returns the new
 * end.
 */
char	*value_put(char *o, int k, const char *intro, size_t intro_len,
	    const char *p, size_t len);
/*
 * Append the tuple "(v1,v2,...)" of the emitted columns at o, which must
 * have room for 2 + the sum of 1 + VALUE_MAX() over them.  lim (or NULL)
 * is the end of the memory the values lie in: the loops may read whole
 * 16-byte blocks up to it.  Returns the new end.
 */
struct rp_val;
char	*row_put(char *o, const struct col *, const struct rp_val *, size_t,
	    const char *lim);
/* The escaped body of a '...' literal (no quotes). */
char	*escape_put(char *o, const char *p, size_t len);
/* Hex digits of p, no prefix. */
char	*hex_put(char *o, const void *p, size_t len);

#endif
