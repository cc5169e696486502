/*
 * dbsnap: a consistent, parallel snapshot of a server's schema objects and
 * rows, written as a rowpipe(5) frame stream on stdout.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

#include "dbsnap.h"
#include "util.h"

struct snap *the_snap;

enum {
	OPT_IGNORE_TABLE = CONN_OPT_MAX,
	OPT_NO_DATA,
	OPT_NO_CREATE,
	OPT_ROUTINES,
	OPT_TRIGGERS,
	OPT_SKIP_TRIGGERS,
	OPT_EVENTS,
	OPT_CHUNK_ROWS,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
	OPT_LIST,
	OPT_NO_LOCK,
	OPT_HELP
};

static const struct option longopts[] = {
	CONN_LONGOPTS,
	{ "all-databases",	no_argument,	   NULL, 'A' },
	{ "databases",		no_argument,	   NULL, 'B' },
	{ "ignore-table",	required_argument, NULL, OPT_IGNORE_TABLE },
	{ "where",		required_argument, NULL, 'w' },
	{ "no-data",		no_argument,	   NULL, 'd' },
	{ "no-create",		no_argument,	   NULL, 't' },
	{ "routines",		no_argument,	   NULL, 'R' },
	{ "triggers",		no_argument,	   NULL, OPT_TRIGGERS },
	{ "skip-triggers",	no_argument,	   NULL, OPT_SKIP_TRIGGERS },
	{ "no-triggers",	no_argument,	   NULL, OPT_SKIP_TRIGGERS },
	{ "events",		no_argument,	   NULL, 'E' },
	{ "jobs",		required_argument, NULL, 'j' },
	{ "chunk-rows",		required_argument, NULL, OPT_CHUNK_ROWS },
	{ "progress",		no_argument,	   NULL, OPT_PROGRESS },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "list",		no_argument,	   NULL, OPT_LIST },
	{ "no-lock",		no_argument,	   NULL, OPT_NO_LOCK },
	{ "force",		no_argument,	   NULL, 'f' },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL,			0,		   NULL, 0 }
};

static __dead void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s " CONN_USAGE "\n"
	    "\t[-dfRtE] [-j jobs] [--chunk-rows n] [-w [table:]cond]\n"
	    "\t[--ignore-table db.table] [--skip-triggers] [--no-lock]\n"
	    "\t[--progress] [--list] db [table ...]\n"
	    "       %s [options] -B db ...\n"
	    "       %s [options] -A\n",
	    getprogname(), getprogname(), getprogname());
	stdout_exit(status);
}

static void
push(char ***v, size_t *n, char *s)
{
	if ((*v = reallocarray(*v, *n + 1, sizeof(**v))) == NULL)
		err(1, NULL);
	(*v)[(*n)++] = s;
}

static void
add_where(struct snap_opts *o, char *arg)
{
	struct where_opt *w;
	char		*colon;

	o->wheres = reallocarray(o->wheres, o->nwheres + 1, sizeof(*o->wheres));
	if (o->wheres == NULL)
		err(1, NULL);
	w = &o->wheres[o->nwheres++];
	w->table = NULL;
	w->cond = arg;
	/* TABLE:COND if the prefix names a dumped table (checked later). */
	if ((colon = strchr(arg, ':')) != NULL && colon != arg) {
		if ((w->table = strndup(arg, (size_t)(colon - arg))) == NULL)
			err(1, NULL);
		w->cond = colon + 1;
	}
}

static void
parse_args(struct snap_opts *o, int argc, char *argv[])
{
	const char	*errstr;
	int		 ch, r, by_list = 0;

	while ((ch = getopt_long(argc, argv, CONN_SHORTOPTS "ABw:dtREj:fV",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'A':
			o->all_databases = 1;
			break;
		case 'B':
			by_list = 1;
			break;
		case OPT_IGNORE_TABLE:
			if (strchr(optarg, '.') == NULL)
				errx(2, "--ignore-table %s: expected db.table",
				    optarg);
			push(&o->ignore, &o->nignore, optarg);
			break;
		case 'w':
			add_where(o, optarg);
			break;
		case 'd':
			o->no_data = 1;
			break;
		case 't':
			o->no_create = 1;
			break;
		case 'R':
			o->routines = 1;
			break;
		case OPT_TRIGGERS:
			o->triggers = 1;
			break;
		case OPT_SKIP_TRIGGERS:
			o->triggers = 0;
			break;
		case 'E':
			o->events = 1;
			break;
		case 'j':
			o->jobs = strtonum(optarg, 1, 256, &errstr);
			if (errstr != NULL)
				errx(2, "-j %s: %s", optarg, errstr);
			break;
		case OPT_CHUNK_ROWS:
			o->chunk_rows = strtonum(optarg, 1, 1000000000000LL,
			    &errstr);
			if (errstr != NULL)
				errx(2, "--chunk-rows %s: %s", optarg, errstr);
			break;
		case OPT_PROGRESS:
			o->progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o->progress = 0;
			break;
		case OPT_LIST:
			o->list = 1;
			break;
		case OPT_NO_LOCK:
			o->no_lock = 1;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'V':
			printf("dbsnap %s\n", DBSNAP_VERSION);
			stdout_exit(0);
		case OPT_HELP:
			usage(0);
		default:
			r = conn_getopt(&o->conn, ch, optarg, &errstr);
			if (r == -1)
				errx(2, "%s", errstr);
			if (r == 0)
				usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (o->all_databases) {
		if (argc > 0 || by_list)
			usage(2);
	} else if (by_list) {
		if (argc == 0)
			usage(2);
		for (; argc > 0; argc--, argv++)
			push(&o->dbs, &o->ndbs, argv[0]);
	} else {
		if (argc == 0)
			usage(2);
		push(&o->dbs, &o->ndbs, argv[0]);
		for (argc--, argv++; argc > 0; argc--, argv++)
			push(&o->tables, &o->ntables, argv[0]);
	}
	if (conn_opts_check(&o->conn, &errstr) == -1)
		errx(2, "%s", errstr);
}

static void
open_connections(struct snap *s)
{
	unsigned	 i;

	for (i = 1; i < s->o->jobs; i++)
		s->conns[i] = session_open(s);
}

/* A bigger pipe: fewer wake-ups between dbsnap and its reader. */
static void
grow_pipe(int fd)
{
	struct stat	 st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

/* Header, then per database its CREATE DATABASE and its tables. */
static void
write_schema(struct snap *s)
{
	size_t	 i;

	write_header(s);
	for (i = 0; i < s->o->ndbs && !s->o->no_create; i++) {
		write_object(s, &s->dbobjs.v[i]);
		write_table_objects(s, s->o->dbs[i]);
	}
	/* A failure from here on leaves a visibly truncated stream. */
	if (frame_writer_flush(s->fw) == -1) {
		if (errno == EPIPE)
			exit(1);
		errx(1, "stdout: %s", frame_writer_errstr(s->fw));
	}
}

int
main(int argc, char *argv[])
{
	static struct snap_opts o;
	static struct snap s;

	o.conn.program = "dbsnap";
	o.triggers = 1;
	o.jobs = 1;
	o.chunk_rows = 100000;
	o.progress = -1;
	parse_args(&o, argc, argv);
	if (!o.list && !o.force && isatty(STDOUT_FILENO))
		errx(2, "stdout is a terminal: refusing to write a binary "
		    "stream there (redirect it, or use --force)");
	if (conn_opts_finish(&o.conn) == -1)
		err(2, "password");

	s.o = &o;
	the_snap = &s;
	pthread_mutex_init(&s.out_mu, NULL);
	if (mysql_library_init(0, NULL, NULL) != 0)
		errx(1, "mysql_library_init failed");
	if ((s.conns = calloc(o.jobs, sizeof(*s.conns))) == NULL)
		err(1, NULL);
	s.conns[0] = session_open(&s);
	discover_tables(&s);
	if (o.list) {
		list_tables(&s);
		if (stdout_finish() == -1)
			err(1, "stdout");
		return 0;
	}
	open_connections(&s);
	session_snapshot(&s);
	discover_details(&s);
	if (!o.no_data)
		plan_chunks(&s);
	conn_opts_clear(&o.conn);

	if ((s.prog = progress_new("dbsnap", "tables", o.progress)) == NULL ||
	    (s.fw = frame_writer_new(STDOUT_FILENO)) == NULL)
		err(1, NULL);
	grow_pipe(STDOUT_FILENO);
	write_schema(&s);
	if (!o.no_data)
		run_workers(&s);
	write_objects(&s, &s.routines);
	write_objects(&s, &s.views);
	write_objects(&s, &s.triggers);
	write_objects(&s, &s.events);
	if (frame_writer_close(s.fw) == -1) {
		if (errno == EPIPE)
			exit(1);
		errx(1, "stdout: %s", frame_writer_errstr(s.fw));
	}
	progress_done(s.prog);
	return 0;
}
