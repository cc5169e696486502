/*
 * state: the splitter's state, shared by the files of sqlsplit's splitter
 * (see split.h); not an interface for anything else.
 *
 * split.c holds the interface and the input window, scan.c the lexer
 * that finds statement ends, commands.c the mysql client's commands,
 * statement.c what happens when a statement ends, classify.c its kind
 * and target, trailer.c the rows2sql trailer and mysqldump's end marker.
 * Differences from the client are deliberate and listed in sqlsplit(1):
 * comments inside a statement are kept (the client strips them unless
 * --comments), and client commands other than DELIMITER, USE, go, clear,
 * quit and the display-only ones are refused instead of run.
 */
#ifndef SQLSPLIT_STATE_H
#define SQLSPLIT_STATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <xxhash.h>

#include "buf.h"
#include "frame.h"
#include "sqltok.h"
#include "sqltrailer.h"
#include "split.h"

#define DELIM_MAX	15			/* mysql.cc: char delimiter[16] */
#define CMDLINE_MAX	255			/* mysql.cc: com_delimiter buff[256] */
#define UVAR_MAX	32			/* user variables holding a sql_mode */

#define MODE_NBE	SQLTOK_NBE	/* NO_BACKSLASH_ESCAPES */
#define MODE_ANSIQ	SQLTOK_ANSIQ	/* ANSI_QUOTES */

struct cut {
	uint64_t	 start, end;	/* input offsets of bytes to drop */
};

struct uvar {
	char		 name[65];
	int		 mode;
};

/*
 * The stop sets of the scanner's states: the bytes that may change the
 * state (sqltok_skip()), rebuilt when the delimiter changes.
 */
struct stops {
	struct sqltok_stops norm, norm_ssc;	/* statement text */
	struct sqltok_stops mlc, lc;		/* comments */
	struct sqltok_stops sq, sq_raw, dq, dq_raw, bq;	/* quoted */
};

/* The lines that say whether the input is whole (trailer.c). */
struct marks {
	/* the last rows2sql trailer line seen */
	int		 tr_seen;	/* 1 parsed, -1 malformed, -2 cut */
	struct sqltrailer tr;
	uint64_t	 tr_off, tr_end, tr_hash, tr_stmts;
	int		 tr_ok;
	/* rows2sql's first line seen: its trailer line is then required */
	int		 r2s_hdr;
	int		 r2s_old;	/* an older rows2sql's: no segments line */
	/*
	 * Its segments (lib/sqltrailer.h): seg_max is S of the segments
	 * line (0: the text has none, or not yet); the segment began at
	 * seg_start (line seg_line), with statement seg_nstmt + 1; seg_xx
	 * is its XXH3 up to the split's hash_off while seg_on.
	 */
	uint64_t	 seg_max, seg_start, seg_nstmt, seg_line;
	XXH3_state_t	*seg_xx;
	int		 seg_on;
	split_seg_cb	 seg_cb;
	void		*seg_arg;
	int		 damaged;	/* the failure is damage, not a cut */
	int		 late;		/* an abort line of reason 2 said so */
	/* another FRAME_ABORT_* reason of the failure (0: none, a cut) */
	int		 reason;
	char		 reason_msg[400];	/* an abort line's message */
	/* end of the last line that is a damaged trailer or abort line */
	uint64_t	 near_end;
	/* mysqldump/mariadb-dump: header seen, end of "-- Dump completed" */
	int		 dump_hdr;
	uint64_t	 dump_done_end;
};

struct split {
	struct split_opts opts;
	split_cb	 cb;
	void		*arg;
	split_warn_cb	 warn;
	void		*warn_arg;

	char		*buf;		/* input window */
	size_t		 cap, len;	/* allocated, valid */
	size_t		 pos;		/* scan position (index in buf) */
	uint64_t	 base;		/* input offset of buf[0] */
	unsigned char	 head[8];	/* the input's first bytes, to name it */
	size_t		 headlen;
	int		 eof;
	size_t		 bom;		/* 3 if the input starts with one */
	int		 stopped;	/* quit/exit seen, or an error */
	int		 sandbox;	/* \- seen: no source */
	int		 depth;		/* of source commands */
	int		 failed;

	/* lexer state: add_line()'s in_string, ml_comment, ss_comment */
	int		 q;		/* quote char of the open string, or 0 */
	int		 mlc;		/* inside a plain comment */
	int		 ssc;		/* inside a version comment, this line */
	int		 lc;		/* inside a # or -- comment */
	int		 started;	/* the statement has a significant byte */
	int		 line_start;	/* pos is at the start of a line */
	size_t		 stmt_start;	/* index of its first byte */
	uint64_t	 q_start;	/* offset of the open quote */
	uint64_t	 mlc_start, mlc_line;
	char		 delim[DELIM_MAX + 1];
	size_t		 dlen;
	int		 mode;		/* MODE_* now in effect */
	int		 mode0;		/* the initial one (DEFAULT) */
	struct uvar	 uvars[UVAR_MAX];
	size_t		 nuvars;

	struct stops	 stops;		/* scan.c's, for the delimiter */

	struct cut	*cuts;
	size_t		 ncuts, cutcap;

	/* lines are counted lazily up to line_off */
	uint64_t	 line_off, line_no;
	/* XXH3 of the input up to hash_off */
	XXH3_state_t	*xx;
	uint64_t	 hash_off;

	struct marks	 mark;		/* trailer.c's */

	/* a SET to a character set sqlsplit cannot cut (classify.c) */
	char		 badcs[64];
	char		 badwhat[32];

	uint64_t	 nstmt;
	struct buf	 db, schema, table, syn;
	char		 err[512];
};


/* A client command of mysql.cc's commands[] that sqlsplit knows. */
struct client_command {
	const char	*name;
	char		 c;		/* the \c short form */
	int		 params;
};
extern const struct client_command commands[];

/* how a statement ended */
enum { END_DELIM, END_EOF, END_GO };

/* A significant byte at pos: the statement starts here if not yet. */
static inline void
output(struct split *s, size_t pos)
{
	if (!s->started) {
		s->started = 1;
		s->stmt_start = pos;
	}
}

/* split.c */
int	 sfail(struct split *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * sfail() of pre and fmt's message, the failure marked as reason
 * (FRAME_ABORT_DAMAGED: s->mark.damaged; another: s->mark.reason).
 */
int	 sfail_as(struct split *, int reason, const char *pre,
	    const char *fmt, va_list ap)
	    __attribute__((format(printf, 4, 0)));
/*
 * sfail() for a good input sqlsplit cannot cut, in character set cs
 * (a name, or "of collation id N"): "cannot split", naming the client
 * to use.
 */
int	 nosplit(struct split *, const char *cs, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 swarn(struct split *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
uint64_t line_at(struct split *, uint64_t off);
void	 hash_to(struct split *, uint64_t off);

/* scan.c */
void	 build_tables(struct split *);
int	 add_cut(struct split *, uint64_t start, uint64_t end);
int	 scan(struct split *);

/* commands.c */
int	 is_delimiter_cmd(const char *, size_t);
int	 find_command(struct split *, const char *, size_t);
int	 run_command(struct split *, int i, const char *, size_t,
	    int short_cmd, uint64_t off);
int	 line_command(struct split *, size_t pos, size_t *np);
int	 short_command(struct split *, size_t pos, size_t *np);

/* statement.c */
int	 emit_stmt(struct split *, size_t start, size_t end, int how);

/* classify.c */
int	 classify(struct split *, const char *, size_t);

/* trailer.c */
int	 marker_line(struct split *, size_t pos);
int	 abort_stmt_damaged(struct split *, const char *, size_t, uint64_t off,
	    uint64_t line);
int	 check_trailer(struct split *);
int	 marker_damaged(struct split *);
int	 trailer_ends_text(struct split *);
/* A statement starts at off: in a checked text, within its segment? */
int	 segment_bound(struct split *, uint64_t off);
/* sfail() for damage: the input is not what its writer wrote. */
int	 sdamaged(struct split *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
