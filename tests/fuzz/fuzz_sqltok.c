/*
 * libFuzzer target for lib/sqltok.  The first byte picks the mode and a
 * delimiter; the rest is SQL text.  The tokens must lie in the text, in
 * order, each at least one byte long; what stands before the first one
 * must be blanks and comments only; and the end token must stand at the
 * end of the text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sqltok.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Only blanks and comments in p[0..n)? */
static int
gap_ok(const char *p, size_t n, int mode)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	sqltok_init(&l, p, n, mode | SQLTOK_COMMENTS);
	while (sqltok_next(&l, &t) != SQLTOK_END)
		if (t.kind != SQLTOK_COMMENT && !(t.kind == SQLTOK_PUNCT &&
		    (*t.p == '*' || *t.p == '/')))
			return 0;
	return 1;
}

/* Where a quoted token at p ends, byte by byte: the reference. */
static const char *
quoted_ref(const char *p, const char *e, int q, int esc)
{
	for (p++; p < e; p++) {
		if (*p == '\\' && esc) {
			if (++p >= e)
				break;
			continue;
		}
		if (*p == q) {
			if (p + 1 < e && p[1] == q) {
				p++;
				continue;
			}
			return p + 1;
		}
	}
	return e;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const delims[] = { NULL, ";", "$$", "//", "END" };
	struct sqltok_lexer l;
	struct sqltok	 t;
	const char	*text, *prev, *d;
	size_t		 n;
	int		 mode;
	char		 name[16];

	if (size == 0)
		return 0;
	mode = data[0] & (SQLTOK_NBE | SQLTOK_ANSIQ);
	if (data[0] & 0x04)
		mode |= SQLTOK_COMMENTS;
	d = delims[(data[0] >> 3) % 5];
	n = size - 1;
	/* a copy of its own size, so that ASan sees any overrun */
	if ((text = malloc(n ? n : 1)) == NULL)
		return 0;
	memcpy((char *)text, data + 1, n);
	sqltok_init(&l, text, n, mode);
	if (d != NULL)
		sqltok_set_delim(&l, d, strlen(d));
	prev = text;
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (t.p < prev || t.len == 0 || t.p + t.len > text + n)
			abort();
		if (!(mode & SQLTOK_COMMENTS) && l.depth == 0 &&
		    !(t.flags & SQLTOK_F_EXEC) && prev == text &&
		    !gap_ok(prev, (size_t)(t.p - prev), mode))
			abort();
		(void)sqltok_ident(&t, name, sizeof(name));
		/* a quoted token ends where the byte-by-byte rule says */
		if ((t.kind == SQLTOK_STRING || t.kind == SQLTOK_IDENT) &&
		    (*t.p == '\'' || *t.p == '"' || *t.p == '`') &&
		    quoted_ref(t.p, text + n, *t.p, sqltok_escapes(mode,
		    *t.p)) != t.p + t.len)
			abort();
		prev = t.p + t.len;
	}
	if (t.p != text + n || t.len != 0)
		abort();
	free((void *)text);
	return 0;
}
