/*
 * frame: the rowpipe-stream(5) frame stream, reader and writer.
 *
 * man/man5/rowpipe-stream.5 is the normative specification; this header is its C
 * binding.  A stream is a 16-byte prelude (magic, version, check) followed
 * by frames.  Each frame is a 16-byte header (payload length, type, flags,
 * payload checksum, header checksum seeded with the frame's sequence
 * number) and a payload.  The first frame is FT_HEADER, the last FT_TRAILER;
 * EOF anywhere else is truncation.  All integers are little-endian.
 *
 * Payload fields are built from three encodings:
 *   varint  unsigned LEB128, at most 10 bytes
 *   str     varint length, the bytes, then one NUL (not counted in the
 *           length) so that decoded strings are C strings in place
 *   val     varint (length + 1) then the bytes; varint 0 is SQL NULL
 * Decoders ignore bytes after the fields they know (room for new fields).
 * The reader and writer are in frame.c, the payload encodings (enc_*,
 * dec_*) in payload.c.
 *
 * Neither the reader nor the writer closes the fd it was given, prints, or
 * exits.  Errors are sticky and described by *_errstr().  Not thread-safe:
 * one thread per handle, or the caller's lock.
 */
#ifndef ROWPIPE_FRAME_H
#define ROWPIPE_FRAME_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "wire.h"

#define FRAME_MAGIC		"\x89RPS\r\n\x1a\n"	/* 8 bytes */
#define FRAME_MAGIC_LEN		8
#define FRAME_PRELUDE_LEN	16	/* magic, u32 version, u32 check */
#define FRAME_VERSION		1
#define FRAME_HDR_LEN		16
/* Largest payload a reader accepts by default (a 1 GiB statement fits). */
#define FRAME_MAX_DEFAULT	((size_t)2 << 30)
/* The writer flushes its buffer when it holds at least this much. */
#define FRAME_FLUSH_AT		((size_t)1 << 20)

enum frame_type {
	FT_HEADER = 1,		/* stream metadata: kv list; always first */
	FT_OBJECT = 2,		/* DDL of one schema object */
	FT_TABLE = 3,		/* column metadata for the rows that follow */
	FT_ROWS = 4,		/* a batch of rows of one table */
	FT_TABLE_END = 5,	/* all rows of one table have been sent */
	FT_STMT = 6,		/* one SQL statement with its position */
	FT_TRAILER = 7,		/* totals; always last */
	FT_ABORT = 8		/* the producer gave up: reason, message; last */
};

/*
 * FT_ABORT reasons: the pipeline's one vocabulary for a stream that ended
 * before its end (rowpipe-stream(5) ABORT).  A reader of an older
 * producer's stream sees 1 and 2 only; an unknown reason reads as
 * FRAME_ABORT_FAILED.
 */
#define FRAME_ABORT_DAMAGED	1	/* its input was damaged, not cut */
/*
 * Damaged too, but found only after what it touches was written (a text
 * checked only at its end, a view a transform broke after the rows): the
 * frames before the abort may hold the damaged part.
 */
#define FRAME_ABORT_DAMAGED_LATE 2
/*
 * The producer failed (a server error, a transform, a filter that matched
 * nothing): the input is good, the frames before the abort are good, but
 * the stream is not all of it.
 */
#define FRAME_ABORT_FAILED	3
/* Its input was cut: it ended early, what came before is good. */
#define FRAME_ABORT_CUT		4
/*
 * The input is good but cannot be split or read by this pipeline (a
 * character set sqlsplit cannot cut); the message says what to use.
 */
#define FRAME_ABORT_NOSPLIT	5

/*
 * The phrase for a reason, for messages: "damaged", "damaged (found
 * late)", "the dump failed when it was made; this is not a complete
 * backup; its bytes are not damaged" (said once, here), "cut", "cannot
 * split"; FRAME_ABORT_FAILED's for an unknown reason.  Static.
 */
const char	*frame_abort_phrase(int reason);
/*
 * Can a load that stopped at this abort be resumed from its resume point
 * once the input is whole (FRAME_ABORT_CUT only)?  1 or 0.
 */
int		 frame_abort_resumable(int reason);

/* Frame flags (header byte 5). */
#define FRAME_F_OPTIONAL	0x01	/* readers may skip it if unknown */

/* Object kinds (FT_OBJECT). */
enum rp_object_kind {
	OBJ_DATABASE = 1,
	OBJ_TABLE = 2,
	OBJ_VIEW = 3,
	OBJ_PROCEDURE = 4,
	OBJ_FUNCTION = 5,
	OBJ_TRIGGER = 6,
	OBJ_EVENT = 7,
	OBJ_SEQUENCE = 8,
	OBJ_PACKAGE = 9,	/* sql_mode=ORACLE CREATE PACKAGE */
	OBJ_PACKAGE_BODY = 10,	/* its CREATE PACKAGE BODY */
	OBJ_USER = 11,		/* an account: SHOW CREATE USER */
	OBJ_ROLE = 12,		/* a role: CREATE ROLE ... [WITH ADMIN ...] */
	OBJ_GRANT = 13		/* one line of SHOW GRANTS of an account or role */
};

/*
 * "database", "table", ..., "package", "package body", as
 * rowpipe-stream(5) names them; or NULL.
 */
const char	*rp_object_kind_name(int kind);
/* The kind for a name, or -1. */
int		 rp_object_kind_parse(const char *name);

/* Column flags (FT_TABLE). */
#define COL_NOT_NULL	0x0001
#define COL_UNSIGNED	0x0002
#define COL_BINARY	0x0004	/* binary charset (63): bytes, not text */
#define COL_GENERATED	0x0008	/* VIRTUAL or STORED generated column */
#define COL_INVISIBLE	0x0010
#define COL_PRIMARY	0x0020	/* part of the primary key */
#define COL_NUMERIC	0x0040	/* value is a numeric literal as sent */
#define COL_UNIQUE	0x0080	/* part of a unique key */
#define COL_ROW_START	0x0100	/* system-versioning ROW START column */
#define COL_ROW_END	0x0200	/* system-versioning ROW END column */

/* Statement kinds (FT_STMT); rp_stmt_kind_name() gives their names. */
enum rp_stmt_kind {
	STK_OTHER = 0,
	STK_INSERT,		/* INSERT and REPLACE */
	STK_CREATE_TABLE,
	STK_CREATE_VIEW,
	STK_CREATE_ROUTINE,	/* PROCEDURE, FUNCTION */
	STK_CREATE_TRIGGER,
	STK_CREATE_EVENT,
	STK_CREATE_DATABASE,
	STK_ALTER,
	STK_DROP,
	STK_SET,
	STK_USE,
	STK_LOCK,		/* LOCK TABLES */
	STK_UNLOCK,		/* UNLOCK TABLES */
	STK_TRANSACTION,	/* BEGIN, START TRANSACTION, COMMIT, ROLLBACK */
	STK_UPDATE,
	STK_DELETE,
	STK_LOAD,		/* LOAD DATA */
	STK_SET_SERVER,		/* a SET of more than the session (lib/sqlset.h) */
	STK_KIND_MAX
};

/* "insert", "create-table", ...; NULL for an unknown kind. */
const char	*rp_stmt_kind_name(int kind);
/* The kind for a name, or -1. */
int		 rp_stmt_kind_parse(const char *name);

/* A frame as read: a borrowed view, valid until the next frame_read(). */
struct frame {
	int		 type;
	unsigned	 flags;
	const uint8_t	*p;		/* payload */
	size_t		 len;		/* payload bytes */
	uint64_t	 seq;		/* 0 for the header frame */
	uint64_t	 offset;	/* stream offset of the frame header */
};

enum frame_status {
	FRAME_OK,	/* *f holds a frame */
	FRAME_DONE,	/* the trailer was read and its totals match */
	FRAME_ERR	/* frame_reader_errstr() says why, with the offset */
};

/* Totals a reader counts and a trailer carries. */
struct frame_totals {
	uint64_t	 frames;	/* frames before the trailer */
	uint64_t	 rows;		/* sum of FT_ROWS row counts */
	uint64_t	 stmts;		/* FT_STMT frames */
	uint64_t	 objects;	/* FT_OBJECT frames */
	uint64_t	 bytes;		/* stream bytes before the trailer */
};

struct frame_reader;

/*
 * Reader on fd (not closed by frame_reader_free).  max_frame caps the
 * payload size accepted (0: FRAME_MAX_DEFAULT); a larger length is rejected
 * before allocating.  NULL with errno ENOMEM.
 */
struct frame_reader	*frame_reader_new(int fd, size_t max_frame);
void			 frame_reader_free(struct frame_reader *);

/*
 * What the first n bytes of some input are, when they start with a known
 * magic number: a rowpipe stream, LZ4 (frame or legacy), zstd, gzip, xz.
 * Returns a static phrase ("input is LZ4-compressed (decompress it with
 * lz -d)") or NULL.  For programs that read text, to name binary input.
 */
const char		*frame_sniff_magic(const void *, size_t n);

/*
 * Read the next frame.  The first frame returned is FT_HEADER.  Unknown
 * optional frames are skipped; an unknown required type is an error.  On
 * the trailer, checks its totals against what was read and returns
 * FRAME_DONE (and FRAME_DONE again on later calls).  FRAME_ERR is sticky;
 * the reason distinguishes "empty input", "not a rowpipe stream" (naming
 * what the input looks like: SQL text, LZ4, ...), "truncated at byte N" and
 * "corrupt: ... at byte N".
 */
enum frame_status	 frame_read(struct frame_reader *, struct frame *);
const char		*frame_reader_errstr(const struct frame_reader *);
/*
 * Hand the buffer that holds the frame frame_read() returned last to the
 * caller: *p (free(3) it; the frame's view stays valid in it) and *cap,
 * its size; the reader goes on in a buffer of its own, with the bytes it
 * had read past that frame.  For a large frame kept past the next read
 * without a copy of it.  0, or -1 with errno ENOMEM (nothing changed).
 */
int			 frame_reader_take(struct frame_reader *, void **p,
			    size_t *cap);
/*
 * Format an error about frame f (NULL: none) into buf: "frame N at
 * offset O: " and then fmt.  For programs that keep one error line in
 * their state.  Returns -1, so that `return frame_verrf(...)` fails.
 */
int		 frame_verrf(char *buf, size_t size, const struct frame *f,
		    const char *fmt, va_list ap)
		    __attribute__((format(printf, 4, 0)));
/* Totals so far; after FRAME_DONE, those the trailer confirmed. */
const struct frame_totals *frame_reader_totals(const struct frame_reader *);
/* Bytes consumed from the fd so far. */
uint64_t		 frame_reader_offset(const struct frame_reader *);
/*
 * An FT_ABORT frame ends the stream as an error: frame_read() returns
 * FRAME_ERR with "aborted by the producer: MESSAGE" (errno ECONNABORTED).
 * Its reason (FRAME_ABORT_DAMAGED, ...), or 0 if the stream was not
 * aborted; *msg (may be NULL) then points to the producer's message,
 * valid until frame_reader_free().
 */
int			 frame_reader_aborted(const struct frame_reader *,
			    const char **msg);
/*
 * Make every later wait for input also watch fd (-1: none): once fd is
 * readable (a self-pipe a signal watcher writes to), frame_read() fails
 * with errno ECANCELED and "interrupted at byte N" instead of waiting on.
 * For a program that must stop reading on SIGINT though its input is
 * silent; the reader does not read or close fd.
 */
void			 frame_reader_set_cancel(struct frame_reader *, int fd);

struct frame_writer;

/* Writer on fd (not closed).  NULL with errno ENOMEM. */
struct frame_writer	*frame_writer_new(int fd);
void			 frame_writer_free(struct frame_writer *);

/*
 * Zero-copy framing: frame_begin() returns the buffer to append the payload
 * to (borrowed; use only until frame_end()); frame_end() seals it as a
 * frame of that type.  The first frame must be FT_HEADER; the prelude is
 * written before it.  frame_end() returns 0, or -1 on a write error
 * (sticky, errno set).
 */
struct buf	*frame_begin(struct frame_writer *);
int		 frame_end(struct frame_writer *, int type, unsigned flags);
/* Drop the frame frame_begin() began: none of it is written.  No-op if none. */
void		 frame_cancel(struct frame_writer *);
/* frame_begin, append len bytes of payload, frame_end. */
int		 frame_write(struct frame_writer *, int type, unsigned flags,
		    const void *payload, size_t len);
/*
 * The same with the payload in n pieces (1 <= n <= FRAME_IOV_MAX), in
 * order; borrowed until it returns.  A payload of FRAME_DIRECT_AT bytes
 * or more (frame_write's too) is written at once from where it is, after
 * what is buffered, by writev(2), unless the writer holds frames.
 */
#define FRAME_IOV_MAX	64
#define FRAME_DIRECT_AT	((size_t)128 << 10)
struct iovec;
int		 frame_writev(struct frame_writer *, int type, unsigned flags,
		    const struct iovec *, int n);
/* Write out what is buffered.  0 or -1 (sticky, errno set). */
int		 frame_writer_flush(struct frame_writer *);
/*
 * Write the trailer with the writer's totals and flush.  Only a 0 return
 * means the stream is complete.  Does not free the writer.
 */
int		 frame_writer_close(struct frame_writer *);
/*
 * Hold the frames written from now on in memory, unflushed (a flush
 * writes only what came before), until frame_writer_release(), which lets
 * them go out, or frame_writer_discard(), which drops them as if they had
 * never been written (sequence numbers and totals too).  For a producer
 * that checks its input a segment at a time.  release: 0 or -1 (sticky).
 */
void		 frame_writer_hold(struct frame_writer *);
int		 frame_writer_release(struct frame_writer *);
void		 frame_writer_discard(struct frame_writer *);
/*
 * Drop what is held, end the stream with an FT_ABORT frame (reason,
 * message: one line saying why) instead of a trailer, and flush; before
 * any frame, an empty header first.  Every reader downstream then fails
 * with that reason.  0, or -1 (sticky).
 */
int		 frame_writer_abort(struct frame_writer *, int reason,
		    const char *msg);
const char	*frame_writer_errstr(const struct frame_writer *);
const struct frame_totals *frame_writer_totals(const struct frame_writer *);

/*
 * FT_HEADER and FT_TRAILER payloads.  The header is a kv list; keys in
 * rowpipe-stream(5): producer, server_version, snapshot_time, consistency,
 * binlog_file, binlog_pos, gtid_binlog_pos, time_zone, ...
 */

/* FT_OBJECT: kind, schema, name, ddl, kv attrs (sql_mode, ...). */
struct rp_object {
	int		 kind;
	const char	*schema;	/* borrowed, NUL-terminated */
	const char	*name;
	const char	*ddl;
	size_t		 ddl_len;
	struct rp_kv	 attrs;
};
void	enc_object(struct buf *, const struct rp_object *);
int	dec_object(const struct frame *, struct rp_object *);	/* 0 or -1 */

/* FT_TABLE: one column's metadata. */
struct rp_column {
	char		*name;
	unsigned	 type;		/* enum enum_field_types (mysql_com.h) */
	unsigned	 flags;		/* COL_* */
	unsigned	 charsetnr;	/* collation id; 63 is binary */
	unsigned	 decimals;
	char		*coltype;	/* declared type, e.g. "decimal(65,30)" */
};

/* FT_TABLE: id, schema, name, columns, kv attrs (engine, versioned, ...). */
struct rp_table {
	uint64_t	 id;		/* unique within the stream, > 0 */
	char		*schema;
	char		*name;
	size_t		 ncols;
	struct rp_column *cols;
	struct rp_kv	 attrs;		/* decoded into storage the table owns */
	void		*attrs_mem;	/* that storage (dec_table only) */
};
void	enc_table(struct buf *, const struct rp_table *);
/*
 * Decode an FT_TABLE frame into a new, owned rp_table (copied out of the
 * frame, so it outlives it).  NULL if corrupt or out of memory.
 */
struct rp_table	*dec_table(const struct frame *);
void		 rp_table_free(struct rp_table *);

/* FT_ROWS: varint table id, u32 row count, then ncols vals per row. */
struct rp_val {
	const char	*p;	/* NULL for SQL NULL; borrowed from the frame */
	size_t		 len;
};
struct rp_rows {
	uint64_t	 table_id;
	uint64_t	 nrows;
	uint64_t	 left;	/* rows not yet returned */
	struct dec	 d;
};
/* Start reading an FT_ROWS frame.  0 or -1 (corrupt). */
int	dec_rows_begin(const struct frame *, struct rp_rows *);
/* Fill vals[0..ncols-1] with the next row.  1: a row, 0: end, -1: corrupt. */
int	dec_rows_next(struct rp_rows *, struct rp_val *vals, size_t ncols);
/*
 * Row building: enc_rows_begin, then per row enc_val for each column.  The
 * row count is a fixed-width u32 (the last 4 bytes enc_rows_begin appends),
 * so a builder that does not know it yet passes 0 and later calls
 * enc_rows_patch(b, at, nrows) with at = b->len right after enc_rows_begin.
 */
void	enc_rows_begin(struct buf *, uint64_t table_id, uint32_t nrows);
void	enc_rows_patch(struct buf *, size_t at, uint32_t nrows);

/* FT_TABLE_END: varint table id, varint rows sent for the table. */
void	enc_table_end(struct buf *, uint64_t table_id, uint64_t rows);
int	dec_table_end(const struct frame *, uint64_t *table_id, uint64_t *rows);

/*
 * FT_STMT: varint number (1-based), varint line (1-based, of the first
 * byte of the statement), varint byte offset in the input, varint kind,
 * str current database (from USE; may be ""), str target schema (as
 * written in the statement; may be ""), str target table (may be ""),
 * str text (without its delimiter); then, from producers that say it,
 * varint lexer mode (SQLTOK_NBE 0x01, SQLTOK_ANSIQ 0x02: the sql_mode
 * the text was cut in).  A frame with the mode also says that kind set
 * is a session SET (lib/sqlset.h decided it); one without (an older
 * producer) is read as mode 0, said 0.
 */
struct rp_stmt {
	uint64_t	 no;
	uint64_t	 line;
	uint64_t	 offset;
	int		 kind;
	const char	*db;		/* borrowed, NUL-terminated */
	const char	*schema;
	const char	*table;
	const char	*text;		/* NUL-terminated; may hold NULs */
	size_t		 len;
	int		 mode;		/* SQLTOK_NBE | SQLTOK_ANSIQ */
	int		 said;		/* the frame carries mode (written if set) */
};
void	enc_stmt(struct buf *, const struct rp_stmt *);
/*
 * enc_stmt() less the text's bytes: what goes before them appended to
 * head, what goes after them to tail; head, s->text[0..len), tail is the
 * payload, for frame_writev() to send a large text from where it is.
 */
void	enc_stmt_split(struct buf *head, struct buf *tail,
	    const struct rp_stmt *);
int	dec_stmt(const struct frame *, struct rp_stmt *);	/* 0 or -1 */

#endif
