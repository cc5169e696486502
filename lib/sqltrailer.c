/*
 * sqltrailer: rows2sql's closing comment line; see sqltrailer.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sqltrailer.h"

void
sqltrailer_format(struct buf *b, const struct sqltrailer *t)
{
	buf_addf(b, SQLTRAILER_PREFIX "statements=%" PRIu64 " bytes=%" PRIu64
	    " xxh3=%016" PRIx64 "\n", t->statements, t->bytes, t->xxh3);
}

int
sqltrailer_parse(const char *line, size_t len, struct sqltrailer *t)
{
	char	 s[128], tail;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len >= sizeof(s) || len < SQLTRAILER_PREFIX_LEN ||
	    memcmp(line, SQLTRAILER_PREFIX, SQLTRAILER_PREFIX_LEN) != 0)
		return -1;
	memcpy(s, line, len);
	s[len] = '\0';
	if (sscanf(s + SQLTRAILER_PREFIX_LEN, "statements=%" SCNu64
	    " bytes=%" SCNu64 " xxh3=%16" SCNx64 "%c", &t->statements,
	    &t->bytes, &t->xxh3, &tail) != 3)
		return -1;
	return 0;
}
