/*
 * rows2json: read a rowpipe(5) frame stream, write it as JSON Lines for
 * jq, awk and scripts; json2rows(1) reads them back.
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
#include "rows2json.h"

static __dead void
usage_to(FILE *fp, int status)
{
	fprintf(fp, "usage: %s [--progress | --no-progress] [file]\n",
	    getprogname());
	stdout_exit(status);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "no-progress", no_argument,	NULL, 'Q' },
		{ "progress",	no_argument,	NULL, 'G' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 }
	};
	struct r2j_opts	 o = { .progress = -1 };
	const char	*msg;
	int		 ch, fd = STDIN_FILENO;

	while ((ch = getopt_long(argc, argv, "V", longopts, NULL)) != -1) {
		switch (ch) {
		case 'G':
			o.progress = 1;
			break;
		case 'Q':
			o.progress = 0;
			break;
		case 'V':
			printf("rows2json %s\n", ROWPIPE_VERSION);
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

	if (argc == 1 && strcmp(argv[0], "-") != 0 &&
	    (fd = open(argv[0], O_RDONLY)) == -1)
		err(1, "%s", argv[0]);
	if (rows2json(fd, STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	return 0;
}
