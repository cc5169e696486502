/*
 * scan: where statements end: a byte-at-a-time transcription of the
 * state machine of add_line() in MariaDB's client/mysql.cc (10.11)
 * (in_string, ml_comment, ss_comment, the delimiter, backslash
 * commands), with MariaDB's lexical rules from lib/sqltok.  Fast paths:
 * in every state a stop set (sqltok_skip()) names the bytes that can
 * change the state, and the scanner jumps over all others.
 */
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "state.h"

void
build_tables(struct split *s)
{
	char	 norm[16];
	int	 nul = !s->opts.binary_mode;

	/*
	 * Inside a statement a newline only matters to a version comment
	 * (ss_comment lasts to the end of its line).
	 */
	memcpy(norm, "'\"`\\#-/", 7);
	norm[7] = s->delim[0];
	norm[8] = '*';
	norm[9] = '\n';
	sqltok_stops_init(&s->stops.norm, norm, 8, nul);
	sqltok_stops_init(&s->stops.norm_ssc, norm, 10, nul);
	sqltok_stops_init(&s->stops.mlc, "*/\n", 3, nul);
	sqltok_stops_init(&s->stops.lc, "\n", 1, nul);
	sqltok_stops_init(&s->stops.sq, "'\\", 2, nul);
	sqltok_stops_init(&s->stops.sq_raw, "'", 1, nul);
	sqltok_stops_init(&s->stops.dq, "\"\\", 2, nul);
	sqltok_stops_init(&s->stops.dq_raw, "\"", 1, nul);
	sqltok_stops_init(&s->stops.bq, "`", 1, nul);
}

int
add_cut(struct split *s, uint64_t start, uint64_t end)
{
	struct cut	*c;
	size_t		 n;

	if (!s->started || end <= start)
		return 0;
	if (s->ncuts == s->cutcap) {
		n = s->cutcap ? s->cutcap * 2 : 16;
		if ((c = reallocarray(s->cuts, n, sizeof(*c))) == NULL)
			return sfail(s, "out of memory");
		s->cuts = c;
		s->cutcap = n;
	}
	s->cuts[s->ncuts].start = start;
	s->cuts[s->ncuts].end = end;
	s->ncuts++;
	return 0;
}

static int
nul_error(struct split *s, size_t pos)
{
	uint64_t	 off = s->base + pos;
	const char	*what;

	/* Binary from the first byte: say what it is, not where NUL is. */
	if ((what = frame_sniff_magic(s->head, s->headlen)) != NULL)
		return sfail(s, "%s: sqlsplit reads SQL text", what);
	return sfail(s, "line %llu, offset %llu: NUL byte in the input "
	    "(the mysql client refuses it without --binary-mode)",
	    (unsigned long long)line_at(s, off), (unsigned long long)off);
}

/* What one step of the scanner did. */
enum step {
	STEP_ON,	/* consumed input: go on */
	STEP_MORE,	/* needs more input (or stopped): scan no further now */
	STEP_FAIL,	/* an error, already recorded */
	STEP_SAME	/* at a line start: not a command, scan the line */
};

#define STEP	static inline __attribute__((always_inline)) enum step

/* Return STEP_MORE unless n bytes are there or the input has ended. */
#define NEED(n)	do {						\
	if (pos + (n) > len && !s->eof) {			\
		*posp = pos;					\
		return STEP_MORE;				\
	}							\
} while (0)
/* The end of a step at pos. */
#define DONE(r)	do {						\
	*posp = pos;						\
	return (r);						\
} while (0)

#define AT(k)	(pos + (k) < len ? (int)b[pos + (k)] : -1)
#define AT_P(k)	((const char *)b + pos + (k))
/* sqltok_comment_at() on the window at pos */
#define COMMENT_AT(f)	sqltok_comment_at(AT_P(0), (const char *)b + len, \
	    (f) | (s->eof ? 0 : SQLTOK_AT_MORE), &body)

/*
 * At the start of a line outside any statement: a byte order mark, or a
 * client command on a line of its own (read_and_execute()).
 */
STEP
at_line_start(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t		 pos = *posp, np;
	int		 r;

	if (!s->q && !s->mlc && !s->lc && !s->started) {
		if (s->base + pos == 0 && !s->eof && len < 3)
			DONE(STEP_MORE);
		if (s->base + pos == 0 && len >= 3 && b[0] == 0xEF &&
		    b[1] == 0xBB && b[2] == 0xBF) {
			pos = s->bom = 3;
			DONE(STEP_ON);
		}
		r = line_command(s, pos, &np);
		if (r == 2)
			DONE(STEP_MORE);
		if (r == -1)
			return STEP_FAIL;
		if (r == 1) {
			pos = np;
			DONE(STEP_ON);
		}
	}
	s->line_start = 0;
	return STEP_SAME;
}

/* Inside a string or quoted identifier (in_string). */
STEP
in_string(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	const struct sqltok_stops *t;
	size_t		 pos = *posp;
	int		 c;

	if (sqltok_escapes(s->mode, s->q))
		t = s->q == '\'' ? &s->stops.sq : &s->stops.dq;
	else
		t = s->q == '\'' ? &s->stops.sq_raw : s->q == '"' ? &s->stops.dq_raw :
		    &s->stops.bq;
	pos = sqltok_skip(t, b, pos, len);
	if (pos >= len)
		DONE(STEP_MORE);
	c = b[pos];
	if (c == '\\') {
		NEED(2);
		/* a backslash at the end of a line escapes nothing; the
		 * newline is string content */
		pos += (AT(1) == '\n' || AT(1) == -1) ? 1 : 2;
		DONE(STEP_ON);
	}
	if (c == 0 && !s->opts.binary_mode) {
		nul_error(s, pos);
		return STEP_FAIL;
	}
	if (c == s->q) {
		s->q = 0;
		if (s->ssc && memchr(s->buf + (s->q_start - s->base), '\n',
		    pos - (size_t)(s->q_start - s->base)) != NULL)
			s->ssc = 0;
	}
	pos++;
	DONE(STEP_ON);
}

/* Inside a # or -- comment: to the end of the line. */
STEP
in_line_comment(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t		 pos = *posp;

	pos = sqltok_skip(&s->stops.lc, b, pos, len);
	if (pos >= len)
		DONE(STEP_MORE);
	if (b[pos] == 0 && !s->opts.binary_mode) {
		nul_error(s, pos);
		return STEP_FAIL;
	}
	if (b[pos] == '\n')
		s->lc = 0;	/* the newline is scanned next */
	else
		pos++;
	DONE(STEP_ON);
}

/* Inside a slash-star comment (ml_comment), maybe holding ss_comment. */
STEP
in_block_comment(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	const char	*body;
	size_t		 pos = *posp;
	int		 c, k;

	pos = sqltok_skip(&s->stops.mlc, b, pos, len);
	if (pos >= len)
		DONE(STEP_MORE);
	c = b[pos];
	if (c == 0 && !s->opts.binary_mode) {
		nul_error(s, pos);
		return STEP_FAIL;
	}
	if (c == '\n') {
		s->ssc = 0;
		s->line_start = 1;
		pos++;
		DONE(STEP_ON);
	}
	if (c == '/') {
		/* a comment opener inside a comment */
		k = COMMENT_AT(0);
		if (k == SQLTOK_C_MORE)
			DONE(STEP_MORE);
		if (k == SQLTOK_C_BLOCK) {
			pos += 2;
			DONE(STEP_ON);
		}
		if (k == SQLTOK_C_EXEC && body == AT_P(3))
			s->ssc = 1;
		pos++;
		DONE(STEP_ON);
	}
	NEED(2);		/* a star */
	if (AT(1) == '/' && !s->ssc) {
		s->mlc = 0;
		pos += 2;
		DONE(STEP_ON);
	}
	if (AT(1) == '/')
		s->ssc = 0;
	pos++;
	DONE(STEP_ON);
}

/* A backslash outside strings and comments: a client command, or dropped. */
STEP
at_backslash(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	size_t		 pos = *posp, np;
	int		 c1, r;

	NEED(3);
	c1 = AT(1);
	if (c1 == -1 || c1 == '\n' || (c1 == '\r' && AT(2) == '\n' &&
	    !s->opts.binary_mode) || (c1 == 0 && s->opts.binary_mode)) {
		/* "readline adds one '\'": dropped */
		if (add_cut(s, s->base + pos, s->base + pos + 1) == -1)
			return STEP_FAIL;
		pos++;
		DONE(STEP_ON);
	}
	r = short_command(s, pos, &np);
	if (r == 2)
		DONE(STEP_MORE);
	if (r == -1)
		return STEP_FAIL;
	pos = np;
	DONE(STEP_ON);
}

/* Outside strings and comments: statement text, delimiters, openers. */
STEP
in_code(struct split *s, size_t *posp, size_t len)
{
	const unsigned char *b = (const unsigned char *)s->buf;
	const char	*body;
	size_t		 pos = *posp, np;
	int		 c, k, r;

	if (s->started) {
		pos = sqltok_skip(s->ssc ? &s->stops.norm_ssc : &s->stops.norm, b, pos,
		    len);
		if (pos >= len)
			DONE(STEP_MORE);
	}
	c = b[pos];
	if (!s->started && sqltok_is_space(c)) {
		if (c == '\n') {
			s->ssc = 0;
			s->line_start = 1;
		}
		pos++;
		DONE(STEP_ON);
	}
	if (c == '\\') {
		*posp = pos;
		return at_backslash(s, posp, len);
	}
	if (c == (unsigned char)s->delim[0]) {
		NEED(s->dlen);
		if (len - pos >= s->dlen &&
		    memcmp(b + pos, s->delim, s->dlen) == 0) {
			/* the statement may change the delimiter */
			np = pos + s->dlen;
			if (s->started && emit_stmt(s, s->stmt_start, pos,
			    END_DELIM) == -1)
				return STEP_FAIL;
			pos = np;
			DONE(STEP_ON);
		}
	}
	if (c == '#' || c == '-' || c == '/') {
		k = COMMENT_AT(SQLTOK_AT_CLIENT |
		    (s->started ? 0 : SQLTOK_AT_START));
		if (k == SQLTOK_C_MORE)
			DONE(STEP_MORE);
		if (k == SQLTOK_C_LINE) {
			if (s->base + pos == s->bom ||
			    (pos > 0 && b[pos - 1] == '\n')) {
				r = marker_line(s, pos);
				if (r == 2)
					DONE(STEP_MORE);
				if (r == -1)
					DONE(STEP_FAIL);
			}
			s->lc = 1;
			pos++;
			DONE(STEP_ON);
		}
		if (k == SQLTOK_C_BLOCK) {
			s->mlc = 1;
			s->mlc_start = s->base + pos;
			if (!s->started)
				s->mlc_line = line_at(s, s->mlc_start);
			pos += 2;
			DONE(STEP_ON);
		}
		/* the client's ss_comment: slash-star-bang only */
		if (k == SQLTOK_C_EXEC && body == AT_P(3))
			s->ssc = 1;
	} else if (c == '*' && s->ssc) {
		NEED(2);
		if (AT(1) == '/')
			s->ssc = 0;
	} else if (c == '\'' || c == '"' || c == '`') {
		s->q = c;
		s->q_start = s->base + pos;
	} else if (c == '\n') {
		s->ssc = 0;
		s->line_start = 1;
	} else if (c == 0 && !s->opts.binary_mode) {
		nul_error(s, pos);
		return STEP_FAIL;
	}
	output(s, pos);
	pos++;
	DONE(STEP_ON);
}

/* Scan buf[pos..len).  0 (needs more input, or stopped) or -1. */
/*
 * --mydumper: cut where myloader cuts (mydumper 0.10, myloader.c
 * restore_data_from_file()): after each line that ends with ";", whatever
 * strings or comments hold, and nothing is a client command.  mydumper
 * writes its files for that: the ";\n" inside a routine, trigger or event
 * body becomes "; \n", so that only a statement's last line ends with
 * ";", and newlines in values are escaped.  The ";" is the delimiter.
 */
static int
scan_lines(struct split *s)
{
	const char	*b = s->buf, *nl;
	size_t		 pos = s->pos, e, i;

	while (!s->stopped && pos < s->len) {
		if ((nl = memchr(b + pos, '\n', s->len - pos)) == NULL &&
		    !s->eof)
			break;		/* the rest of the line comes next */
		e = nl != NULL ? (size_t)(nl - b) : s->len;
		for (i = pos; !s->started && i < e; i++)
			if (!sqltok_is_space((unsigned char)b[i]))
				output(s, i);
		if (s->started && e > s->stmt_start && b[e - 1] == ';' &&
		    emit_stmt(s, s->stmt_start, e - 1, END_EOF) == -1)
			return -1;
		pos = nl != NULL ? e + 1 : e;
	}
	s->pos = pos;
	return s->failed ? -1 : 0;
}

int
scan(struct split *s)
{
	size_t		 len = s->len, pos = s->pos;
	enum step	 r;

	if (s->opts.mydumper)
		return scan_lines(s);
	while (!s->stopped && pos < len) {
		if (s->line_start &&
		    (r = at_line_start(s, &pos, len)) != STEP_SAME) {
			if (r == STEP_ON)
				continue;
			if (r == STEP_MORE)
				break;
			return -1;
		}
		if (s->q)
			r = in_string(s, &pos, len);
		else if (s->lc)
			r = in_line_comment(s, &pos, len);
		else if (s->mlc)
			r = in_block_comment(s, &pos, len);
		else
			r = in_code(s, &pos, len);
		if (r == STEP_MORE)
			break;
		if (r == STEP_FAIL)
			return -1;
	}
	s->pos = pos;
	return s->failed ? -1 : 0;
}
