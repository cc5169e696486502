/*
 * sqlvalue: SQL literals for column values (see sqlvalue.h), written into
 * a caller-sized buffer with table-driven loops (no allocation, no stdio
 * per value).
 *
 * The text is loaded in a utf8mb4 session with the sql_mode the dump
 * header sets (backslash escapes on).  String literals follow the MariaDB
 * KB "String Literals": NUL, \, ', ", newline, CR and Ctrl-Z are escaped.
 * Text in a character set whose bytes are not utf8mb4 (latin1, sjis, ...)
 * is written as a hex string with that charset's introducer (_sjis 0x...),
 * which the server takes byte for byte: exact even where a multi-byte
 * character's second byte is 0x5C, and whatever the target's sql_mode.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "frame.h"
#include "sqlvalue.h"
#include "utf8.h"

static const struct {
	unsigned short	 id;
	const char	*cs;
} colls[] = {
#include "colltab.inc"
};

int
sqlval_charset_class(unsigned id, const char **csname)
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

/* Bytes of numbers as the server sends them, and of temporal values. */
#define NUMC(c)	[c] = 1
static const unsigned char numok[256] = {
	NUMC('0'), NUMC('1'), NUMC('2'), NUMC('3'), NUMC('4'), NUMC('5'),
	NUMC('6'), NUMC('7'), NUMC('8'), NUMC('9'), NUMC('-'), NUMC('+'),
	NUMC('.'), NUMC('e'), NUMC('E')
};
static const unsigned char timeok[256] = {
	NUMC('0'), NUMC('1'), NUMC('2'), NUMC('3'), NUMC('4'), NUMC('5'),
	NUMC('6'), NUMC('7'), NUMC('8'), NUMC('9'), NUMC('-'), NUMC(':'),
	NUMC('.'), NUMC(' ')
};
#undef NUMC

static const char hexd[] = "0123456789ABCDEF";

char *
sqlval_hex_put(char *o, const void *p, size_t n)
{
	const unsigned char	*s = p, *e = s + n;

#ifdef __SSE2__
	const __m128i	 m = _mm_set1_epi8(0x0F), c0 = _mm_set1_epi8('0'),
			 c9 = _mm_set1_epi8(9), c7 = _mm_set1_epi8(7);
	__m128i		 v, hi, lo, a, b;

	for (; e - s >= 16; s += 16, o += 32) {
		v = _mm_loadu_si128((const __m128i *)s);
		hi = _mm_and_si128(_mm_srli_epi16(v, 4), m);
		lo = _mm_and_si128(v, m);
		a = _mm_unpacklo_epi8(hi, lo);
		b = _mm_unpackhi_epi8(hi, lo);
		a = _mm_add_epi8(_mm_add_epi8(a, c0),
		    _mm_and_si128(_mm_cmpgt_epi8(a, c9), c7));
		b = _mm_add_epi8(_mm_add_epi8(b, c0),
		    _mm_and_si128(_mm_cmpgt_epi8(b, c9), c7));
		_mm_storeu_si128((__m128i *)o, a);
		_mm_storeu_si128((__m128i *)(o + 16), b);
	}
#endif
	for (; s < e; s++) {
		*o++ = hexd[*s >> 4];
		*o++ = hexd[*s & 15];
	}
	return o;
}

#ifdef __SSE2__
/*
 * Bits of the 16 bytes of v that need attention.  Binary values (!text):
 * exactly the escapes (random bytes hold many other control bytes).
 * Text: every control byte (among them the four to escape: a tab or
 * another one takes the byte path and is copied there), " ' \, and, if
 * hi, a byte >= 0x80: 8 operations where the exact set takes 13.
 */
static inline __attribute__((always_inline)) unsigned
special16(__m128i v, int text, int hi)
{
	__m128i	 x;

	if (text)
		x = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
	else {
		x = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('\032')));
	}
	x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	if (hi)
		x = _mm_or_si128(x, v);	/* the byte's own top bit */
	return (unsigned)_mm_movemask_epi8(x);
}
#endif

/*
 * The escaped body of a string literal.  If utf8, bytes >= 0x80 must form
 * valid UTF-8, else NULL is returned.  text: the value is likely text (a
 * cheaper scan, the same bytes out).  o has room for 2 * n + 16.
 */
static inline __attribute__((always_inline)) char *
escape_body(char *o, const char *p, size_t n, int text, int utf8,
    const char *lim)
{
	const unsigned char	*s = (const unsigned char *)p, *e = s + n;
	const unsigned char	*l = (const unsigned char *)lim;
	unsigned		 c;
	size_t			 k, rem;

	while (s < e) {
#ifdef __SSE2__
		/*
		 * 16 bytes at a time; the last block may extend past the value
		 * (never past lim, the end of readable input), its extra bytes
		 * masked off.  Output room: 2 * n + 16 bytes.
		 */
		rem = (size_t)(e - s);
		if (rem >= 16 || (l != NULL && s + 16 <= l)) {
			__m128i	 v = _mm_loadu_si128((const __m128i *)s);
			unsigned m = special16(v, text, utf8);

			if (rem < 16)
				m |= 1u << rem;
			_mm_storeu_si128((__m128i *)o, v);
			if (m == 0) {
				o += 16;
				s += 16;
				continue;
			}
			k = (size_t)__builtin_ctz(m);
			o += k;
			s += k;
			if (s == e)
				break;
		}
#else
		(void)l;
		(void)rem;
		(void)text;
#endif
		c = *s;
		if (c < 0x80 || !utf8) {
			if (esc[c]) {
				*o++ = '\\';
				*o++ = esc[c];
			} else
				*o++ = (char)c;
			s++;
			continue;
		}
		if ((k = utf8_len(s, e)) == 0)
			return NULL;
		while (k-- > 0)
			*o++ = (char)*s++;
	}
	return o;
}

char *
sqlval_escape_put(char *o, const char *p, size_t n)
{
	return escape_body(o, p, n, 0, 0, NULL);
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
	return sqlval_hex_put(o, p, n);
}

char *
sqlval_bin_put(char *o, size_t room, const char *p, size_t n, size_t *used)
{
	char	*b = o + 8;
	size_t	 k = 0, blk, avail;

	memcpy(o, "_binary'", 8);
	/* Blocks that surely fit what is left (2 * blk + 16, the quote). */
	while (k < n && room > (size_t)(b - o) + 48) {
		avail = room - (size_t)(b - o) - 1;
		blk = (avail - 16) / 2;
		if (blk > n - k)
			blk = n - k;
		b = escape_body(b, p + k, blk, 0, 0, NULL);
		k += blk;
	}
	*b++ = '\'';
	*used = k;
	if ((size_t)(b - o) < 2 + 2 * k)
		return b;
	return intro_hex(o, "", 0, p, k);
}

/* Copy s if every byte is in ok[]; NULL if one is not. */
static inline char *
copy_checked(char *o, const char *p, size_t n, const unsigned char *ok)
{
	const unsigned char	*s = (const unsigned char *)p;
	unsigned		 all = 1;
	size_t			 i;

	for (i = 0; i < n; i++) {
		o[i] = (char)s[i];
		all &= ok[s[i]];
	}
	return all ? o + n : NULL;
}

#ifdef __SSE2__
/*
 * Bits of v's bytes that may be in a number as the server sends it
 * (digits - + . e E), or with temporal set, in a temporal value (digits
 * - : . and space).  The characters are spelled out, not looped over, so
 * that every constant is a register the compiler keeps.
 */
static inline __attribute__((always_inline)) unsigned
digits16(__m128i v, int temporal)
{
	__m128i	 x, d;

	/* c - '0' <= 9, unsigned: min(c - '0', 9) == c - '0'. */
	d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
	x = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
	x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
	if (temporal) {
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8(':')));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
	} else {
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('+')));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('e')));
		x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8('E')));
	}
	return (unsigned)_mm_movemask_epi8(x);
}

/*
 * copy_checked for short values whose 16-byte blocks may be read whole
 * (lim: the end of readable input).  NULL if a byte is not allowed or the
 * value cannot be read this way.
 */
static inline __attribute__((always_inline)) char *
copy_checked16(char *o, const char *p, size_t n, int temporal,
    const char *lim)
{
	unsigned	 want;
	__m128i		 v;

	while (n > 0) {
		if (lim == NULL || p + 16 > lim)
			return NULL;
		v = _mm_loadu_si128((const __m128i *)p);
		want = n >= 16 ? 0xFFFF : (1u << n) - 1;
		if ((digits16(v, temporal) & want) != want)
			return NULL;
		_mm_storeu_si128((__m128i *)o, v);
		if (n <= 16)
			return o + n;
		o += 16;
		p += 16;
		n -= 16;
	}
	return o;
}
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * 1 if the n (1 to 8) bytes at p, readable as 8, are all digits; then
 * they are copied to o (8 bytes written).  Each byte minus '0' is at most
 * 9 exactly when adding 0x76 leaves its top bit clear, and a byte with
 * its top bit set fails before it can carry into the next.
 */
static inline __attribute__((always_inline)) int
digits8(char *o, const char *p, size_t n)
{
	uint64_t	 v, x, m = ~(uint64_t)0 >> (64 - 8 * n);

	memcpy(&v, p, 8);
	x = (v ^ 0x3030303030303030ULL) & m;
	if (((x + 0x7676767676767676ULL) | x) & 0x8080808080808080ULL & m)
		return 0;
	memcpy(o, &v, 8);
	return 1;
}
#endif

static inline __attribute__((always_inline)) char *
value_put_inline(char *o, int k, const char *intro, size_t intro_len,
    const char *p, size_t n, const char *lim)
{
	const unsigned char	*s = (const unsigned char *)p;
	char			*r;
	size_t			 i;
	unsigned char		 acc;

	if (p == NULL) {
		memcpy(o, "NULL", 4);
		return o + 4;
	}
	switch (k) {
	case VK_NUM:
		/* Digits, sign, point, exponent; starting like a number. */
		if (n == 0 || n > 400 || !numok[s[0]] || s[0] == 'e' ||
		    s[0] == 'E')
			break;	/* as a string: the server converts it */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (n <= 8 && lim != NULL && p + 8 <= lim &&
		    digits8(o, p, n))
			return o + n;
#endif
#ifdef __SSE2__
		if (n <= 32 && (r = copy_checked16(o, p, n, 0, lim)) !=
		    NULL)
			return r;
#endif
		if ((r = copy_checked(o, p, n, numok)) != NULL)
			return r;
		break;
	case VK_TEMPORAL:
		*o = '\'';
#ifdef __SSE2__
		if (n <= 32 && (r = copy_checked16(o + 1, p, n, 1, lim)) !=
		    NULL) {
			*r++ = '\'';
			return r;
		}
#endif
		if ((r = copy_checked(o + 1, p, n, timeok)) != NULL) {
			*r++ = '\'';
			return r;
		}
		break;
	case VK_HEX:
		return intro_hex(o, "", 0, p, n);
	case VK_BINSTR:
		memcpy(o, "_binary'", 8);
		o = escape_body(o + 8, p, n, 0, 0, lim);
		*o++ = '\'';
		return o;
	case VK_BIN:
		/* Escaped where shorter: about n + n / 37 for random bytes. */
		memcpy(o, "_binary'", 8);
		r = escape_body(o + 8, p, n, 0, 0, lim);
		*r++ = '\'';
		if ((size_t)(r - o) < 2 + 2 * n)
			return r;
		return intro_hex(o, "", 0, p, n);
	case VK_UTF8:
		*o = '\'';
		if ((r = escape_body(o + 1, p, n, 1, 1, lim)) != NULL) {
			*r++ = '\'';
			return r;
		}
		return intro_hex(o, intro, intro_len, p, n);
	case VK_ASCII:
		for (acc = 0, i = 0; i < n; i++)
			acc |= s[i];
		if (acc < 0x80)
			break;
		return intro_hex(o, intro, intro_len, p, n);
	case VK_CSHEX:
		return intro_hex(o, intro, intro_len, p, n);
	default:
		break;
	}
	*o++ = '\'';
	o = escape_body(o, p, n, 1, 0, lim);
	*o++ = '\'';
	return o;
}

char *
sqlval_put(char *o, int k, const char *intro, size_t intro_len, const char *p,
    size_t n)
{
	return value_put_inline(o, k, intro, intro_len, p, n, NULL);
}

char *
sqlval_row_put(char *o, const struct sqlval_col *cols,
    const struct rp_val *vals, size_t ncols, const char *lim)
{
	size_t	 i;
	int	 first = 1;

	*o++ = '(';
	for (i = 0; i < ncols; i++) {
		if (!cols[i].emit)
			continue;
		if (!first)
			*o++ = ',';
		first = 0;
		o = value_put_inline(o, cols[i].kind, cols[i].intro,
		    cols[i].intro_len, vals[i].p, vals[i].len, lim);
	}
	*o++ = ')';
	return o;
}

static int
is_temporal(unsigned type)
{
	/* MYSQL_TYPE_TIMESTAMP .. NEWDATE, TIMESTAMP2 .. TIME2. */
	return type == 7 || type == 10 || type == 11 || type == 12 ||
	    type == 14 || type == 17 || type == 18 || type == 19;
}

void
sqlval_col_setup(struct sqlval_col *k, const struct rp_column *c, int hex_blob)
{
	const char	*cs, *ct = c->coltype ? c->coltype : "";
	int		 cls;

	k->intro = "";
	k->intro_len = 0;
	if (c->flags & COL_NUMERIC)
		k->kind = VK_NUM;
	else if (c->type == 16 || strncmp(ct, "bit", 3) == 0)
		k->kind = VK_HEX;		/* BIT: an integer */
	else if (is_temporal(c->type) || strncmp(ct, "inet", 4) == 0 ||
	    strncmp(ct, "uuid", 4) == 0)
		k->kind = is_temporal(c->type) ? VK_TEMPORAL : VK_STR;
	else if ((c->flags & COL_BINARY) || c->type == 255 ||
	    c->charsetnr == 63)
		k->kind = hex_blob > 0 ? VK_HEX : hex_blob == 0 ? VK_BINSTR :
		    VK_BIN;
	else {
		cls = sqlval_charset_class(c->charsetnr, &cs);
		k->kind = cls;
		snprintf(k->introbuf, sizeof(k->introbuf), "_%s ", cs);
		k->intro = k->introbuf;
		k->intro_len = strlen(k->introbuf);
	}
}
