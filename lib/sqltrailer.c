/*
 * sqltrailer: rows2sql's closing comment line, and its checkpoint lines;
 * see sqltrailer.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sqltrailer.h"
#include "xxh.h"

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

/* XXH3_64bits of "N MESSAGE", the part of an abort line it covers. */
static uint64_t
abort_hash(const char *n, size_t nlen, const char *msg, size_t mlen)
{
	struct buf	 b = BUF_INIT;
	uint64_t	 h;

	buf_add(&b, n, nlen);
	buf_addc(&b, ' ');
	buf_add(&b, msg, mlen);
	h = b.err ? 0 : rp_xxh3(b.p, b.len);
	buf_release(&b);
	return h;
}

void
sqltrailer_abort_format(struct buf *b, int reason, const char *msg,
    size_t len)
{
	char	 n[16];

	snprintf(n, sizeof(n), "%d", reason);
	buf_addf(b, "%s%s xxh3=%016" PRIx64 " ", SQLTRAILER_ABORT, n,
	    abort_hash(n, strlen(n), msg, len));
	buf_add(b, msg, len);
	buf_addc(b, '\n');
}

int
sqltrailer_abort_parse(const char *line, size_t len, const char **msg,
    size_t *mlen)
{
	const char	*n = line + SQLTRAILER_ABORT_LEN, *p, *e = line + len;
	char		 hex[17];
	uint64_t	 h;
	int		 reason = 0;

	if (len > 0 && line[len - 1] == '\r')
		e--;
	if (len < SQLTRAILER_ABORT_LEN ||
	    memcmp(line, SQLTRAILER_ABORT, SQLTRAILER_ABORT_LEN) != 0)
		return -1;
	for (p = n; p < e && *p >= '0' && *p <= '9' && p - n < 4; p++)
		reason = reason * 10 + (*p - '0');
	if (p == n || reason == 0 || p >= e || *p != ' ')
		return -1;
	if (e - p >= 23 && memcmp(p, " xxh3=", 6) == 0 && p[22] == ' ') {
		memcpy(hex, p + 6, 16);
		hex[16] = '\0';
		if (strspn(hex, "0123456789abcdef") != 16 ||
		    sscanf(hex, "%16" SCNx64, &h) != 1)
			return -1;
		*msg = p + 23;
		*mlen = (size_t)(e - *msg);
		if (h != abort_hash(n, (size_t)(p - n), *msg, *mlen))
			return -1;
		return reason;
	}
	/* an older rows2sql's line: no xxh3, and reasons 1 and 2 only */
	if (reason > 2)
		return -1;
	*msg = p + 1;
	*mlen = (size_t)(e - *msg);
	return reason;
}

void
sqltrailer_abort_stmt(struct buf *b, const char *msg, size_t len)
{
	static const char phrase[] = "this dump is incomplete: ";
	size_t	 i, n;		/* n: characters of the message so far */

	buf_adds(b, SQLTRAILER_ABORT_STMT);
	buf_adds(b, phrase);
	n = strlen("rowpipe: ") + strlen(phrase);
	for (i = 0; i < len && n < 128; i++, n++) {
		if (n == 125 && len - i > 3) {
			buf_adds(b, "...");
			break;
		}
		if (msg[i] == '\'')
			buf_adds(b, "''");
		else
			buf_addc(b, msg[i] >= 0x20 && msg[i] < 0x7f &&
			    msg[i] != '\\' ? msg[i] : '?');
	}
	buf_adds(b, "';\n");
}
