/*
 * lz: LZ4 frame format compression and decompression, both ways with the
 * lz4 command, with threads.  Options and files here; the format in lz.c.
 */
#include <sys/cdefs.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lz4.h>

#include "util.h"
#include "version.h"
#include "lz.h"

enum mode { COMPRESS, DECOMPRESS, TEST, LIST };

enum {
	OPT_BEST = 256, OPT_BLOCK_CRC, OPT_CONTENT_SIZE, OPT_FAST,
	OPT_NO_BLOCK_CRC, OPT_NO_FRAME_CRC, OPT_HELP, OPT_VERSION
};

static const struct option longopts[] = {
	{ "best",		no_argument,		NULL, OPT_BEST },
	{ "block-checksum",	no_argument,		NULL, OPT_BLOCK_CRC },
	{ "content-size",	no_argument,		NULL, OPT_CONTENT_SIZE },
	{ "decompress",		no_argument,		NULL, 'd' },
	{ "fast",		optional_argument,	NULL, OPT_FAST },
	{ "force",		no_argument,		NULL, 'f' },
	{ "help",		no_argument,		NULL, OPT_HELP },
	{ "list",		no_argument,		NULL, 'l' },
	{ "no-block-checksum",	no_argument,		NULL, OPT_NO_BLOCK_CRC },
	{ "no-frame-crc",	no_argument,		NULL, OPT_NO_FRAME_CRC },
	{ "stdout",		no_argument,		NULL, 'c' },
	{ "test",		no_argument,		NULL, 't' },
	{ "threads",		required_argument,	NULL, 'T' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL,			0,			NULL, 0 }
};

/* Usage on stderr and exit 2; with --help, on stdout and exit 0. */
static __dead2 void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: %s [-cdfltz] [-# | "
	    "--fast[=N]] [-B4|5|6|7] [-o file] [-T threads]\n"
	    "          [--content-size] [--no-block-checksum] [--no-frame-crc]"
	    " [file]\n", getprogname());
	if (status == 0)
		fputs("LZ4 frame format compression, interoperable with lz4(1);"
		    " see lz(1).\n", stdout);
	stdout_exit(status);
}

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

/*
 * lz: compress a file or stdin to the LZ4 frame format on stdout, or
 * decompress, test or list one.
 */
int
main(int argc, char *argv[])
{
	struct lz_opts	 o = { .level = 1, .accel = 1, .block_id = 7,
			    .threads = -1, .content_crc = 1, .block_crc = 1 };
	struct lz	 z;
	struct lz_outfile of;
	struct stat	 st;
	enum mode	 mode = COMPRESS;
	const char	*errstr, *inname = "stdin", *outname = "stdout";
	const char	*outpath = NULL;
	int64_t		 insize = -1;
	int		 ch, force = 0, rc;

	argc = take_levels(argc, argv, &o);
	while ((ch = getopt_long(argc, argv, "B:cdfhlo:tT:Vz", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'B':
			if (strcmp(optarg, "X") == 0)
				o.block_crc = 1;
			else if (strcmp(optarg, "I") == 0)
				;	/* independent blocks: always */
			else if (strlen(optarg) == 1 && optarg[0] >= '4' &&
			    optarg[0] <= '7')
				o.block_id = optarg[0] - '0';
			else
				errx(2, "-B%s: block size must be 4, 5, 6 or "
				    "7", optarg);
			break;
		case 'c':
		case 'f':
			force = 1;
			break;
		case 'd':
			if (mode == COMPRESS)
				mode = DECOMPRESS;
			break;
		case 'l':
			mode = LIST;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			mode = TEST;
			break;
		case 'T':
			o.threads = strtonum(optarg, 0, 256, &errstr);
			if (errstr != NULL)
				errx(2, "-T %s: %s", optarg, errstr);
			break;
		case 'z':
			mode = COMPRESS;
			break;
		case OPT_BEST:
			o.level = 12;
			break;
		case OPT_BLOCK_CRC:
			o.block_crc = 1;
			break;
		case OPT_CONTENT_SIZE:
			o.content_size = 1;
			break;
		case OPT_FAST:
			o.level = 1;
			o.accel = 2;
			if (optarg != NULL) {
				o.accel = strtonum(optarg, 1, 65536, &errstr);
				if (errstr != NULL)
					errx(2, "--fast=%s: %s", optarg,
					    errstr);
				o.accel++;	/* as lz4: --fast=N is level -N */
			}
			break;
		case OPT_NO_BLOCK_CRC:
			o.block_crc = 0;
			break;
		case OPT_NO_FRAME_CRC:
			o.content_crc = 0;
			break;
		case 'h':
		case OPT_HELP:
			usage(0);
		case 'V':
		case OPT_VERSION:
			printf("lz %s (liblz4 %s)\n", ROWPIPE_VERSION,
			    LZ4_versionString());
			stdout_exit(0);
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (outpath != NULL && (mode == TEST || mode == LIST)))
		usage(2);
	if (o.threads <= 0)
		o.threads = default_threads(mode);

	memset(&z, 0, sizeof(z));
	z.o = &o;
	z.in = stdin;
	z.out = STDOUT_FILENO;
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		inname = argv[0];
		if ((z.in = fopen(inname, "r")) == NULL)
			err(1, "%s", inname);
	}
	if (fstat(fileno(z.in), &st) == 0 && S_ISREG(st.st_mode))
		insize = st.st_size;
	else if (o.content_size && mode == COMPRESS)
		warnx("%s: size unknown, --content-size ignored", inname);

	if (mode == TEST || mode == LIST)
		z.out = -1;
	else if (outpath != NULL) {
		outname = outpath;
		lz_outfile_open(&of, outpath, force);
		z.out = of.fd;
	} else if (mode == COMPRESS && !force && isatty(STDOUT_FILENO))
		errx(1, "refusing to write compressed data to a terminal "
		    "(use -f)");

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
	if (rc == -1) {
		report(&z, inname, outname);
		if (outpath != NULL)
			lz_outfile_abort(&of);
		exit(1);
	}
	if (outpath != NULL && lz_outfile_commit(&of) == -1)
		err(1, "%s", outpath);
	if (stdout_finish() == -1)
		err(1, "stdout");
	return 0;
}
