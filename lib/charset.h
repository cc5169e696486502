/*
 * charset: the --convert of rows2json and json2rows, between the bytes
 * of a column in latin1 or ascii and UTF-8 text (which jq reads and
 * writes).  latin1 is MariaDB's: Windows-1252, with its five unassigned
 * bytes 0x81 0x8D 0x8F 0x90 0x9D as U+0081 U+008D U+008F U+0090 U+009D,
 * as the server converts them, so every byte has one character and back.
 */
#ifndef ROWPIPE_CHARSET_H
#define ROWPIPE_CHARSET_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * Whether --convert knows character set cs (a name of lib/colltab.inc):
 * latin1 and ascii.  1 or 0.
 */
int	 cs_convertible(const char *cs);
/*
 * The bytes p (len) of a latin1 column as UTF-8, written at o, which has
 * room for 3 bytes a byte; returns the end.  (ascii needs none: its text
 * is UTF-8 already, and a byte above 0x7F is no ascii character.)
 */
char	*cs_latin1_to_utf8(char *o, const char *p, size_t len);
/*
 * The UTF-8 text p (len bytes) in cs's bytes, into out (reset first;
 * NUL-terminated).  0; -1 with *cp the first character cs has no byte
 * for (or, for bytes that are not UTF-8, 0xFFFFFFFF) and out unchanged in
 * meaning; -1 with *cp 0 and out->err set if memory ran out.
 */
int	 cs_from_utf8(const char *cs, const char *p, size_t len,
	    struct buf *out, uint32_t *cp);

#endif
