/*
 * charset: latin1 (MariaDB's: Windows-1252) and ascii from and to UTF-8
 * for the --convert of rows2json and json2rows; see charset.h.  The table is the server's
 * (strings/ctype-latin1.c), checked against
 * CONVERT(_latin1 0x80..0x9F USING utf32) on MariaDB 10.11.
 */
#include <string.h>

#include "utf8.h"
#include "charset.h"

/* Code points of latin1 0x80..0x9F; 0xA0..0xFF are U+00A0..U+00FF. */
static const uint16_t cp1252_80[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178
};

int
cs_convertible(const char *cs)
{
	return strcmp(cs, "latin1") == 0 || strcmp(cs, "ascii") == 0;
}

/* latin1's byte for code point c, or -1. */
static int
latin1_byte(uint32_t c)
{
	int	 i;

	if (c < 0x80 || (c >= 0xA0 && c <= 0xFF))
		return (int)c;
	for (i = 0; i < 32; i++)
		if (cp1252_80[i] == c)
			return 0x80 + i;
	return -1;
}

/* The code point of the n-byte UTF-8 sequence at s (utf8_len() said n). */
static uint32_t
decode(const unsigned char *s, size_t n)
{
	uint32_t c = s[0] & (0x7F >> n);
	size_t	 i;

	for (i = 1; i < n; i++)
		c = c << 6 | (s[i] & 0x3F);
	return c;
}

int
cs_from_utf8(const char *cs, const char *p, size_t len, struct buf *out,
    uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)p, *e = s + len;
	int		 latin1 = strcmp(cs, "latin1") == 0, b;
	uint32_t	 c;
	size_t		 n;

	buf_reset(out);
	*cp = 0;
	while (s < e) {
		if (*s < 0x80) {
			c = *s;
			n = 1;
		} else if ((n = utf8_len(s, e)) == 0) {
			*cp = 0xFFFFFFFF;
			return -1;
		} else
			c = decode(s, n);
		if ((b = latin1 ? latin1_byte(c) : c < 0x80 ? (int)c : -1) ==
		    -1) {
			*cp = c;
			return -1;
		}
		buf_addc(out, (char)b);
		s += n;
	}
	return out->err ? -1 : 0;
}

char *
cs_latin1_to_utf8(char *o, const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p, *e = s + len;
	uint32_t	 c;

	for (; s < e; s++) {
		c = *s >= 0x80 && *s < 0xA0 ? cp1252_80[*s - 0x80] : *s;
		if (c < 0x80)
			*o++ = (char)c;
		else if (c < 0x800) {
			*o++ = (char)(0xC0 | c >> 6);
			*o++ = (char)(0x80 | (c & 0x3F));
		} else {
			*o++ = (char)(0xE0 | c >> 12);
			*o++ = (char)(0x80 | (c >> 6 & 0x3F));
			*o++ = (char)(0x80 | (c & 0x3F));
		}
	}
	return o;
}
