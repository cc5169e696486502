/*
 * commands: the mysql client's own commands (DELIMITER, USE, source,
 * charset, \g, \c, quit, and the display-only ones), found where
 * read_and_execute() and add_line() in client/mysql.cc look for them and
 * run as the client runs them, or refused (system, connect, edit).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "frame.h"
#include "state.h"

const struct client_command commands[] = {
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

/*
 * get_arg() of mysql.cc on p[0..n): the argument after the command word
 * (short: after the two bytes \x), unquoted.  0 if there is none, or if
 * its quote is not closed: then the line is no command for the client
 * (find_command()), and "USE `a<newline>b`;" is one statement.
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

	while (p < e && sqltok_is_space((unsigned char)*p))
		p++;
	if (short_cmd)
		p = (e - p >= 2) ? p + 2 : e;
	else
		while (p < e && !sqltok_is_space((unsigned char)*p))
			p++;
	if (p >= e)
		return 0;
	while (p < e && sqltok_is_space((unsigned char)*p))
		p++;
	if (p < e && (*p == '\'' || *p == '"' || *p == '`'))
		qt = *p++;
	for (start = p; p < e; p++) {
		if (short_cmd ? (*p == '\\' && p + 1 < e) :
		    (*p == '\\' && p + 1 < e && qt != '`') ||
		    (qt && *p == qt && p + 1 < e && p[1] == qt)) {
			p++;
		} else if (*p == (qt ? qt : ' ')) {
			qt = 0;
			break;
		}
		if (o + 1 < outsz)
			out[o++] = *p;
	}
	out[o] = '\0';
	*outlen = o;
	return p != start && !qt;
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

int
is_delimiter_cmd(const char *p, size_t n)
{
	return n >= 9 && strncasecmp(p, "delimiter", 9) == 0;
}

/*
 * find_command(name) of mysql.cc on text p[0..n) (a line without its
 * newline, or a statement): the command index, or -1.
 */
int
find_command(struct split *s, const char *p, size_t n)
{
	const char	*e = p + n, *w;
	size_t		 wl;
	int		 i = -1, args;
	char		 tmp[8];
	size_t		 tl;

	while (p < e && sqltok_is_space((unsigned char)*p))
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
	while (w < e && sqltok_is_space((unsigned char)*w))
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
	st.mode = s->mode;
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
	while (plen > 0 && (sqltok_is_space((unsigned char)path[plen - 1]) ||
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
			return nosplit(s, arg, "line %llu, offset %llu: mysql client "
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
int
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
int
line_command(struct split *s, size_t pos, size_t *np)
{
	const char	*b = s->buf, *nl;
	size_t		 p = pos, w, lend, next;
	int		 i, r;

	while (p < s->len && b[p] != '\n' && sqltok_is_space((unsigned char)b[p]))
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
		while (lend > p && sqltok_is_space((unsigned char)b[lend - 1]))
			lend--;
		r = emit_stmt(s, p, lend, END_GO);
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

/*
 * A backslash outside strings and comments: a client command \x
 * (add_line()).  Returns 0 with *np set, 2 (need more), -1.
 */
int
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
			return emit_stmt(s, s->stmt_start, pos, END_GO) == -1 ?
			    -1 : 0;
		return 0;
	case 'c':
		s->started = 0;
		s->ncuts = 0;
		*np = pos + 2;
		return 0;
	case 'q':
		if (s->started && emit_stmt(s, s->stmt_start, pos, END_EOF) == -1)
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
