/*
 * sqlvalue: column values as SQL literals, for INSERT text (rows2sql(1),
 * and the text path of any program that loads rows with INSERT).
 *
 * Values are the frame stream's text (rowpipe-stream(5)): the bytes as stored
 * for strings, the server's canonical text for numbers and temporals.
 * Literals follow the MariaDB KB "String Literals" and "Hexadecimal
 * Literals"; they are read back exactly in a utf8mb4 session with
 * backslash escapes on (NO_BACKSLASH_ESCAPES off), as rows2sql's dump
 * header sets.  Text whose bytes are not utf8mb4 is written as hex with
 * its charset's introducer (_sjis 0x...), exact even where a multi-byte
 * character's second byte is 0x5C.  Everything is written into
 * caller-sized memory: no allocation, no error path.
 */
#ifndef ROWPIPE_SQLVALUE_H
#define ROWPIPE_SQLVALUE_H

#include <stddef.h>

struct rp_column;
struct rp_val;

/* How a column's values are written. */
enum sqlval_kind {
	VK_NUM,		/* numeric literal as sent (checked, else quoted) */
	VK_HEX,		/* 0x...: binary strings, BIT, GEOMETRY */
	VK_BINSTR,	/* _binary'...': --no-hex-blob */
	VK_BIN,		/* the shorter of 0x... and _binary'...', per value */
	VK_STR,		/* '...' always: INET6, UUID */
	VK_TEMPORAL,	/* '...' always, usually digits and -: . */
	VK_UTF8,	/* '...' if valid UTF-8, else _cs 0x... */
	VK_ASCII,	/* '...' if all bytes < 0x80, else _cs 0x... */
	VK_CSHEX	/* _cs 0x... always (UCS-2, UTF-16, UTF-32, unknown) */
};

/* One column's writing rule, filled by sqlval_col_setup(). */
struct sqlval_col {
	int		 kind;		/* enum sqlval_kind */
	int		 emit;		/* in the tuple (set by the caller) */
	const char	*intro;		/* "_latin1 " (points into introbuf) */
	size_t		 intro_len;
	char		 introbuf[24];
};

/*
 * The rule for column c (its type, flags and collation id from the
 * FT_TABLE frame): hex_blob 1 writes binary strings as 0x..., 0 as
 * _binary'...', -1 as whichever of the two is shorter for each value
 * (both are exact in the dump's session: SET NAMES utf8mb4, backslash
 * escapes on).  Leaves k->emit alone.
 */
void	 sqlval_col_setup(struct sqlval_col *k, const struct rp_column *c,
	    int hex_blob);

/*
 * The class of collation id (VK_UTF8, VK_ASCII or VK_CSHEX) and, in
 * *csname, its character set (a static string; "binary" when unknown).
 * The table is MariaDB 10.11's SHOW COLLATION.
 */
int	 sqlval_charset_class(unsigned collation, const char **csname);

/*
 * Upper bound of the bytes sqlval_put() writes for a value of len bytes
 * with an introducer of intro_len bytes.
 */
#define SQLVAL_MAX(len, intro_len)	(2 * (size_t)(len) + (intro_len) + 32)

/*
 * Write the literal for (p, len) of kind k at o, which must have room for
 * SQLVAL_MAX(len, intro_len); intro ("_latin1 ") is used by VK_UTF8,
 * VK_ASCII and VK_CSHEX.  p == NULL is SQL NULL.  Returns the new end
 * (no NUL is written).
 */
char	*sqlval_put(char *o, int k, const char *intro, size_t intro_len,
	    const char *p, size_t len);
/*
 * Write the tuple "(v1,v2,...)" of the columns with emit set at o, which
 * must have room for 2 + the sum of 1 + SQLVAL_MAX() over them.  lim (or
 * NULL) is the end of the memory the values lie in: the loops may read
 * whole 16-byte blocks up to it.  Returns the new end.
 */
char	*sqlval_row_put(char *o, const struct sqlval_col *, const struct rp_val *,
	    size_t ncols, const char *lim);
/* The escaped body of a '...' literal (no quotes); room 2 * len + 16. */
char	*sqlval_escape_put(char *o, const char *p, size_t len);
/*
 * The bytes of p[0..len) as the shorter literal, _binary'...' or
 * 0x... (with len 0: ''), at o with room SQLVAL_MAX(len, 0); *used is
 * how many bytes of p it took: len, or if room (less than that
 * SQLVAL_MAX) ends first, as many as fit (at least one byte when room
 * is 64 or more); no byte past o + room is written.  Returns the new end.  For a value written in pieces.
 */
char	*sqlval_bin_put(char *o, size_t room, const char *p, size_t len,
	    size_t *used);
/* Upper-case hex digits of p, no prefix; room 2 * len. */
char	*sqlval_hex_put(char *o, const void *p, size_t len);

#endif
