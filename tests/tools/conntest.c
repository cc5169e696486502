/*
 * conntest: connect with lib/conn options, run one query, print its rows.
 *
 *	conntest [connection options] [-D db] [-K] [-T threads] -e query
 *
 * With -K, the connection's socket options are printed first, as one
 * line: "keepalive=1 idle=30 intvl=10 cnt=9 user_timeout=120000
 * connect_timeout=30" (-1 for one the system does not have), read back
 * with getsockopt(2) and mysql_get_optionv(), so that
 * a test sees what lib/conn set without a kernel's socket diagnostics.
 * With -T, that many threads each open a connection at once and run the
 * query (conn_open() must be thread-safe); rows are printed per thread.
 * Rows go to stdout, tab-separated, NULL as "NULL".  Exit 0 on success,
 * 1 on a connection or query error, 2 on a usage error.  For the shell
 * tests of lib/conn (tests/cmd/t01*-conn-*.t).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "opt.h"
#include "util.h"

struct args {
	struct conn_opts	 co;
	const char		*query, *db;
	int			 threads, sockopts;
};

#define F(m)	OPT_FIELD(struct args, m)
static const struct opt options[] = {
	OPT_STR('e', "execute", "QUERY", F(query), "run QUERY"),
	OPT_STR('D', "database", "DB", F(db), "the default database"),
	OPT_NUM('T', "threads", "N", F(threads), 1, 64, "connect N times at once"),
	OPT_FLAG('K', "socket-options", F(sockopts), 1,
	    "print the socket's keepalive options first"),
	OPT_TABLE_END
};

struct job {
	const struct conn_opts	*co;
	const char		*db, *query;
	pthread_mutex_t		*out;
	int			 rc;
};

static int	 run(MYSQL *, const char *);

/* getsockopt(2) of one int option, or -1. */
static int
sockopt(int fd, int level, int name)
{
	int		 v;
	socklen_t	 len = sizeof(v);

	return getsockopt(fd, level, name, &v, &len) == 0 ? v : -1;
}

static void
print_sockopts(MYSQL *m)
{
	int	 fd = conn_socket(m), idle = -1, intvl = -1, cnt = -1, user = -1;

#ifdef TCP_KEEPIDLE
	idle = sockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE);
	intvl = sockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL);
	cnt = sockopt(fd, IPPROTO_TCP, TCP_KEEPCNT);
#endif
#ifdef TCP_USER_TIMEOUT
	user = sockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT);
#endif
	unsigned ct = 0;

	(void)mysql_get_optionv(m, MYSQL_OPT_CONNECT_TIMEOUT, &ct);
	printf("keepalive=%d idle=%d intvl=%d cnt=%d user_timeout=%d "
	    "connect_timeout=%u\n", sockopt(fd, SOL_SOCKET, SO_KEEPALIVE),
	    idle, intvl, cnt, user, ct);
}

static void *
job(void *arg)
{
	struct job	*j = arg;
	MYSQL		*m;
	char		 ebuf[512];

	if ((m = conn_open(j->co, j->db, 0, ebuf, sizeof(ebuf))) == NULL) {
		warnx("%s", ebuf);
		j->rc = -1;
		return NULL;
	}
	pthread_mutex_lock(j->out);
	j->rc = run(m, j->query);
	pthread_mutex_unlock(j->out);
	mysql_close(m);
	return NULL;
}

static int
run_threads(const struct conn_opts *co, const char *db, const char *query,
    int n)
{
	pthread_mutex_t	 out = PTHREAD_MUTEX_INITIALIZER;
	pthread_t	 t[64];
	struct job	 j[64];
	int		 i, rc = 0;

	for (i = 0; i < n; i++) {
		j[i] = (struct job){ co, db, query, &out, 0 };
		if ((errno = pthread_create(&t[i], NULL, job, &j[i])) != 0)
			err(1, "pthread_create");
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		if (j[i].rc == -1)
			rc = -1;
	}
	return rc;
}

static int
run(MYSQL *m, const char *query)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	unsigned	 i, n;
	char		 ebuf[512];

	if (mysql_query(m, query) != 0) {
		warnx("query: %s", conn_strerror(m, ebuf, sizeof(ebuf)));
		return -1;
	}
	if ((res = mysql_store_result(m)) == NULL) {
		if (mysql_field_count(m) != 0) {
			warnx("result: %s", conn_strerror(m, ebuf,
			    sizeof(ebuf)));
			return -1;
		}
		return 0;
	}
	n = mysql_num_fields(res);
	while ((row = mysql_fetch_row(res)) != NULL)
		for (i = 0; i < n; i++)
			printf("%s%c", row[i] != NULL ? row[i] : "NULL",
			    i + 1 < n ? '\t' : '\n');
	mysql_free_result(res);
	return 0;
}

int
main(int argc, char *argv[])
{
	static struct args	 a = { .co = { .program = "conntest" } };
	static const struct opt_prog prog = {
		.name = "conntest",
		.usage = "usage: conntest " CONN_USAGE
		    " [-D db] [-K] [-T threads] -e query\n",
		.version = "conntest",
		CONN_PROG(&a.co),
		.sets = { { options, &a, NULL },
		    { conn_options, &a.co, "Connection options" } },
	};
	struct conn_opts	*co = &a.co;
	const char		*errstr;
	char			 ebuf[512];
	MYSQL			*m;
	int			 r;

	if (opt_parse(&prog, argc, argv) != argc || a.query == NULL)
		opt_usage(&prog);
	if (conn_opts_finish(co, &errstr) == -1)
		errx(1, "%s", errstr);
	if (a.threads > 0) {
		r = run_threads(co, a.db, a.query, a.threads);
		conn_opts_clear(co);
		if (stdout_finish() == -1)
			err(1, "stdout");
		return r == -1 ? 1 : 0;
	}
	if ((m = conn_open(co, a.db, 0, ebuf, sizeof(ebuf))) == NULL)
		errx(1, "%s", ebuf);
	conn_opts_clear(co);
	if (a.sockopts)
		print_sockopts(m);
	r = run(m, a.query);
	mysql_close(m);
	if (stdout_finish() == -1)
		err(1, "stdout");
	return r == -1 ? 1 : 0;
}
