/*
 * statement: a statement has ended: run the client command at its head,
 * or take out the bytes the client drops (cut commands, CR of CRLF),
 * classify it and hand it to the callback.
 */
#include <string.h>

#include "frame.h"
#include "state.h"

/*
 * Remove the cut ranges and, unless in binary mode, the CR of each CRLF
 * (the client reads lines without them) from text in place.
 */
static size_t
compact(struct split *s, char *text, size_t len, uint64_t off)
{
	size_t	 r = 0, w = 0, ci = 0, lim;

	if (s->ncuts == 0 && (s->opts.binary_mode ||
	    memchr(text, '\r', len) == NULL))
		return len;
	while (r < len) {
		while (ci < s->ncuts && s->cuts[ci].end <= off + r)
			ci++;
		if (ci < s->ncuts && s->cuts[ci].start <= off + r) {
			r = (size_t)(s->cuts[ci].end - off);
			continue;
		}
		lim = ci < s->ncuts ? (size_t)(s->cuts[ci].start - off) : len;
		if (lim > len)
			lim = len;
		for (; r < lim; r++) {
			if (text[r] == '\r' && !s->opts.binary_mode &&
			    r + 1 < len && text[r + 1] == '\n')
				continue;
			text[w++] = text[r];
		}
	}
	return w;
}

/*
 * add_line() adds no newline after a line whose text starts with
 * "delimiter" ("SELECT 1; DELIMITER //"): the next line joins it, and the
 * DELIMITER command then takes its argument from both.  Does the same to
 * text in place; returns its new length.
 */
static size_t
join_delimiter_line(struct split *s, char *text, size_t len)
{
	char	*nl;
	size_t	 k, drop = 1;

	if ((nl = memchr(text, '\n', len)) == NULL)
		return len;
	k = (size_t)(nl - text);
	if (k > 0 && text[k - 1] == '\r' && !s->opts.binary_mode) {
		k--;
		drop = 2;
	}
	if (!is_delimiter_cmd(text, k))
		return len;
	memmove(text + k, text + k + drop, len - k - drop);
	return len - drop;
}

/*
 * A statement ended: buf[start..end).  Client commands at its head are
 * run (find_command(buffer) in add_line()); anything else is handed out.
 */
int
emit_stmt(struct split *s, size_t start, size_t end, int how)
{
	struct split_stmt st;
	uint64_t	 off = s->base + start;
	char		*text = s->buf + start;
	size_t		 len = end - start;
	int		 i, r;

	s->started = 0;
	memset(&st, 0, sizeof(st));
	/* count and hash the bytes before they are changed in place */
	st.line = line_at(s, off);
	line_at(s, s->base + end);
	hash_to(s, s->base + end);
	if (how == END_DELIM && (i = find_command(s, text, len)) != -1 &&
	    commands[i].c != 'u') {
		s->ncuts = 0;
		if (commands[i].c == 'd')
			len = join_delimiter_line(s, text, len);
		r = run_command(s, i, text, len, 0, off);
		if (r == 1)
			s->stopped = 1;
		return r == -1 ? -1 : 0;
	}
	if (abort_stmt_damaged(s, text, len, off, st.line) == -1)
		return -1;
	if (segment_bound(s, off) == -1)
		return -1;
	len = compact(s, text, len, off);
	s->ncuts = 0;
	st.text = text;
	st.len = len;
	st.no = ++s->nstmt;
	st.offset = off;
	st.mode = s->mode;	/* (a SET sql_mode changes it for the next) */
	st.kind = classify(s, text, len);
	if (s->db.err || s->schema.err || s->table.err)
		return sfail(s, "out of memory");
	if (s->badcs[0] != '\0')
		return nosplit(s, s->badcs, "line %llu, offset %llu: %s: "
		    "character set %s: a multi-byte character in it may end "
		    "in a backslash byte, which moves where strings end",
		    (unsigned long long)st.line, (unsigned long long)off,
		    s->badwhat, s->badcs);
	st.db = s->db.p ? s->db.p : "";
	st.schema = s->schema.p ? s->schema.p : "";
	st.table = s->table.p ? s->table.p : "";
	if (s->cb != NULL && s->cb(s->arg, &st) == -1)
		return sfail(s, "%s", "");
	return 0;
}
