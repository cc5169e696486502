/*
 * trailer: the lines that say whether the input is whole: rows2sql's
 * header and trailer line (lib/sqltrailer.h), checked against the
 * statements and bytes before it, its checkpoint lines, each checked
 * against the segment before it, and mysqldump's header and its closing
 * "-- Dump completed" comment.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sqltrailer.h"
#include "state.h"

int
sdamaged(struct split *s, const char *fmt, ...)
{
	va_list	 ap;
	int	 r;

	va_start(ap, fmt);
	r = sfail_as(s, FRAME_ABORT_DAMAGED, "damaged: ", fmt, ap);
	va_end(ap);
	return r;
}

/*
 * rows2sql's abort line (lib/sqltrailer.h): its reason goes on as this
 * failure's (split_abort_reason()); a line that does not check is damage.
 */
static int
abort_line(struct split *s, const char *b, size_t ll, uint64_t off)
{
	const char	*m;
	size_t		 mlen;
	int		 reason;

	if ((reason = sqltrailer_abort_parse(b, ll, &m, &mlen)) == -1)
		return sdamaged(s, "line %llu: damaged rowpipe abort line",
		    (unsigned long long)line_at(s, off));
	if (reason == FRAME_ABORT_DAMAGED || reason == FRAME_ABORT_DAMAGED_LATE) {
		/* rowpipe-stream(5) reason 2: damaged-late */
		s->mark.late = reason == FRAME_ABORT_DAMAGED_LATE;
		return sdamaged(s, "line %llu: the text ends where the stream "
		    "rows2sql read was aborted by its producer: %.*s",
		    (unsigned long long)line_at(s, off), (int)mlen, m);
	}
	s->mark.reason = reason;
	snprintf(s->mark.reason_msg, sizeof(s->mark.reason_msg), "%.*s",
	    (int)mlen, m);
	return sfail(s, "line %llu: the text ends where its producer gave up "
	    "(%s): %.*s", (unsigned long long)line_at(s, off),
	    frame_abort_phrase(reason), (int)mlen, m);
}

/*
 * Is p (n bytes, a line) a trailer or abort line that a changed byte
 * made unreadable?  Such a line differs from the start of one in one
 * byte at most; no statement of rows2sql's comes near.
 */
static int
near_marker(const char *p, size_t n)
{
	static const char *const pre[] = { SQLTRAILER_ABORT,
	    SQLTRAILER_PREFIX };
	size_t		 i, k, diff, plen;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		plen = strlen(pre[i]);
		if (n <= plen)
			continue;
		for (k = diff = 0; k < plen; k++)
			diff += p[k] != pre[i][k];
		if (diff <= 1)
			return 1;
	}
	return 0;
}

/*
 * rows2sql writes its SIGNAL statement (SQLTRAILER_ABORT_STMT) only on
 * the line after its abort line.  A statement at off (len bytes, line
 * ln) that is that SIGNAL right after a line one byte away from an abort
 * line (read as a comment), or that line joined to the SIGNAL (a changed
 * "--" starts a statement), is the abort line damaged: -1 (said), else 0.
 */
int
abort_stmt_damaged(struct split *s, const char *text, size_t len,
    uint64_t off, uint64_t ln)
{
	const char	*nl;

	if (len >= SQLTRAILER_ABORT_STMT_LEN && memcmp(text,
	    SQLTRAILER_ABORT_STMT, SQLTRAILER_ABORT_STMT_LEN) == 0 &&
	    s->mark.near_end == off && off > 0)
		return sdamaged(s, "line %llu: damaged rowpipe abort line",
		    (unsigned long long)ln - 1);
	/* (its first bytes first: no statement of rows2sql's is near) */
	if (!s->mark.r2s_hdr || !near_marker(text, len < 64 ? len : 64) ||
	    (nl = memchr(text, '\n', len)) == NULL ||
	    !near_marker(text, (size_t)(nl - text)))
		return 0;
	len -= (size_t)(nl + 1 - text);
	if (len >= SQLTRAILER_ABORT_STMT_LEN && memcmp(nl + 1,
	    SQLTRAILER_ABORT_STMT, SQLTRAILER_ABORT_STMT_LEN) == 0)
		return sdamaged(s, "line %llu: damaged rowpipe abort line",
		    (unsigned long long)ln);
	return 0;
}

/*
 * At the end of a checked text without a trailer: is its last line such
 * a line, read as a comment (marker_line() noted where it ended) or as
 * the start of a statement (a changed "--")?
 */
int
marker_damaged(struct split *s)
{
	uint64_t	 end = s->base + s->len;

	if (!s->mark.r2s_hdr)
		return 0;
	if (s->mark.near_end == end && end > 0)
		return 1;
	return s->started && s->stmt_start < s->len &&
	    memchr(s->buf + s->stmt_start, '\n', s->len - s->stmt_start) ==
	    s->buf + s->len - 1 &&
	    near_marker(s->buf + s->stmt_start, s->len - s->stmt_start);
}

/*
 * Does the input end with a trailer line whose byte count is where it
 * stands?  Then the text is whole, and a string or comment left open at
 * its end was opened by a changed byte: damage, not a cut.
 */
int
trailer_ends_text(struct split *s)
{
	struct sqltrailer t;
	const char	*e = s->buf + s->len, *p;

	if (!s->mark.r2s_hdr || s->len < 2 || e[-1] != '\n')
		return 0;
	p = memrchr(s->buf, '\n', s->len - 1);
	p = p != NULL ? p + 1 : s->buf;
	return sqltrailer_parse(p, (size_t)(e - 1 - p), &t) == 0 &&
	    t.bytes == s->base + (uint64_t)(p - s->buf);
}

/* The segments line, second of a rows2sql text: checked from here on. */
static int
segments_line(struct split *s, const char *b, size_t ll)
{
	if (sqltrailer_segments_parse(b, ll, &s->mark.seg_max) == -1)
		return sdamaged(s, "line 2: malformed rowpipe segments line");
	s->mark.seg_start = 0;
	s->mark.seg_line = 1;
	s->mark.seg_nstmt = 0;
	if (s->mark.seg_cb != NULL && s->mark.seg_cb(s->mark.seg_arg, SPLIT_SEG_BEGIN) == -1)
		return sfail(s, "%s", "");
	return 0;
}

/*
 * A checkpoint line at off, ll bytes, ending at end: the segment before
 * it must be what the line says; then it is handed on (SPLIT_SEG_OK) and
 * the next one begins after the line.
 */
static int
checkpoint_line(struct split *s, const char *b, size_t ll, uint64_t off,
    uint64_t end)
{
	struct sqltrailer c;
	uint64_t	 h, lines, first = s->mark.seg_nstmt + 1;
	char		 what[128];

	hash_to(s, off);
	h = XXH3_64bits_digest(s->mark.seg_xx);
	if (sqltrailer_checkpoint_parse(b, ll, &c) == -1)
		return sdamaged(s, "line %llu: malformed rowpipe checkpoint "
		    "line", (unsigned long long)line_at(s, off));
	lines = line_at(s, off) - s->mark.seg_line;
	if (c.bytes < off - s->mark.seg_start && off - s->mark.seg_start - c.bytes ==
	    lines)
		snprintf(what, sizeof(what), "one more byte a line: the line "
		    "endings were converted to CRLF (convert them back, e.g. "
		    "with dos2unix)");
	else if (c.bytes != off - s->mark.seg_start)
		snprintf(what, sizeof(what), "%llu bytes where it says %llu",
		    (unsigned long long)(off - s->mark.seg_start),
		    (unsigned long long)c.bytes);
	else if (c.statements != s->nstmt - s->mark.seg_nstmt)
		snprintf(what, sizeof(what), "%llu statements where it says "
		    "%llu", (unsigned long long)(s->nstmt - s->mark.seg_nstmt),
		    (unsigned long long)c.statements);
	else if (c.xxh3 != h)
		snprintf(what, sizeof(what), "xxh3 %016llx where it says "
		    "%016llx", (unsigned long long)h,
		    (unsigned long long)c.xxh3);
	else
		what[0] = '\0';
	if (what[0] != '\0')
		return sdamaged(s, "lines %llu-%llu (bytes %llu-%llu, "
		    "statements %llu-%llu) do not match their checkpoint line: "
		    "%s; none of these statements was passed on",
		    (unsigned long long)s->mark.seg_line,
		    (unsigned long long)line_at(s, off) - 1,
		    (unsigned long long)s->mark.seg_start, (unsigned long long)off,
		    (unsigned long long)first, (unsigned long long)s->nstmt,
		    what);
	if (s->mark.seg_cb != NULL && s->mark.seg_cb(s->mark.seg_arg, SPLIT_SEG_OK) == -1)
		return sfail(s, "%s", "");
	/* the line is in the whole text's hash, not in the next segment */
	hash_to(s, end);
	XXH3_64bits_reset(s->mark.seg_xx);
	s->mark.seg_start = end;
	s->mark.seg_line = line_at(s, end);
	s->mark.seg_nstmt = s->nstmt;
	return 0;
}

/*
 * A text that starts as rows2sql's without its segments line: that line
 * (or the first one's end) is damaged, and so would be the check.
 */
static int
no_segments_line(struct split *s)
{
	return sdamaged(s, "line 2: the input starts as rows2sql output "
	    "(its first line) but line 2 is not its rowpipe segments line: "
	    "it is damaged, and the text cannot be checked");
}

int
segment_bound(struct split *s, uint64_t off)
{
	if (s->mark.seg_max == 0 && s->mark.r2s_hdr && !s->mark.r2s_old)
		return no_segments_line(s);
	if (s->mark.seg_max == 0) {
		s->mark.seg_on = 0;		/* not a checked text */
		return 0;
	}
	if (off - s->mark.seg_start < s->mark.seg_max)
		return 0;
	return sdamaged(s, "line %llu: statement %llu starts %llu bytes "
	    "after the last checkpoint (byte %llu), where a checkpoint line "
	    "was due after %llu: it is missing or damaged",
	    (unsigned long long)line_at(s, off),
	    (unsigned long long)s->nstmt + 1,
	    (unsigned long long)(off - s->mark.seg_start),
	    (unsigned long long)s->mark.seg_start, (unsigned long long)s->mark.seg_max);
}

/* Record a rows2sql trailer or mysqldump marker line starting at pos. */
int
marker_line(struct split *s, size_t pos)
{
	const char	*b = s->buf + pos, *nl;
	size_t		 n = s->len - pos, ll;
	uint64_t	 off = s->base + pos;

	if (n < 26 && !s->eof)
		return 2;
	if (s->mark.seg_max > 0 && !s->started && n >= SQLTRAILER_CHECKPOINT_LEN &&
	    memcmp(b, SQLTRAILER_CHECKPOINT, SQLTRAILER_CHECKPOINT_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl == NULL)
			return sfail(s, "truncated: the input ends inside the "
			    "checkpoint line at line %llu",
			    (unsigned long long)line_at(s, off));
		ll = (size_t)(nl - b);
		return checkpoint_line(s, b, ll, off, off + ll + 1);
	}
	/*
	 * On line 2 (after rows2sql's first line, even if that is damaged,
	 * even into a statement: segment 1 then fails its check).
	 */
	/*
	 * rows2sql before its segments line (2026-12-01) wrote its header
	 * keys from line 2 on: such a text is checked by its trailer alone.
	 */
	if (s->mark.r2s_hdr && s->mark.seg_max == 0 && s->nstmt == 0 &&
	    off == SQLTRAILER_HEADER_LEN && n >= 13 &&
	    memcmp(b, "-- producer: ", 13) == 0)
		s->mark.r2s_old = 1;	/* line 1 whole: not lines 1-2 joined */
	if (s->mark.seg_max == 0 && s->nstmt == 0 &&
	    line_at(s, off) == 2 && n >= SQLTRAILER_SEGMENTS_LEN &&
	    memcmp(b, SQLTRAILER_SEGMENTS, SQLTRAILER_SEGMENTS_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl == NULL)
			return sfail(s, "truncated: the input ends inside its "
			    "segments line");
		return segments_line(s, b, (size_t)(nl - b));
	}
	if (n >= SQLTRAILER_PREFIX_LEN &&
	    memcmp(b, SQLTRAILER_PREFIX, SQLTRAILER_PREFIX_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		ll = nl ? (size_t)(nl - b) : n;
		s->mark.tr_off = off;
		s->mark.tr_end = off + ll + (nl != NULL);
		s->mark.tr_stmts = s->nstmt;
		hash_to(s, off);
		s->mark.tr_hash = XXH3_64bits_digest(s->xx);
		s->mark.tr_seen = nl == NULL ? -2 : (!s->started &&
		    sqltrailer_parse(b, ll, &s->mark.tr) == 0) ? 1 : -1;
		return 0;
	}
	/* (its newline is not needed: a damaged one is still rows2sql's) */
	if (!s->started && n >= SQLTRAILER_ABORT_LEN &&
	    memcmp(b, SQLTRAILER_ABORT, SQLTRAILER_ABORT_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		ll = nl ? (size_t)(nl - b) : n;
		return abort_line(s, b, ll, off);
	}
	if (s->mark.r2s_hdr && !s->started && near_marker(b, n)) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl != NULL)
			s->mark.near_end = off + (uint64_t)(nl - b) + 1;
	}
	if (off < 4096 && !s->started && n >= SQLTRAILER_PART_LEN &&
	    memcmp(b, SQLTRAILER_PART, SQLTRAILER_PART_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		ll = nl ? (size_t)(nl - b) : n;
		swarn(s, "warning: line %llu: %.*s",
		    (unsigned long long)line_at(s, off), (int)(ll - 3), b + 3);
		return 0;
	}
	if (off == 0 && n >= SQLTRAILER_HEADER_LEN - 1 &&
	    memcmp(b, SQLTRAILER_HEADER, SQLTRAILER_HEADER_LEN - 1) == 0)
		s->mark.r2s_hdr = 1;
	else if (off < 1024 && ((n >= 14 && memcmp(b, "-- MySQL dump ", 14) == 0) ||
	    (n >= 16 && memcmp(b, "-- MariaDB dump ", 16) == 0)))
		s->mark.dump_hdr = 1;
	else if (n >= 17 && memcmp(b, "-- Dump completed", 17) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl != NULL)
			s->mark.dump_done_end = off + (uint64_t)(nl - b) + 1;
	}
	return 0;
}

int
check_trailer(struct split *s)
{
	uint64_t	 end = s->base + s->len;

	if (s->mark.tr_seen != 0 && s->mark.tr_end == end) {
		/* (a text of no statement: segment_bound() never ran) */
		if (s->mark.seg_max == 0 && s->mark.r2s_hdr &&
		    !s->mark.r2s_old)
			return no_segments_line(s);
		/* a checked text's trailer line is whole or damaged */
		if (s->mark.tr_seen == -1 && s->mark.seg_max > 0)
			return sdamaged(s, "line %llu: malformed rowpipe "
			    "trailer line, or one inside a statement",
			    (unsigned long long)line_at(s, s->mark.tr_off));
		if (s->mark.tr_seen < 0)
			return sfail(s, "line %llu: malformed or cut rowpipe "
			    "trailer line", (unsigned long long)line_at(s,
			    s->mark.tr_off));
		/* From here on a mismatch is damage: the trailer is there. */
		s->mark.damaged = 1;
		/* One more byte per line: a CR added to every LF. */
		if (s->mark.tr.bytes < s->mark.tr_off && s->mark.tr_off - s->mark.tr.bytes ==
		    line_at(s, s->mark.tr_off) - 1)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu: the line endings were "
			    "converted to CRLF (convert them back, e.g. with "
			    "dos2unix)", (unsigned long long)s->mark.tr_off,
			    (unsigned long long)s->mark.tr.bytes);
		if (s->mark.tr.bytes != s->mark.tr_off)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu (input damaged or "
			    "truncated)", (unsigned long long)s->mark.tr_off,
			    (unsigned long long)s->mark.tr.bytes);
		if (s->mark.tr.statements != s->mark.tr_stmts)
			return sfail(s, "trailer mismatch: %llu statements, "
			    "it says %llu", (unsigned long long)s->mark.tr_stmts,
			    (unsigned long long)s->mark.tr.statements);
		/*
		 * rows2sql ends every segment with its checkpoint line, the
		 * last right before the trailer line: text between them is
		 * a segment whose checkpoint line is missing or damaged.
		 */
		if (s->mark.seg_max > 0 && s->mark.seg_start != s->mark.tr_off)
			return sdamaged(s, "lines %llu-%llu (bytes %llu-%llu, "
			    "statements %llu-%llu) have no checkpoint line "
			    "before the trailer line: it is missing or "
			    "damaged; none of these statements was passed on",
			    (unsigned long long)s->mark.seg_line,
			    (unsigned long long)line_at(s, s->mark.tr_off) - 1,
			    (unsigned long long)s->mark.seg_start,
			    (unsigned long long)s->mark.tr_off,
			    (unsigned long long)s->mark.seg_nstmt + 1,
			    (unsigned long long)s->mark.tr_stmts);
		if (s->mark.seg_max == 0 && s->mark.tr.xxh3 != s->mark.tr_hash)
			return sfail(s, "trailer mismatch: xxh3 %016llx, it "
			    "says %016llx (input damaged)",
			    (unsigned long long)s->mark.tr_hash,
			    (unsigned long long)s->mark.tr.xxh3);
		s->mark.damaged = 0;
		s->mark.tr_ok = 1;
		return 0;
	}
	if (marker_damaged(s))
		return sdamaged(s, "line %llu: damaged rowpipe trailer or "
		    "abort line at the end of the input",
		    (unsigned long long)line_at(s, s->base + s->len - 1));
	if (s->opts.require_trailer || s->mark.r2s_hdr)
		return sfail(s, "truncated: no rowpipe trailer line at the end "
		    "of the input (%llu bytes)%s", (unsigned long long)end,
		    s->mark.r2s_hdr ? ", which starts as rows2sql output" : "");
	if (s->mark.dump_hdr && s->mark.dump_done_end != end)
		return sfail(s, "truncated: mysqldump output does not end "
		    "with its '-- Dump completed' line (%llu bytes)",
		    (unsigned long long)end);
	return 0;
}
