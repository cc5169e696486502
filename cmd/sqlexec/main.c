/*
 * sqlexec: execute a rowpipe-stream(5) statement stream (sqlsplit's output)
 * against a server, in batches, transactions and parallel connections.
 * See sqlexec.h for the model and man/man1/sqlexec.1 for the interface.
 */
#include <sys/cdefs.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opt.h"
#include "sqlexec.h"
#include "util.h"

#include "version.h"
#define SQLEXEC_VERSION	ROWPIPE_VERSION

/* --skip-to N or N:IDENTITY, as the resume line prints it. */
static int
skip_to(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct sx_opts	*o = base;
	static char	 msg[256];
	const char	*why;

	if (sx_token_parse(arg, o, &why) == 0)
		return 0;
	snprintf(msg, sizeof(msg), "--skip-to %s: %s", arg, why);
	*errstr = msg;
	return -1;
}

static int
rename_db(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[512];
	struct sx_opts	*o = base;
	const char	*why;

	if (names_add_rename(&o->names, arg, 0, &why) == -1) {
		if (errno == ENOMEM)
			err(1, NULL);
		snprintf(msg, sizeof(msg), "--rename-db %s: %s", arg, why);
		*errstr = msg;
		return -1;
	}
	return 0;
}

/* --input FILE, repeatable. */
static int
add_input(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct sx_opts	*o = base;

	o->inputs = reallocarray(o->inputs, o->ninputs + 1, sizeof(*o->inputs));
	if (o->inputs == NULL)
		err(1, NULL);
	o->inputs[o->ninputs++] = arg;
	return 0;
}

#define F(m)	OPT_FIELD(struct sx_opts, m)
static const struct opt options[] = {
	OPT_FLAG(0, "allow-empty", F(allow_empty), 1,
	    "an input of no statement is not an error"),
	/* at least max_allowed_packet's least: a long value goes in halves */
	OPT_SIZE(0, "batch-bytes", "BYTES", F(batch_bytes), 1024, 1ULL << 40,
	    "send at most BYTES of statements a round trip"),
	OPT_STR(0, "checkpoint", "DB.TABLE", F(checkpoint),
	    "record the committed position in DB.TABLE of the target"),
	OPT_SIZE(0, "commit-every", "BYTES", F(commit_every), 1, 1ULL << 40,
	    "commit after about BYTES of statements"),
	OPT_STR('D', "database", "DB", F(db), "the default database, until USE"),
	OPT_STR(0, "default-character-set", "CHARSET", F(charset),
	    "the connection character set, until SET NAMES"),
	OPT_FLAG('n', "dry-run", F(dry_run), 1,
	    "connect to nothing, print what would be done"),
	OPT_FLAG('f', "force", F(force), 1,
	    "report a failed statement and go on"),
	OPT_FUNC(0, "input", "FILE", add_input, 0,
	    "read FILE (repeatable: the parts of one plan)"),
	OPT_NUM('j', "jobs", "N", F(jobs), 1, SX_MAX_CONN, "use N connections"),
	OPT_FLAG(0, "keep-checks", F(keep_checks), 1,
	    "leave foreign_key_checks and unique_checks on"),
	OPT_FLAG(0, "no-binlog", F(no_binlog), 1,
	    "sql_log_bin=0: the restore is not binary logged"),
	OPT_FLAG(0, "defer-indexes", F(defer_indexes), 1,
	    "snapshot streams: add secondary indexes after the rows"),
	OPT_FLAG(0, "no-defer-indexes", F(defer_indexes), 0,
	    "snapshot streams: create tables with all their indexes"),
	OPT_FLAG(0, "no-bulk", F(no_bulk), 1,
	    "snapshot streams: rows as INSERT text, no bulk execute"),
	OPT_FLAG(0, "no-create", F(no_create), 1,
	    "snapshot streams: load rows into existing tables"),
	OPT_FLAG(0, "progress", F(progress), 1,
	    "progress on stderr (default: if it is a terminal)"),
	OPT_FLAG(0, "no-progress", F(progress), 0, "no progress"),
	OPT_FLAG('q', "quiet", F(quiet), 1,
	    "no summary line unless something failed"),
	OPT_FUNC(0, "rename-db", "OLD=NEW", rename_db, 0,
	    "load database OLD's statements into NEW (repeatable)"),
	OPT_FLAG(0, "resume", F(resume), 1,
	    "continue from the position --checkpoint recorded"),
	OPT_FLAG(0, "skip-definer", F(skip_definer), 1,
	    "snapshot streams: leave out DEFINER= clauses"),
	OPT_FUNC(0, "skip-to", "N:IDENTITY", skip_to, 0,
	    "resume after statement N of the same input"),
	OPT_FLAG(0, "strict", F(strict), 1,
	    "a server warning is an error"),
	OPT_TABLE_END
};

static struct sx_opts the_opts = {
	.conn = { .program = "sqlexec" },
	.jobs = 1,
	.commit_every = (size_t)1 << 20,
	.batch_bytes = (size_t)1 << 20,
	.progress = -1,
	.defer_indexes = 1,
};

static const struct opt_prog prog = {
	.name = "sqlexec",
	.usage = "usage: sqlexec " CONN_USAGE "\n"
	    "\t[-CfnqV] [-j jobs] [--allow-empty] [--checkpoint db.table [--resume]]\n"
	    "\t[--commit-every bytes] [--rename-db old=new] [--skip-to N:identity]\n"
	    "\t[--strict] [--no-binlog] [--keep-checks] [--no-defer-indexes]\n"
	    "\t[--no-bulk] [--no-create] [--skip-definer] [--progress]\n"
	    "\t[--batch-bytes bytes]"
	    " [--default-character-set charset] [--input file ...]\n"
	    "\t[[-D] database]\n",
	.about = "Execute a statement stream (sqlsplit's output) or load a snapshot\n"
	    "stream (dbsnap's) on a server.",
	.version = "sqlexec " SQLEXEC_VERSION,
	CONN_PROG(&the_opts.conn),
	.sets = {
		{ options, &the_opts, NULL },
		{ conn_options, &the_opts.conn, "Connection options" },
	},
};

/*
 * The command line into the_opts; a usage error exits 2, before any side
 * effect.
 */
static void
parse(int argc, char *argv[])
{
	struct sx_opts	*o = &the_opts;
	const char	*errstr;
	int		 i;

	i = opt_parse(&prog, argc, argv);
	argc -= i;
	argv += i;
	if (argc > 1)
		opt_usage(&prog);
	if (argc == 1)			/* over -D, as with mysql(1) */
		o->db = argv[0];
	if (o->resume && o->checkpoint == NULL)
		errx(2, "--resume needs --checkpoint db.table");
	if (o->resume && o->skip_top > 0)
		errx(2, "--resume and --skip-to: give one (--resume reads the "
		    "position from the checkpoint)");
	if (o->checkpoint != NULL && sx_ckpt_name(o->checkpoint) == -1)
		errx(2, "--checkpoint %s: expected db.table (names without "
		    "backquotes or dots)", o->checkpoint);
	if (o->checkpoint != NULL && o->dry_run)
		errx(2, "--checkpoint and --dry-run: -n connects to nothing");
	if (o->ninputs == 0)
		refuse_terminal(STDIN_FILENO, "read statements from it",
		    "pipe sqlsplit's output in");
	if (!o->dry_run) {
		if (conn_opts_check(&o->conn, &errstr) == -1)
			errx(2, "%s", errstr);
		if (conn_opts_finish(&o->conn, &errstr) == -1)
			errx(2, "%s", errstr);
	}
}

/*
 * sqlexec: run a frame stream (stdin, or the --input parts as one) on a
 * server: lz -d | sqlsplit | sqlexec, or dbsnap | sqlexec.
 */
int
main(int argc, char *argv[])
{
	struct sx_opts	*o = &the_opts;
	struct sx_parts	*ps = NULL;
	int		 r, fd = STDIN_FILENO;

	parse(argc, argv);
	return_large_buffers();	/* a huge row or statement's copies */
	/* The parts are checked before anything connects. */
	if (o->ninputs > 0) {
		ps = sx_parts_open(o->inputs, o->ninputs);
		fd = sx_parts_start(ps);
		o->input_name = o->ninputs > 1 ? "the parts" : o->inputs[0];
	}
	r = sx_run(fd, o);
	if (ps != NULL && sx_parts_finish(ps, fd) == -1)
		r = -1;
	free(o->skip_marks);
	conn_opts_clear(&o->conn);
	if (o->dry_run && stdout_finish() == -1)
		err(1, "stdout");
	return r == 0 ? 0 : 1;
}
