/*
 * rows2sql: read a rowpipe(5) frame stream, write SQL text that the mysql
 * client and sqlsplit | sqlexec load into an identical copy.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "r2s.h"

#include "version.h"
#define ROWS2SQL_VERSION	ROWPIPE_VERSION

#ifndef __dead
#define __dead	__attribute__((__noreturn__))
#endif

static __dead void
usage_to(FILE *fp, int status)
{
	fprintf(fp, "usage: %s [--hex-blob | --no-hex-blob] "
	    "[--insert=insert|ignore|replace|upsert]\n"
	    "\t[--max-allowed-packet=size] [--max-statement-size=size] "
	    "[--no-create]\n"
	    "\t[--no-create-db] [--no-data] [--progress | --no-progress]\n"
	    "\t[--rename=old=new] [--rename-db=old=new]"
	    " [--skip-definer] [--skip-drop]\n"
	    "\t[--tables=name,...] [file]\n",
	    getprogname());
	stdout_exit(status);
}

static __dead void
usage(void)
{
	usage_to(stderr, 2);
}

enum {
	OPT_HEX_BLOB = 256, OPT_NO_HEX_BLOB, OPT_INSERT, OPT_MAX_PACKET,
	OPT_MAX_STMT, OPT_NO_CREATE, OPT_NO_CREATE_DB, OPT_NO_DATA,
	OPT_RENAME, OPT_RENAME_DB, OPT_SKIP_DEFINER, OPT_SKIP_DROP,
	OPT_TABLES, OPT_HELP, OPT_VERSION, OPT_PROGRESS, OPT_NO_PROGRESS
};

static const struct option longopts[] = {
	{ "hex-blob",		no_argument,		NULL, OPT_HEX_BLOB },
	{ "no-hex-blob",	no_argument,		NULL, OPT_NO_HEX_BLOB },
	{ "skip-hex-blob",	no_argument,		NULL, OPT_NO_HEX_BLOB },
	{ "insert",		required_argument,	NULL, OPT_INSERT },
	{ "max-allowed-packet",	required_argument,	NULL, OPT_MAX_PACKET },
	{ "max-statement-size",	required_argument,	NULL, OPT_MAX_STMT },
	{ "no-create",		no_argument,		NULL, OPT_NO_CREATE },
	{ "no-create-info",	no_argument,		NULL, OPT_NO_CREATE },
	{ "no-create-db",	no_argument,		NULL, OPT_NO_CREATE_DB },
	{ "no-data",		no_argument,		NULL, OPT_NO_DATA },
	{ "progress",		no_argument,		NULL, OPT_PROGRESS },
	{ "no-progress",	no_argument,		NULL, OPT_NO_PROGRESS },
	{ "rename",		required_argument,	NULL, OPT_RENAME },
	{ "rename-db",		required_argument,	NULL, OPT_RENAME_DB },
	{ "skip-definer",	no_argument,		NULL, OPT_SKIP_DEFINER },
	{ "skip-drop",		no_argument,		NULL, OPT_SKIP_DROP },
	{ "tables",		required_argument,	NULL, OPT_TABLES },
	{ "help",		no_argument,		NULL, OPT_HELP },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL,			0,			NULL, 0 }
};

/* --rename, --rename-db, --tables: into o->names. */
static void
add_names(struct r2s_opts *o, const char *opt, const char *arg)
{
	const char	*errstr;
	int		 r;

	if (strcmp(opt, "tables") == 0)
		r = names_add_tables(&o->names, arg, &errstr);
	else
		r = names_add_rename(&o->names, arg, strcmp(opt, "rename") == 0,
		    &errstr);
	if (r == -1 && errno == ENOMEM)
		err(1, NULL);
	if (r == -1)
		errx(2, "--%s %s: %s", opt, arg, errstr);
}

static size_t
size_arg(const char *opt, const char *arg, unsigned long long min,
    unsigned long long max)
{
	unsigned long long v;
	const char	*errstr;

	if (parse_size(arg, min, max, &v, &errstr) == -1)
		errx(2, "--%s %s: %s", opt, arg, errstr);
	return (size_t)v;
}

int
main(int argc, char *argv[])
{
	struct r2s_opts	 o;
	const char	*msg;
	int		 ch, fd = STDIN_FILENO;

	memset(&o, 0, sizeof(o));
	o.hex_blob = 1;
	o.max_stmt = R2S_MAX_STMT_DEFAULT;
	o.max_packet = R2S_MAX_PACKET_DEFAULT;
	o.progress = -1;
	while ((ch = getopt_long(argc, argv, "V", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_HEX_BLOB:
			o.hex_blob = 1;
			break;
		case OPT_NO_HEX_BLOB:
			o.hex_blob = 0;
			break;
		case OPT_INSERT:
			if (strcmp(optarg, "insert") == 0)
				o.insert = INS_INSERT;
			else if (strcmp(optarg, "ignore") == 0)
				o.insert = INS_IGNORE;
			else if (strcmp(optarg, "replace") == 0)
				o.insert = INS_REPLACE;
			else if (strcmp(optarg, "upsert") == 0)
				o.insert = INS_UPSERT;
			else
				errx(2, "--insert %s: expected insert, ignore, "
				    "replace or upsert", optarg);
			break;
		case OPT_MAX_PACKET:
			o.max_packet = size_arg("max-allowed-packet", optarg,
			    4096, 1ULL << 30);
			break;
		case OPT_MAX_STMT:
			o.max_stmt = size_arg("max-statement-size", optarg,
			    1024, 1ULL << 30);
			break;
		case OPT_NO_CREATE:
			o.no_create = 1;
			break;
		case OPT_NO_CREATE_DB:
			o.no_create_db = 1;
			break;
		case OPT_NO_DATA:
			o.no_data = 1;
			break;
		case OPT_RENAME:
			add_names(&o, "rename", optarg);
			break;
		case OPT_RENAME_DB:
			add_names(&o, "rename-db", optarg);
			break;
		case OPT_SKIP_DEFINER:
			o.skip_definer = 1;
			break;
		case OPT_SKIP_DROP:
			o.skip_drop = 1;
			break;
		case OPT_TABLES:
			add_names(&o, "tables", optarg);
			break;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o.progress = 0;
			break;
		case 'V':
		case OPT_VERSION:
			printf("rows2sql %s\n", ROWS2SQL_VERSION);
			stdout_exit(0);
		case OPT_HELP:
			usage_to(stdout, 0);
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();

	if (argc == 1 && strcmp(argv[0], "-") != 0 &&
	    (fd = open(argv[0], O_RDONLY)) == -1)
		err(1, "%s", argv[0]);
	if (rows2sql(fd, STDOUT_FILENO, &o, &msg) == -1)
		errx(1, "%s", msg);
	names_release(&o.names);
	return 0;
}
