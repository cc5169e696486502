/*
 * buf: a growable byte buffer in the style of git's strbuf.
 *
 * p is always NUL-terminated (p[len] == 0) but may hold NULs; use len,
 * never strlen(p).  An allocation failure sets err (ENOMEM) and makes
 * every later append a no-op, so a sequence of appends is checked once,
 * at the end.  A zeroed struct buf (BUF_INIT) is a valid empty buffer.
 */
#ifndef ROWPIPE_BUF_H
#define ROWPIPE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
	char	*p;	/* owned; NULL until the first append */
	size_t	 len;	/* bytes used, not counting the NUL */
	size_t	 cap;	/* bytes allocated */
	int	 err;	/* sticky: 0 or ENOMEM */
};

#define BUF_INIT	{ NULL, 0, 0, 0 }

/* Make room for n more bytes (plus the NUL).  0, or -1 with err set. */
int	 buf_grow(struct buf *, size_t n);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_adds(struct buf *, const char *);
void	 buf_addf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vaddf(struct buf *, const char *, va_list);
/* Keep the allocation, drop the contents (err is kept too). */
void	 buf_reset(struct buf *);
/* Free the memory and return to BUF_INIT. */
void	 buf_release(struct buf *);
/* Hand the memory to the caller (free(3) it); the buf is BUF_INIT after. */
char	*buf_detach(struct buf *, size_t *lenp);

static inline void
buf_addc(struct buf *b, char c)
{
	if (b->len + 1 < b->cap) {
		b->p[b->len++] = c;
		b->p[b->len] = '\0';
	} else
		buf_add(b, &c, 1);
}

/*
 * Unchecked fast path: the caller has called buf_grow(b, n) and appends at
 * most n bytes in total before the next buf_grow().
 */
static inline void
buf_put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

#endif
