/*
 * split: the splitter's interface (split.h) and its input window: the
 * buffer that holds the statement in progress and the next read, and
 * the end-of-input checks (the line count and the hash: where.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "state.h"

struct split *
split_new(const struct split_opts *opts, split_cb cb, void *arg)
{
	struct split	*s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if (opts != NULL)
		s->opts = *opts;
	s->cb = cb;
	s->arg = arg;
	if ((s->xx = XXH3_createState()) == NULL ||
	    (s->mark.seg_xx = XXH3_createState()) == NULL) {
		XXH3_freeState(s->xx);
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	XXH3_64bits_reset(s->xx);
	/* until the first statement shows whether the text is checked */
	XXH3_64bits_reset(s->mark.seg_xx);
	s->mark.seg_on = 1;
	strlcpy(s->delim, ";", sizeof(s->delim));
	s->dlen = 1;
	s->mode0 = (s->opts.no_backslash_escapes ? MODE_NBE : 0) |
	    (s->opts.ansi_quotes ? MODE_ANSIQ : 0);
	s->mode = s->mode0;
	s->line_no = 1;
	s->line_start = 1;
	build_tables(s);
	return s;
}

void
split_free(struct split *s)
{
	if (s == NULL)
		return;
	XXH3_freeState(s->xx);
	XXH3_freeState(s->mark.seg_xx);
	free(s->buf);
	free(s->cuts);
	buf_release(&s->db);
	buf_release(&s->schema);
	buf_release(&s->table);
	buf_release(&s->syn);
	free(s);
}

void
split_set_warn(struct split *s, split_warn_cb cb, void *arg)
{
	s->warn = cb;
	s->warn_arg = arg;
}

void
split_set_segments(struct split *s, split_seg_cb cb, void *arg)
{
	s->mark.seg_cb = cb;
	s->mark.seg_arg = arg;
}

int
split_damaged(const struct split *s)
{
	return s->mark.damaged;
}

int
split_damaged_late(const struct split *s)
{
	/* (one that starts as rows2sql's fails at its first statement) */
	return s->mark.late || (s->mark.seg_max == 0 && !s->mark.r2s_hdr);
}

int
split_abort_reason(const struct split *s)
{
	if (s->mark.damaged)
		return split_damaged_late(s) ? FRAME_ABORT_DAMAGED_LATE :
		    FRAME_ABORT_DAMAGED;
	return s->mark.reason;
}

const char *
split_abort_msg(const struct split *s)
{
	return s->mark.reason_msg[0] != '\0' && !s->mark.damaged ?
	    s->mark.reason_msg : NULL;
}

const char *
split_errstr(const struct split *s)
{
	return s->err;
}

uint64_t
split_count(const struct split *s)
{
	return s->nstmt;
}

uint64_t
split_offset(const struct split *s)
{
	return s->base + s->pos;
}

int
split_trailer_ok(const struct split *s)
{
	return s->mark.tr_ok;
}

/*
 * Drop the input before the statement in progress (hashing and counting
 * its lines first) and make room for at least want more bytes.
 */
static int
make_room(struct split *s, size_t want)
{
	size_t	 keep = s->started ? s->stmt_start : s->pos, ncap;
	char	*p;

	/* keep one byte before pos: is pos at the start of a line? */
	if (keep > 0)
		keep--;
	if (keep > 0) {
		hash_to(s, s->base + keep);
		line_at(s, s->base + keep);
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->base += keep;
		s->len -= keep;
		s->pos -= keep;
		if (s->started)
			s->stmt_start -= keep;
	}
	if (s->cap - s->len >= want)
		return 0;
	ncap = s->cap + s->cap / 2;
	if (ncap < s->len + want)
		ncap = s->len + want;
	if ((p = realloc(s->buf, ncap + 1)) == NULL)
		return sfail(s, "out of memory for a statement of %zu bytes",
		    s->len);
	s->buf = p;
	s->cap = ncap;
	return 0;
}

/* Keep the input's first bytes as they arrive, before scan() moves on. */
static void
keep_head(struct split *s)
{
	while (s->headlen < sizeof(s->head) && s->headlen >= s->base &&
	    s->headlen < s->base + s->len) {
		s->head[s->headlen] = (unsigned char)s->buf[s->headlen -
		    s->base];
		s->headlen++;
	}
}

int
split_feed(struct split *s, const void *data, size_t n)
{
	const char	*p = data;
	size_t		 k;

	while (n > 0 && !s->stopped) {
		if (make_room(s, n < SPLIT_CHUNK / 2 ? n : SPLIT_CHUNK / 2) == -1)
			return -1;
		k = s->cap - s->len < n ? s->cap - s->len : n;
		memcpy(s->buf + s->len, p, k);
		s->len += k;
		p += k;
		n -= k;
		keep_head(s);
		if (scan(s) == -1)
			return -1;
	}
	return s->failed ? -1 : 0;
}

int
split_fd(struct split *s, int fd)
{
	ssize_t	 r;

	while (!s->stopped) {
		if (make_room(s, SPLIT_CHUNK) == -1)
			return -1;
		/*
		 * A chunk at a time even into a larger window: what a grown
		 * window has not yet needed is never touched (no RSS).
		 */
		r = read(fd, s->buf + s->len, s->cap - s->len < SPLIT_CHUNK ?
		    s->cap - s->len : SPLIT_CHUNK);
		if (r == -1) {
			if (errno == EINTR)
				continue;
			return sfail(s, "read: %s", strerror(errno));
		}
		if (r == 0)
			break;
		s->len += (size_t)r;
		keep_head(s);
		if (scan(s) == -1)
			return -1;
	}
	if (s->failed)
		return -1;
	return split_finish(s);
}

/*
 * An unterminated string at the end, read with backslash escapes: if its
 * statement has a backslash before a quote, the text may be whole and
 * meant for NO_BACKSLASH_ESCAPES ('C:\' ends there, not here).  The line
 * the statement starts on, or 0.
 */
static unsigned long long
bs_quote_line(struct split *s)
{
	const char	*p, *e;

	if ((s->mode & MODE_NBE) || (s->q != '\'' && s->q != '"'))
		return 0;
	p = s->buf + s->stmt_start;
	e = s->buf + s->len;
	while (p < e && (p = memchr(p, '\\', (size_t)(e - p))) != NULL &&
	    p + 1 < e) {
		if (p[1] == '\'' || p[1] == '"')
			return line_at(s, s->base + (uint64_t)s->stmt_start);
		p += 2;
	}
	return 0;
}

int
split_finish(struct split *s)
{
	unsigned long long stmt_line;
	uint64_t	 off;
	size_t		 end;

	if (s->failed)
		return -1;
	s->eof = 1;
	if (!s->stopped && scan(s) == -1)
		return -1;
	if (s->stopped) {
		if (s->failed)
			return -1;
		/* quit/exit: the rest is not read, nothing to check */
		return 0;
	}
	hash_to(s, s->base + s->len);
	if ((s->q || s->mlc) && trailer_ends_text(s) && s->mark.seg_max != 0) {
		/*
		 * The segment after the last checkpoint line that matched
		 * holds the changed byte: what is still open at the end may
		 * begin segments later (the checkpoint lines between were
		 * read as its text).
		 */
		off = s->q ? s->q_start : s->mlc_start;
		return sdamaged(s, "a byte of the segment that starts at "
		    "line %llu, byte %llu (%s), was changed: it left a %s "
		    "open to the end of a text that ends with its trailer line "
		    "(the one still open starts at line %llu, offset %llu); "
		    "none of the statements from %llu on was passed on",
		    (unsigned long long)s->mark.seg_line,
		    (unsigned long long)s->mark.seg_start,
		    s->mark.seg_start == 0 ? "the first" : "after the last "
		    "checkpoint line that matched", s->q == '`' ?
		    "quoted identifier" : s->q ? "string" : "comment",
		    (unsigned long long)line_at(s, off),
		    (unsigned long long)off,
		    (unsigned long long)s->mark.seg_nstmt + 1);
	}
	if ((s->q || s->mlc) && trailer_ends_text(s)) {
		off = s->q ? s->q_start : s->mlc_start;
		return sdamaged(s, "unterminated %s starting at line %llu, "
		    "offset %llu, in a text that ends with its trailer line: "
		    "a byte of it was changed", s->q == '`' ? "quoted "
		    "identifier" : s->q ? "string" : "comment",
		    (unsigned long long)line_at(s, off),
		    (unsigned long long)off);
	}
	if (s->q) {
		off = s->q_start;
		if ((stmt_line = bs_quote_line(s)) != 0)
			return sfail(s, "truncated: unterminated string "
			    "starting at line %llu, offset %llu (or, if the "
			    "text is whole, a backslash before a quote in the "
			    "statement from line %llu, as a script for "
			    "sql_mode NO_BACKSLASH_ESCAPES has: split it with "
			    "--no-backslash-escapes)", (unsigned long long)
			    line_at(s, off), (unsigned long long)off,
			    (unsigned long long)stmt_line);
		return sfail(s, "truncated: unterminated %s starting at line "
		    "%llu, offset %llu", s->q == '`' ? "quoted identifier" :
		    "string", (unsigned long long)line_at(s, off),
		    (unsigned long long)off);
	}
	if (s->mlc) {
		off = s->mlc_start;
		return sfail(s, "truncated: unterminated comment starting at "
		    "line %llu, offset %llu", (unsigned long long)(s->started ?
		    line_at(s, off) : s->mlc_line), (unsigned long long)off);
	}
	if (check_trailer(s) == -1)
		return -1;
	if (s->started) {
		end = s->len;
		while (end > s->stmt_start &&
		    sqltok_is_space((unsigned char)s->buf[end - 1]))
			end--;
		if (emit_stmt(s, s->stmt_start, end, END_EOF) == -1)
			return -1;
	}
	s->pos = s->len;
	return 0;
}
