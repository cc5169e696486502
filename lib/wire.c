/*
 * wire: the field encodings of rowpipe-stream(5) payloads (wire.h).
 */
#include <string.h>

#include "wire.h"

/* Encoders: append to a buf (errors land in buf->err). */

void
enc_varint(struct buf *b, uint64_t v)
{
	uint8_t	 tmp[10];
	size_t	 n = 0;

	while (v >= 0x80) {
		tmp[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (uint8_t)v;
	buf_add(b, tmp, n);
}

void
enc_str(struct buf *b, const void *p, size_t len)
{
	enc_varint(b, len);
	if (buf_grow(b, len + 1) == -1)
		return;
	buf_put(b, p, len);
	buf_put(b, "", 1);
}

void
enc_cstr(struct buf *b, const char *s)
{
	if (s == NULL)
		s = "";
	enc_str(b, s, strlen(s));
}

void
enc_val_slow(struct buf *b, const void *p, size_t len)
{
	if (p == NULL) {
		buf_addc(b, 0);
		return;
	}
	if (len < 0x7f) {
		if (buf_grow(b, len + 1) == -1)
			return;
		b->p[b->len++] = (char)(len + 1);
		buf_put(b, p, len);
		return;
	}
	enc_varint(b, (uint64_t)len + 1);
	buf_add(b, p, len);
}

void
enc_kv(struct buf *b, const char *const *keys, const char *const *vals,
    size_t n)
{
	size_t	 i;

	enc_varint(b, n);
	for (i = 0; i < n; i++) {
		enc_cstr(b, keys[i]);
		enc_cstr(b, vals[i]);
	}
}

/* Payload decoders. */

uint64_t
dec_varint(struct dec *d)
{
	uint64_t	 v = 0;
	unsigned	 shift = 0;
	uint8_t		 c;

	do {
		if (d->p >= d->end || shift > 63) {
			d->err = 1;
			return 0;
		}
		c = *d->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

const char *
dec_str(struct dec *d, size_t *lenp)
{
	uint64_t	 len;
	const char	*s;

	len = dec_varint(d);
	if (d->err || len >= (uint64_t)(d->end - d->p) || d->p[len] != '\0') {
		d->err = 1;
		if (lenp != NULL)
			*lenp = 0;
		return "";
	}
	s = (const char *)d->p;
	d->p += len + 1;
	if (lenp != NULL)
		*lenp = (size_t)len;
	return s;
}

int
dec_kv(struct dec *d, struct rp_kv *kv)
{
	uint64_t	 n, i;
	const char	*k, *v;
	size_t		 vlen;

	kv->n = 0;
	if (d->p == d->end)
		return 0;	/* an absent list is an empty one */
	n = dec_varint(d);
	for (i = 0; i < n && !d->err; i++) {
		k = dec_str(d, NULL);
		v = dec_str(d, &vlen);
		if (!d->err && kv->n < RP_KV_MAX) {
			kv->key[kv->n] = k;
			kv->val[kv->n] = v;
			kv->vlen[kv->n] = vlen;
			kv->n++;
		}
	}
	return d->err ? -1 : 0;
}

const char *
rp_kv_get(const struct rp_kv *kv, const char *key)
{
	size_t	 i;

	for (i = 0; i < kv->n; i++)
		if (strcmp(kv->key[i], key) == 0)
			return kv->val[i];
	return NULL;
}
