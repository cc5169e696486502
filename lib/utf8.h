/*
 * utf8: validation of UTF-8 text (RFC 3629, section 4: no overlong forms,
 * no surrogates, nothing above U+10FFFF), for the programs that must tell
 * UTF-8 text from other bytes (value literals, JSON text).
 */
#ifndef ROWPIPE_UTF8_H
#define ROWPIPE_UTF8_H

#include <stddef.h>

/*
 * Length (2 to 4) of the valid multi-byte UTF-8 sequence at s, before e;
 * 0 if s[0] starts none (an ASCII byte included).  Inline: it runs per
 * character.
 */
static inline size_t
utf8_len(const unsigned char *s, const unsigned char *e)
{
	unsigned	 c = *s;

	if (c < 0xC2)
		return 0;
	if (c < 0xE0)
		return e - s >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c < 0xF0)
		return e - s >= 3 && (s[1] & 0xC0) == 0x80 &&
		    (s[2] & 0xC0) == 0x80 && (c != 0xE0 || s[1] >= 0xA0) &&
		    (c != 0xED || s[1] < 0xA0) ? 3 : 0;
	if (c < 0xF5)
		return e - s >= 4 && (s[1] & 0xC0) == 0x80 &&
		    (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80 &&
		    (c != 0xF0 || s[1] >= 0x90) &&
		    (c != 0xF4 || s[1] < 0x90) ? 4 : 0;
	return 0;
}

#endif
