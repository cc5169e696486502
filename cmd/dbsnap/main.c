/*
 * dbsnap: a consistent, parallel snapshot of a server's schema objects and
 * rows, written as a rowpipe-stream(5) frame stream on stdout.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"
#include "opt.h"
#include "util.h"

static struct snap_opts the_opts;

static void
push(char ***v, size_t *n, char *s)
{
	if ((*v = reallocarray(*v, *n + 1, sizeof(**v))) == NULL)
		err(1, NULL);
	(*v)[(*n)++] = s;
}

/* push() unless s is there already: a name given twice is dumped once. */
static void
push_once(char ***v, size_t *n, char *s)
{
	size_t		 i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	push(v, n, s);
}

static int
ignore_table(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct snap_opts *o = base;
	static char	 msg[256];

	if (strchr(arg, '.') == NULL) {
		snprintf(msg, sizeof(msg), "--ignore-table %s: expected "
		    "db.table", arg);
		*errstr = msg;
		return -1;
	}
	push(&o->ignore, &o->nignore, arg);
	return 0;
}

static int
add_where(void *base, const struct opt *op, char *arg, const char **errstr)
{
	struct snap_opts *o = base;
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
	return 0;
}

/* --columns TABLE:C1,C2,... */
static int
add_columns(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[256];
	struct snap_opts *o = base;
	struct columns_opt *c;
	char		*colon = strchr(arg, ':'), *list, *w;

	if (colon == NULL || colon == arg || colon[1] == '\0') {
		snprintf(msg, sizeof(msg), "--columns %s: expected "
		    "table:column,...", arg);
		*errstr = msg;
		return -1;
	}
	o->columns = reallocarray(o->columns, o->ncolumns + 1,
	    sizeof(*o->columns));
	if (o->columns == NULL || (list = strdup(colon + 1)) == NULL)
		err(1, NULL);
	c = &o->columns[o->ncolumns++];
	memset(c, 0, sizeof(*c));
	c->arg = arg;
	if ((c->table = strndup(arg, (size_t)(colon - arg))) == NULL)
		err(1, NULL);
	while ((w = strsep(&list, ",")) != NULL)
		if (*w != '\0')
			push(&c->cols, &c->ncols, w);
	return 0;
}

/* --select TABLE.COLUMN=EXPR (the table may be db.table). */
static int
add_select(void *base, const struct opt *op, char *arg, const char **errstr)
{
	static char	 msg[256];
	struct snap_opts *o = base;
	struct select_opt *e;
	char		*eq = strchr(arg, '='), *dot;

	dot = eq ? memrchr(arg, '.', (size_t)(eq - arg)) : NULL;
	if (dot == NULL || dot == arg || dot + 1 == eq || eq[1] == '\0') {
		snprintf(msg, sizeof(msg), "--select %s: expected "
		    "table.column=expression", arg);
		*errstr = msg;
		return -1;
	}
	o->selects = reallocarray(o->selects, o->nselects + 1,
	    sizeof(*o->selects));
	if (o->selects == NULL)
		err(1, NULL);
	e = &o->selects[o->nselects++];
	memset(e, 0, sizeof(*e));
	e->arg = arg;
	e->expr = eq + 1;
	if ((e->table = strndup(arg, (size_t)(dot - arg))) == NULL ||
	    (e->col = strndup(dot + 1, (size_t)(eq - dot - 1))) == NULL)
		err(1, NULL);
	return 0;
}

/* mysqldump's options for what dbsnap always does. */
static int
accepted(void *base, const struct opt *op, char *arg, const char **errstr)
{
	return 0;
}

#define F(m)	OPT_FIELD(struct snap_opts, m)
static const struct opt options[] = {
	OPT_FLAG('A', "all-databases", F(all_databases), 1,
	    "every database but the system ones"),
	OPT_STR(0, "at-gtid", "POS", F(at_gtid),
	    "on a replica: stop replication at GTID POS for the snapshot"),
	OPT_NUM(0, "chunk-rows", "N", F(chunk_rows), 1, 1000000000000LL,
	    "cut tables of more than about N rows into chunks"),
	OPT_FUNC(0, "columns", "TABLE:COL,...", add_columns, 0,
	    "read only these columns of TABLE (repeatable)"),
	OPT_FLAG('B', "databases", F(by_list), 1, "every argument is a database"),
	OPT_FLAG('E', "events", F(events), 1, "also dump events"),
	OPT_FLAG('f', "force", F(force), 1, "write the stream even to a terminal"),
	OPT_NUM(0, "gtid-wait-timeout", "SECONDS", F(gtid_wait_timeout), 1,
	    86400, "--at-gtid: give up after SECONDS"),
	OPT_FUNC(0, "ignore-table", "DB.TABLE", ignore_table, 0,
	    "leave out this table (repeatable)"),
	OPT_NUM('j', "jobs", "N", F(jobs), 1, 256,
	    "read rows over N connections at once"),
	OPT_FLAG(0, "keep-stopped", F(keep_stopped), 1,
	    "--at-gtid: leave the replica stopped at the position"),
	OPT_FLAG(0, "keep-replica-event-status", F(keep_replica_events), 1,
	    "-E on a replica: keep DISABLE ON SLAVE of replicated events"),
	OPT_FLAG(0, "list", F(list), 1, "print the tables that would be dumped"),
	OPT_NUM(0, "lock-wait-timeout", "SECONDS", F(lock_wait_timeout), 1,
	    31536000, "give up waiting for the global read lock after SECONDS"),
	OPT_FLAG('t', "no-create", F(no_create), 1,
	    "no CREATE DATABASE, TABLE or views: rows only"),
	OPT_FLAG(0, "no-create-info", F(no_create), 1, NULL),
	OPT_FLAG('d', "no-data", F(no_data), 1, "no rows, only objects"),
	OPT_FLAG(0, "no-lock", F(no_lock), 1,
	    "with -j, no global read lock (no consistency)"),
	OPT_FLAG(0, "no-progress", F(progress), 0, "no progress, no summary"),
	OPT_STR(0, "part", "I/N", F(part_spec),
	    "dump part I of a plan of N parts"),
	OPT_NUM(0, "plan", "N", F(plan_parts), 1, 1024,
	    "print a plan of N parts, and exit"),
	OPT_STR(0, "plan-file", "FILE", F(plan_file),
	    "--part: the plan that --plan printed"),
	OPT_FLAG(0, "print-position", F(print_position), 1,
	    "print the snapshot's position and its replay command on stderr"),
	OPT_FLAG(0, "progress", F(progress), 1,
	    "progress on stderr (default: if it is a terminal)"),
	OPT_FUNC('q', "quick", NULL, accepted, 0,
	    "accepted: rows are always read one by one"),
	OPT_FLAG('R', "routines", F(routines), 1,
	    "also dump functions and procedures"),
	OPT_FUNC(0, "single-transaction", NULL, accepted, 0,
	    "accepted: always one consistent snapshot"),
	OPT_FUNC(0, "select", "TABLE.COL=EXPR", add_select, 0,
	    "read EXPR, on the server, as COL (repeatable)"),
	OPT_FLAG(0, "skip-proxy-grants", F(skip_proxies), 1,
	    "--users: leave out the PROXY grants"),
	OPT_FLAG(0, "skip-triggers", F(triggers), 0, "leave out triggers"),
	OPT_FLAG(0, "no-triggers", F(triggers), 0, NULL),
	OPT_FLAG(0, "triggers", F(triggers), 1, "dump triggers"),
	OPT_FLAG(0, "users", F(users), 1,
	    "also dump accounts, roles and grants (alone: only those)"),
	OPT_FLAG('v', "verbose", F(verbose), 1, "say each step on stderr"),
	OPT_FUNC('w', "where", "[TABLE:]COND", add_where, 0,
	    "only rows where COND holds (repeatable)"),
	OPT_TABLE_END
};

static const struct opt_prog prog = {
	.name = "dbsnap",
	.usage = "usage: dbsnap " CONN_USAGE "\n"
	    "\t[-CdEfqRtv] [-j jobs] [--chunk-rows n] [-w [table:]cond]\n"
	    "\t[--columns table:col,...] [--select table.col=expr]\n"
	    "\t[--ignore-table db.table] [--skip-triggers] [--no-lock]\n"
	    "\t[--lock-wait-timeout seconds] [--progress] [--list] [--users]\n"
	    "\t[--print-position] [--plan n | --part i/n [--plan-file file]]\n"
	    "\t[--at-gtid pos [--gtid-wait-timeout seconds] [--keep-stopped]]\n"
	    "\tdb [table ...]\n"
	    "       dbsnap [options] -B db ...\n"
	    "       dbsnap [options] -A [--users]\n"
	    "       dbsnap [options] --users\n",
	.about = "A consistent snapshot of databases as a rowpipe-stream(5) stream "
	    "on stdout.",
	.version = "dbsnap " DBSNAP_VERSION,
	CONN_PROG(&the_opts.conn),
	.sets = {
		{ options, &the_opts, NULL },
		{ conn_options, &the_opts.conn, "Connection options" },
	},
};

/* --part I/N; what --plan, --part and --at-gtid do not go with. */
static void
check_parts(struct snap_opts *o)
{
	char	 c;

	if (o->part_spec != NULL && (sscanf(o->part_spec, "%u/%u%c",
	    &o->part, &o->parts, &c) != 2 || o->parts < 1 || o->parts > 1024 ||
	    o->part < 1 || o->part > o->parts))
		errx(2, "--part %s: expected I/N, 1 <= I <= N <= 1024",
		    o->part_spec);
	if (o->plan_parts > 0 && (o->parts > 0 || o->at_gtid != NULL))
		errx(2, "--plan prints a plan: --part and --at-gtid are for "
		    "dumping its parts");
	if (o->plan_file != NULL && o->parts == 0)
		errx(2, "--plan-file goes with --part I/N");
	if ((o->plan_parts > 0 || o->parts > 0) && o->nwheres > 0)
		errx(2, "--where with --plan or --part: a plan covers whole "
		    "tables");
	if (o->parts > 0 && (o->no_data || o->list))
		errx(2, "--part with --no-data or --list: a part is rows");
	if (o->plan_file != NULL && o->all_databases)
		errx(2, "--plan-file with -A: the plan names the databases");
	if (o->at_gtid != NULL && *o->at_gtid == '\0')
		errx(2, "--at-gtid: empty position");
	if (o->keep_stopped && o->at_gtid == NULL)
		errx(2, "--keep-stopped goes with --at-gtid");
	if (o->plan_parts > 0)
		o->jobs = 1;		/* the plan reads on one connection */
}

/* The reason on a line of its own, then the usage; exit 2. */
static __dead void
usage_why(const char *why)
{
	warnx("%s", why);
	opt_usage(&prog);
}

static void
parse_args(struct snap_opts *o, int argc, char *argv[])
{
	const char	*errstr;
	int		 i;

	i = opt_parse(&prog, argc, argv);
	argc -= i;
	argv += i;
	check_parts(o);
	if (o->plan_file != NULL && argc == 0 && !o->all_databases)
		;		/* the plan names the databases */
	else if (o->all_databases) {
		if (argc > 0 || o->by_list)
			usage_why("-A dumps every database: no database "
			    "arguments, no -B");
	} else if (o->by_list) {
		if (argc == 0)
			usage_why("-B: no database named");
		for (; argc > 0; argc--, argv++)
			push_once(&o->dbs, &o->ndbs, argv[0]);
	} else if (argc == 0 && o->users) {
		;			/* the accounts only */
	} else {
		if (argc == 0)
			usage_why("no database named");
		push(&o->dbs, &o->ndbs, argv[0]);
		for (argc--, argv++; argc > 0; argc--, argv++)
			push_once(&o->tables, &o->ntables, argv[0]);
	}
	if (o->plan_file != NULL)
		plan_read(o);
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

/*
 * dbsnap failed before its stream began (no server, no such database):
 * stdout is still empty, and the next program would call that "empty
 * input".  End the stream as dbsnap's own failure instead
 * (rowpipe-stream(5) ABORT, reason failed), so that each program
 * downstream says that the producer failed.  An atexit(3) handler: the
 * error paths of dbsnap call errx(3).
 */
static void
abort_unstarted(void)
{
	struct frame_writer *w;

	if (the_snap == NULL || the_snap->fw != NULL ||
	    (w = frame_writer_new(STDOUT_FILENO)) == NULL)
		return;
	(void)frame_writer_abort(w, FRAME_ABORT_FAILED, "dbsnap: it failed "
	    "before its stream began (its own message says why)");
	frame_writer_free(w);
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
	if (part_pre(s)) {
		write_objects(s, &s->users);	/* before definers name them */
		write_objects(s, &s->rolegrants);
	}
	/*
	 * Every database with its sequences first, then the tables: a
	 * table's DEFAULT NEXTVAL() needs its sequence, of any database
	 * (sequences depend on nothing; CHECK and generated columns cannot
	 * name another object).
	 */
	for (i = 0; i < s->o->ndbs && !s->o->no_create && part_pre(s); i++) {
		write_object(s, &s->dbobjs.v[i]);
		write_table_objects(s, i, 1);
	}
	for (i = 0; i < s->o->ndbs && !s->o->no_create && part_pre(s); i++)
		write_table_objects(s, i, 0);
	/* A failure from here on leaves a visibly truncated stream. */
	if (frame_writer_flush(s->fw) == -1) {
		if (errno == EPIPE)
			exit(1);
		errx(1, "stdout: %s", frame_writer_errstr(s->fw));
	}
}

/* -v: one line on stderr for each step. */
static void
say(const struct snap *s, const char *fmt, ...)
{
	va_list	 ap;

	if (!s->o->verbose)
		return;
	progress_clear(s->prog);
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

static const char *
header_get(const struct snap *s, const char *key)
{
	size_t	 i;

	for (i = 0; i < s->header.n; i++)
		if (strcmp(s->header.key[i], key) == 0 &&
		    *s->header.val[i] != '\0')
			return s->header.val[i];
	return NULL;
}

/*
 * --print-position, -v: the snapshot's binary log position and the
 * mariadb-binlog(1) command that replays what came after it, on stderr
 * (rowpipe(7), "Point-in-time recovery"), as mysqldump --master-data
 * records it in the dump and mydumper in its metadata file.  The GTID
 * form is given where there is one: on a replica stopped by --at-gtid it
 * is the primary's position (gtid_pos), valid on every server's logs.
 */
static void
print_position(const struct snap *s)
{
	const char	*file, *pos, *gtid, *from;

	if (!s->o->print_position && !s->o->verbose)
		return;
	file = header_get(s, "binlog_file");
	pos = header_get(s, "binlog_pos");
	if ((gtid = header_get(s, "gtid_pos")) == NULL)
		gtid = header_get(s, "gtid_binlog_pos");
	if (file == NULL || pos == NULL) {
		warnx("position: none: binary logging is off on the server, "
		    "no binary log to replay after this snapshot");
		return;
	}
	from = gtid != NULL ? gtid : pos;
	warnx("position: %s %s, GTID %s; replay after a restore: "
	    "mariadb-binlog --start-position=%s %s ... | sqlsplit | sqlexec",
	    file, pos, gtid != NULL ? gtid : "none", from, file);
}

static void
say_done(const struct snap *s)
{
	uint64_t	 tables, rows, bytes;

	if (!s->o->verbose)
		return;
	progress_get(s->prog, &tables, &rows, &bytes);
	say(s, "done: %" PRIu64 " of %zu tables, %" PRIu64 " rows, %" PRIu64
	    " bytes of stream", tables, s->ntables, rows, bytes);
}

int
main(int argc, char *argv[])
{
	struct snap_opts *o = &the_opts;
	static struct snap s;
	const char	*errstr;

	o->conn.program = "dbsnap";
	o->triggers = 1;
	o->jobs = 1;
	o->chunk_rows = 100000;
	o->lock_wait_timeout = 60;
	o->gtid_wait_timeout = 60;
	o->conn.read_timeout = DBSNAP_READ_TIMEOUT;
	o->progress = -1;
	parse_args(o, argc, argv);
	if (!o->list && !o->plan_parts && !o->force)
		refuse_terminal(STDOUT_FILENO, "write a frame stream there",
		    "redirect it, or use --force");
	if (conn_opts_finish(&o->conn, &errstr) == -1)
		errx(2, "%s", errstr);

	s.o = o;
	the_snap = &s;
	if (!o->list && !o->plan_parts)
		atexit(abort_unstarted);
	pthread_mutex_init(&s.out_mu, NULL);
	if (mysql_library_init(0, NULL, NULL) != 0)
		errx(1, "mysql_library_init failed");
	if ((s.conns = calloc(o->jobs, sizeof(*s.conns))) == NULL)
		err(1, NULL);
	s.conns[0] = session_open(&s);
	say(&s, "connected to %s", mysql_get_server_info(s.conns[0]));
	discover_tables(&s);
	say(&s, "%zu tables and views in %zu databases", s.ntables, o->ndbs);
	if (o->list) {
		list_tables(&s);
		if (stdout_finish() == -1)
			err(1, "stdout");
		return 0;
	}
	if (o->plan_parts > 0) {
		session_snapshot(&s);
		discover_details(&s);
		warn_nontransactional(&s);
		plan_print(&s);
		if (stdout_finish() == -1)
			err(1, "stdout");
		return 0;
	}
	check_readable(&s);
	open_connections(&s);
	if (o->at_gtid != NULL)
		replica_stop_at(&s);
	session_snapshot(&s);
	if (o->at_gtid != NULL)
		replica_restart(&s);
	say(&s, "snapshot on %u connection%s: consistency=%s", o->jobs,
	    o->jobs == 1 ? "" : "s", s.consistency);
	print_position(&s);
	discover_details(&s);
	if (o->parts > 0)
		part_begin(&s);
	if (o->users)
		discover_users(&s);
	count_left_out(&s);
	say(&s, "%zu routines, %zu views, %zu triggers, %zu events, %zu users "
	    "and roles, %zu grants", s.routines.n, s.views.n, s.triggers.n,
	    s.events.n, s.users.n, s.rolegrants.n + s.grants.n +
	    s.proxies.n);
	if (!o->no_data) {
		plan_chunks(&s);
		warn_nontransactional(&s);
	}
	conn_opts_clear(&o->conn);

	if ((s.prog = progress_new("dbsnap", "tables", o->progress)) == NULL ||
	    (s.fw = frame_writer_new(STDOUT_FILENO)) == NULL)
		err(1, NULL);
	grow_pipe(STDOUT_FILENO);
	write_schema(&s);
	if (!o->no_data)
		run_workers(&s);
	if (part_post(&s)) {
		write_objects(&s, &s.routines);
		write_objects(&s, &s.views);
		write_objects(&s, &s.triggers);
		write_objects(&s, &s.events);
		write_objects(&s, &s.grants);	/* after what they grant on */
		write_objects(&s, &s.proxies);	/* what root alone restores */
	}
	if (frame_writer_close(s.fw) == -1) {
		if (errno == EPIPE)
			exit(1);
		errx(1, "stdout: %s", frame_writer_errstr(s.fw));
	}
	progress_done(s.prog);
	say_done(&s);
	if (part_post(&s))
		report_left_out(&s);
	return 0;
}
