/*
 * quote: SQL literals and identifiers as MariaDB/MySQL parse them.
 *
 * Sources: MariaDB KB "String Literals" (escape sequences), "Identifier
 * Names" (backtick quoting, doubled backticks), "Hexadecimal Literals".
 * Output is valid whatever the target's sql_mode, except quote_string(),
 * which needs NO_BACKSLASH_ESCAPES off (rows2sql's dump header ensures it).
 * All append to a buf; errors land in buf->err.
 */
#ifndef ROWPIPE_QUOTE_H
#define ROWPIPE_QUOTE_H

#include "buf.h"

/* `name`, with each ` doubled.  Any bytes, NUL excepted, are kept. */
void	quote_ident(struct buf *, const char *, size_t);
/* Fully qualified `schema`.`name`. */
void	quote_ident2(struct buf *, const char *schema, const char *name);
/*
 * 'text' with NUL, \, ', ", newline, CR and Ctrl-Z backslash-escaped, as
 * mysql_real_escape_string() does for a single-byte-safe charset: every
 * other byte is kept, so legacy multi-byte text (sjis, gbk, big5: second
 * bytes can be 0x5C) is only safe this way if the connection charset is
 * binary; rows2sql writes such columns as hex instead.
 */
void	quote_string(struct buf *, const char *, size_t);
/* 0x4142...; an empty value becomes '' (0x alone is not a literal). */
void	quote_hex(struct buf *, const void *, size_t);
/*
 * A field of a tab-separated line: backslash, tab, newline and CR written
 * \\, \t, \n and \r (as mysql --batch writes them), every other byte kept,
 * so that the line's tabs and newline stay the only ones.
 */
void	quote_tsv(struct buf *, const char *, size_t);

#endif
