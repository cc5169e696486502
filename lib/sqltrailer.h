/*
 * sqltrailer: the comment line rows2sql ends its SQL text with, so that
 * sqlsplit can tell a complete dump from a cut one.
 *
 * Format (one line, the last of the text, rowpipe-stream(5) SQL TRAILER):
 *
 *   -- rowpipe-trailer statements=N bytes=B xxh3=HHHHHHHHHHHHHHHH\n
 *
 * statements: the statements in the text before this line, counted as the
 * mysql client (and sqlsplit) counts them: DELIMITER commands and empty
 * statements are not statements.  bytes: the length of the text before this
 * line.  xxh3: XXH3_64bits of those bytes, 16 lowercase hex digits.  To the
 * mysql client the line is an ordinary comment.
 *
 * Checkpoint lines cut the text into segments that a reader can check
 * before it hands out any statement of one (sqlsplit does):
 *
 *   -- rowpipe-segments bytes=S\n                       (second line)
 *   -- rowpipe-checkpoint statements=N bytes=B xxh3=H\n  (between statements)
 *
 * A segment is the text after the previous checkpoint line (or from the
 * start) up to this line; N, B and H are its statements, length and
 * XXH3_64bits.  rows2sql writes a checkpoint line right after the first
 * statement that ends S or more bytes into a segment, so no statement of
 * a whole text starts S or more bytes into its segment: a reader that
 * holds a segment needs S plus the largest statement.  The last segment
 * is checked by the trailer line, which covers the whole text (checkpoint
 * lines included).
 */
#ifndef ROWPIPE_SQLTRAILER_H
#define ROWPIPE_SQLTRAILER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * rows2sql's first line.  Text that starts with it must end with the
 * trailer line: sqlsplit treats a missing trailer there as truncation.
 */
#define SQLTRAILER_HEADER	"-- rows2sql dump\n"
#define SQLTRAILER_HEADER_LEN	(sizeof(SQLTRAILER_HEADER) - 1)

/*
 * A header line of rows2sql --part-ok: the text is one part of a dbsnap
 * plan, not a whole dump; sqlsplit warns when it reads one.
 */
#define SQLTRAILER_PART		"-- rowpipe-part: "
#define SQLTRAILER_PART_LEN	(sizeof(SQLTRAILER_PART) - 1)

/*
 * The last line of a text whose input stream ended with an ABORT frame,
 * or that rows2sql itself gave up on (rowpipe-stream(5)):
 * "-- rowpipe-abort reason=N xxh3=H MESSAGE\n", N the frame's reason
 * (FRAME_ABORT_*), H the XXH3_64bits of "N MESSAGE" (16 lowercase hex
 * digits), MESSAGE one line.  It comes after a checkpoint line, instead
 * of the trailer line; sqlsplit passes N on in its own ABORT frame.  An
 * older rows2sql wrote no xxh3 (and reasons 1 and 2 only).
 */
#define SQLTRAILER_ABORT	"-- rowpipe-abort reason="
#define SQLTRAILER_ABORT_LEN	(sizeof(SQLTRAILER_ABORT) - 1)
/* Append the abort line for reason and msg (len bytes, one line). */
void	sqltrailer_abort_format(struct buf *, int reason, const char *msg,
	    size_t len);
/*
 * Parse an abort line (without its newline; a final \r is allowed):
 * its reason (> 0), with *msg and *mlen the message in line; -1 if the
 * line is malformed or its xxh3 does not match (a damaged line).
 */
int	sqltrailer_abort_parse(const char *line, size_t len, const char **msg,
	    size_t *mlen);
/*
 * The statement rows2sql writes on the line after its abort line, so that
 * the mysql client (to which the abort line is a comment) stops there with
 * an error naming the abort, instead of taking the text for a whole dump:
 * "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'rowpipe: ...';\n", valid at
 * top level in MariaDB and MySQL (ERROR 1644).  The message is msg (len
 * bytes) after a fixed phrase, at most 128 characters (MySQL's limit for
 * MESSAGE_TEXT); a byte that is not printable ASCII, or a backslash (read
 * two ways as sql_mode has it), becomes '?'.  Nothing reads the line back:
 * sqlsplit ends the text at the abort line before it.
 */
#define SQLTRAILER_ABORT_STMT	"SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'rowpipe: "
#define SQLTRAILER_ABORT_STMT_LEN (sizeof(SQLTRAILER_ABORT_STMT) - 1)
void	sqltrailer_abort_stmt(struct buf *, const char *msg, size_t len);

#define SQLTRAILER_PREFIX	"-- rowpipe-trailer "
#define SQLTRAILER_PREFIX_LEN	(sizeof(SQLTRAILER_PREFIX) - 1)
#define SQLTRAILER_SEGMENTS	"-- rowpipe-segments bytes="
#define SQLTRAILER_SEGMENTS_LEN	(sizeof(SQLTRAILER_SEGMENTS) - 1)
#define SQLTRAILER_CHECKPOINT	"-- rowpipe-checkpoint "
#define SQLTRAILER_CHECKPOINT_LEN (sizeof(SQLTRAILER_CHECKPOINT) - 1)

struct sqltrailer {
	uint64_t	 statements;
	uint64_t	 bytes;
	uint64_t	 xxh3;
};

/* Append the trailer line, newline included. */
void	sqltrailer_format(struct buf *, const struct sqltrailer *);
/*
 * Parse one line (without its newline; a trailing \r is allowed) that
 * starts with SQLTRAILER_PREFIX.  0, or -1 if it is malformed.
 */
int	sqltrailer_parse(const char *line, size_t len, struct sqltrailer *);
/* The same for a checkpoint line (SQLTRAILER_CHECKPOINT), of a segment. */
void	sqltrailer_checkpoint_format(struct buf *, const struct sqltrailer *);
int	sqltrailer_checkpoint_parse(const char *line, size_t len,
	    struct sqltrailer *);
/*
 * The segments line (SQLTRAILER_SEGMENTS): its S into *bytes.  0, or -1
 * if the line is malformed (S must be at least 1).
 */
int	sqltrailer_segments_parse(const char *line, size_t len,
	    uint64_t *bytes);

#endif
