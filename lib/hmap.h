/*
 * hmap: a hash table from byte-string keys to pointers, for the sets a
 * program keeps one entry of per table (or per anything of which a dump
 * can hold thousands) and looks up once or more per entry: a linear
 * search there makes the run quadratic in the number of tables.
 *
 * Open addressing, linear probing, at most half full.  The map copies
 * each key; the values are the caller's (hmap_free() hands each to a
 * release function, which may be NULL).  A zeroed struct hmap
 * (HMAP_INIT) is a valid empty map.  No order of entries is kept.
 */
#ifndef ROWPIPE_HMAP_H
#define ROWPIPE_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct hmap_slot {
	uint64_t	 h;		/* the key's hash; 0: the slot is free */
	char		*key;		/* owned copy, NUL-ended */
	size_t		 len;
	void		*val;
};

struct hmap {
	struct hmap_slot *s;
	size_t		 cap;		/* slots: 0 or a power of two */
	size_t		 n;		/* entries */
};

#define HMAP_INIT	{ NULL, 0, 0 }

/* The value of key (len bytes), or NULL if it has none. */
void	*hmap_get(const struct hmap *, const void *key, size_t len);
/*
 * Set key's value to val (not NULL), replacing any it had (*old, if old
 * is not NULL, gets that one, else NULL).  0, or -1 (ENOMEM: the map is
 * as it was).
 */
int	 hmap_put(struct hmap *, const void *key, size_t len, void *val,
	    void **old);
/* Remove key: its value, or NULL if it had none. */
void	*hmap_del(struct hmap *, const void *key, size_t len);
/* Every entry's value to fn (in no order), while fn returns 0. */
int	 hmap_each(const struct hmap *, int (*fn)(void *arg, void *val),
	    void *arg);
/* Remove every entry, each value to release (may be NULL); the map is
 * then empty and may be used again. */
void	 hmap_clear(struct hmap *, void (*release)(void *));
/* hmap_clear() and its memory. */
void	 hmap_free(struct hmap *, void (*release)(void *));

#endif
