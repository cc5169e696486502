/*
 * json2rows: read the JSON Lines of rows2json(1), edited or not, and
 * write the rowpipe-stream(5) frame stream they describe.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "version.h"
#include "json2rows.h"

#define F(m)	OPT_FIELD(struct j2r_opts, m)
static const struct opt options[] = {
	OPT_FLAG(0, "convert", F(convert), 1, "convert UTF-8 text for latin1 "
	    "and ascii columns into their bytes"),
	OPT_FLAG('f', "force", F(force), 1, "write frames even to a terminal"),
	OPT_PROGRESS(F(progress)),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct j2r_opts o = { .progress = -1 };
	static const struct opt_prog prog = {
		.name = "json2rows",
		.usage = "usage: json2rows [--convert] [-f] [--progress | "
		    "--no-progress] [file]\n",
		.about = "Read rows2json's JSON Lines back into a rowpipe-stream(5) "
		    "stream.",
		.version = "json2rows " ROWPIPE_VERSION,
		.sets = { { options, &o, NULL } },
	};
	const char	*msg, *file;

	file = opt_operand(&prog, argc, argv, opt_parse(&prog, argc, argv));
	if (!o.force && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a frame stream to a terminal "
		    "(use -f to force)");

	o.name = file;
	if (json2rows(opt_input(file), STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	return 0;
}
