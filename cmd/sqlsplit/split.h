/*
 * split: cut SQL text into statements exactly where the mysql(1)
 * command-line client (client/mysql.cc, add_line()) cuts it, and classify
 * each statement.  The core of sqlsplit(1), without main(), built into
 * libsqlsplit.a for sqlsplit, its unit tests and its fuzzer (state.h
 * lists the files).
 *
 * The splitter owns one input buffer; statements are handed to a callback
 * as borrowed views into it (no copy).  Memory is bounded by the largest
 * statement plus a fixed read chunk.  Like lib/, it never prints or exits:
 * errors are sticky and described by split_errstr(); warnings (what the
 * mysql client reports and then carries on from) go to an optional
 * callback.
 */
#ifndef SQLSPLIT_SPLIT_H
#define SQLSPLIT_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/* split_fd() reads the input this much at a time. */
#define SPLIT_CHUNK	((size_t)4 << 20)

struct split_opts {
	int	 no_backslash_escapes;	/* start as if sql_mode had it */
	int	 ansi_quotes;		/* start as if sql_mode had it */
	int	 binary_mode;		/* mysql --binary-mode: keep CR, allow NUL */
	int	 require_trailer;	/* a missing rows2sql trailer is an error */
	int	 mydumper;		/* cut as myloader does (scan.c) */
};

/* One statement, valid during the callback only. */
struct split_stmt {
	const char	*text;		/* borrowed; not NUL-terminated */
	size_t		 len;
	uint64_t	 no;		/* 1-based */
	uint64_t	 line;		/* 1-based line of its first byte */
	uint64_t	 offset;	/* input offset of its first byte */
	int		 kind;		/* enum rp_stmt_kind */
	const char	*db;		/* current database (USE); "" if none */
	const char	*schema;	/* target schema as written, or "" */
	const char	*table;		/* target table/object, or "" */
	int		 mode;		/* SQLTOK_NBE, SQLTOK_ANSIQ it was read in */
};

/* Return 0 to go on, -1 to stop (split_*() then return -1). */
typedef int	(*split_cb)(void *arg, const struct split_stmt *);
typedef void	(*split_warn_cb)(void *arg, const char *msg);
/*
 * Segments of a checked text (rows2sql's, lib/sqltrailer.h): SPLIT_SEG_BEGIN
 * before the first statement of such a text, SPLIT_SEG_OK after the last
 * statement of a segment whose checkpoint line matched (the statements
 * handed out since the last event are then known good).  Return 0, or -1
 * to stop.  A text that ends with a matching trailer line needs no event:
 * split_finish() returning 0 says the last segment is good.
 */
enum { SPLIT_SEG_BEGIN = 1, SPLIT_SEG_OK };
typedef int	(*split_seg_cb)(void *arg, int event);

struct split;

/* NULL with errno ENOMEM.  opts may be NULL (all zero). */
struct split	*split_new(const struct split_opts *, split_cb, void *arg);
void		 split_free(struct split *);
void		 split_set_warn(struct split *, split_warn_cb, void *arg);
void		 split_set_segments(struct split *, split_seg_cb, void *arg);

/*
 * Read fd to EOF and split it, then split_finish().  0 on success, -1 on
 * a read error (errno set), bad input, truncation, trailer mismatch or a
 * callback that returned -1.
 */
int		 split_fd(struct split *, int fd);
/* Push n bytes of input (copied).  0 or -1. */
int		 split_feed(struct split *, const void *, size_t n);
/*
 * End of input: the final statement without a delimiter, truncation and
 * trailer checks.  0 or -1.
 */
int		 split_finish(struct split *);
/* Why the last call returned -1 ("" if the callback stopped it). */
const char	*split_errstr(const struct split *);
/* Statements handed out so far. */
uint64_t	 split_count(const struct split *);
/* Input bytes consumed so far. */
uint64_t	 split_offset(const struct split *);
/* 1 if the input ended with a rows2sql trailer that matched. */
int		 split_trailer_ok(const struct split *);
/*
 * 1 if the last failure was damage (a checkpoint or trailer line that does
 * not match, a checkpoint line missing where one was due), not a cut.
 */
int		 split_damaged(const struct split *);
/*
 * After damage: 1 if statements of the damaged part may have been handed
 * out (a text without segments, whose trailer line found it after every
 * statement; or the producer of rows2sql's input found it late, as its
 * abort line says), 0 if none was (a checked text's segment).
 */
int		 split_damaged_late(const struct split *);
/*
 * The rowpipe-stream(5) ABORT reason of the last failure, for the
 * stream downstream: FRAME_ABORT_DAMAGED or _DAMAGED_LATE for damage,
 * FRAME_ABORT_NOSPLIT for a character set it cannot cut, the reason of
 * rows2sql's abort line; 0 for a cut (the stream then just ends).
 */
int		 split_abort_reason(const struct split *);
/*
 * The message of rows2sql's abort line when split_abort_reason() is its
 * reason (to pass on as it is), else NULL.
 */
const char	*split_abort_msg(const struct split *);

#endif
