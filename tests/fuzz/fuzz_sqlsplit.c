/*
 * libFuzzer target for sqlsplit's splitter (split.h).  The first byte
 * picks the options and a piece size; the rest is SQL text.  The input is split
 * twice, at once and in pieces, and both runs must hand out the same
 * statements (or fail with the same error): the lexer may not depend on
 * where read(2) happens to cut the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "buf.h"
#include "frame.h"
#include "../../cmd/sqlsplit/split.h"

struct acc {
	XXH64_hash_t	 h;
	uint64_t	 n;
};

static int
acc_stmt(void *arg, const struct split_stmt *st)
{
	struct acc	*a = arg;

	if (rp_stmt_kind_name(st->kind) == NULL)
		abort();
	a->h = XXH3_64bits_withSeed(st->text, st->len, a->h);
	a->h = XXH3_64bits_withSeed(st->table, strlen(st->table), a->h);
	a->h = XXH3_64bits_withSeed(st->schema, strlen(st->schema), a->h);
	a->h = XXH3_64bits_withSeed(st->db, strlen(st->db), a->h);
	a->h ^= st->line * 31 + st->offset * 7 + (uint64_t)st->kind;
	a->n++;
	return 0;
}

static int
run(const uint8_t *p, size_t n, const struct split_opts *o, size_t piece,
    struct acc *a, char *err, size_t errsz)
{
	struct split	*s;
	size_t		 i, k;
	int		 r = 0;

	memset(a, 0, sizeof(*a));
	if ((s = split_new(o, acc_stmt, a)) == NULL)
		abort();
	for (i = 0; i < n && r == 0; i += k) {
		k = n - i < piece ? n - i : piece;
		r = split_feed(s, p + i, k);
	}
	if (r == 0)
		r = split_finish(s);
	strlcpy(err, r == 0 ? "" : split_errstr(s), errsz);
	split_free(s);
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct split_opts o;
	struct acc	 a, b;
	char		 ea[512], eb[512];
	int		 ra, rb;

	if (size < 1)
		return 0;
	memset(&o, 0, sizeof(o));
	o.no_backslash_escapes = data[0] & 1;
	o.ansi_quotes = (data[0] >> 1) & 1;
	o.binary_mode = (data[0] >> 2) & 1;
	o.require_trailer = (data[0] >> 3) & 1;
	ra = run(data + 1, size - 1, &o, size, &a, ea, sizeof(ea));
	rb = run(data + 1, size - 1, &o, 1 + (data[0] >> 4), &b, eb,
	    sizeof(eb));
	if (ra != rb || a.n != b.n || a.h != b.h || strcmp(ea, eb) != 0)
		abort();
	return 0;
}
