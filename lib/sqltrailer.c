/*
 * sqltrailer: rows2sql's closing comment line, and its checkpoint lines;
 * see sqltrailer.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sqltrailer.h"

static void
format(struct buf *b, const char *prefix, const struct sqltrailer *t)
{
	buf_addf(b, "%sstatements=%" PRIu64 " bytes=%" PRIu64 " xxh3=%016"
	    PRIx64 "\n", prefix, t->statements, t->bytes, t->xxh3);
}

/* The line without its prefix and a final CR, NUL-terminated, into s. */
static int
body(const char *line, size_t len, const char *prefix, char *s, size_t cap)
{
	size_t	 plen = strlen(prefix);

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len >= cap || len < plen || memcmp(line, prefix, plen) != 0)
		return -1;
	memcpy(s, line + plen, len - plen);
	s[len - plen] = '\0';
	return 0;
}

static int
parse(const char *line, size_t len, const char *prefix, struct sqltrailer *t)
{
	char	 s[128], tail;

	if (body(line, len, prefix, s, sizeof(s)) == -1 ||
	    sscanf(s, "statements=%" SCNu64 " bytes=%" SCNu64 " xxh3=%16"
	    SCNx64 "%c", &t->statements, &t->bytes, &t->xxh3, &tail) != 3)
		return -1;
	return 0;
}

void
sqltrailer_format(struct buf *b, const struct sqltrailer *t)
{
	format(b, SQLTRAILER_PREFIX, t);
}

int
sqltrailer_parse(const char *line, size_t len, struct sqltrailer *t)
{
	return parse(line, len, SQLTRAILER_PREFIX, t);
}

void
sqltrailer_checkpoint_format(struct buf *b, const struct sqltrailer *t)
{
	format(b, SQLTRAILER_CHECKPOINT, t);
}

int
sqltrailer_checkpoint_parse(const char *line, size_t len,
    struct sqltrailer *t)
{
	return parse(line, len, SQLTRAILER_CHECKPOINT, t);
}

int
sqltrailer_segments_parse(const char *line, size_t len, uint64_t *bytes)
{
	char	 s[64], tail;

	if (body(line, len, SQLTRAILER_SEGMENTS, s, sizeof(s)) == -1 ||
	    sscanf(s, "%" SCNu64 "%c", bytes, &tail) != 1 || *bytes == 0)
		return -1;
	return 0;
}
