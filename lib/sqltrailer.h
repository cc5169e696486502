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

#define SQLTRAILER_PREFIX	"-- rowpipe-trailer "
#define SQLTRAILER_PREFIX_LEN	(sizeof(SQLTRAILER_PREFIX) - 1)

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

#endif
