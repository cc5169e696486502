/*
 * rpcheck: is the data lz compresses (or -t tests) a rowpipe stream or
 * rows2sql text that ended where its producer ended it?  A cut or failed
 * dump compresses into a valid LZ4 file, which lz -t alone would pass.
 *
 * It looks at the bytes in order and keeps only a little: for a frame
 * stream (rowpipe-stream(5): the magic, then frames of a 16-byte header
 * whose first 4 bytes are the payload length and 5th the type) where each
 * frame starts, and the payload of a small last frame; for a rows2sql
 * text (its first line SQLTRAILER_HEADER, or its abort line when rows2sql
 * failed before any header) its last line: an aborted text ends with the
 * abort line and the statement after it.  Complete: a
 * stream whose last frame is a TRAILER ending at the end, with the frame
 * count and offset it gives; a text whose last line is a trailer line
 * (lib/sqltrailer.h) with the byte count of the text before it.  Checksums
 * are not checked here: the LZ4 content checksum covers the bytes.
 */
#include <string.h>

#include "frame.h"
#include "sqltrailer.h"
#include "lz.h"

enum { K_UNKNOWN, K_STREAM, K_TEXT, K_OTHER };

/* Whether the first bytes are s[0..n): 1, 0 not, -1 not known yet. */
static int
starts(const struct rpcheck *c, const char *s, size_t n)
{
	if (memcmp(c->head, s, c->headlen < n ? c->headlen : n) != 0)
		return 0;
	return c->headlen >= n ? 1 : -1;
}

/* The first bytes: which kind, once enough of them are seen. */
static void
sniff(struct rpcheck *c, const unsigned char *p, size_t n)
{
	size_t	 take = sizeof(c->head) - c->headlen;

	if (take > n)
		take = n;
	memcpy(c->head + c->headlen, p, take);
	c->headlen += take;
	if (c->headlen >= FRAME_MAGIC_LEN &&
	    memcmp(c->head, FRAME_MAGIC, FRAME_MAGIC_LEN) == 0) {
		c->kind = K_STREAM;
		c->next = FRAME_PRELUDE_LEN;
	} else if (starts(c, SQLTRAILER_HEADER, SQLTRAILER_HEADER_LEN) == 1 ||
	    starts(c, SQLTRAILER_ABORT, SQLTRAILER_ABORT_LEN) == 1)
		c->kind = K_TEXT;	/* an abort line first: rows2sql failed
					   before its input's header came */
	else if (starts(c, FRAME_MAGIC, FRAME_MAGIC_LEN) == 0 &&
	    starts(c, SQLTRAILER_HEADER, SQLTRAILER_HEADER_LEN) == 0 &&
	    starts(c, SQLTRAILER_ABORT, SQLTRAILER_ABORT_LEN) == 0)
		c->kind = K_OTHER;	/* no longer the start of any */
}

/* Frame boundaries in p[0..n), the bytes at stream offset off. */
static void
walk_frames(struct rpcheck *c, const unsigned char *p, size_t n, uint64_t off)
{
	uint64_t	 end = off + n, len;
	size_t		 i, k;

	/* the rest of a kept payload that started in an earlier block */
	if (c->last_len <= sizeof(c->pay) && c->plen < c->last_len &&
	    c->frames > 0 && c->hlen == 0) {
		k = n < c->last_len - c->plen ? n :
		    (size_t)(c->last_len - c->plen);
		memcpy(c->pay + c->plen, p, k);
		c->plen += k;
	}
	while (c->next < end) {
		i = (size_t)(c->next > off ? c->next - off : 0);
		k = sizeof(c->hdr) - c->hlen;
		if (k > n - i)
			k = n - i;
		memcpy(c->hdr + c->hlen, p + i, k);
		c->hlen += k;
		if (c->hlen < sizeof(c->hdr))
			return;		/* the rest of the header comes next */
		len = (uint64_t)c->hdr[0] | (uint64_t)c->hdr[1] << 8 |
		    (uint64_t)c->hdr[2] << 16 | (uint64_t)c->hdr[3] << 24;
		c->last_at = c->next;
		c->last_type = c->hdr[4];
		c->last_len = len;
		c->plen = 0;
		c->frames++;
		c->hlen = 0;
		c->next += FRAME_HDR_LEN + len;
		/* keep a small payload: the trailer's totals */
		i = (size_t)(c->last_at + FRAME_HDR_LEN - off);
		if (len <= sizeof(c->pay) && i < n) {
			k = n - i < len ? n - i : (size_t)len;
			memcpy(c->pay, p + i, k);
			c->plen = k;
		}
	}
}

/* Append p[0..n) to the text's line being read (kept up to its cap). */
static void
line_add(struct rpcheck *c, const unsigned char *p, size_t n)
{
	size_t	 k = sizeof(c->line) - c->linelen;

	if (n > k)
		c->line_long = 1;
	memcpy(c->line + c->linelen, p, n < k ? n : k);
	c->linelen += n < k ? n : k;
}

/* The last line of the text so far; the one in progress is c->line. */
static void
walk_lines(struct rpcheck *c, const unsigned char *p, size_t n, uint64_t off)
{
	const unsigned char *nl, *start;

	if ((nl = memrchr(p, '\n', n)) == NULL) {
		line_add(c, p, n);
		return;
	}
	/* the line that nl ends: from the newline before it, or earlier */
	start = nl > p ? memrchr(p, '\n', (size_t)(nl - p)) : NULL;
	if (start != NULL) {
		c->linelen = 0;
		c->line_long = 0;
		c->line_off = off + (uint64_t)(start + 1 - p);
		start++;
	} else
		start = p;
	line_add(c, start, (size_t)(nl - start));
	memcpy(c->last, c->line, c->linelen);
	c->lastlen = c->linelen;
	c->last_long = c->line_long;
	c->last_off = c->line_off;
	c->seen_line = 1;
	c->linelen = 0;
	c->line_long = 0;
	c->line_off = off + (uint64_t)(nl + 1 - p);
	line_add(c, nl + 1, n - (size_t)(nl + 1 - p));
}

void
rpcheck_add(struct rpcheck *c, const void *p, size_t n)
{
	uint64_t	 off = c->off;

	if (n == 0)
		return;
	c->off += n;
	if (c->kind == K_UNKNOWN)
		sniff(c, p, n);
	if (c->kind == K_STREAM)
		walk_frames(c, p, n, off);
	else if (c->kind == K_TEXT)
		walk_lines(c, p, n, off);
}

/* Unsigned LEB128 from p[*i..n); sets *bad past the end. */
static uint64_t
varint(const unsigned char *p, size_t n, size_t *i, int *bad)
{
	uint64_t	 v = 0;
	int		 shift;

	for (shift = 0; *i < n && shift < 64; shift += 7) {
		v |= (uint64_t)(p[*i] & 0x7f) << shift;
		if (!(p[(*i)++] & 0x80))
			return v;
	}
	*bad = 1;
	return 0;
}

const char *
rpcheck_end(struct rpcheck *c)
{
	struct sqltrailer t;
	uint64_t	 frames;
	size_t		 i = 0;
	int		 bad = 0;

	if (c->kind == K_STREAM) {
		if (c->next != c->off || c->hlen != 0 ||
		    c->last_type != FT_TRAILER || c->plen != c->last_len)
			return c->last_type == FT_ABORT && c->next == c->off ?
			    "a rowpipe stream that its producer aborted" :
			    "a rowpipe stream without its trailer (cut)";
		frames = varint(c->pay, c->plen, &i, &bad);
		(void)varint(c->pay, c->plen, &i, &bad);
		(void)varint(c->pay, c->plen, &i, &bad);
		(void)varint(c->pay, c->plen, &i, &bad);
		if (bad || frames != c->frames - 1 ||
		    varint(c->pay, c->plen, &i, &bad) != c->last_at || bad)
			return "a rowpipe stream whose trailer does not match";
		return NULL;
	}
	/* (a binary magic: four of its bytes are no text's start) */
	if (c->kind == K_UNKNOWN && c->headlen >= 4 &&
	    starts(c, FRAME_MAGIC, FRAME_MAGIC_LEN) != 0)
		return "a rowpipe stream without its trailer (cut)";
	if (c->kind != K_TEXT)
		return NULL;
	if (c->linelen != 0 || !c->seen_line)
		return "a rows2sql text without its trailer line (cut)";
	/* (the abort line, and the statement rows2sql writes after it) */
	if ((c->lastlen >= SQLTRAILER_ABORT_LEN &&
	    memcmp(c->last, SQLTRAILER_ABORT, SQLTRAILER_ABORT_LEN) == 0) ||
	    (c->lastlen >= SQLTRAILER_ABORT_STMT_LEN &&
	    memcmp(c->last, SQLTRAILER_ABORT_STMT,
	    SQLTRAILER_ABORT_STMT_LEN) == 0))
		return "a rows2sql text that ends with its abort line";
	if (c->last_long || sqltrailer_parse((const char *)c->last,
	    c->lastlen, &t) == -1)
		return "a rows2sql text without its trailer line (cut)";
	if (t.bytes != c->last_off)
		return "a rows2sql text whose trailer line does not match";
	return NULL;
}
