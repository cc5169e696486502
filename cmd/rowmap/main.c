/*
 * rowmap: read a rowpipe-stream(5) frame stream, write it again with tables
 * selected, renamed or moved, and columns dropped, emptied, set or
 * replaced by keyed pseudonyms.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "util.h"
#include "version.h"
#include "rowmap.h"

static int
opt_fail(const struct opt *op, const char *arg, const char *why,
    const char **errstr)
{
	static char	 msg[512];

	if (errno == ENOMEM)
		err(1, NULL);
	snprintf(msg, sizeof(msg), "--%s %s: %s", op->name, arg, why);
	*errstr = msg;
	return -1;
}

/* --drop, --null, --set: a column transform. */
static int
add_op(void *base, const struct opt *op, char *arg, const char **errstr)
{
	const char	*why;

	errno = 0;
	if (rm_add_op(base, op->code, arg, NULL, &why) == -1)
		return opt_fail(op, arg, why, errstr);
	return 0;
}

/* --hash: after the options, when --key-file is known. */
static int
add_hash(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct rowmap_opts *o = base;
	char		**v;

	if ((v = reallocarray(o->hash_args, o->nhash_args + 1,
	    sizeof(*v))) == NULL)
		err(1, NULL);
	o->hash_args = v;
	v[o->nhash_args++] = arg;
	return 0;
}

/* --tables, --exclude, --rename, --rename-db: into o->names. */
static int
add_names(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct rowmap_opts *o = base;
	const char	*why;
	int		 r;

	errno = 0;
	if (op->code < 2)
		r = names_add_filter(&o->names, arg, op->code, &why);
	else
		r = names_add_rename(&o->names, arg, op->code == 2, &why);
	return r == -1 ? opt_fail(op, arg, why, errstr) : 0;
}

#define F(m)	OPT_FIELD(struct rowmap_opts, m)
static const struct opt options[] = {
	OPT_FLAG(0, "allow-empty", F(allow_empty), 1,
	    "filters that leave no table or object are no error"),
	OPT_FUNC(0, "drop", "TABLE.COLUMN", add_op, OP_DROP,
	    "leave the column out, rows and CREATE TABLE"),
	OPT_FUNC(0, "exclude", "PATTERN,...", add_names, 1,
	    "leave out the tables and objects that match"),
	OPT_FLAG('f', "force", F(force), 1, "write frames even to a terminal"),
	OPT_FUNC(0, "hash", "TABLE.COLUMN[:KEYFILE]", add_hash, 0,
	    "replace values by keyed pseudonyms"),
	OPT_STR(0, "key-file", "FILE", F(key_file),
	    "the key of --hash (default: a random one)"),
	OPT_FUNC(0, "null", "TABLE.COLUMN", add_op, OP_NULL,
	    "make every value NULL"),
	OPT_PROGRESS(F(progress)),
	OPT_FUNC(0, "rename", "OLD=[DB.]NEW", add_names, 2,
	    "rename or move table OLD ([db.]table)"),
	OPT_FUNC(0, "rename-db", "OLD=NEW", add_names, 3,
	    "rename database OLD to NEW"),
	OPT_FLAG(0, "skip-definer", F(skip_definer), 1,
	    "leave out the DEFINER= clauses of views, routines, ..."),
	OPT_FUNC(0, "set", "TABLE.COLUMN=VALUE", add_op, OP_SET,
	    "make every value VALUE"),
	OPT_FUNC(0, "tables", "PATTERN,...", add_names, 0,
	    "keep only the tables and objects that match"),
	OPT_TABLE_END
};

int
main(int argc, char *argv[])
{
	static struct rowmap_opts o = { .progress = -1 };
	static const struct opt_prog prog = {
		.name = "rowmap",
		.usage = "usage: rowmap [-f] [--allow-empty] "
		    "[--drop=table.column]\n"
		    "\t[--exclude=pattern,...] [--hash=table.column[:keyfile]]\n"
		    "\t[--key-file=file]"
		    " [--null=table.column] [--progress | --no-progress]\n"
		    "\t[--rename=old=[db.]new] [--rename-db=old=new]\n"
		    "\t[--set=table.column=value] [--skip-definer]\n"
		    "\t[--tables=pattern,...] [file]\n",
		.about = "Select, rename, drop and mask tables and columns of "
		    "a rowpipe-stream(5) stream.",
		.version = "rowmap " ROWPIPE_VERSION,
		.sets = { { options, &o, NULL } },
	};
	const char	*msg, *file;
	size_t		 j;

	file = opt_operand(&prog, argc, argv, opt_parse(&prog, argc, argv));
	for (j = 0; j < o.nhash_args; j++)
		if (rm_add_op(&o, OP_HASH, o.hash_args[j], o.key_file,
		    &msg) == -1)
			errx(2, "--hash %s: %s", o.hash_args[j], msg);
	if (o.key_file != NULL && o.nhash_args == 0)
		errx(2, "--key-file without --hash");
	if (rm_load_keys(&o, &msg) == -1)
		err(2, "key file %s", msg);
	if (!o.force && isatty(STDOUT_FILENO))
		errx(2, "refusing to write a frame stream to a terminal "
		    "(use -f to force)");

	if (rowmap(opt_input(file), STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	free(o.hash_args);
	rm_opts_release(&o);
	return 0;
}
