/*
 * json2rows: read the JSON Lines of rows2json(1), edited or not, and
 * write the rowpipe(5) frame stream they describe.
 */
#include <err.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "version.h"
#include "json2rows.h"

static __dead void
usage_to(FILE *fp, int status)
{
	fprintf(fp, "usage: %s [-f] [--progress | --no-progress] [file]\n",
	    getprogname());
	stdout_exit(status);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "force",	no_argument,	NULL, 'f' },
		{ "help",	no_argument,	NULL, 'h' },
		{ "no-progress", no_argument,	NULL, 'Q' },
		{ "progress",	no_argument,	NULL, 'G' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 }
	};
	struct j2r_opts	 o = { .progress = -1 };
	const char	*msg;
	int		 ch, fd = STDIN_FILENO, force = 0;

	while ((ch = getopt_long(argc, argv, "fV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			force = 1;
			break;
		case 'G':
			o.progress = 1;
			break;
		case 'Q':
			o.progress = 0;
			break;
		case 'V':
			printf("json2rows %s\n", ROWPIPE_VERSION);
			stdout_exit(0);
		case 'h':
			usage_to(stdout, 0);
		default:
			usage_to(stderr, 2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage_to(stderr, 2);
	if (!force && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a frame stream to a terminal "
		    "(use -f to force)");

	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		if ((fd = open(argv[0], O_RDONLY)) == -1)
			err(1, "%s", argv[0]);
		o.name = argv[0];
	}
	if (json2rows(fd, STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	return 0;
}
