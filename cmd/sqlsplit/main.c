/*
 * sqlsplit: cut SQL text into statements as the mysql client does and
 * write them as rowpipe-stream(5) statement frames, or as text with --print.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "buf.h"
#include "frame.h"
#include "progress.h"
#include "quote.h"
#include "opt.h"
#include "util.h"
#include "split.h"
#include "sqltok.h"

#include "version.h"
#define SQLSPLIT_VERSION	ROWPIPE_VERSION

struct opts {
	struct split_opts split;
	int		 print;
	int		 list;
	int		 nul;
	int		 force;
	int		 progress;	/* 1 --progress, 0 --no-progress, -1 tty */
	const char	*grep_table;
	int		 kind;		/* -1: all */
};

struct out {
	const struct opts *o;
	struct frame_writer *fw;
	FILE		*fp;
	const char	*name;		/* current input, for messages */
	uint64_t	 base_no;	/* statements in the inputs before */
	struct progress	*prog;
	uint64_t	 done;		/* input bytes counted into prog */
	uint64_t	 base_off;	/* bytes of the inputs before */
	uint64_t	 total;		/* sizes of the regular files */
	int		 held;		/* frames held: a checked segment */
	int		 grep_hit;	/* --grep-table matched a statement */
	struct buf	 line;		/* --list's */
	struct buf	 head, tail;	/* a large statement's frame around it */
};

/*
 * A large statement's frame written from the input window where it lies
 * (frame_writev), not copied into the writer's buffer first: memory stays
 * one statement.  (A held frame, of a checked segment, is copied.)
 */
static int
stmt_direct(struct out *out, const struct rp_stmt *rs)
{
	struct iovec	 v[3];

	buf_reset(&out->head);
	buf_reset(&out->tail);
	enc_stmt_split(&out->head, &out->tail, rs);
	if (out->head.err || out->tail.err)
		errx(1, "out of memory");
	v[0].iov_base = out->head.p;
	v[0].iov_len = out->head.len;
	v[1].iov_base = (void *)rs->text;
	v[1].iov_len = rs->len;
	v[2].iov_base = out->tail.p;
	v[2].iov_len = out->tail.len;
	return frame_writev(out->fw, FT_STMT, 0, v, 3);
}

static void
on_warn(void *arg, const char *msg)
{
	struct out	*out = arg;

	if (out->prog != NULL)
		progress_clear(out->prog);
	warnx("%s: %s", out->name, msg);
}

/* --grep-table: "table", or "db.table" (schema as written, else USE's) */
static int
table_matches(const char *want, const struct split_stmt *st)
{
	const char	*dot, *db;
	size_t		 n;

	if ((dot = strchr(want, '.')) == NULL)
		return strcmp(st->table, want) == 0;
	db = *st->schema != '\0' ? st->schema : st->db;
	n = (size_t)(dot - want);
	return strlen(db) == n && strncmp(db, want, n) == 0 &&
	    strcmp(st->table, dot + 1) == 0;
}

/*
 * The statements that set up the session for those after them: SET
 * (sql_mode, time_zone, TIMESTAMP, NAMES, the @OLD_ variables, ROLE; not
 * kind set-server, which changes more: lib/sqlset.h), USE,
 * transaction control (mysqldump --no-autocommit's COMMIT) and UNLOCK.
 */
static int
session_stmt(int kind)
{
	return kind == STK_SET || kind == STK_USE || kind == STK_TRANSACTION ||
	    kind == STK_UNLOCK;
}

/*
 * --kind, --grep-table: the statements asked for, and every session
 * statement, so that those run as they would in the whole input (rows of
 * a TIMESTAMP column under the dump's SET TIME_ZONE, text under its SET
 * NAMES).  --kind of a session kind asks for that kind only.
 */
static int
selected(const struct opts *o, const struct split_stmt *st)
{
	if (o->kind == -1 && o->grep_table == NULL)
		return 1;
	if (session_stmt(st->kind) && (o->kind == -1 || !session_stmt(o->kind)))
		return 1;
	if (o->kind != -1 && st->kind != o->kind)
		return 0;
	if (o->grep_table != NULL && !table_matches(o->grep_table, st))
		return 0;
	return 1;
}

/* --list: one line a statement, names escaped (quote_tsv()). */
static int
list_line(struct out *out, const struct split_stmt *st)
{
	struct buf	*b = &out->line;

	buf_reset(b);
	buf_addf(b, "%llu\t%llu\t%llu\t%s\t",
	    (unsigned long long)(out->base_no + st->no),
	    (unsigned long long)st->line, (unsigned long long)st->offset,
	    rp_stmt_kind_name(st->kind));
	quote_tsv(b, st->db, strlen(st->db));
	buf_addc(b, '\t');
	quote_tsv(b, st->schema, strlen(st->schema));
	buf_addc(b, '\t');
	quote_tsv(b, st->table, strlen(st->table));
	buf_addf(b, "\t%zu\n", st->len);
	if (b->err) {
		errno = b->err;
		return -1;
	}
	if (fwrite(b->p, 1, b->len, out->fp) != b->len)
		return -1;
	return 0;
}

/*
 * --print: could the mysql client reading text, one statement, cut it
 * anywhere but at the delimiter written after it?  The client cuts at a
 * ';' outside strings and comments, or inside an executable comment
 * (add_line() in client/mysql.cc), which compound bodies (BEGIN ... END)
 * hold.  mode is the sql_mode's (the client follows the server's); a
 * "--" comment that the client does not take for one (not followed by a
 * blank: the server's rule is wider) counts too.
 */
static int
cut_inside(const char *text, size_t len, int mode)
{
	struct sqltok_lexer l;
	struct sqltok	 t;

	if (memchr(text, ';', len) == NULL)
		return 0;
	sqltok_init(&l, text, len, mode | SQLTOK_COMMENTS);
	sqltok_set_version(&l, ULONG_MAX);
	sqltok_set_delim(&l, ";", 1);
	while (sqltok_next(&l, &t) != SQLTOK_END) {
		if (t.kind == SQLTOK_DELIM)
			return 1;
		if (t.kind == SQLTOK_COMMENT && t.len > 2 && t.p[0] == '-' &&
		    !sqltok_is_space((unsigned char)t.p[2]) &&
		    memchr(t.p, ';', t.len) != NULL)
			return 1;
	}
	return 0;
}

/*
 * --print: does text end inside a "#" or "--" comment, which would take
 * in the delimiter written after it?  Only its last line can hold one.
 */
static int
ends_in_comment(const char *text, size_t len, int mode)
{
	struct sqltok_lexer l;
	struct sqltok	 t, last;
	const char	*nl, *line = text;
	size_t		 n;

	if ((nl = memrchr(text, '\n', len)) != NULL)
		line = nl + 1;
	n = len - (size_t)(line - text);
	if (memchr(line, '#', n) == NULL && memmem(line, n, "--", 2) == NULL)
		return 0;
	sqltok_init(&l, text, len, mode | SQLTOK_COMMENTS);
	sqltok_set_version(&l, ULONG_MAX);
	last.kind = SQLTOK_END;
	last.flags = 0;
	while (sqltok_next(&l, &t) != SQLTOK_END)
		last = t;
	return last.kind == SQLTOK_COMMENT && (last.flags & SQLTOK_F_LINE);
}

/*
 * A delimiter for text that cut_inside(): one that neither occurs in it
 * nor ends it with its first byte (mysqldump's ";;" first).  NULL if
 * none of those tried will do.
 */
static const char *
print_delim(const char *text, size_t len)
{
	static const char *const cands[] = { ";;", "$$", "//", "@@", "%%",
	    ";;;;", "$$$$", "////", ";;;;;;;;;;;;;;;", NULL };
	size_t		 i, dl;

	for (i = 0; cands[i] != NULL; i++) {
		dl = strlen(cands[i]);
		if (memmem(text, len, cands[i], dl) == NULL &&
		    (len == 0 || text[len - 1] != cands[i][0]))
			return cands[i];
	}
	return NULL;
}

/*
 * --print: the statement as the mysql client reads it back: followed by
 * ";" and a newline, or, when the client would cut it inside (a
 * compound body), between DELIMITER lines, as mysqldump writes it.
 */
static int
print_stmt(struct out *out, const struct split_stmt *st)
{
	const char	*d = ";";
	int		 wrap;

	if (out->o->nul) {
		if (fwrite(st->text, 1, st->len, out->fp) != st->len)
			return -1;
		putc('\0', out->fp);
		return ferror(out->fp) ? -1 : 0;
	}
	if ((wrap = cut_inside(st->text, st->len, st->mode))) {
		if ((d = print_delim(st->text, st->len)) == NULL)
			errx(1, "%s: line %llu, offset %llu: the statement holds "
			    "every delimiter --print tries", out->name,
			    (unsigned long long)st->line,
			    (unsigned long long)st->offset);
		fprintf(out->fp, "DELIMITER %s\n", d);
	}
	if (fwrite(st->text, 1, st->len, out->fp) != st->len)
		return -1;
	if (ends_in_comment(st->text, st->len, st->mode))
		putc('\n', out->fp);
	fprintf(out->fp, "%s\n", d);
	if (wrap)
		fputs("DELIMITER ;\n", out->fp);
	return ferror(out->fp) ? -1 : 0;
}

static int
on_stmt(void *arg, const struct split_stmt *st)
{
	struct out	*out = arg;
	struct rp_stmt	 rs;
	struct buf	*b;
	uint64_t	 cur;

	if (out->prog != NULL) {
		/* (a sourced file's offsets are its own: never go back) */
		cur = out->base_off + st->offset + st->len;
		progress_add(out->prog, 1, 0, cur > out->done ?
		    cur - out->done : 0);
		if (cur > out->done)
			out->done = cur;
	}
	if (!selected(out->o, st))
		return 0;
	if (out->o->grep_table != NULL && table_matches(out->o->grep_table, st))
		out->grep_hit = 1;
	if (out->o->list)
		return list_line(out, st);
	if (out->o->print)
		return print_stmt(out, st);
	rs.no = out->base_no + st->no;
	rs.line = st->line;
	rs.offset = st->offset;
	rs.kind = st->kind;
	rs.db = st->db;
	rs.schema = st->schema;
	rs.table = st->table;
	rs.text = st->text;
	rs.len = st->len;
	rs.mode = st->mode;
	rs.said = 1;
	if (st->len >= FRAME_DIRECT_AT && !out->held)
		return stmt_direct(out, &rs);
	if ((b = frame_begin(out->fw)) == NULL)
		return -1;
	enc_stmt(b, &rs);
	return frame_end(out->fw, FT_STMT, 0);
}

/*
 * A checked text (rows2sql's segments, lib/sqltrailer.h): its statement
 * frames are held until the segment's checkpoint line matched, so that
 * no statement of a damaged segment ever reaches sqlexec.
 */
static int
on_segment(void *arg, int event)
{
	struct out	*out = arg;

	if (out->fw == NULL)
		return 0;	/* --print, --list: written as they come */
	if (event == SPLIT_SEG_OK && frame_writer_release(out->fw) == -1)
		return -1;
	frame_writer_hold(out->fw);
	out->held = 1;
	return 0;
}

/*
 * The input failed.  Damage goes downstream as an abort frame (rowpipe
 * stream(5) ABORT, reason damaged) after the statements known good (or
 * damaged-late after all of an unchecked text's), and so do a character
 * set it cannot cut (cannot split) and the reason of rows2sql's abort
 * line; anything else (a cut) ends the stream without a trailer, the
 * statements of an unchecked segment dropped.  Exits.
 */
static __dead void
split_failed(struct out *out, struct split *s, const char *name)
{
	char	 msg[700];

	if (*split_errstr(s) == '\0') {
		if (out->fw != NULL)
			errx(1, "stdout: %s", frame_writer_errstr(out->fw));
		err(1, "stdout");
	}
	if (split_abort_msg(s) != NULL)		/* passed on as it is */
		snprintf(msg, sizeof(msg), "%s", split_abort_msg(s));
	else
		snprintf(msg, sizeof(msg), "%s: %s: %s", getprogname(), name,
		    split_errstr(s));
	if (out->fw != NULL && split_abort_reason(s) != 0) {
		/* an unchecked text's statements are all out by then */
		if (frame_writer_abort(out->fw, split_abort_reason(s),
		    msg) == -1)
			warnx("stdout: %s", frame_writer_errstr(out->fw));
	} else if (out->fw != NULL && out->held)
		frame_writer_discard(out->fw);
	errx(1, "%s: %s", name, split_errstr(s));
}

/* Split one input.  Exits on failure. */
static void
split_one(struct out *out, int fd, const char *name)
{
	struct split	*s;
	struct stat	 sb;

	out->name = name;
	if (out->prog != NULL && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		out->total += (uint64_t)sb.st_size;
		progress_total(out->prog, 0, 0, out->total);
	}
	if ((s = split_new(&out->o->split, on_stmt, out)) == NULL)
		err(1, "split_new");
	split_set_warn(s, on_warn, out);
	split_set_segments(s, on_segment, out);
	if (split_fd(s, fd) == -1)
		split_failed(out, s, name);
	/* its trailer line matched: the last segment is good too */
	if (out->held && frame_writer_release(out->fw) == -1)
		errx(1, "stdout: %s", frame_writer_errstr(out->fw));
	out->held = 0;
	out->base_no += split_count(s);
	out->base_off += split_offset(s);
	split_free(s);
}

/*
 * --grep-table that matched no statement: a mistyped name, not an empty
 * selection.  The stream ends with an ABORT frame (the producer failed:
 * what came before is good, but this is no complete output).  Exits.
 */
static __dead void
no_match(struct out *out)
{
	char	 msg[300];

	snprintf(msg, sizeof(msg), "--grep-table %s matched no statement",
	    out->o->grep_table);
	if (out->fw != NULL) {
		char	 am[400];

		snprintf(am, sizeof(am), "%s: %s", getprogname(), msg);
		if (frame_writer_abort(out->fw, FRAME_ABORT_FAILED, am) == -1)
			warnx("stdout: %s", frame_writer_errstr(out->fw));
	} else if (stdout_finish() == -1)
		err(1, "stdout");
	errx(1, "%s", msg);
}

static void
write_header(struct frame_writer *fw)
{
	static const char *const keys[] = { "producer" };
	static const char *const vals[] = { "sqlsplit " SQLSPLIT_VERSION };
	struct buf	*b;

	if ((b = frame_begin(fw)) == NULL)
		errx(1, "stdout: %s", frame_writer_errstr(fw));
	enc_kv(b, keys, vals, 1);
	/*
	 * Out at once: if the input then turns out to be cut, the reader
	 * downstream sees a stream that started and was truncated, not an
	 * empty input.
	 */
	if (frame_end(fw, FT_HEADER, 0) == -1 || frame_writer_flush(fw) == -1)
		errx(1, "stdout: %s", frame_writer_errstr(fw));
}

static int
set_kind(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[256];
	struct opts	*o = base;

	if ((o->kind = rp_stmt_kind_parse(arg)) == -1) {
		snprintf(msg, sizeof(msg), "--kind %s: unknown statement kind",
		    arg);
		*errstr = msg;
		return -1;
	}
	return 0;
}

#define F(m)	OPT_FIELD(struct opts, m)
static const struct opt options[] = {
	OPT_FLAG('0', "null", F(nul), 1, "with --print, end statements with NUL"),
	OPT_FLAG(0, "ansi-quotes", F(split.ansi_quotes), 1,
	    "start as if sql_mode had ANSI_QUOTES"),
	OPT_FLAG(0, "binary-mode", F(split.binary_mode), 1,
	    "as mysql --binary-mode: keep CR, allow NUL"),
	OPT_FLAG('f', "force", F(force), 1, "write frames even to a terminal"),
	OPT_STR(0, "grep-table", "[DB.]TABLE", F(grep_table),
	    "only the statements on this table"),
	OPT_FUNC(0, "kind", "KIND", set_kind, 0,
	    "only the statements of this kind"),
	OPT_FLAG('l', "list", F(list), 1, "list the statements, one a line"),
	OPT_FLAG(0, "mydumper", F(split.mydumper), 1,
	    "cut mydumper's files as myloader does: at lines ending with ;"),
	OPT_FLAG(0, "no-backslash-escapes", F(split.no_backslash_escapes), 1,
	    "start as if sql_mode had NO_BACKSLASH_ESCAPES"),
	OPT_FLAG('p', "print", F(print), 1, "write SQL text, not frames"),
	OPT_FLAG(0, "progress", F(progress), 1,
	    "progress on stderr (default: if it is a terminal)"),
	OPT_FLAG(0, "no-progress", F(progress), 0, "no progress"),
	OPT_FLAG(0, "require-trailer", F(split.require_trailer), 1,
	    "a rows2sql dump without its trailer is an error"),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct opts o = { .kind = -1, .progress = -1 };
	static const struct opt_prog prog = {
		.name = "sqlsplit",
		.usage = "usage: sqlsplit [-0flpV] [--ansi-quotes] "
		    "[--binary-mode]\n\t[--grep-table [db.]table] "
		    "[--kind kind] [--mydumper] [--no-backslash-escapes]\n"
		    "\t[--[no-]progress] "
		    "[--require-trailer] [file ...]\n",
		.about = "Cut SQL text into statements, as the mysql client "
		    "does, as rowpipe-stream(5) frames.",
		.version = "sqlsplit " SQLSPLIT_VERSION,
		.sets = { { options, &o, NULL } },
	};
	struct out	 out;
	int		 fd, i;

	memset(&out, 0, sizeof(out));
	i = opt_parse(&prog, argc, argv);
	argc -= i;
	argv += i;
	if (o.nul && !o.print)
		errx(2, "-0 needs --print");
	if (o.list)
		o.print = 1;
	if (!o.print && !o.force)
		refuse_terminal(STDOUT_FILENO, "write a frame stream there",
		    "use --print, or -f to force");

	out.o = &o;
	out.fp = stdout;
	/* by default on a terminal, but not over --print text there */
	if (o.progress == -1 && ((o.print && isatty(STDOUT_FILENO)) ||
	    !isatty(STDERR_FILENO)))
		o.progress = 0;
	if (o.progress != 0 &&
	    (out.prog = progress_new("sqlsplit", "statements", o.progress)) == NULL)
		err(1, "progress_new");
	if (!o.print) {
		if ((out.fw = frame_writer_new(STDOUT_FILENO)) == NULL)
			err(1, "frame_writer_new");
		write_header(out.fw);
	}
	if (argc == 0)
		split_one(&out, STDIN_FILENO, "stdin");
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			split_one(&out, STDIN_FILENO, "stdin");
			continue;
		}
		if ((fd = open(argv[i], O_RDONLY)) == -1)
			err(1, "%s", argv[i]);
		split_one(&out, fd, argv[i]);
		close(fd);
	}
	if (o.grep_table != NULL && !out.grep_hit)
		no_match(&out);
	if (out.fw != NULL) {
		if (frame_writer_close(out.fw) == -1)
			errx(1, "stdout: %s", frame_writer_errstr(out.fw));
		frame_writer_free(out.fw);
	} else if (stdout_finish() == -1)
		err(1, "stdout");
	if (out.prog != NULL) {
		progress_done(out.prog);
		progress_free(out.prog);
	}
	buf_release(&out.line);
	buf_release(&out.head);
	buf_release(&out.tail);
	return 0;
}
