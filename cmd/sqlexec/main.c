/*
 * sqlexec: execute a rowpipe(5) statement stream (sqlsplit's output)
 * against a server, in batches, transactions and parallel connections.
 * See sqlexec.h for the model and man/man1/sqlexec.1 for the interface.
 */
#include <sys/cdefs.h>

#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlexec.h"
#include "util.h"

#include "version.h"
#define SQLEXEC_VERSION	ROWPIPE_VERSION

enum {
	OPT_COMMIT_EVERY = CONN_OPT_MAX,
	OPT_BATCH_BYTES,
	OPT_SKIP_TO,
	OPT_NO_BINLOG,
	OPT_KEEP_CHECKS,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_CHARSET,
	OPT_HELP
};

static const struct option longopts[] = {
	CONN_LONGOPTS,
	{ "batch-bytes",	required_argument, NULL, OPT_BATCH_BYTES },
	{ "commit-every",	required_argument, NULL, OPT_COMMIT_EVERY },
	{ "database",		required_argument, NULL, 'D' },
	{ "default-character-set", required_argument, NULL, OPT_CHARSET },
	{ "dry-run",		no_argument,	   NULL, 'n' },
	{ "force",		no_argument,	   NULL, 'f' },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "jobs",		required_argument, NULL, 'j' },
	{ "keep-checks",	no_argument,	   NULL, OPT_KEEP_CHECKS },
	{ "no-binlog",		no_argument,	   NULL, OPT_NO_BINLOG },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "progress",		no_argument,	   NULL, OPT_PROGRESS },
	{ "skip-to",		required_argument, NULL, OPT_SKIP_TO },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL,			0,		   NULL, 0 }
};

/* Usage on stderr and exit 2; with --help, on stdout and exit 0. */
static __dead2 void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: %s " CONN_USAGE "\n"
	    "\t[-fnV] [-j jobs] [--commit-every bytes] [--skip-to N]\n"
	    "\t[--no-binlog] [--keep-checks] [--progress] [--batch-bytes bytes]\n"
	    "\t[--default-character-set charset] [[-D] database]\n",
	    getprogname());
	stdout_exit(status);
}

static size_t
size_arg(const char *opt, const char *arg, unsigned long long min)
{
	unsigned long long	 v;
	const char		*errstr;

	if (parse_size(arg, min, (unsigned long long)1 << 40, &v, &errstr))
		errx(2, "%s %s: %s", opt, arg, errstr);
	return (size_t)v;
}

int
main(int argc, char *argv[])
{
	struct sx_opts	 o = {
		.jobs = 1,
		.commit_every = (size_t)1 << 20,
		.batch_bytes = (size_t)1 << 20,
		.progress = -1,
	};
	const char	*errstr;
	int		 ch, r;

	o.conn.program = "sqlexec";
	while ((ch = getopt_long(argc, argv, CONN_SHORTOPTS "D:fj:nV",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'D':
			o.db = optarg;
			break;
		case 'f':
			o.force = 1;
			break;
		case 'j':
			o.jobs = strtonum(optarg, 1, 256, &errstr);
			if (errstr != NULL)
				errx(2, "-j %s: %s", optarg, errstr);
			break;
		case 'n':
			o.dry_run = 1;
			break;
		case 'V':
			printf("sqlexec %s\n", SQLEXEC_VERSION);
			stdout_exit(0);
		case OPT_BATCH_BYTES:
			o.batch_bytes = size_arg("--batch-bytes", optarg, 1);
			break;
		case OPT_COMMIT_EVERY:
			o.commit_every = size_arg("--commit-every", optarg, 1);
			break;
		case OPT_SKIP_TO:
			o.skip_to = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr != NULL)
				errx(2, "--skip-to %s: %s", optarg, errstr);
			break;
		case OPT_NO_BINLOG:
			o.no_binlog = 1;
			break;
		case OPT_KEEP_CHECKS:
			o.keep_checks = 1;
			break;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o.progress = 0;
			break;
		case OPT_CHARSET:
			o.charset = optarg;
			break;
		case OPT_HELP:
			usage(0);
			/* NOTREACHED */
		default:
			if ((r = conn_getopt(&o.conn, ch, optarg, &errstr)) == -1)
				errx(2, "%s", errstr);
			if (r == 0)
				usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (argc == 1 && o.db != NULL))
		usage(2);
	if (argc == 1)
		o.db = argv[0];
	if (isatty(STDIN_FILENO))
		errx(2, "stdin is a terminal: pipe sqlsplit's output in");

	if (!o.dry_run) {
		if (conn_opts_check(&o.conn, &errstr) == -1)
			errx(2, "%s", errstr);
		if (conn_opts_finish(&o.conn) == -1)
			err(2, "password");
	}
	r = sx_run(STDIN_FILENO, &o);
	conn_opts_clear(&o.conn);
	if (o.dry_run && stdout_finish() == -1)
		err(1, "stdout");
	return r == 0 ? 0 : 1;
}
