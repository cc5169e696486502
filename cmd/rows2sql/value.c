/*
 * value: SQL literals for column values, written into a caller-sized
 * buffer with table-driven loops (no allocation, no stdio per value).
 *
 * The text is loaded in a utf8mb4 session with the sql_mode the dump
 * header sets (backslash escapes on).  String literals follow the MariaDB
 * KB "String Literals": NUL, \, ', ", newline, CR and Ctrl-Z are escaped.
 * Text in a character set whose bytes are not utf8mb4 (latin1, sjis, ...)
 * is written as a hex string with that charset's introducer (_sjis 0x...),
 * which the server takes byte for byte: exact even where a multi-byte
 * character's second byte is 0x5C, and whatever the target's sql_mode.
 */
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "r2s.h"

static const struct {
	unsigned short	 id;
	const char	*cs;
} colls[] = {
#include "colltab.inc"
};

int
charset_class(unsigned id, const char **csname)
{
	size_t	 lo = 0, hi = sizeof(colls) / sizeof(colls[0]), mid;
	const char *cs = NULL;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (colls[mid].id == id) {
			cs = colls[mid].cs;
			break;
		}
		if (colls[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (cs == NULL) {
		*csname = "binary";
		return VK_CSHEX;
	}
	*csname = cs;
	if (strcmp(cs, "utf8mb4") == 0 || strcmp(cs, "utf8mb3") == 0)
		return VK_UTF8;
	/* Not ASCII-compatible: wide encodings, and swe7 (7-bit Swedish). */
	if (strcmp(cs, "ucs2") == 0 || strncmp(cs, "utf16", 5) == 0 ||
	    strcmp(cs, "utf32") == 0 || strcmp(cs, "swe7") == 0 ||
	    strcmp(cs, "binary") == 0)
		return VK_CSHEX;
	return VK_ASCII;
}

/* Escape letter for the bytes a string literal must escape, else 0. */
static const char esc[256] = {
	['\0'] = '0', ['\n'] = 'n', ['\r'] = 'r', ['\032'] = 'Z',
	['"'] = '"', ['\''] = '\'', ['\\'] = '\\'
};

static const char hexd[] = "0123456789ABCDEF";
static unsigned short hex2[256];

static void
hex_init(void)
{
	int	 i;
	char	 t[2];

	for (i = 0; i < 256; i++) {
		t[0] = hexd[i >> 4];
		t[1] = hexd[i & 15];
		memcpy(&hex2[i], t, 2);
	}
}

char *
hex_put(char *o, const void *p, size_t n)
{
	const unsigned char	*s = p, *e = s + n;

	if (hex2[0] == 0)
		hex_init();
	while (e - s >= 4) {
		memcpy(o, &hex2[s[0]], 2);
		memcpy(o + 2, &hex2[s[1]], 2);
		memcpy(o + 4, &hex2[s[2]], 2);
		memcpy(o + 6, &hex2[s[3]], 2);
		o += 8;
		s += 4;
	}
	while (s < e) {
		memcpy(o, &hex2[*s++], 2);
		o += 2;
	}
	return o;
}

#ifdef __SSE2__
/*
 * Bytes at the front of s[0..n) that need no attention: no escape, and
 * (if hi) no byte >= 0x80.  16 bytes at a time.
 */
static size_t
plain_run(const unsigned char *s, size_t n, int hi)
{
	const __m128i	 c0 = _mm_set1_epi8(0), cn = _mm_set1_epi8('\n'),
			 cr = _mm_set1_epi8('\r'), cz = _mm_set1_epi8('\032'),
			 cq = _mm_set1_epi8('"'), ca = _mm_set1_epi8('\''),
			 cb = _mm_set1_epi8('\\');
	size_t		 i = 0;
	unsigned	 m;
	__m128i		 v, x;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(s + i));
		x = _mm_or_si128(_mm_cmpeq_epi8(v, c0), _mm_cmpeq_epi8(v, cn));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, cr));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, cz));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, cq));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, ca));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, cb));
		m = (unsigned)_mm_movemask_epi8(x);
		if (hi)
			m |= (unsigned)_mm_movemask_epi8(v);
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return i;
}
#endif

/* Escape bytes below 0x80 (and, if !hi, all others) from s up to e. */
char *
escape_put(char *o, const char *p, size_t n)
{
	const unsigned char	*s = (const unsigned char *)p, *e = s + n;
	size_t			 k;

	while (s < e) {
#ifdef __SSE2__
		k = plain_run(s, (size_t)(e - s), 0);
		memcpy(o, s, k);
		o += k;
		s += k;
		if (s == e)
			break;
#else
		(void)k;
#endif
		if (esc[*s]) {
			*o++ = '\\';
			*o++ = esc[*s];
		} else
			*o++ = (char)*s;
		s++;
	}
	return o;
}

/*
 * Escape valid UTF-8 (RFC 3629: no overlongs, surrogates or code points
 * above U+10FFFF).  NULL if s is not valid UTF-8.
 */
static char *
utf8_escape_put(char *o, const unsigned char *s, size_t n)
{
	const unsigned char	*e = s + n;
	unsigned		 c;
	size_t			 k;

	while (s < e) {
#ifdef __SSE2__
		k = plain_run(s, (size_t)(e - s), 1);
		memcpy(o, s, k);
		o += k;
		s += k;
		if (s == e)
			break;
#else
		(void)k;
#endif
		c = *s;
		if (c < 0x80) {
			if (esc[c]) {
				*o++ = '\\';
				*o++ = esc[c];
			} else
				*o++ = (char)c;
			s++;
			continue;
		}
		if (c < 0xC2)
			return NULL;
		if (c < 0xE0) {
			if (e - s < 2 || (s[1] & 0xC0) != 0x80)
				return NULL;
			k = 2;
		} else if (c < 0xF0) {
			if (e - s < 3 || (s[1] & 0xC0) != 0x80 ||
			    (s[2] & 0xC0) != 0x80 ||
			    (c == 0xE0 && s[1] < 0xA0) ||
			    (c == 0xED && s[1] >= 0xA0))
				return NULL;
			k = 3;
		} else if (c < 0xF5) {
			if (e - s < 4 || (s[1] & 0xC0) != 0x80 ||
			    (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80 ||
			    (c == 0xF0 && s[1] < 0x90) ||
			    (c == 0xF4 && s[1] >= 0x90))
				return NULL;
			k = 4;
		} else
			return NULL;
		memcpy(o, s, k);
		o += k;
		s += k;
	}
	return o;
}

static int
all_ascii(const unsigned char *s, size_t n)
{
	size_t	 i;
	unsigned char acc = 0;

	for (i = 0; i < n; i++)
		acc |= s[i];
	return acc < 0x80;
}

/* A numeric literal as the server sends it: digits, sign, point, exponent. */
static int
numeric_ok(const unsigned char *s, size_t n)
{
	size_t	 i;

	if (n == 0 || n > 400)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (!((c >= '0' && c <= '9') || c == '-' || c == '+' ||
		    c == '.' || c == 'e' || c == 'E'))
			return 0;
	}
	/* Must start like a number, not like an exponent ("e5"). */
	return (s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' ||
	    s[0] == '.';
}

static char *
intro_hex(char *o, const char *intro, size_t intro_len, const char *p,
    size_t n)
{
	if (n == 0) {
		*o++ = '\'';
		*o++ = '\'';
		return o;
	}
	memcpy(o, intro, intro_len);
	o += intro_len;
	*o++ = '0';
	*o++ = 'x';
	return hex_put(o, p, n);
}

char *
value_put(char *o, int k, const char *intro, size_t intro_len, const char *p,
    size_t n)
{
	const unsigned char	*s = (const unsigned char *)p;
	char			*r;

	if (p == NULL) {
		memcpy(o, "NULL", 4);
		return o + 4;
	}
	switch (k) {
	case VK_NUM:
		if (numeric_ok(s, n)) {
			memcpy(o, p, n);
			return o + n;
		}
		break;		/* as a string: the server converts it */
	case VK_HEX:
		return intro_hex(o, "", 0, p, n);
	case VK_BINSTR:
		memcpy(o, "_binary'", 8);
		o = escape_put(o + 8, p, n);
		*o++ = '\'';
		return o;
	case VK_UTF8:
		*o = '\'';
		if ((r = utf8_escape_put(o + 1, s, n)) != NULL) {
			*r++ = '\'';
			return r;
		}
		return intro_hex(o, intro, intro_len, p, n);
	case VK_ASCII:
		if (all_ascii(s, n))
			break;
		return intro_hex(o, intro, intro_len, p, n);
	case VK_CSHEX:
		return intro_hex(o, intro, intro_len, p, n);
	default:
		break;
	}
	*o++ = '\'';
	o = escape_put(o, p, n);
	*o++ = '\'';
	return o;
}
