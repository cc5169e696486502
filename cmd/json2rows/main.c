/*
 * json2rows: read the JSON Lines of rows2json(1), edited or not, and
 * write the rowpipe-stream(5) frame stream they describe.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "version.h"
#include "json2rows.h"

#define F(m)	OPT_FIELD(struct j2r_opts, m)
static const struct opt options[] = {
	OPT_FLAG('f', "force", F(force), 1, "write frames even to a terminal"),
	OPT_FLAG(0, "progress", F(progress), 1,
	    "progress on stderr (default: if it is a terminal)"),
	OPT_FLAG(0, "no-progress", F(progress), 0, "no progress"),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct j2r_opts o = { .progress = -1 };
	static const struct opt_prog prog = {
		.name = "json2rows",
		.usage = "usage: json2rows [-f] [--progress | --no-progress] "
		    "[file]\n",
		.about = "Read rows2json's JSON Lines back into a rowpipe-stream(5) "
		    "stream.",
		.version = "json2rows " ROWPIPE_VERSION,
		.sets = { { options, &o, NULL } },
	};
	const char	*msg;
	int		 i, fd = STDIN_FILENO;

	i = opt_parse(&prog, argc, argv);
	argc -= i;
	argv += i;
	if (argc > 1)
		opt_usage(&prog);
	if (!o.force && isatty(STDOUT_FILENO))
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
