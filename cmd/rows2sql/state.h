/*
 * state: the converter's state, shared by the files of rows2sql's
 * converter (see r2s.h); not an interface for anything else.
 *
 * All text is built in one output buffer (out) and written with write(2)
 * only at statement boundaries, so a failure leaves valid SQL up to the
 * last complete statement (and no trailer line: sqlsplit then reports
 * the cut).  The statement count and XXH3 of everything written feed the
 * trailer (lib/sqltrailer.h); each write is also a segment, checked by the
 * checkpoint line written after it (seg_*).
 */
#ifndef ROWS2SQL_STATE_H
#define ROWS2SQL_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "frame.h"
#include "objsql.h"
#include "progress.h"
#include "sqlvalue.h"
#include "stbl.h"
#include "xxh.h"
#include "r2s.h"

/*
 * Write the buffer out once it holds this much (at a statement end).  Each
 * write is a segment that sqlsplit holds until its checkpoint line: 1 MiB
 * keeps that memory and the delay small, and a cut file loses less.
 */
#define OUT_FLUSH_AT	((size_t)1 << 20)

/* A table of the stream and its INSERT text. */
struct tbl {
	struct stbl	 s;		/* first: its id, TABLE frame, rows */
	int		 keep;
	int		 versioned;
	char		*db;		/* target names */
	char		*name;
	struct sqlval_col *cols;
	struct rp_val	*vals;
	struct buf	 prefix;	/* INSERT INTO `t` (`a`,`b`) VALUES  */
	struct buf	 suffix;	/* ON DUPLICATE KEY UPDATE ... */
	size_t		 row_fixed;	/* row_bound() of empty values */
	size_t		 row_bytes;	/* the current row's bytes in its frame */
};

struct r2s {
	const struct r2s_opts *o;
	int		 out_fd;
	struct buf	 out;
	uint64_t	 stmts;
	uint64_t	 written;
	struct rp_xxh	*xxh;
	struct rp_xxh	*seg;		/* XXH3 of the segment being written */
	uint64_t	 seg_stmts;	/* stmts when it began */
	int		 werr;

	struct stbls	 tbls;		/* struct tbl by TABLE frame id */

	struct objsql	*objs;		/* objects to statements */

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

/* report.c: record the first error (prefixed with the frame); -1. */
int	 fail(struct r2s *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* output.c */
int	 out_flush(struct r2s *);
int	 out_flush_committed(struct r2s *);
int	 stmt_end(struct r2s *, const char *delim);
int	 stmt(struct r2s *, const char *text);
int	 close_insert(struct r2s *);
int	 use_db(struct r2s *, const char *db);

/* session.c */
int	 do_header(struct r2s *, const struct frame *);
int	 do_footer(struct r2s *);
int	 do_trailer(struct r2s *);
/* The text's last line for an aborted input (lib/sqltrailer.h).  0, -1. */
int	 abort_line(struct r2s *, int reason, const char *why);

/* objects.c */
struct objsql *objects_new(struct r2s *);	/* NULL: out of memory */
int	 do_object(struct r2s *, const struct rp_object *);

/* inserts.c */
int	 do_table(struct r2s *, const struct frame *);
int	 do_rows(struct r2s *, const struct frame *);
int	 do_table_end(struct r2s *, const struct frame *);
void	 tbl_release(struct stbl *);	/* tbls.release */

#endif
