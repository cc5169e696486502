/*
 * quote: SQL literals and identifiers; see quote.h.
 */
#include "quote.h"

void
quote_ident(struct buf *b, const char *s, size_t n)
{
	size_t	 i;

	buf_addc(b, '`');
	for (i = 0; i < n; i++) {
		if (s[i] == '`')
			buf_addc(b, '`');
		buf_addc(b, s[i]);
	}
	buf_addc(b, '`');
}

void
quote_ident2(struct buf *b, const char *schema, const char *name)
{
	quote_ident(b, schema, strlen(schema));
	buf_addc(b, '.');
	quote_ident(b, name, strlen(name));
}

void
quote_string(struct buf *b, const char *s, size_t n)
{
	size_t	 i;
	char	*o;

	/* Worst case every byte doubles. */
	if (buf_grow(b, 2 * n + 2) == -1)
		return;
	o = b->p + b->len;
	*o++ = '\'';
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\0':	*o++ = '\\'; *o++ = '0'; break;
		case '\\':	*o++ = '\\'; *o++ = '\\'; break;
		case '\'':	*o++ = '\\'; *o++ = '\''; break;
		case '"':	*o++ = '\\'; *o++ = '"'; break;
		case '\n':	*o++ = '\\'; *o++ = 'n'; break;
		case '\r':	*o++ = '\\'; *o++ = 'r'; break;
		case '\032':	*o++ = '\\'; *o++ = 'Z'; break;
		default:	*o++ = s[i]; break;
		}
	}
	*o++ = '\'';
	*o = '\0';
	b->len = (size_t)(o - b->p);
}

void
quote_hex(struct buf *b, const void *p, size_t n)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*s = p;
	char			*o;
	size_t			 i;

	if (n == 0) {
		buf_add(b, "''", 2);
		return;
	}
	if (buf_grow(b, 2 * n + 2) == -1)
		return;
	o = b->p + b->len;
	*o++ = '0';
	*o++ = 'x';
	for (i = 0; i < n; i++) {
		*o++ = hex[s[i] >> 4];
		*o++ = hex[s[i] & 15];
	}
	*o = '\0';
	b->len = (size_t)(o - b->p);
}

void
quote_tsv(struct buf *b, const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		switch (s[i]) {
		case '\\':	buf_add(b, "\\\\", 2); break;
		case '\t':	buf_add(b, "\\t", 2); break;
		case '\n':	buf_add(b, "\\n", 2); break;
		case '\r':	buf_add(b, "\\r", 2); break;
		default:	buf_addc(b, s[i]);
		}
}
