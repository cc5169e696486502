/*
 * lz: LZ4 frame format compression and decompression, both ways with the
 * lz4 command, with threads.  Options and files here; the format in lz.c.
 */
#include <sys/cdefs.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lz4.h>

#include "opt.h"
#include "progress.h"
#include "util.h"
#include "version.h"
#include "lz.h"

enum mode { COMPRESS, DECOMPRESS, TEST, LIST };

/*
 * Take the level options -1 ... -12 out of argv before getopt_long(3),
 * which would read -12 as -1 -2.  Returns the new argc.
 */
static int
take_levels(int argc, char *argv[], struct lz_opts *o)
{
	const char	*errstr;
	int		 i, j = 1;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[j++] = argv[i++];
			break;
		}
		if (argv[i][0] == '-' && argv[i][1] >= '0' &&
		    argv[i][1] <= '9' &&
		    strspn(argv[i] + 1, "0123456789") == strlen(argv[i] + 1)) {
			o->level = strtonum(argv[i] + 1, 0, 12, &errstr);
			if (errstr != NULL)
				errx(2, "%s: level %s", argv[i], errstr);
			if (o->level == 0)
				o->level = 1;
			o->accel = 1;
			continue;
		}
		argv[j++] = argv[i];
	}
	argv[j] = NULL;
	return j;
}

/*
 * Workers by default: one per processor to compress (the main thread's
 * share, reading, checksumming and writing, is small next to compression);
 * one fewer to decompress, where the main thread's share is about as large
 * as decoding.
 */
static int
default_threads(enum mode mode)
{
	long	 n = sysconf(_SC_NPROCESSORS_ONLN);

	if (mode != COMPRESS)
		n--;
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* Report z's failure: a write error names the output, others the input. */
static void
report(const struct lz *z, const char *inname, const char *outname)
{
	if (z->oerr == EPIPE)
		return;			/* SIGPIPE was ignored: stop quietly */
	if (z->oerr != 0)
		warnx("%s: %s", outname, z->err);
	else
		warnx("%s: %s", inname, z->err);
}

/* What the options set. */
struct cli {
	struct lz_opts	 o;
	int		 mode;		/* enum mode */
	int		 force;
	int		 to_stdout;	/* -c */
	int		 progress;	/* 1, 0, -1: first in a pipeline on a tty */
	int		 partial;	/* --partial: no rowpipe trailer check */
	const char	*outpath;
};

static int
set_block(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[128];
	struct cli	*c = base;

	if (strcmp(arg, "X") == 0)
		c->o.block_crc = 1;
	else if (strcmp(arg, "I") == 0)
		;	/* independent blocks: always */
	else if (strlen(arg) == 1 && arg[0] >= '4' && arg[0] <= '7')
		c->o.block_id = arg[0] - '0';
	else {
		snprintf(msg, sizeof(msg), "-B%s: block size must be 4, 5, 6 "
		    "or 7", arg);
		*errstr = msg;
		return -1;
	}
	return 0;
}

static int
set_decompress(void *base, const struct opt *op, char *arg,
    const char **errstr)
{
	struct cli	*c = base;

	if (c->mode == COMPRESS)
		c->mode = DECOMPRESS;
	return 0;
}

static int
set_fast(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[128];
	struct cli	*c = base;
	const char	*e;

	c->o.level = 1;
	c->o.accel = 2;
	if (arg != NULL) {
		c->o.accel = strtonum(arg, 1, 65536, &e);
		if (e != NULL) {
			snprintf(msg, sizeof(msg), "--fast=%s: %s", arg, e);
			*errstr = msg;
			return -1;
		}
		c->o.accel++;	/* as lz4: --fast=N is level -N */
	}
	return 0;
}

#define F(m)	OPT_FIELD(struct cli, m)
static const struct opt options[] = {
	OPT_FLAG(0, "best", F(o.level), 12, "level 12"),
	OPT_FUNC('B', NULL, "N", set_block, 0,
	    "blocks of 4: 64 KiB, 5: 256 KiB, 6: 1 MiB, 7: 4 MiB (default: 7)"),
	OPT_FLAG(0, "block-checksum", F(o.block_crc), 1,
	    "a checksum after each block"),
	OPT_FLAG(0, "no-block-checksum", F(o.block_crc), 0,
	    "no block checksums (lz4's default bytes)"),
	OPT_FLAG('c', "stdout", F(to_stdout), 1,
	    "write to stdout, even a terminal"),
	OPT_FLAG(0, "content-size", F(o.content_size), 1,
	    "the input size in the frame header"),
	OPT_FUNC('d', "decompress", NULL, set_decompress, 0, "decompress"),
	OPT_FLAG('f', "force", F(force), 1,
	    "overwrite -o file, write to a terminal"),
	OPT_FUNC_F(0, "fast", "N", OPT_OPTARG, set_fast, 0,
	    "faster than level 1, by acceleration N (default: 1)"),
	OPT_FLAG('l', "list", F(mode), LIST, "list the frames of the input"),
	OPT_FLAG(0, "no-frame-crc", F(o.content_crc), 0,
	    "no content checksum"),
	OPT_STR('o', NULL, "FILE", F(outpath), "write to FILE"),
	OPT_FLAG(0, "partial", F(partial), 1,
	    "take a rowpipe stream or text that ends without its trailer"),
	OPT_FLAG(0, "progress", F(progress), 1,
	    "progress on stderr (default: if it is a terminal)"),
	OPT_FLAG(0, "no-progress", F(progress), 0, "no progress"),
	OPT_NUM('T', "threads", "N", F(o.threads), 0, 256,
	    "worker threads (default: one per processor)"),
	OPT_FLAG('t', "test", F(mode), TEST, "test the input, write nothing"),
	OPT_FLAG('z', "compress", F(mode), COMPRESS, "compress"),
	OPT_TABLE_END
};

/*
 * As lz4(1): with a file operand and no -o or -c, on a terminal, write
 * FILE.lz4, or FILE for FILE.lz4 with -d; otherwise stdout.  Returns the
 * path, in buf, or NULL for stdout.
 */
static const char *
auto_output(const struct cli *c, int argc, char *argv[], char *buf,
    size_t len)
{
	const char	*in;
	size_t		 n;

	if (argc != 1 || c->to_stdout || !isatty(STDOUT_FILENO) ||
	    (c->mode != COMPRESS && c->mode != DECOMPRESS) ||
	    strcmp(argv[0], "-") == 0)
		return NULL;
	in = argv[0];
	n = strlen(in);
	if (c->mode == COMPRESS) {
		if ((size_t)snprintf(buf, len, "%s.lz4", in) >= len)
			errx(2, "%s: name too long", in);
		return buf;
	}
	if (n <= 4 || strcmp(in + n - 4, ".lz4") != 0)
		errx(2, "%s: no .lz4 suffix to take off for the output's name "
		    "(use -o or -c)", in);
	snprintf(buf, len, "%.*s", (int)(n - 4), in);
	return buf;
}

/*
 * lz: compress a file or stdin to the LZ4 frame format on stdout, or
 * decompress, test or list one.
 */
int
main(int argc, char *argv[])
{
	static struct cli c = { .o = { .level = 1, .accel = 1, .block_id = 7,
			    .threads = -1, .content_crc = 1, .block_crc = 1 },
			    .progress = -1 };
	static char	 version[128];
	static const struct opt_prog prog = {
		.name = "lz",
		.usage = "usage: lz [-cdfltz] [-# | --fast[=N]] [-B4|5|6|7] "
		    "[-o file] [-T threads]\n"
		    "          [--content-size] [--[no-]progress] "
		    "[--no-block-checksum]\n"
		    "          [--no-frame-crc] [--partial] [file]\n",
		.about = "LZ4 frame format compression, interoperable with "
		    "lz4(1).\n-1 (the default) to -12 set the level.",
		.version = version,
		.help_ch = 'h',
		.sets = { { options, &c, NULL } },
	};
	struct lz_opts	*o = &c.o;
	struct lz	 z;
	struct lz_outfile of;
	struct rpcheck	 check;
	struct stat	 st;
	enum mode	 mode;
	const char	*inname = "stdin", *outname = "stdout";
	const char	*outpath, *why;
	char		 outbuf[PATH_MAX];
	int64_t		 insize = -1;
	int		 i, force, rc;

	snprintf(version, sizeof(version), "lz %s (liblz4 %s)",
	    ROWPIPE_VERSION, LZ4_versionString());
	argc = take_levels(argc, argv, o);
	i = opt_parse(&prog, argc, argv);
	mode = c.mode;
	force = c.force || c.to_stdout;
	argc -= i;
	argv += i;
	if (argc > 1 || (c.outpath != NULL && (mode == TEST || mode == LIST)))
		opt_usage(&prog);
	outpath = c.outpath != NULL ? c.outpath : auto_output(&c, argc, argv,
	    outbuf, sizeof(outbuf));
	if (o->threads <= 0)
		o->threads = default_threads(mode);

	memset(&z, 0, sizeof(z));
	memset(&check, 0, sizeof(check));
	z.o = o;
	z.in = stdin;
	z.out = STDOUT_FILENO;
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		inname = argv[0];
		if ((z.in = fopen(inname, "r")) == NULL)
			err(1, "%s", inname);
	}
	if (fstat(fileno(z.in), &st) == 0 && S_ISREG(st.st_mode))
		insize = st.st_size;
	else if (o->content_size && mode == COMPRESS)
		warnx("%s: size unknown, --content-size ignored", inname);

	if (mode == TEST || mode == LIST)
		z.out = -1;
	else if (outpath != NULL) {
		outname = outpath;
		lz_outfile_open(&of, outpath, force);
		z.out = of.fd;
	} else if (mode == COMPRESS && !force)
		refuse_terminal(STDOUT_FILENO, "write compressed data there",
		    "use -c or -f");

	/* a rowpipe stream or rows2sql text must end with its trailer */
	if ((mode == COMPRESS || mode == TEST) && !c.partial) {
		z.check = &check;
		z.check_out = mode == TEST;
	}
	if (mode != LIST &&
	    (z.prog = progress_new("lz", NULL, c.progress)) == NULL)
		err(1, NULL);
	if (insize >= 0)
		progress_total(z.prog, 0, 0, (uint64_t)insize);
	switch (mode) {
	case COMPRESS:
		rc = lz_compress(&z, insize);
		break;
	case LIST:
		z.list = stdout;
		rc = lz_list(&z);
		break;
	default:
		rc = lz_decompress(&z);
		break;
	}
	/*
	 * No byte at all: the producer of a backup failed before its first
	 * (dbsnap killed, a typo in the command); at a final name or under
	 * -t that is no backup.  To standard output an empty input stays an
	 * empty LZ4 frame, as lz4(1) writes it.
	 */
	if (rc == 0 && z.check != NULL && check.off == 0 &&
	    (mode == TEST || outpath != NULL))
		why = "empty (no byte: the producer wrote nothing)";
	else if (rc == 0 && z.check != NULL)
		why = rpcheck_end(z.check);
	else
		why = NULL;
	if (why != NULL) {
		/* a cut or failed dump: not at the final name, not passed */
		progress_clear(z.prog);
		if (mode == TEST)
			warnx("%s: the content is %s (--partial to pass it)",
			    inname, why);
		else
			warnx("%s: %s: the input is %s (--partial to take it)",
			    outname, outpath != NULL ? "not written" :
			    "no complete backup", why);
		rc = 2;
	}
	if (rc != 0) {
		progress_clear(z.prog);
		if (rc == -1)
			report(&z, inname, outname);
		if (outpath != NULL)
			lz_outfile_abort(&of);
		exit(1);
	}
	if (outpath != NULL && lz_outfile_commit(&of) == -1)
		err(1, "%s", outpath);
	progress_done(z.prog);
	progress_free(z.prog);
	if (stdout_finish() == -1)
		err(1, "stdout");
	return 0;
}
