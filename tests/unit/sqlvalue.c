/*
 * Unit tests for lib/sqlvalue.c: the literals of numbers and temporal
 * values (copied bare or quoted only when every byte is one of theirs),
 * through the 16-byte block path (sqlval_row_put with readable memory
 * past the value) and the byte path (sqlval_put), against a reference
 * written here from the rules in sqlvalue.h.  cmocka, TAP output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frame.h"
#include "sqlvalue.h"

/* The bytes a string literal escapes, and their escape letters below. */
static const char special[7] = "\0\n\r\032\"'\\";

/* The reference: bare (VK_NUM), '...' unescaped (VK_TEMPORAL) or quoted. */
static size_t
expect(char *o, int kind, const unsigned char *p, size_t n)
{
	const char	*ok = kind == VK_NUM ? "0123456789-+.eE" :
			    "0123456789-:. ";
	size_t		 i, k = 0;
	int		 bare = n > 0;

	for (i = 0; i < n; i++)
		if (p[i] == '\0' || strchr(ok, p[i]) == NULL)
			bare = 0;
	if (kind == VK_NUM && n > 0 && (p[0] == 'e' || p[0] == 'E'))
		bare = 0;
	if (bare && kind == VK_NUM) {
		memcpy(o, p, n);
		return n;
	}
	o[k++] = '\'';
	for (i = 0; i < n; i++) {
		const char *e = memchr(special, p[i], 7);

		if (e != NULL) {
			o[k++] = '\\';
			o[k++] = "0nrZ\"'\\"[e - special];
		} else
			o[k++] = (char)p[i];
	}
	o[k++] = '\'';
	return k;
}

/* Both paths of value kind for the n bytes at p; lim allows block reads. */
static void
check(int kind, const unsigned char *p, size_t n)
{
	struct sqlval_col c;
	struct rp_val	 v;
	char		 want[256], got[256], *e;
	size_t		 wn;

	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.emit = 1;
	c.intro = "";
	v.p = (const char *)p;
	v.len = n;
	wn = expect(want, kind, p, n);
	e = sqlval_row_put(got, &c, &v, 1, (const char *)p + n + 32);
	if ((size_t)(e - got) != wn + 2 || got[0] != '(' ||
	    memcmp(got + 1, want, wn) != 0 || got[wn + 1] != ')')
		fail_msg("kind %d, %zu bytes: block path: %.*s, want (%.*s)",
		    kind, n, (int)(e - got), got, (int)wn, want);
	e = sqlval_put(got, kind, "", 0, (const char *)p, n);
	if ((size_t)(e - got) != wn || memcmp(got, want, wn) != 0)
		fail_msg("kind %d, %zu bytes: byte path: %.*s, want %.*s",
		    kind, n, (int)(e - got), got, (int)wn, want);
}

/* Bytes 0 to nc - 1 at every place of values of 1 to 40 bytes of base. */
static void
every_byte(int kind, const char *base, unsigned nc)
{
	unsigned char	 p[40 + 32];
	size_t		 n, i;
	unsigned	 c;

	for (n = 1; n <= 40; n++)
		for (i = 0; i < n; i++)
			for (c = 0; c < nc; c++) {
				memset(p, 0, sizeof(p));
				memcpy(p, base, n);
				p[i] = (unsigned char)c;
				check(kind, p, n);
			}
}

/* Numbers and temporal values: every byte value (the quoted form where
 * the value is not one). */
static void
test_every_byte(void **state)
{
	static const char num[] = "2024-01-02 03:04:05.678901"
	    "e+123456789012345";

	(void)state;
	every_byte(VK_NUM, num, 256);
	every_byte(VK_TEMPORAL, num, 256);
}

/*
 * Text (utf8mb4, and ASCII-compatible charsets): every byte below 0x80,
 * escaped exactly as the reference does (the scan flags every control
 * byte and copies a tab).
 */
static void
test_text_every_byte(void **state)
{
	static const char txt[] = "name 42 \tab\t'q' \"x\" \\ \r\n \032 "
	    "and the end of it";

	(void)state;
	every_byte(VK_UTF8, txt, 128);
	every_byte(VK_ASCII, txt, 128);
}

/* Every character allowed: copied whatever the mix, in and past a block. */
static void
test_allowed(void **state)
{
	const char	*num = "0123456789-+.eE", *tm = "0123456789-:. ";
	unsigned char	 p[40 + 32];
	size_t		 n, i, r;

	(void)state;
	for (r = 0; r < 2000; r++)
		for (n = 1; n <= 40; n++) {
			memset(p, 0, sizeof(p));
			for (i = 0; i < n; i++)
				p[i] = (unsigned char)num[(r * 7 + i * 13 +
				    i * i) % 15];
			check(VK_NUM, p, n);
			for (i = 0; i < n; i++)
				p[i] = (unsigned char)tm[(r * 5 + i * 11 +
				    i * i) % 14];
			check(VK_TEMPORAL, p, n);
		}
}

/* The bytes of a _binary'...' or 0x... literal (or ''); -1 if neither. */
static long
unlit(unsigned char *d, const char *s, size_t n)
{
	static const char from[] = "0nrZ\"'\\", to[] = "\0\n\r\032\"'\\";
	const char	*e = s + n, *q;
	long		 k = 0;
	unsigned	 x;

	if (n == 2 && memcmp(s, "''", 2) == 0)
		return 0;
	if (n >= 2 && memcmp(s, "0x", 2) == 0) {
		for (s += 2; s + 1 < e; s += 2) {
			if (sscanf(s, "%2X", &x) != 1)
				return -1;
			d[k++] = (unsigned char)x;
		}
		return s == e ? k : -1;
	}
	if (n < 9 || memcmp(s, "_binary'", 8) != 0 || e[-1] != '\'')
		return -1;
	for (s += 8, e--; s < e; s++) {
		if (*s == '\'' || *s == '\0' || *s == '\n' || *s == '\r' ||
		    *s == '\032' || *s == '"')
			return -1;	/* must have been escaped */
		if (*s == '\\') {
			if (++s == e || (q = memchr(from, *s, 7)) == NULL)
				return -1;
			d[k++] = (unsigned char)to[q - from];
		} else
			d[k++] = (unsigned char)*s;
	}
	return k;
}

/*
 * VK_BIN and sqlval_bin_put(): the bytes back exactly, the shorter form
 * chosen, and sqlval_bin_put() within its room, for values of random,
 * escape-heavy and every-byte content.
 */
static void
test_bin(void **state)
{
	static unsigned char p[4096], d[4096];
	static char	 got[2 * 4096 + 64];
	struct sqlval_col c;
	struct rp_val	 v;
	size_t		 n, r, i, used, room, hexlen;
	unsigned	 seed = 1;
	long		 k;
	char		*e;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.kind = VK_BIN;
	c.emit = 1;
	c.intro = "";
	for (r = 0; r < 3000; r++) {
		n = r % 3 == 0 ? r % 300 : (r * 37) % 4000;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			p[i] = r % 5 == 1 ?
			    (unsigned char)"\\'\"\0\n\r\032ab"[seed >> 16 & 7] :
			    r % 5 == 2 ? (unsigned char)i : seed >> 16;
		}
		v.p = (const char *)p;
		v.len = n;
		hexlen = n == 0 ? 2 : 2 + 2 * n;
		e = sqlval_row_put(got, &c, &v, 1, NULL);
		k = unlit(d, got + 1, (size_t)(e - got) - 2);
		if (k != (long)n || memcmp(d, p, n) != 0)
			fail_msg("VK_BIN, %zu bytes (%zu): not read back", n, r);
		if ((size_t)(e - got) - 2 > hexlen)
			fail_msg("VK_BIN, %zu bytes: longer than hex", n);
		room = 64 + (r * 53) % (2 * n + 32);
		memset(got, '#', sizeof(got));
		e = sqlval_bin_put(got, room, (const char *)p, n, &used);
		k = unlit(d, got, (size_t)(e - got));
		if ((size_t)(e - got) > room || got[room] != '#' ||
		    k != (long)used || memcmp(d, p, used) != 0 ||
		    (n > 0 && used == 0))
			fail_msg("bin_put %zu bytes, room %zu: used %zu, "
			    "read back %ld", n, room, used, k);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_text_every_byte),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_bin),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
