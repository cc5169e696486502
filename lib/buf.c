/*
 * buf: growable byte buffer; see buf.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"

int
buf_grow(struct buf *b, size_t n)
{
	size_t	 need, cap;
	char	*p;

	if (b->err)
		return -1;
	if (n > SIZE_MAX - b->len - 1) {
		b->err = ENOMEM;
		return -1;
	}
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap < 64 ? 64 : b->cap;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if ((p = realloc(b->p, cap)) == NULL) {
		b->err = ENOMEM;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (buf_grow(b, n) == -1)
		return;
	buf_put(b, p, n);
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	 ap2;
	int	 n;

	if (buf_grow(b, 64) == -1)
		return;
	va_copy(ap2, ap);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->err = EINVAL;
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		if (buf_grow(b, (size_t)n) == -1)
			return;
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p != NULL)
		b->p[0] = '\0';
}

void
buf_release(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->err = 0;
}

char *
buf_detach(struct buf *b, size_t *lenp)
{
	char	*p;

	if (buf_grow(b, 0) == -1)
		return NULL;
	p = b->p;
	if (lenp != NULL)
		*lenp = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}
