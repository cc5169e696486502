/*
 * charset: json2rows --convert, text given as UTF-8 (as jq writes it) for
 * a column whose character set is not UTF-8, in that character set's
 * bytes.
 */
#ifndef JSON2ROWS_CHARSET_H
#define JSON2ROWS_CHARSET_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * Whether --convert knows character set cs (a name of lib/colltab.inc):
 * latin1 (MariaDB's latin1 is Windows-1252, its five unassigned bytes
 * 0x81 0x8D 0x8F 0x90 0x9D mapped to U+0081 ... as the server does) and
 * ascii.  1 or 0.
 */
int	 cs_convertible(const char *cs);
/*
 * The UTF-8 text p (len bytes) in cs's bytes, into out (reset first;
 * NUL-terminated).  0; -1 with *cp the first character cs has no byte
 * for (or, for bytes that are not UTF-8, 0xFFFFFFFF) and out unchanged in
 * meaning; -1 with *cp 0 and out->err set if memory ran out.
 */
int	 cs_from_utf8(const char *cs, const char *p, size_t len,
	    struct buf *out, uint32_t *cp);

#endif
