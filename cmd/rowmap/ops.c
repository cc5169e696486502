/*
 * ops: rowmap's column transforms as given on the command line, and the
 * keyed pseudonyms of --hash.
 *
 * A pseudonym is HMAC-SHA256 (RFC 2104, FIPS 198-1) of the value under a
 * secret key, as nettle computes it: a pseudorandom function, so that
 * without the key nobody can test guesses (every email address of a
 * domain, every name of a census) against the pseudonyms, as anyone could
 * against an unkeyed or merely seeded fast hash such as XXH3.  The key is
 * read from a file, never taken from the command line; without one, each
 * run makes a random key and forgets it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <nettle/hmac.h>

#include "util.h"
#include "rowmap.h"

#define KEY_MIN		16	/* bytes a key file must hold */

/* [db.]table.column into op (owned copies).  0 or -1. */
static int
split_column(const char *s, size_t n, struct rm_colop *op)
{
	char	*c = strndup(s, n), *d1, *d2;

	if (c == NULL)
		return -1;
	if ((d1 = strchr(c, '.')) == NULL) {
		free(c);
		return -1;
	}
	*d1++ = '\0';
	if ((d2 = strchr(d1, '.')) != NULL) {
		*d2++ = '\0';
		op->db = c;
		op->table = strdup(d1);
		op->col = strdup(d2);
	} else {
		op->table = c;
		op->col = strdup(d1);
	}
	if (op->table == NULL || op->col == NULL || *op->table == '\0' ||
	    *op->col == '\0' || (op->db != NULL && *op->db == '\0') ||
	    strchr(op->col, '.') != NULL)
		return -1;
	return 0;
}

/* The index of the key of file (NULL: the run's), added if new; or -1. */
static int
key_for(struct rowmap_opts *o, const char *file, size_t *at)
{
	struct rm_key	*v;
	size_t		 i;

	for (i = 0; i < o->nkeys; i++)
		if ((file == NULL && o->keys[i].file == NULL) ||
		    (file != NULL && o->keys[i].file != NULL &&
		    strcmp(file, o->keys[i].file) == 0)) {
			*at = i;
			return 0;
		}
	if ((v = reallocarray(o->keys, o->nkeys + 1, sizeof(*v))) == NULL)
		return -1;
	o->keys = v;
	memset(&v[o->nkeys], 0, sizeof(*v));
	if (file != NULL && (v[o->nkeys].file = strdup(file)) == NULL)
		return -1;
	*at = o->nkeys++;
	return 0;
}

int
rm_add_op(struct rowmap_opts *o, int op, const char *arg,
    const char *key_file, const char **errstr)
{
	struct rm_colop	*v, *c;
	const char	*sep = NULL;
	size_t		 n = strlen(arg), i;

	if (op == OP_SET && (sep = strchr(arg, '=')) == NULL) {
		*errstr = "expected table.column=value";
		return -1;
	}
	if (op == OP_HASH)
		sep = strchr(arg, ':');
	if (sep != NULL)
		n = (size_t)(sep - arg);
	if ((v = reallocarray(o->ops, o->nops + 1, sizeof(*v))) == NULL)
		goto nomem;
	o->ops = v;
	c = &v[o->nops++];
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->arg = arg;
	if (split_column(arg, n, c) == -1) {
		*errstr = "expected [db.]table.column";
		return -1;
	}
	if (op == OP_SET) {
		c->vlen = strlen(sep + 1);
		if ((c->value = strdup(sep + 1)) == NULL)
			goto nomem;
	}
	if (op == OP_HASH) {
		if (sep != NULL && sep[1] == '\0') {
			*errstr = "empty key file name";
			return -1;
		}
		if (key_for(o, sep ? sep + 1 : key_file, &c->key) == -1)
			goto nomem;
	}
	for (i = 0; i + 1 < o->nops; i++)
		if (strcmp(o->ops[i].table, c->table) == 0 &&
		    strcasecmp(o->ops[i].col, c->col) == 0 &&
		    (o->ops[i].db == NULL) == (c->db == NULL) &&
		    (c->db == NULL || strcmp(o->ops[i].db, c->db) == 0)) {
			*errstr = "a second transform of the same column";
			return -1;
		}
	return 0;
nomem:
	*errstr = strerror(ENOMEM);
	return -1;
}

/* Read a key file: its bytes less one trailing newline. */
static int
load_key(struct rm_key *k)
{
	uint8_t	 buf[sizeof(k->key) + 2];
	ssize_t	 n;
	int	 fd;

	if ((fd = open(k->file, O_RDONLY)) == -1)
		return -1;
	n = read_full(fd, buf, sizeof(buf));
	close(fd);
	if (n == -1)
		return -1;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	if (n < KEY_MIN || (size_t)n > sizeof(k->key)) {
		explicit_bzero(buf, sizeof(buf));
		errno = n < KEY_MIN ? EINVAL : EFBIG;
		return -1;
	}
	memcpy(k->key, buf, (size_t)n);
	k->len = (size_t)n;
	explicit_bzero(buf, sizeof(buf));
	return 0;
}

int
rm_load_keys(struct rowmap_opts *o, const char **bad)
{
	size_t	 i;

	for (i = 0; i < o->nkeys; i++) {
		struct rm_key *k = &o->keys[i];

		if (k->file == NULL) {
			arc4random_buf(k->key, 32);
			k->len = 32;
		} else if (load_key(k) == -1) {
			*bad = k->file;
			return -1;
		}
		hmac_sha256_set_key(&k->ctx, k->len, k->key);
	}
	return 0;
}

void
rm_opts_release(struct rowmap_opts *o)
{
	size_t	 i;

	for (i = 0; i < o->nops; i++) {
		free(o->ops[i].db);
		free(o->ops[i].table);
		free(o->ops[i].col);
		free(o->ops[i].value);
	}
	free(o->ops);
	for (i = 0; i < o->nkeys; i++) {
		free(o->keys[i].file);
		explicit_bzero(&o->keys[i], sizeof(o->keys[i]));
	}
	free(o->keys);
	names_release(&o->names);
}

void
rm_hash(struct rm_key *k, const char *p, size_t len, int hex, char *out,
    size_t out_len)
{
	static const char hexd[] = "0123456789abcdef";
	uint8_t		 d[SHA256_DIGEST_SIZE];
	size_t		 i;

	hmac_sha256_update(&k->ctx, len, (const uint8_t *)p);
	hmac_sha256_digest(&k->ctx, sizeof(d), d);
	if (!hex)
		memcpy(out, d, out_len);
	else
		for (i = 0; i < out_len; i++)
			out[i] = hexd[i & 1 ? d[i / 2] & 15 : d[i / 2] >> 4];
}

/* Pseudonyms: 128 bits where the column holds them. */
#define HASH_HEX	32
#define HASH_BYTES	16
#define HASH_MIN	8	/* below that, collisions are near certain */

int
rm_hash_shape(const char *coltype, int *hex, size_t *len)
{
	static const struct {
		const char	*name;
		int		 hex;
		size_t		 max;	/* 0: as declared */
	} types[] = {
		{ "char", 1, 0 }, { "varchar", 1, 0 }, { "tinytext", 1, 255 },
		{ "text", 1, 65535 }, { "mediumtext", 1, 1 << 24 },
		{ "longtext", 1, 1 << 30 }, { "binary", 0, 0 },
		{ "varbinary", 0, 0 }, { "tinyblob", 0, 255 },
		{ "blob", 0, 65535 }, { "mediumblob", 0, 1 << 24 },
		{ "longblob", 0, 1 << 30 }
	};
	size_t	 i, n = strcspn(coltype, "( ");
	long	 l;

	*len = 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == n &&
		    strncasecmp(coltype, types[i].name, n) == 0)
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		return -1;
	*hex = types[i].hex;
	l = (long)types[i].max;
	if (l == 0 && (coltype[n] != '(' ||
	    (l = strtol(coltype + n + 1, NULL, 10)) <= 0))
		return -1;
	*len = (size_t)l;
	if (*len < HASH_MIN)
		return -1;
	if (*len > (size_t)(*hex ? HASH_HEX : HASH_BYTES))
		*len = *hex ? HASH_HEX : HASH_BYTES;
	return 0;
}
