/*
 * wire: the field encodings of rowpipe-stream(5) payloads (its section
 * "Field encodings"): varint (LEB128, 7 bits a byte, low first),
 * str (varint length, bytes, a NUL), val (varint 0 for SQL NULL, else length + 1,
 * bytes) and key/value lists (varint count, pairs of str).  The bottom of
 * the stream code: frame.c (prelude, frame headers, trailer) and
 * payload.c (objects, tables, rows, statements) are built on it.
 */
#ifndef ROWPIPE_WIRE_H
#define ROWPIPE_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"

/* Payload encoders: append to a buf (errors land in buf->err). */
void	enc_varint(struct buf *, uint64_t);
void	enc_str(struct buf *, const void *, size_t);
void	enc_cstr(struct buf *, const char *);		/* NULL as "" */
void	enc_val_slow(struct buf *, const void *, size_t);

/* A val field; a NULL pointer is SQL NULL.  Inline: it runs per value. */
static inline void
enc_val(struct buf *b, const void *p, size_t len)
{
	if (p != NULL && len < 0x7f && b->cap - b->len > len + 1) {
		b->p[b->len] = (char)(len + 1);
		memcpy(b->p + b->len + 1, p, len);
		b->len += len + 1;
		b->p[b->len] = '\0';
		return;
	}
	enc_val_slow(b, p, len);
}

/* Payload decoder over a borrowed byte range. */
struct dec {
	const uint8_t	*p;
	const uint8_t	*end;
	int		 err;	/* sticky: set on overrun or malformed field */
};

static inline void
dec_init(struct dec *d, const void *p, size_t len)
{
	d->p = p;
	d->end = d->p + len;
	d->err = 0;
}

uint64_t	 dec_varint(struct dec *);
/* A str field: a NUL-terminated pointer into the payload, or "" on error. */
const char	*dec_str(struct dec *, size_t *lenp);

/* A key/value list: varint count, then count pairs of str. */
#define RP_KV_MAX	32
struct rp_kv {
	size_t		 n;
	const char	*key[RP_KV_MAX];
	const char	*val[RP_KV_MAX];
	size_t		 vlen[RP_KV_MAX];
};
void		 enc_kv(struct buf *, const char *const *keys,
		    const char *const *vals, size_t n);
/* Decodes up to RP_KV_MAX pairs (more are skipped).  0 or -1 (corrupt). */
int		 dec_kv(struct dec *, struct rp_kv *);
/* The value for key, or NULL. */
const char	*rp_kv_get(const struct rp_kv *, const char *key);

#endif
