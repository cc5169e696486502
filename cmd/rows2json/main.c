/*
 * rows2json: read a rowpipe-stream(5) frame stream, write it as JSON Lines for
 * jq, awk and scripts; json2rows(1) reads them back.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "version.h"
#include "rows2json.h"

#define F(m)	OPT_FIELD(struct r2j_opts, m)
static const struct opt options[] = {
	OPT_FLAG(0, "convert", F(convert), 1, "write latin1 text as UTF-8 "
	    "strings, for json2rows --convert"),
	OPT_PROGRESS(F(progress)),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct r2j_opts o = { .progress = -1 };
	static const struct opt_prog prog = {
		.name = "rows2json",
		.usage = "usage: rows2json [--convert] [--progress | "
		    "--no-progress] [file]\n",
		.about = "Write a rowpipe-stream(5) stream as JSON Lines, for jq and "
		    "awk.",
		.version = "rows2json " ROWPIPE_VERSION,
		.sets = { { options, &o, NULL } },
	};
	const char	*msg, *file;

	file = opt_operand(&prog, argc, argv, opt_parse(&prog, argc, argv));
	if (rows2json(opt_input(file), STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	return 0;
}
