/*
 * rows2sql: read a rowpipe-stream(5) frame stream, write SQL text that the mysql
 * client and sqlsplit | sqlexec load into an identical copy.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "r2s.h"

#include "version.h"
#define ROWS2SQL_VERSION	ROWPIPE_VERSION

/* --rename, --rename-db, --tables: into o->names. */
static int
add_names(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[512];
	struct r2s_opts	*o = base;
	const char	*why;
	int		 r;

	if (strcmp(op->name, "tables") == 0)
		r = names_add_tables(&o->names, arg, &why);
	else
		r = names_add_rename(&o->names, arg,
		    strcmp(op->name, "rename") == 0, &why);
	if (r == -1 && errno == ENOMEM)
		err(1, NULL);
	if (r == -1) {
		snprintf(msg, sizeof(msg), "--%s %s: %s", op->name, arg, why);
		*errstr = msg;
		return -1;
	}
	return 0;
}

static int
set_insert(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static const char *const modes[] = {
		[INS_INSERT] = "insert", [INS_IGNORE] = "ignore",
		[INS_REPLACE] = "replace", [INS_UPSERT] = "upsert"
	};
	static char	 msg[256];
	struct r2s_opts	*o = base;
	size_t		 i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(arg, modes[i]) == 0) {
			o->insert = (int)i;
			return 0;
		}
	snprintf(msg, sizeof(msg), "--insert %s: expected insert, ignore, "
	    "replace or upsert", arg);
	*errstr = msg;
	return -1;
}

#define F(m)	OPT_FIELD(struct r2s_opts, m)
static const struct opt options[] = {
	OPT_FLAG(0, "hex-blob", F(hex_blob), 1, "binary values as 0x... hex"),
	OPT_FUNC(0, "insert", "MODE", set_insert, 0,
	    "insert, ignore, replace or upsert (default: insert)"),
	OPT_SIZE(0, "max-allowed-packet", "SIZE", F(max_packet), 4096,
	    1ULL << 30, "the target server's max_allowed_packet"),
	OPT_SIZE(0, "max-statement-size", "SIZE", F(max_stmt), 1024,
	    1ULL << 30, "start a new INSERT after about SIZE bytes"),
	OPT_FLAG(0, "no-create", F(no_create), 1,
	    "no CREATE TABLE or objects: rows only"),
	OPT_FLAG(0, "no-create-info", F(no_create), 1, NULL),
	OPT_FLAG(0, "no-create-db", F(no_create_db), 1, "no CREATE DATABASE"),
	OPT_FLAG(0, "no-data", F(no_data), 1, "no rows, only objects"),
	OPT_FLAG(0, "no-hex-blob", F(hex_blob), 0,
	    "binary values as quoted strings"),
	OPT_FLAG(0, "skip-hex-blob", F(hex_blob), 0, NULL),
	OPT_FLAG(0, "part-ok", F(part_ok), 1,
	    "convert one part of a dbsnap plan (not a whole dump)"),
	OPT_PROGRESS(F(progress)),
	OPT_FUNC(0, "rename", "OLD=NEW", add_names, 0,
	    "rename table OLD ([db.]table) to NEW"),
	OPT_FUNC(0, "rename-db", "OLD=NEW", add_names, 0,
	    "rename database OLD to NEW"),
	OPT_FLAG(0, "skip-definer", F(skip_definer), 1,
	    "leave out DEFINER= clauses"),
	OPT_FLAG(0, "skip-drop", F(skip_drop), 1, "no DROP ... IF EXISTS"),
	OPT_FUNC(0, "tables", "NAME,...", add_names, 0,
	    "only these tables ([db.]name)"),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct r2s_opts o = {
		.hex_blob = -1,
		.max_stmt = R2S_MAX_STMT_DEFAULT,
		.max_packet = R2S_MAX_PACKET_DEFAULT,
		.progress = -1,
	};
	static const struct opt_prog prog = {
		.name = "rows2sql",
		.usage = "usage: rows2sql [--hex-blob | --no-hex-blob]\n"
		    "\t[--insert=insert|ignore|replace|upsert]\n"
		    "\t[--max-allowed-packet=size] [--max-statement-size=size] "
		    "[--no-create]\n"
		    "\t[--no-create-db] [--no-data] [--part-ok]\n"
		    "\t[--progress | --no-progress]\n"
		    "\t[--rename=old=new] [--rename-db=old=new]"
		    " [--skip-definer] [--skip-drop]\n"
		    "\t[--tables=name,...] [file]\n",
		.about = "Write a rowpipe-stream(5) stream as SQL text that the mysql "
		    "client loads.",
		.version = "rows2sql " ROWS2SQL_VERSION,
		.sets = { { options, &o, NULL } },
	};
	const char	*msg, *file;

	file = opt_operand(&prog, argc, argv, opt_parse(&prog, argc, argv));
	if (rows2sql(opt_input(file), STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	names_release(&o.names);
	return 0;
}
