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
	sqltok_stops_init(&s->t_norm, norm, 8, nul);
	sqltok_stops_init(&s->t_norm_ssc, norm, 10, nul);
	sqltok_stops_init(&s->t_mlc, "*/\n", 3, nul);
	sqltok_stops_init(&s->t_lc, "\n", 1, nul);
	sqltok_stops_init(&s->t_sq, "'\\", 2, nul);
	sqltok_stops_init(&s->t_sq_raw, "'", 1, nul);
	sqltok_stops_init(&s->t_dq, "\"\\", 2, nul);
	sqltok_stops_init(&s->t_dq_raw, "\"", 1, nul);
	sqltok_stops_init(&s->t_bq, "`", 1, nul);
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

#define NEED(n)	do {						\
	if (pos + (n) > len && !s->eof)				\
		goto more;					\
} while (0)

#define AT(k)	(pos + (k) < len ? (int)b[pos + (k)] : -1)
#define AT_P(k)	((const char *)b + pos + (k))
/* sqltok_comment_at() on the window at pos */
#define COMMENT_AT(f)	sqltok_comment_at(AT_P(0), (const char *)b + len, \
	    (f) | (s->eof ? 0 : SQLTOK_AT_MORE), &body)

/* Scan buf[pos..len).  0 (needs more input, or stopped) or -1. */
int
scan(struct split *s)
{
	const unsigned char	*b;
	const struct sqltok_stops *t;
	const char		*body;
	size_t			 len = s->len, pos = s->pos, np;
	int			 c, c1, k, r;

	while (!s->stopped) {
		b = (const unsigned char *)s->buf;
		if (pos >= len)
			break;
		if (s->line_start) {
			if (!s->q && !s->mlc && !s->lc && !s->started) {
				if (s->base + pos == 0 && !s->eof && len < 3)
					goto more;
				if (s->base + pos == 0 && len >= 3 &&
				    b[0] == 0xEF && b[1] == 0xBB &&
				    b[2] == 0xBF) {
					pos = s->bom = 3;
					continue;
				}
				r = line_command(s, pos, &np);
				if (r == 2)
					goto more;
				if (r == -1)
					return -1;
				if (r == 1) {
					pos = np;
					continue;
				}
			}
			s->line_start = 0;
		}
		if (s->q) {
			if (sqltok_escapes(s->mode, s->q))
				t = s->q == '\'' ? &s->t_sq : &s->t_dq;
			else
				t = s->q == '\'' ? &s->t_sq_raw :
				    s->q == '"' ? &s->t_dq_raw : &s->t_bq;
			pos = sqltok_skip(t, b, pos, len);
			if (pos >= len)
				break;
			c = b[pos];
			if (c == '\\') {
				NEED(2);
				/* a backslash at the end of a line escapes
				 * nothing; the newline is string content */
				pos += (AT(1) == '\n' || AT(1) == -1) ? 1 : 2;
				continue;
			}
			if (c == 0 && !s->opts.binary_mode)
				return nul_error(s, pos);
			if (c == s->q) {
				s->q = 0;
				if (s->ssc && memchr(s->buf + (s->q_start -
				    s->base), '\n', pos - (size_t)(s->q_start -
				    s->base)) != NULL)
					s->ssc = 0;
			}
			pos++;
			continue;
		}
		if (s->lc) {
			pos = sqltok_skip(&s->t_lc, b, pos, len);
			if (pos >= len)
				break;
			if (b[pos] == 0 && !s->opts.binary_mode)
				return nul_error(s, pos);
			if (b[pos] == '\n')
				s->lc = 0;	/* the newline is scanned next */
			else
				pos++;
			continue;
		}
		if (s->mlc) {
			pos = sqltok_skip(&s->t_mlc, b, pos, len);
			if (pos >= len)
				break;
			c = b[pos];
			if (c == 0 && !s->opts.binary_mode)
				return nul_error(s, pos);
			if (c == '\n') {
				s->ssc = 0;
				s->line_start = 1;
				pos++;
				continue;
			}
			if (c == '/') {
				/* a comment opener inside a comment */
				k = COMMENT_AT(0);
				if (k == SQLTOK_C_MORE)
					goto more;
				if (k == SQLTOK_C_BLOCK) {
					pos += 2;
					continue;
				}
				if (k == SQLTOK_C_EXEC && body == AT_P(3))
					s->ssc = 1;
				pos++;
				continue;
			}
			NEED(2);		/* a star */
			if (AT(1) == '/' && !s->ssc) {
				s->mlc = 0;
				pos += 2;
				continue;
			}
			if (AT(1) == '/')
				s->ssc = 0;
			pos++;
			continue;
		}
		/* outside strings and comments */
		if (s->started) {
			pos = sqltok_skip(s->ssc ? &s->t_norm_ssc : &s->t_norm, b,
			    pos, len);
			if (pos >= len)
				break;
		}
		c = b[pos];
		if (!s->started && sqltok_is_space(c)) {
			if (c == '\n') {
				s->ssc = 0;
				s->line_start = 1;
			}
			pos++;
			continue;
		}
		if (c == '\\') {
			NEED(3);
			c1 = AT(1);
			if (c1 == -1 || c1 == '\n' || (c1 == '\r' &&
			    AT(2) == '\n' && !s->opts.binary_mode) ||
			    (c1 == 0 && s->opts.binary_mode)) {
				/* "readline adds one '\'": dropped */
				if (add_cut(s, s->base + pos,
				    s->base + pos + 1) == -1)
					return -1;
				pos++;
				continue;
			}
			r = short_command(s, pos, &np);
			if (r == 2)
				goto more;
			if (r == -1)
				return -1;
			pos = np;
			continue;
		}
		if (c == (unsigned char)s->delim[0]) {
			NEED(s->dlen);
			if (len - pos >= s->dlen &&
			    memcmp(b + pos, s->delim, s->dlen) == 0) {
				/* the statement may change the delimiter */
				np = pos + s->dlen;
				if (s->started &&
				    emit_stmt(s, s->stmt_start, pos, END_DELIM) == -1)
					return -1;
				pos = np;
				continue;
			}
		}
		if (c == '#' || c == '-' || c == '/') {
			k = COMMENT_AT(SQLTOK_AT_CLIENT |
			    (s->started ? 0 : SQLTOK_AT_START));
			if (k == SQLTOK_C_MORE)
				goto more;
			if (k == SQLTOK_C_LINE) {
				if (s->base + pos == s->bom ||
				    (pos > 0 && b[pos - 1] == '\n')) {
					r = marker_line(s, pos);
					if (r == 2)
						goto more;
				}
				s->lc = 1;
				pos++;
				continue;
			}
			if (k == SQLTOK_C_BLOCK) {
				s->mlc = 1;
				s->mlc_start = s->base + pos;
				if (!s->started)
					s->mlc_line = line_at(s, s->mlc_start);
				pos += 2;
				continue;
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
		} else if (c == 0 && !s->opts.binary_mode)
			return nul_error(s, pos);
		output(s, pos);
		pos++;
	}
more:
	s->pos = pos;
	return s->failed ? -1 : 0;
}
