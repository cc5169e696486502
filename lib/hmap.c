/*
 * hmap: byte-string keys to pointers (hmap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "xxh.h"

static uint64_t
hash_of(const void *key, size_t len)
{
	uint64_t	 h = rp_xxh3(key, len);

	return h != 0 ? h : 1;		/* 0 marks a free slot */
}

/* The slot of key, or the free slot where it would go. */
static size_t
slot_of(const struct hmap *m, uint64_t h, const void *key, size_t len)
{
	size_t		 i, mask = m->cap - 1;

	for (i = h & mask; m->s[i].h != 0; i = (i + 1) & mask)
		if (m->s[i].h == h && m->s[i].len == len &&
		    memcmp(m->s[i].key, key, len) == 0)
			break;
	return i;
}

static int
grow(struct hmap *m)
{
	struct hmap_slot *s, *old = m->s;
	size_t		 i, j, cap = m->cap ? m->cap * 2 : 16, oldcap = m->cap;

	if ((s = calloc(cap, sizeof(*s))) == NULL)
		return -1;
	m->s = s;
	m->cap = cap;
	for (i = 0; i < oldcap; i++) {
		if (old[i].h == 0)
			continue;
		for (j = old[i].h & (cap - 1); s[j].h != 0; j = (j + 1) &
		    (cap - 1))
			;
		s[j] = old[i];
	}
	free(old);
	return 0;
}

void *
hmap_get(const struct hmap *m, const void *key, size_t len)
{
	size_t		 i;

	if (m->n == 0)
		return NULL;
	i = slot_of(m, hash_of(key, len), key, len);
	return m->s[i].h != 0 ? m->s[i].val : NULL;
}

int
hmap_put(struct hmap *m, const void *key, size_t len, void *val,
    void **old)
{
	uint64_t	 h = hash_of(key, len);
	size_t		 i;
	char		*k;

	if (old != NULL)
		*old = NULL;
	if (m->cap != 0) {
		i = slot_of(m, h, key, len);
		if (m->s[i].h != 0) {
			if (old != NULL)
				*old = m->s[i].val;
			m->s[i].val = val;
			return 0;
		}
	}
	if ((k = malloc(len + 1)) == NULL)
		return -1;
	if ((m->n + 1) * 2 > m->cap && grow(m) == -1) {
		free(k);
		return -1;
	}
	memcpy(k, key, len);
	k[len] = '\0';
	i = slot_of(m, h, key, len);
	m->s[i].h = h;
	m->s[i].key = k;
	m->s[i].len = len;
	m->s[i].val = val;
	m->n++;
	return 0;
}

void *
hmap_del(struct hmap *m, const void *key, size_t len)
{
	size_t		 i, j, home, mask = m->cap - 1;
	void		*val;

	if (m->n == 0)
		return NULL;
	i = slot_of(m, hash_of(key, len), key, len);
	if (m->s[i].h == 0)
		return NULL;
	val = m->s[i].val;
	free(m->s[i].key);
	m->n--;
	/* backward shift: no entry after i may be cut off from its home */
	for (j = (i + 1) & mask; m->s[j].h != 0; j = (j + 1) & mask) {
		home = m->s[j].h & mask;
		/* j's entry may move to i unless its home lies in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->s[i] = m->s[j];
			i = j;
		}
	}
	memset(&m->s[i], 0, sizeof(m->s[i]));
	return val;
}

int
hmap_each(const struct hmap *m, int (*fn)(void *, void *), void *arg)
{
	size_t		 i;
	int		 rc;

	for (i = 0; i < m->cap; i++)
		if (m->s[i].h != 0 && (rc = fn(arg, m->s[i].val)) != 0)
			return rc;
	return 0;
}

void
hmap_clear(struct hmap *m, void (*release)(void *))
{
	size_t		 i;

	for (i = 0; i < m->cap && m->n > 0; i++) {
		if (m->s[i].h == 0)
			continue;
		if (release != NULL)
			release(m->s[i].val);
		free(m->s[i].key);
		memset(&m->s[i], 0, sizeof(m->s[i]));
		m->n--;
	}
}

void
hmap_free(struct hmap *m, void (*release)(void *))
{
	hmap_clear(m, release);
	free(m->s);
	m->s = NULL;
	m->cap = 0;
	m->n = 0;
}
