/*
 * split: cut SQL text into statements where the mysql(1) client cuts it;
 * see split.h.
 *
 * The lexer is a byte-at-a-time transcription of add_line() and
 * read_and_execute() in MariaDB's client/mysql.cc (10.11), with fast paths:
 * in every state a 256-entry table names the bytes that can change the
 * state, and the scanner jumps over all others.  Differences from the
 * client are deliberate and listed in sqlsplit(1): comments inside a
 * statement are kept (the client strips them unless --comments), and
 * client commands other than DELIMITER, USE, go, clear, quit and the
 * display-only ones are refused instead of run.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>
#if defined(__SSE2__) && !defined(SPLIT_NO_SIMD)
#include <emmintrin.h>
#endif

#include "buf.h"
#include "frame.h"
#include "sqltrailer.h"
#include "split.h"

#define DELIM_MAX	15			/* mysql.cc: char delimiter[16] */
#define CMDLINE_MAX	255			/* mysql.cc: com_delimiter buff[256] */
#define UVAR_MAX	32			/* user variables holding a sql_mode */

#define MODE_NBE	0x01	/* NO_BACKSLASH_ESCAPES */
#define MODE_ANSIQ	0x02	/* ANSI_QUOTES */

/*
 * The bytes that can change the lexer's state in one state: a table for
 * the scalar loop and the same bytes for the SSE2 one.
 */
struct stopset {
#if defined(__SSE2__) && !defined(SPLIT_NO_SIMD)
	__m128i		 v[11];		/* c[] broadcast, padded with c[0] */
#endif
	unsigned char	 t[256];
	int		 n;
	unsigned char	 c[12];
};

struct cut {
	uint64_t	 start, end;	/* input offsets of bytes to drop */
};

struct uvar {
	char		 name[65];
	int		 mode;
};

struct split {
	struct split_opts opts;
	split_cb	 cb;
	void		*arg;
	split_warn_cb	 warn;
	void		*warn_arg;

	char		*buf;		/* input window */
	size_t		 cap, len;	/* allocated, valid */
	size_t		 pos;		/* scan position (index in buf) */
	uint64_t	 base;		/* input offset of buf[0] */
	unsigned char	 head[8];	/* the input's first bytes, to name it */
	size_t		 headlen;
	int		 eof;
	size_t		 bom;		/* 3 if the input starts with one */
	int		 stopped;	/* quit/exit seen, or an error */
	int		 sandbox;	/* \- seen: no source */
	int		 depth;		/* of source commands */
	int		 failed;

	/* lexer state: add_line()'s in_string, ml_comment, ss_comment */
	int		 q;		/* quote char of the open string, or 0 */
	int		 mlc;		/* inside a plain comment */
	int		 ssc;		/* inside a version comment, this line */
	int		 lc;		/* inside a # or -- comment */
	int		 started;	/* the statement has a significant byte */
	int		 line_start;	/* pos is at the start of a line */
	size_t		 stmt_start;	/* index of its first byte */
	uint64_t	 q_start;	/* offset of the open quote */
	uint64_t	 mlc_start, mlc_line;
	char		 delim[DELIM_MAX + 1];
	size_t		 dlen;
	int		 mode;		/* MODE_* now in effect */
	int		 mode0;		/* the initial one (DEFAULT) */
	struct uvar	 uvars[UVAR_MAX];
	size_t		 nuvars;

	/* tables: nonzero for bytes that may change the state */
	struct stopset	 t_norm, t_norm_ssc, t_mlc, t_lc;
	struct stopset	 t_sq, t_sq_raw, t_dq, t_dq_raw, t_bq;

	struct cut	*cuts;
	size_t		 ncuts, cutcap;

	/* lines are counted lazily up to line_off */
	uint64_t	 line_off, line_no;
	/* XXH3 of the input up to hash_off */
	XXH3_state_t	*xx;
	uint64_t	 hash_off;

	/* the last rows2sql trailer line seen */
	int		 tr_seen;	/* 1 parsed, -1 malformed */
	struct sqltrailer tr;
	uint64_t	 tr_off, tr_end, tr_hash, tr_stmts;
	int		 tr_ok;
	/* rows2sql's first line seen: its trailer line is then required */
	int		 r2s_hdr;
	/* mysqldump/mariadb-dump: header seen, end of "-- Dump completed" */
	int		 dump_hdr;
	uint64_t	 dump_done_end;

	uint64_t	 nstmt;
	struct buf	 db, schema, table, syn;
	char		 err[512];
};

static const struct {
	const char	*name;
	char		 c;		/* the \c short form */
	int		 params;
} commands[] = {
	{ "?", '?', 1 }, { "clear", 'c', 0 }, { "connect", 'r', 1 },
	{ "delimiter", 'd', 1 }, { "edit", 'e', 0 }, { "ego", 'G', 0 },
	{ "exit", 'q', 0 }, { "go", 'g', 0 }, { "help", 'h', 1 },
	{ "nopager", 'n', 0 }, { "notee", 't', 0 }, { "pager", 'P', 1 },
	{ "print", 'p', 0 }, { "prompt", 'R', 1 }, { "quit", 'q', 0 },
	{ "rehash", '#', 0 }, { "source", '.', 1 }, { "status", 's', 0 },
	{ "system", '!', 1 }, { "tee", 'T', 1 }, { "use", 'u', 1 },
	{ "charset", 'C', 1 }, { "warnings", 'W', 0 },
	{ "nowarning", 'w', 0 }, { "sandbox", '-', 0 },
	{ NULL, 0, 0 }
};

/* how a statement ended */
enum { END_DELIM, END_EOF, END_GO };

static int	 emit(struct split *, size_t, size_t, int);
static void	 build_tables(struct split *);

static int
sfail(struct split *s, const char *fmt, ...)
{
	va_list	 ap;

	if (!s->failed) {
		va_start(ap, fmt);
		vsnprintf(s->err, sizeof(s->err), fmt, ap);
		va_end(ap);
		s->failed = 1;
	}
	s->stopped = 1;
	return -1;
}

static void
swarn(struct split *s, const char *fmt, ...)
{
	char	 msg[512];
	va_list	 ap;

	if (s->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->warn(s->warn_arg, msg);
}

/* my_isspace() of the client's latin1/utf8 ctype. */
static inline int
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Newlines in p[0..n). */
static uint64_t
count_nl(const char *p, size_t n)
{
	uint64_t	 c = 0;
	size_t		 i = 0;
#if defined(__SSE2__) && !defined(SPLIT_NO_SIMD)
	__m128i		 nl = _mm_set1_epi8('\n'), acc, zero = _mm_setzero_si128();
	size_t		 k;

	while (i + 16 <= n) {
		/* each lane counts down by one per newline, 255 blocks max */
		acc = zero;
		for (k = 0; k < 255 && i + 16 <= n; k++, i += 16)
			acc = _mm_add_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(
			    (const __m128i *)(p + i)), nl));
		acc = _mm_sad_epu8(_mm_sub_epi8(zero, acc), zero);
		c += (uint64_t)_mm_cvtsi128_si32(acc) +
		    (uint64_t)_mm_extract_epi16(acc, 4);
	}
#endif
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* Line number of input offset off (>= line_off, still in the buffer). */
static uint64_t
line_at(struct split *s, uint64_t off)
{
	if (off <= s->line_off)
		return s->line_no;
	s->line_no += count_nl(s->buf + (s->line_off - s->base),
	    (size_t)(off - s->line_off));
	s->line_off = off;
	return s->line_no;
}

static void
hash_to(struct split *s, uint64_t off)
{
	if (off <= s->hash_off)
		return;
	XXH3_64bits_update(s->xx, s->buf + (s->hash_off - s->base),
	    (size_t)(off - s->hash_off));
	s->hash_off = off;
}

static void
stopset(struct stopset *ss, const char *chars, size_t n, int nul)
{
	size_t	 i;

	memset(ss, 0, sizeof(*ss));
	for (i = 0; i < n; i++) {
		if (ss->t[(unsigned char)chars[i]])
			continue;
		ss->t[(unsigned char)chars[i]] = 1;
		ss->c[ss->n++] = (unsigned char)chars[i];
	}
	if (nul && !ss->t[0]) {
		ss->t[0] = 1;
		ss->c[ss->n++] = 0;
	}
#if defined(__SSE2__) && !defined(SPLIT_NO_SIMD)
	for (i = 0; i < 11; i++)
		ss->v[i] = _mm_set1_epi8((char)ss->c[(int)i < ss->n ? i : 0]);
#endif
}

static void
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
	stopset(&s->t_norm, norm, 8, nul);
	stopset(&s->t_norm_ssc, norm, 10, nul);
	stopset(&s->t_mlc, "*/\n", 3, nul);
	stopset(&s->t_lc, "\n", 1, nul);
	stopset(&s->t_sq, "'\\", 2, nul);
	stopset(&s->t_sq_raw, "'", 1, nul);
	stopset(&s->t_dq, "\"\\", 2, nul);
	stopset(&s->t_dq_raw, "\"", 1, nul);
	stopset(&s->t_bq, "`", 1, nul);
}

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
	if ((s->xx = XXH3_createState()) == NULL) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	XXH3_64bits_reset(s->xx);
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
	return s->tr_ok;
}

static int
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

/*
 * get_arg() of mysql.cc on p[0..n): the argument after the command word
 * (short: after the two bytes \x), unquoted.  0 if there is none.
 */
static int
get_arg(const char *p, size_t n, int short_cmd, char *out, size_t outsz,
    size_t *outlen)
{
	const char	*e, *start;
	size_t		 o = 0;
	int		 qt = 0;

	/* the client works on C strings */
	if ((e = memchr(p, '\0', n)) == NULL)
		e = p + n;

	while (p < e && is_space((unsigned char)*p))
		p++;
	if (short_cmd)
		p = (e - p >= 2) ? p + 2 : e;
	else
		while (p < e && !is_space((unsigned char)*p))
			p++;
	if (p >= e)
		return 0;
	while (p < e && is_space((unsigned char)*p))
		p++;
	if (p < e && (*p == '\'' || *p == '"' || *p == '`'))
		qt = *p++;
	for (start = p; p < e; p++) {
		if (short_cmd ? (*p == '\\' && p + 1 < e) :
		    (*p == '\\' && p + 1 < e && qt != '`') ||
		    (qt && *p == qt && p + 1 < e && p[1] == qt)) {
			p++;
		} else if (*p == (qt ? qt : ' '))
			break;
		if (o + 1 < outsz)
			out[o++] = *p;
	}
	out[o] = '\0';
	*outlen = o;
	return p != start;
}

/* com_delimiter(): line[0..n) holds the command and its argument. */
static void
set_delimiter(struct split *s, const char *line, size_t n, int short_cmd,
    uint64_t off)
{
	char	 arg[CMDLINE_MAX + 1];
	size_t	 alen;

	if (n > CMDLINE_MAX)
		n = CMDLINE_MAX;
	if (!get_arg(line, n, short_cmd, arg, sizeof(arg), &alen) ||
	    alen == 0) {
		swarn(s, "line %llu: DELIMITER must be followed by a "
		    "'delimiter' character or string",
		    (unsigned long long)line_at(s, off));
		return;
	}
	if (memchr(arg, '\\', alen) != NULL) {
		swarn(s, "line %llu: DELIMITER cannot contain a backslash "
		    "character", (unsigned long long)line_at(s, off));
		return;
	}
	if (alen > DELIM_MAX)
		alen = DELIM_MAX;
	memcpy(s->delim, arg, alen);
	s->delim[alen] = '\0';
	s->dlen = alen;
	build_tables(s);
}

static int
cmd_find(const char *w, size_t n)
{
	int	 i;

	for (i = 0; commands[i].name != NULL; i++)
		if (strlen(commands[i].name) == n &&
		    strncasecmp(commands[i].name, w, n) == 0)
			return i;
	return -1;
}

static int
is_delimiter_cmd(const char *p, size_t n)
{
	return n >= 9 && strncasecmp(p, "delimiter", 9) == 0;
}

/*
 * find_command(name) of mysql.cc on text p[0..n) (a line without its
 * newline, or a statement): the command index, or -1.
 */
static int
find_command(struct split *s, const char *p, size_t n)
{
	const char	*e = p + n, *w;
	size_t		 wl;
	int		 i = -1, args;
	char		 tmp[8];
	size_t		 tl;

	while (p < e && is_space((unsigned char)*p))
		p++;
	n = (size_t)(e - p);
	for (w = p; w < e && *w != ' ' && *w != '\t' && w - p < 16; w++)
		;
	wl = (size_t)(w - p);
	/* cheap test first: the checks below scan the whole text */
	if (s->opts.binary_mode ? !is_delimiter_cmd(p, wl) :
	    (i = cmd_find(p, wl)) == -1)
		return -1;
	if ((!s->opts.binary_mode && memmem(p, n, "\\g", 2) != NULL) ||
	    (memmem(p, n, s->delim, s->dlen) != NULL &&
	    !is_delimiter_cmd(p, n)))
		return -1;
	while (w < e && is_space((unsigned char)*w))
		w++;
	args = w < e;
	if (s->opts.binary_mode)
		return cmd_find("delimiter", 9);
	if (args && (!commands[i].params ||
	    !get_arg(p, n, 0, tmp, sizeof(tmp), &tl)))
		return -1;
	return i;
}

/* Hand out s->syn, a statement a client command stands for. */
static int
emit_syn(struct split *s, int kind, const char *schema, uint64_t off)
{
	struct split_stmt st;

	memset(&st, 0, sizeof(st));
	st.text = s->syn.p;
	st.len = s->syn.len;
	st.no = ++s->nstmt;
	st.line = line_at(s, off);
	st.offset = off;
	st.kind = kind;
	st.db = s->db.p != NULL ? s->db.p : "";
	st.schema = schema;
	st.table = "";
	if (s->cb != NULL && s->cb(s->arg, &st) == -1)
		return sfail(s, "%s", "");
	return 0;
}

/* Emit a USE statement for "\u db": USE `db`. */
static int
emit_use(struct split *s, const char *line, size_t n, uint64_t off)
{
	char		 arg[CMDLINE_MAX + 1];
	size_t		 alen, i;

	if (n > CMDLINE_MAX)
		n = CMDLINE_MAX;
	if (!get_arg(line, n, 1, arg, sizeof(arg), &alen) || alen == 0) {
		swarn(s, "line %llu: USE must be followed by a database name",
		    (unsigned long long)line_at(s, off));
		return 0;
	}
	buf_reset(&s->syn);
	buf_adds(&s->syn, "USE `");
	for (i = 0; i < alen; i++) {
		if (arg[i] == '`')
			buf_addc(&s->syn, '`');
		buf_addc(&s->syn, arg[i]);
	}
	buf_addc(&s->syn, '`');
	buf_reset(&s->db);
	buf_add(&s->db, arg, alen);
	if (s->syn.err || s->db.err)
		return sfail(s, "out of memory");
	return emit_syn(s, STK_USE, s->db.p, off);
}

/*
 * com_source(): split another file in the middle of this input, sharing
 * the delimiter, sql_mode, USE database and statement numbers.  Paths are
 * relative to the working directory, as for the client.
 */
static int
source_file(struct split *s, const char *text, size_t n, int short_cmd,
    uint64_t off)
{
	struct split_opts o = s->opts;
	struct split	*c;
	char		 path[CMDLINE_MAX + 1];
	size_t		 plen;
	int		 fd, r;

	if (s->sandbox)
		return sfail(s, "line %llu: 'source' is not allowed in sandbox "
		    "mode", (unsigned long long)line_at(s, off));
	if (s->depth >= 16)
		return sfail(s, "line %llu: 'source' nested too deeply",
		    (unsigned long long)line_at(s, off));
	if (!get_arg(text, n, short_cmd, path, sizeof(path), &plen) ||
	    plen == 0)
		return sfail(s, "line %llu: 'source' without a file name",
		    (unsigned long long)line_at(s, off));
	while (plen > 0 && (is_space((unsigned char)path[plen - 1]) ||
	    iscntrl((unsigned char)path[plen - 1])))
		path[--plen] = '\0';
	if ((fd = open(path, O_RDONLY)) == -1)
		return sfail(s, "line %llu: source %s: %s",
		    (unsigned long long)line_at(s, off), path, strerror(errno));
	o.require_trailer = 0;
	if ((c = split_new(&o, s->cb, s->arg)) == NULL) {
		close(fd);
		return sfail(s, "out of memory");
	}
	split_set_warn(c, s->warn, s->warn_arg);
	memcpy(c->delim, s->delim, sizeof(c->delim));
	c->dlen = s->dlen;
	c->mode = s->mode;
	c->mode0 = s->mode0;
	memcpy(c->uvars, s->uvars, sizeof(c->uvars));
	c->nuvars = s->nuvars;
	c->nstmt = s->nstmt;
	c->depth = s->depth + 1;
	if (s->db.len > 0)
		buf_add(&c->db, s->db.p, s->db.len);
	build_tables(c);
	r = split_fd(c, fd);
	close(fd);
	if (r == -1 && *c->err != '\0')
		sfail(s, "source %s: %s", path, c->err);
	else if (r == -1)
		sfail(s, "%s", "");
	memcpy(s->delim, c->delim, sizeof(s->delim));
	s->dlen = c->dlen;
	s->mode = c->mode;
	memcpy(s->uvars, c->uvars, sizeof(s->uvars));
	s->nuvars = c->nuvars;
	s->nstmt = c->nstmt;
	buf_reset(&s->db);
	if (c->db.len > 0)
		buf_add(&s->db, c->db.p, c->db.len);
	split_free(c);
	build_tables(s);
	if (s->db.err)
		return sfail(s, "out of memory");
	return r;
}

/*
 * charset NAME, \C NAME (mysqlbinlog writes it as a versioned comment):
 * the client calls mysql_set_character_set(), which sends SET NAMES NAME.
 * The same statement is handed out.  Character sets in which a multi-byte
 * character may end in 0x5C (a backslash) would change how the client
 * reads what follows; they stay an error.
 */
static int
emit_charset(struct split *s, const char *line, size_t n, int short_cmd,
    uint64_t off)
{
	static const char *const unsafe[] = { "sjis", "cp932", "gbk", "big5",
	    "gb18030", NULL };
	char		 arg[CMDLINE_MAX + 1];
	size_t		 alen, i;

	if (n > CMDLINE_MAX)
		n = CMDLINE_MAX;
	if (!get_arg(line, n, short_cmd, arg, sizeof(arg), &alen) ||
	    alen == 0 || strspn(arg, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != alen)
		return sfail(s, "line %llu, offset %llu: mysql client command "
		    "'charset' needs a character set name",
		    (unsigned long long)line_at(s, off),
		    (unsigned long long)off);
	for (i = 0; unsafe[i] != NULL; i++)
		if (strcasecmp(arg, unsafe[i]) == 0)
			return sfail(s, "line %llu, offset %llu: mysql client "
			    "command 'charset %s' is not supported (a "
			    "multi-byte character may end in a backslash)",
			    (unsigned long long)line_at(s, off),
			    (unsigned long long)off, arg);
	buf_reset(&s->syn);
	buf_adds(&s->syn, "SET NAMES ");
	buf_add(&s->syn, arg, alen);
	if (s->syn.err)
		return sfail(s, "out of memory");
	return emit_syn(s, STK_SET, "", off);
}

/*
 * A client command found at the start of a line (read_and_execute()), at
 * the end of a statement (add_line()), or as \x.  Returns 0 (done), 1
 * (quit), -1 (error).
 */
static int
run_command(struct split *s, int i, const char *text, size_t n, int short_cmd,
    uint64_t off)
{
	const char	*name = commands[i].name;

	switch (commands[i].c) {
	case 'd':
		set_delimiter(s, text, n, short_cmd, off);
		return 0;
	case 'q':
		return 1;
	case 'u':
		return emit_use(s, text, n, off);
	case '.':
		return source_file(s, text, n, short_cmd, off);
	case '-':
		s->sandbox = 1;
		return 0;
	case 'C':
		return emit_charset(s, text, n, short_cmd, off);
	case '!': case 'r': case 'e':
		return sfail(s, "line %llu, offset %llu: mysql client command "
		    "'%s' is not supported", (unsigned long long)line_at(s, off),
		    (unsigned long long)off, name);
	default:
		/* display-only: help, status, tee, pager, print, ... */
		return 0;
	}
}

/*
 * At the start of a line outside any statement: is it a client command
 * (read_and_execute() calls find_command(line) before add_line())?
 * Returns 0 (no, scan it), 1 (handled, *np is past the line), 2 (need
 * more input), -1 (error).
 */
static int
line_command(struct split *s, size_t pos, size_t *np)
{
	const char	*b = s->buf, *nl;
	size_t		 p = pos, w, lend, next;
	int		 i, r;

	while (p < s->len && b[p] != '\n' && is_space((unsigned char)b[p]))
		p++;
	for (w = p; w < s->len && w - p < 10 && b[w] != ' ' && b[w] != '\t' &&
	    b[w] != '\n' && b[w] != '\r'; w++)
		;
	if (w >= s->len && !s->eof)
		return 2;
	if (s->opts.binary_mode ? !is_delimiter_cmd(b + p, w - p) :
	    cmd_find(b + p, w - p) == -1 && !(w - p >= 9 &&
	    is_delimiter_cmd(b + p, w - p)))
		return 0;
	if ((nl = memchr(b + pos, '\n', s->len - pos)) == NULL) {
		if (!s->eof)
			return 2;
		lend = next = s->len;
	} else {
		lend = (size_t)(nl - b);
		next = lend + 1;
	}
	if (!s->opts.binary_mode) {
		if (lend > pos && b[lend - 1] == '\r' && next > lend)
			lend--;
		if (memchr(b + pos, '\0', lend - pos) != NULL)
			return 0;	/* the scanner reports it */
	}
	if ((i = find_command(s, b + pos, lend - pos)) == -1)
		return 0;
	if (commands[i].c == 'u') {
		/* "use db" on a line of its own: a USE statement */
		s->started = 1;
		s->stmt_start = p;
		while (lend > p && is_space((unsigned char)b[lend - 1]))
			lend--;
		r = emit(s, p, lend, END_GO);
		*np = next;
		return r == -1 ? -1 : 1;
	}
	r = run_command(s, i, b + pos, lend - pos, 0, s->base + pos);
	if (r == -1)
		return -1;
	if (r == 1)
		s->stopped = 1;
	*np = next;
	return 1;
}

/* Record a rows2sql trailer or mysqldump marker line starting at pos. */
static int
marker_line(struct split *s, size_t pos)
{
	const char	*b = s->buf + pos, *nl;
	size_t		 n = s->len - pos, ll;
	uint64_t	 off = s->base + pos;

	if (n < 24 && !s->eof)
		return 2;
	if (n >= SQLTRAILER_PREFIX_LEN &&
	    memcmp(b, SQLTRAILER_PREFIX, SQLTRAILER_PREFIX_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		ll = nl ? (size_t)(nl - b) : n;
		s->tr_off = off;
		s->tr_end = off + ll + (nl != NULL);
		s->tr_stmts = s->nstmt;
		hash_to(s, off);
		s->tr_hash = XXH3_64bits_digest(s->xx);
		s->tr_seen = (nl != NULL && !s->started &&
		    sqltrailer_parse(b, ll, &s->tr) == 0) ? 1 : -1;
		return 0;
	}
	if (off == 0 && n >= SQLTRAILER_HEADER_LEN &&
	    memcmp(b, SQLTRAILER_HEADER, SQLTRAILER_HEADER_LEN) == 0)
		s->r2s_hdr = 1;
	else if (off < 1024 && ((n >= 14 && memcmp(b, "-- MySQL dump ", 14) == 0) ||
	    (n >= 16 && memcmp(b, "-- MariaDB dump ", 16) == 0)))
		s->dump_hdr = 1;
	else if (n >= 17 && memcmp(b, "-- Dump completed", 17) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl != NULL)
			s->dump_done_end = off + (uint64_t)(nl - b) + 1;
	}
	return 0;
}

static inline void
output(struct split *s, size_t pos)
{
	if (!s->started) {
		s->started = 1;
		s->stmt_start = pos;
	}
}

/* The first byte at or after pos that is in the stop set, or len. */
static inline __attribute__((always_inline)) size_t
skip_plain(const struct stopset *ss, const unsigned char *b, size_t pos,
    size_t len)
{
#if defined(__SSE2__) && !defined(SPLIT_NO_SIMD)
	const __m128i	*c = ss->v;
	__m128i		 v, m;
	unsigned	 mask;
	size_t		 e = len - pos > 4 ? pos + 4 : len;

	/* runs are often short: try a few bytes first */
	for (; pos < e; pos++)
		if (ss->t[b[pos]])
			return pos;
	if (ss->n <= 3) {
		for (; pos + 16 <= len; pos += 16) {
			v = _mm_loadu_si128((const __m128i *)(b + pos));
			m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[0]),
			    _mm_cmpeq_epi8(v, c[1])), _mm_cmpeq_epi8(v, c[2]));
			if ((mask = (unsigned)_mm_movemask_epi8(m)) != 0)
				return pos + (size_t)__builtin_ctz(mask);
		}
	} else {
		for (; pos + 16 <= len; pos += 16) {
			v = _mm_loadu_si128((const __m128i *)(b + pos));
			m = _mm_or_si128(
			    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[0]),
			    _mm_cmpeq_epi8(v, c[1])), _mm_or_si128(
			    _mm_cmpeq_epi8(v, c[2]), _mm_cmpeq_epi8(v, c[3]))),
			    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c[4]),
			    _mm_cmpeq_epi8(v, c[5])), _mm_or_si128(
			    _mm_cmpeq_epi8(v, c[6]), _mm_cmpeq_epi8(v, c[7]))));
			m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(
			    _mm_cmpeq_epi8(v, c[8]), _mm_cmpeq_epi8(v, c[9])),
			    _mm_cmpeq_epi8(v, c[10])));
			if ((mask = (unsigned)_mm_movemask_epi8(m)) != 0)
				return pos + (size_t)__builtin_ctz(mask);
		}
	}
#endif
	while (pos < len && !ss->t[b[pos]])
		pos++;
	return pos;
}

/* Is the string quoted with q subject to backslash escapes? */
static inline int
escapes(const struct split *s, int q)
{
	if (q == '`' || (s->mode & MODE_NBE))
		return 0;
	return !(q == '"' && (s->mode & MODE_ANSIQ));
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

/*
 * A backslash outside strings and comments: a client command \x
 * (add_line()).  Returns 0 with *np set, 2 (need more), -1.
 */
static int
short_command(struct split *s, size_t pos, size_t *np)
{
	const char	*b = s->buf, *nl;
	size_t		 lend, p, next, nl_at;
	uint64_t	 off = s->base + pos;
	int		 c, i, r;

	c = (unsigned char)b[pos + 1];
	if (c == 'N' || (s->opts.binary_mode && c != 'C')) {
		if (c != 'N')
			swarn(s, "line %llu: Unknown command '\\%c'.",
			    (unsigned long long)line_at(s, off), c);
		output(s, pos);
		*np = pos + 2;
		return 0;
	}
	for (i = 0; commands[i].name != NULL; i++)
		if (commands[i].c == c)
			break;
	if (commands[i].name == NULL) {
		swarn(s, "line %llu: Unknown command '\\%c'.",
		    (unsigned long long)line_at(s, off), c);
		output(s, pos);
		*np = pos + 2;
		return 0;
	}
	switch (c) {
	case 'g': case 'G':
		*np = pos + 2;
		if (s->started)
			return emit(s, s->stmt_start, pos, END_GO) == -1 ?
			    -1 : 0;
		return 0;
	case 'c':
		s->started = 0;
		s->ncuts = 0;
		*np = pos + 2;
		return 0;
	case 'q':
		if (s->started && emit(s, s->stmt_start, pos, END_EOF) == -1)
			return -1;
		s->stopped = 1;
		*np = pos + 2;
		return 0;
	}
	if (!commands[i].params) {
		if (c == '-')
			s->sandbox = 1;
		if (add_cut(s, off, off + 2) == -1)
			return -1;
		*np = pos + 2;
		return 0;
	}
	/* the command reads the rest of the line: it must be here */
	if ((nl = memchr(b + pos, '\n', s->len - pos)) == NULL) {
		if (!s->eof)
			return 2;
		lend = s->len;
	} else
		lend = (size_t)(nl - b);
	nl_at = lend;
	if (!s->opts.binary_mode && lend > pos && b[lend - 1] == '\r' &&
	    nl != NULL)
		lend--;
	if ((r = run_command(s, i, b + pos, lend - pos, 1, off)) == -1)
		return -1;
	/*
	 * Skip the parameters: to the end of the version comment, or past the
	 * next (new) delimiter on this line, or to the end of the line.
	 */
	if (s->ssc) {
		for (p = pos + 2; p + 1 < lend &&
		    !(b[p] == '*' && b[p + 1] == '/'); p++)
			;
		next = (p + 1 < lend) ? p : nl_at;
	} else {
		for (p = pos + 2; p < lend && !(lend - p >= s->dlen &&
		    memcmp(b + p, s->delim, s->dlen) == 0); p++)
			;
		next = p < lend ? p + s->dlen : nl_at;
	}
	if (add_cut(s, off, s->base + next) == -1)
		return -1;
	*np = next;
	return 0;
}

#define NEED(n)	do {						\
	if (pos + (n) > len && !s->eof)				\
		goto more;					\
} while (0)
#define AT(k)	(pos + (k) < len ? (int)b[pos + (k)] : -1)

/* Scan buf[pos..len).  0 (needs more input, or stopped) or -1. */
static int
scan(struct split *s)
{
	const unsigned char	*b;
	const struct stopset	*t;
	size_t			 len = s->len, pos = s->pos, np;
	int			 c, c1, c2, r;

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
			if (escapes(s, s->q))
				t = s->q == '\'' ? &s->t_sq : &s->t_dq;
			else
				t = s->q == '\'' ? &s->t_sq_raw :
				    s->q == '"' ? &s->t_dq_raw : &s->t_bq;
			pos = skip_plain(t, b, pos, len);
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
			pos = skip_plain(&s->t_lc, b, pos, len);
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
			pos = skip_plain(&s->t_mlc, b, pos, len);
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
			NEED(4);
			c1 = AT(1);
			c2 = AT(2);
			if (c == '/' && c1 == '*' && !(c2 == '!' ||
			    (c2 == 'M' && AT(3) == '!'))) {
				pos += 2;
				continue;
			}
			if (c == '*' && c1 == '/' && !s->ssc) {
				s->mlc = 0;
				pos += 2;
				continue;
			}
			if (c == '/' && c1 == '*' && c2 == '!')
				s->ssc = 1;
			else if (c == '*' && c1 == '/' && s->ssc)
				s->ssc = 0;
			pos++;
			continue;
		}
		/* outside strings and comments */
		if (s->started) {
			pos = skip_plain(s->ssc ? &s->t_norm_ssc : &s->t_norm, b,
			    pos, len);
			if (pos >= len)
				break;
		}
		c = b[pos];
		if (!s->started && is_space(c)) {
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
				    emit(s, s->stmt_start, pos, END_DELIM) == -1)
					return -1;
				pos = np;
				continue;
			}
		}
		if (c == '#' || c == '-') {
			NEED(3);
			c1 = AT(1);
			c2 = AT(2);
			if (c == '#' || (c1 == '-' && (c2 == -1 || c2 == 0 ||
			    is_space(c2) || !s->started))) {
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
		}
		if (c == '/') {
			NEED(4);
			c1 = AT(1);
			c2 = AT(2);
			if (c1 == '*' && !(c2 == '!' ||
			    (c2 == 'M' && AT(3) == '!'))) {
				s->mlc = 1;
				s->mlc_start = s->base + pos;
				if (!s->started)
					s->mlc_line = line_at(s, s->mlc_start);
				pos += 2;
				continue;
			}
			if (c1 == '*' && c2 == '!')
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
		r = read(fd, s->buf + s->len, s->cap - s->len);
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

static int
check_trailer(struct split *s)
{
	uint64_t	 end = s->base + s->len;

	if (s->tr_seen != 0 && s->tr_end == end) {
		if (s->tr_seen == -1)
			return sfail(s, "line %llu: malformed or cut rowpipe "
			    "trailer line", (unsigned long long)line_at(s,
			    s->tr_off));
		/* One more byte per line: a CR added to every LF. */
		if (s->tr.bytes < s->tr_off && s->tr_off - s->tr.bytes ==
		    line_at(s, s->tr_off) - 1)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu: the line endings were "
			    "converted to CRLF (convert them back, e.g. with "
			    "dos2unix)", (unsigned long long)s->tr_off,
			    (unsigned long long)s->tr.bytes);
		if (s->tr.bytes != s->tr_off)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu (input damaged or "
			    "truncated)", (unsigned long long)s->tr_off,
			    (unsigned long long)s->tr.bytes);
		if (s->tr.statements != s->tr_stmts)
			return sfail(s, "trailer mismatch: %llu statements, "
			    "it says %llu", (unsigned long long)s->tr_stmts,
			    (unsigned long long)s->tr.statements);
		if (s->tr.xxh3 != s->tr_hash)
			return sfail(s, "trailer mismatch: xxh3 %016llx, it "
			    "says %016llx (input damaged)",
			    (unsigned long long)s->tr_hash,
			    (unsigned long long)s->tr.xxh3);
		s->tr_ok = 1;
		return 0;
	}
	if (s->opts.require_trailer || s->r2s_hdr)
		return sfail(s, "truncated: no rowpipe trailer line at the end "
		    "of the input (%llu bytes)%s", (unsigned long long)end,
		    s->r2s_hdr ? ", which starts as rows2sql output" : "");
	if (s->dump_hdr && s->dump_done_end != end)
		return sfail(s, "truncated: mysqldump output does not end "
		    "with its '-- Dump completed' line (%llu bytes)",
		    (unsigned long long)end);
	return 0;
}

int
split_finish(struct split *s)
{
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
	if (s->q) {
		off = s->q_start;
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
		    is_space((unsigned char)s->buf[end - 1]))
			end--;
		if (emit(s, s->stmt_start, end, END_EOF) == -1)
			return -1;
	}
	s->pos = s->len;
	return 0;
}

/*
 * Classification: a tiny tokenizer over the statement text that looks
 * through comments and into executable comments.
 */
enum { TK_END, TK_WORD, TK_QID, TK_STR, TK_PUNCT };

struct tok {
	int		 type;
	const char	*p;
	size_t		 len;
};

struct lexer {
	const char	*p, *e;
	int		 depth;		/* open version comments */
};

static int
is_word(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

static void
lex(struct lexer *l, struct tok *t)
{
	const char	*p = l->p, *e = l->e, *q;
	long		 ver;

	for (;;) {
		while (p < e && is_space((unsigned char)*p))
			p++;
		if (p >= e) {
			t->type = TK_END;
			l->p = p;
			return;
		}
		if (*p == '#' || (*p == '-' && e - p >= 2 && p[1] == '-' &&
		    (e - p == 2 || is_space((unsigned char)p[2]) ||
		    iscntrl((unsigned char)p[2])))) {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		if (*p == '/' && e - p >= 2 && p[1] == '*') {
			q = p + 2;
			if (q < e && *q == 'M' && q + 1 < e && q[1] == '!')
				q++;
			if (q < e && *q == '!') {
				q++;
				ver = 0;
				while (q < e && isdigit((unsigned char)*q)) {
					if (ver < 10000000)
						ver = ver * 10 + (*q - '0');
					q++;
				}
				if (ver < 999900) {
					l->depth++;
					p = q;
					continue;
				}
			}
			q = p + 2;
			while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 2 <= e ? q + 2 : e;
			continue;
		}
		if (*p == '*' && l->depth > 0 && e - p >= 2 && p[1] == '/') {
			l->depth--;
			p += 2;
			continue;
		}
		break;
	}
	t->p = p;
	if (*p == '`' || *p == '\'' || *p == '"') {
		q = p + 1;
		while (q < e) {
			if (*q == '\\' && *p != '`' && q + 1 < e) {
				q += 2;
				continue;
			}
			if (*q == *p) {
				if (q + 1 < e && q[1] == *p) {
					q += 2;
					continue;
				}
				break;
			}
			q++;
		}
		t->type = *p == '`' ? TK_QID : TK_STR;
		t->len = (size_t)((q < e ? q + 1 : e) - p);
		l->p = p + t->len;
		return;
	}
	if (is_word((unsigned char)*p)) {
		for (q = p; q < e && is_word((unsigned char)*q); q++)
			;
		t->type = TK_WORD;
		t->len = (size_t)(q - p);
		l->p = q;
		return;
	}
	t->type = TK_PUNCT;
	t->len = 1;
	l->p = p + 1;
}

static int
kw(const struct tok *t, const char *w)
{
	return t->type == TK_WORD && strlen(w) == t->len &&
	    strncasecmp(t->p, w, t->len) == 0;
}

static int
punct(const struct tok *t, int c)
{
	return t->type == TK_PUNCT && *t->p == c;
}

/* An identifier's name, unquoted, into b.  0, or -1 if not a name. */
static int
ident(const struct tok *t, struct buf *b)
{
	size_t	 i;

	buf_reset(b);
	if (t->type == TK_WORD) {
		buf_add(b, t->p, t->len);
		return 0;
	}
	if (t->type != TK_QID || t->len < 2)
		return -1;
	for (i = 1; i + 1 < t->len; i++) {
		buf_addc(b, t->p[i]);
		if (t->p[i] == '`' && t->p[i + 1] == '`')
			i++;
	}
	return 0;
}

/* [schema.]name into s->schema and s->table. */
static void
target(struct split *s, struct lexer *l, struct tok *t)
{
	struct lexer	 save;
	struct tok	 dot, n2;

	if (ident(t, &s->table) == -1)
		return;
	save = *l;
	lex(l, &dot);
	if (punct(&dot, '.')) {
		lex(l, &n2);
		if (n2.type == TK_WORD || n2.type == TK_QID) {
			ident(t, &s->schema);
			ident(&n2, &s->table);
			return;
		}
	}
	*l = save;
}

static void
skip_if_exists(struct lexer *l, struct tok *t)
{
	struct lexer	 save = *l;

	if (!kw(t, "IF"))
		return;
	lex(l, t);
	if (kw(t, "NOT"))
		lex(l, t);
	if (kw(t, "EXISTS")) {
		lex(l, t);
		return;
	}
	*l = save;
}

/* CREATE/ALTER modifiers before the object type. */
static void
skip_modifiers(struct lexer *l, struct tok *t)
{
	for (;;) {
		if (kw(t, "OR") || kw(t, "REPLACE") || kw(t, "TEMPORARY") ||
		    kw(t, "AGGREGATE") || kw(t, "UNIQUE") ||
		    kw(t, "FULLTEXT") || kw(t, "SPATIAL") || kw(t, "ONLINE") ||
		    kw(t, "OFFLINE") || kw(t, "IGNORE")) {
			lex(l, t);
			continue;
		}
		if (kw(t, "SQL")) {		/* SQL SECURITY x */
			lex(l, t);
			if (kw(t, "SECURITY")) {
				lex(l, t);
				lex(l, t);
			}
			continue;
		}
		if (kw(t, "ALGORITHM")) {
			lex(l, t);
			if (punct(t, '='))
				lex(l, t);
			lex(l, t);
			continue;
		}
		if (kw(t, "DEFINER")) {
			lex(l, t);
			if (punct(t, '='))
				lex(l, t);
			if (kw(t, "CURRENT_USER") || kw(t, "CURRENT_ROLE")) {
				lex(l, t);
				if (punct(t, '(')) {
					lex(l, t);
					if (punct(t, ')'))
						lex(l, t);
				}
				continue;
			}
			lex(l, t);		/* user */
			if (punct(t, '@')) {
				lex(l, t);	/* host */
				lex(l, t);
			}
			continue;
		}
		/* SQL SECURITY DEFINER: DEFINER alone as a value */
		return;
	}
}

/* sql_mode flags of a mode list such as 'ANSI,NO_BACKSLASH_ESCAPES'. */
static int
mode_parse(const char *p, size_t n)
{
	static const char *const ansiq[] = { "ANSI_QUOTES", "ANSI", "ORACLE",
	    "MSSQL", "DB2", "POSTGRESQL", "MAXDB", NULL };
	const char	*e = p + n, *w;
	size_t		 wl;
	int		 m = 0, i;

	while (p < e) {
		while (p < e && (*p == ',' || *p == ' '))
			p++;
		for (w = p; p < e && *p != ','; p++)
			;
		wl = (size_t)(p - w);
		while (wl > 0 && w[wl - 1] == ' ')
			wl--;
		if (wl == 20 && strncasecmp(w, "NO_BACKSLASH_ESCAPES", 20) == 0)
			m |= MODE_NBE;
		for (i = 0; ansiq[i] != NULL; i++)
			if (strlen(ansiq[i]) == wl &&
			    strncasecmp(w, ansiq[i], wl) == 0)
				m |= MODE_ANSIQ;
	}
	return m;
}

static struct uvar *
uvar_get(struct split *s, const struct tok *t, int create)
{
	size_t	 i, n = t->len;

	if (n >= sizeof(s->uvars[0].name))
		return NULL;
	for (i = 0; i < s->nuvars; i++)
		if (strlen(s->uvars[i].name) == n &&
		    strncasecmp(s->uvars[i].name, t->p, n) == 0)
			return &s->uvars[i];
	if (!create || s->nuvars == UVAR_MAX)
		return NULL;
	memcpy(s->uvars[s->nuvars].name, t->p, n);
	s->uvars[s->nuvars].name[n] = '\0';
	return &s->uvars[s->nuvars++];
}

/*
 * The value of a sql_mode expression: a literal, @@sql_mode, @var or
 * DEFAULT; -1 if unknown.  Leaves t on the token after it.
 */
static int
mode_value(struct split *s, struct lexer *l, struct tok *t)
{
	struct uvar	*v;
	int		 m = -1;

	if (t->type == TK_STR && t->len >= 2) {
		m = mode_parse(t->p + 1, t->len - 2);
		lex(l, t);
	} else if (kw(t, "DEFAULT")) {
		m = s->mode0;
		lex(l, t);
	} else if (t->type == TK_WORD && t->len > 0 && t->len < 20 &&
	    strspn(t->p, "0123456789") >= t->len) {
		/* As mysqlbinlog writes it: ANSI_QUOTES is bit 2,
		 * NO_BACKSLASH_ESCAPES bit 20 (MariaDB's sql_mode flags). */
		unsigned long long	 v = strtoull(t->p, NULL, 10);

		m = (v & (1ULL << 20) ? MODE_NBE : 0) |
		    (v & (1ULL << 2) ? MODE_ANSIQ : 0);
		lex(l, t);
	} else if (punct(t, '@')) {
		lex(l, t);
		if (punct(t, '@')) {
			lex(l, t);
			if (kw(t, "SESSION") || kw(t, "LOCAL")) {
				lex(l, t);
				if (punct(t, '.'))
					lex(l, t);
			}
			if (kw(t, "SQL_MODE"))
				m = s->mode;
			lex(l, t);
		} else {
			if ((v = uvar_get(s, t, 0)) != NULL)
				m = v->mode;
			lex(l, t);
		}
	}
	if (!(t->type == TK_END || punct(t, ',')))
		m = -1;
	return m;
}

/*
 * SET ...: follow the session sql_mode, since the client lexes by the
 * server's NO_BACKSLASH_ESCAPES and ANSI_QUOTES status flags.
 */
static void
track_set(struct split *s, struct lexer *l)
{
	struct tok	 t, name;
	struct uvar	*v;
	int		 m, uv, global, depth;

	lex(l, &t);
	for (;;) {
		global = uv = 0;
		if (kw(&t, "GLOBAL")) {
			global = 1;
			lex(l, &t);
		} else if (kw(&t, "SESSION") || kw(&t, "LOCAL"))
			lex(l, &t);
		if (punct(&t, '@')) {
			lex(l, &t);
			if (punct(&t, '@')) {
				lex(l, &t);
				if (kw(&t, "GLOBAL"))
					global = 1;
				if (kw(&t, "GLOBAL") || kw(&t, "SESSION") ||
				    kw(&t, "LOCAL")) {
					lex(l, &t);
					if (punct(&t, '.'))
						lex(l, &t);
				}
			} else
				uv = 1;
		}
		name = t;
		lex(l, &t);
		if (punct(&t, ':'))
			lex(l, &t);
		if (!punct(&t, '='))
			return;
		lex(l, &t);
		if (uv) {
			m = mode_value(s, l, &t);
			if ((v = uvar_get(s, &name, m != -1)) != NULL) {
				if (m == -1)
					*v = s->uvars[--s->nuvars];
				else
					v->mode = m;
			}
		} else if (kw(&name, "SQL_MODE") && !global) {
			m = mode_value(s, l, &t);
			if (m == -1)
				swarn(s, "cannot follow this sql_mode change; "
				    "backslash handling may differ from the "
				    "server's");
			else
				s->mode = m;
		}
		/* skip to the next top-level comma */
		for (depth = 0; t.type != TK_END; lex(l, &t)) {
			if (punct(&t, '('))
				depth++;
			else if (punct(&t, ')'))
				depth--;
			else if (punct(&t, ',') && depth <= 0)
				break;
		}
		if (t.type == TK_END)
			return;
		lex(l, &t);
	}
}

static int
classify(struct split *s, const char *p, size_t n)
{
	struct lexer	 l = { p, p + n, 0 };
	struct tok	 t;
	int		 kind = STK_OTHER;

	buf_reset(&s->schema);
	buf_reset(&s->table);
	lex(&l, &t);
	if (kw(&t, "INSERT") || kw(&t, "REPLACE")) {
		kind = STK_INSERT;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "DELAYED") ||
		    kw(&t, "HIGH_PRIORITY") || kw(&t, "IGNORE"));
		if (kw(&t, "INTO"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "CREATE") || kw(&t, "ALTER")) {
		int create = kw(&t, "CREATE");

		kind = create ? STK_OTHER : STK_ALTER;
		lex(&l, &t);
		skip_modifiers(&l, &t);
		if (kw(&t, "TABLE") || kw(&t, "SEQUENCE")) {
			if (create && kw(&t, "TABLE"))
				kind = STK_CREATE_TABLE;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "VIEW")) {
			if (create)
				kind = STK_CREATE_VIEW;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "PROCEDURE") || kw(&t, "FUNCTION") ||
		    kw(&t, "PACKAGE")) {
			if (create)
				kind = STK_CREATE_ROUTINE;
			lex(&l, &t);
			if (kw(&t, "BODY"))
				lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "EVENT")) {
			if (create)
				kind = STK_CREATE_EVENT;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		} else if (kw(&t, "DATABASE") || kw(&t, "SCHEMA")) {
			if (create)
				kind = STK_CREATE_DATABASE;
			lex(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (kw(&t, "TRIGGER") || kw(&t, "INDEX")) {
			if (create && kw(&t, "TRIGGER"))
				kind = STK_CREATE_TRIGGER;
			while (t.type != TK_END && !kw(&t, "ON"))
				lex(&l, &t);
			lex(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "DROP")) {
		kind = STK_DROP;
		lex(&l, &t);
		if (kw(&t, "TEMPORARY"))
			lex(&l, &t);
		if (kw(&t, "DATABASE") || kw(&t, "SCHEMA")) {
			lex(&l, &t);
			skip_if_exists(&l, &t);
			ident(&t, &s->schema);
		} else if (kw(&t, "INDEX")) {
			while (t.type != TK_END && !kw(&t, "ON"))
				lex(&l, &t);
			lex(&l, &t);
			target(s, &l, &t);
		} else if (t.type == TK_WORD) {
			lex(&l, &t);
			if (kw(&t, "BODY"))
				lex(&l, &t);
			skip_if_exists(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "SET")) {
		kind = STK_SET;
		track_set(s, &l);
	} else if (kw(&t, "USE")) {
		kind = STK_USE;
		lex(&l, &t);
		if (ident(&t, &s->schema) == 0 && s->schema.len > 0) {
			buf_reset(&s->db);
			buf_add(&s->db, s->schema.p, s->schema.len);
		}
	} else if (kw(&t, "LOCK")) {
		lex(&l, &t);
		if (kw(&t, "TABLES") || kw(&t, "TABLE")) {
			kind = STK_LOCK;
			lex(&l, &t);
			target(s, &l, &t);
		}
	} else if (kw(&t, "UNLOCK")) {
		kind = STK_UNLOCK;
	} else if (kw(&t, "BEGIN")) {
		lex(&l, &t);
		if (!kw(&t, "NOT") && (t.type == TK_END || kw(&t, "WORK")))
			kind = STK_TRANSACTION;
	} else if (kw(&t, "START")) {
		lex(&l, &t);
		if (kw(&t, "TRANSACTION"))
			kind = STK_TRANSACTION;
	} else if (kw(&t, "COMMIT") || kw(&t, "ROLLBACK") ||
	    kw(&t, "SAVEPOINT") || kw(&t, "RELEASE")) {
		kind = STK_TRANSACTION;
	} else if (kw(&t, "UPDATE")) {
		kind = STK_UPDATE;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "IGNORE"));
		target(s, &l, &t);
	} else if (kw(&t, "DELETE")) {
		kind = STK_DELETE;
		do
			lex(&l, &t);
		while (kw(&t, "LOW_PRIORITY") || kw(&t, "QUICK") ||
		    kw(&t, "IGNORE"));
		if (kw(&t, "FROM"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "TRUNCATE")) {
		kind = STK_DELETE;
		lex(&l, &t);
		if (kw(&t, "TABLE"))
			lex(&l, &t);
		target(s, &l, &t);
	} else if (kw(&t, "LOAD")) {
		lex(&l, &t);
		if (kw(&t, "DATA") || kw(&t, "XML")) {
			kind = STK_LOAD;
			while (t.type != TK_END && !kw(&t, "INTO"))
				lex(&l, &t);
			lex(&l, &t);
			if (kw(&t, "TABLE"))
				lex(&l, &t);
			target(s, &l, &t);
		}
	}
	return kind;
}

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
static int
emit(struct split *s, size_t start, size_t end, int how)
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
	len = compact(s, text, len, off);
	s->ncuts = 0;
	st.text = text;
	st.len = len;
	st.no = ++s->nstmt;
	st.offset = off;
	st.kind = classify(s, text, len);
	if (s->db.err || s->schema.err || s->table.err)
		return sfail(s, "out of memory");
	st.db = s->db.p ? s->db.p : "";
	st.schema = s->schema.p ? s->schema.p : "";
	st.table = s->table.p ? s->table.p : "";
	if (s->cb != NULL && s->cb(s->arg, &st) == -1)
		return sfail(s, "%s", "");
	return 0;
}
