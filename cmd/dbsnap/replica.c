/*
 * replica: --at-gtid POS, a snapshot of a replica exactly at a GTID
 * position, so that parts dumped from several replicas make one
 * consistent dump without stopping the primary (#19).
 *
 * MariaDB (KB "START SLAVE", "MASTER_GTID_WAIT", "Global Transaction
 * ID"): STOP SLAVE, START SLAVE UNTIL master_gtid_pos = POS (both threads
 * stop there), MASTER_GTID_WAIT(POS), the SQL thread seen stopped, and
 * @@gtid_slave_pos equal to POS.  MySQL (Reference Manual, "START
 * REPLICA", "WAIT_FOR_EXECUTED_GTID_SET"): STOP REPLICA SQL_THREAD,
 * START REPLICA SQL_THREAD UNTIL SQL_AFTER_GTIDS = POS,
 * WAIT_FOR_EXECUTED_GTID_SET(POS), and @@gtid_executed equal to POS as
 * a set (GTID_SUBSET both ways).  Then the snapshot starts on every
 * connection, and replication is started again as it was found.
 *
 * A DBA does not forgive a replica left stopped: from the first STOP on,
 * every way out (an error through die(), a timeout, SIGINT, SIGTERM,
 * SIGHUP) starts replication again first; but --keep-stopped, asked for
 * by a replica that serves several parts of one plan, leaves it at POS
 * once it is there, on success and on failure alike (a part retried on
 * it needs POS), and says so.  The signals are blocked while
 * replication is stopped and looked at between the waits, which are cut
 * into slices of one second.  Only SIGKILL (or a lost server) can leave
 * it stopped; dbsnap then says so if it can.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

struct replica {
	MYSQL		*m;		/* its own connection */
	int		 mariadb;
	int		 replica_kw;	/* MySQL 8.0.22+: REPLICA, not SLAVE */
	int		 io_was, sql_was;	/* running when found */
	int		 touched;	/* stopped by us: restore on the way out */
	int		 at_pos;	/* stopped at POS: --keep-stopped keeps it */
	int		 blocked;
	sigset_t	 sigs, oldmask;
	const char	*pos;
};

/* A MariaDB GTID: domain-server-seq. */
struct gtid {
	uint32_t	 domain, server;
	uint64_t	 seq;
};

enum gtid_rel { G_EQUAL, G_BEHIND, G_PAST, G_OTHER };

static int
cmp_gtid(const void *a, const void *b)
{
	const struct gtid *x = a, *y = b;

	return x->domain < y->domain ? -1 : x->domain > y->domain;
}

/*
 * A MariaDB GTID position ("0-1-100,1-2-7", or ""), sorted by domain;
 * the count, or -1 if it is not one (or names a domain twice).
 */
static ssize_t
parse_pos(const char *s, struct gtid *g, size_t max)
{
	unsigned long long d, sv, n;
	size_t	 k = 0, i;
	int	 used;

	while (*s == ' ')
		s++;
	if (*s == '\0')
		return 0;
	for (;;) {
		if (k == max || sscanf(s, "%llu-%llu-%llu%n", &d, &sv, &n,
		    &used) != 3 || *s < '0' || *s > '9' || d > UINT32_MAX ||
		    sv > UINT32_MAX)
			return -1;
		g[k].domain = (uint32_t)d;
		g[k].server = (uint32_t)sv;
		g[k++].seq = n;
		s += used;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		if (*s++ != ',')
			return -1;
		while (*s == ' ' || *s == '\n')
			s++;
	}
	qsort(g, k, sizeof(*g), cmp_gtid);
	for (i = 1; i < k; i++)
		if (g[i].domain == g[i - 1].domain)
			return -1;
	return (ssize_t)k;
}

/* Where the replica at cur stands to pos. */
static enum gtid_rel
relate(const struct gtid *cur, size_t ncur, const struct gtid *pos,
    size_t npos)
{
	size_t	 i, j;
	int	 behind = ncur < npos;

	for (i = 0; i < ncur; i++) {
		for (j = 0; j < npos && pos[j].domain != cur[i].domain; j++)
			;
		if (j == npos)
			return G_OTHER;
		if (cur[i].seq > pos[j].seq)
			return G_PAST;
		if (cur[i].seq < pos[j].seq)
			behind = 1;
		else if (cur[i].server != pos[j].server)
			return G_OTHER;
	}
	return behind ? G_BEHIND : G_EQUAL;
}

static struct replica *
rep(struct snap *s)
{
	return s->replica;
}

static const char *
kw(struct replica *r)
{
	return r->replica_kw ? "REPLICA" : "SLAVE";
}

/* One value of a one-row query on r->m, owned; NULL for SQL NULL. */
static char *
value(struct snap *s, const char *what, const char *q)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	char		*v = NULL;

	res = sql_query(rep(s)->m, what, q, strlen(q));
	if (res != NULL && (row = mysql_fetch_row(res)) != NULL)
		v = dup_col(res, row, 0);
	if (res != NULL)
		mysql_free_result(res);
	return v;
}

static int
yes(const char *v)
{
	return v != NULL && strcasecmp(v, "Yes") == 0;
}

/* Replica status: 0, or -1 if the server is not a replica. */
static int
status(struct snap *s, int *io, int *sql, char **using_gtid)
{
	struct replica	*r = rep(s);
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	const char	*v;

	buf_addf(&q, "SHOW %s STATUS", kw(r));
	must(&q);
	res = sql_query(r->m, "replica status", q.p, q.len);
	buf_release(&q);
	if (res == NULL || (row = mysql_fetch_row(res)) == NULL) {
		if (res != NULL)
			mysql_free_result(res);
		return -1;
	}
	if ((v = row_col(res, row, "Slave_IO_Running", NULL)) == NULL)
		v = row_col(res, row, "Replica_IO_Running", NULL);
	*io = yes(v);
	if ((v = row_col(res, row, "Slave_SQL_Running", NULL)) == NULL)
		v = row_col(res, row, "Replica_SQL_Running", NULL);
	*sql = yes(v);
	if (using_gtid != NULL) {
		v = row_col(res, row, "Using_Gtid", NULL);
		*using_gtid = v != NULL ? xstrdup(v) : NULL;
	}
	mysql_free_result(res);
	return 0;
}

/* The statement that starts replication again as it was found, or NULL. */
static const char *
restart_sql(struct replica *r, char *b, size_t len)
{
	const char	*which;

	if (r->mariadb && r->io_was && r->sql_was)
		which = "";
	else if (r->mariadb && r->io_was)
		which = " IO_THREAD";
	else if (r->sql_was)
		which = " SQL_THREAD";	/* MySQL: only it was stopped */
	else
		return NULL;
	snprintf(b, len, "START %s%s", kw(r), which);
	return b;
}

static void
unblock(struct replica *r)
{
	if (r->blocked) {
		r->blocked = 0;
		pthread_sigmask(SIG_SETMASK, &r->oldmask, NULL);
	}
}

/* --keep-stopped: the replica stays at POS; say what starts it again. */
static void
kept_stopped(struct replica *r)
{
	warnx("note: replication left stopped at %s (--keep-stopped): run "
	    "START %s on the replica when its last part is done", r->pos,
	    kw(r));
}

/*
 * On every way out once replication was stopped.  No die() in here: it
 * calls this.  A second connection if the first is gone.
 */
void
replica_restore(struct snap *s)
{
	struct replica	*r = s != NULL ? rep(s) : NULL;
	const char	*q;
	char		 b[64], e[512];
	MYSQL		*m;

	if (r == NULL || !r->touched)
		return;
	r->touched = 0;
	if (r->at_pos && s->o->keep_stopped)
		kept_stopped(r);
	else if ((q = restart_sql(r, b, sizeof(b))) != NULL) {
		/* Threads still running with the UNTIL refuse a START. */
		snprintf(e, sizeof(e), r->mariadb ? "STOP %s" :
		    "STOP %s SQL_THREAD", kw(r));
		(void)mysql_query(r->m, e);
		if (mysql_query(r->m, q) != 0) {
			m = conn_open(&s->o->conn, NULL, 0, e, sizeof(e));
			if (m == NULL || mysql_query(m, q) != 0) {
				if (m != NULL)
					conn_strerror(m, e, sizeof(e));
				warnx("warning: replication was stopped for "
				    "--at-gtid and could not be started again "
				    "(%s): run %s on the replica", e, q);
			} else
				warnx("replication started again (%s)", q);
			if (m != NULL)
				mysql_close(m);
		} else
			warnx("replication started again (%s)", q);
	}
	unblock(r);
}

/* A signal that arrived while replication was stopped: restore, die. */
static void
check_signals(struct snap *s)
{
	struct replica	*r = rep(s);
	sigset_t	 pend;
	int		 sig;

	if (sigpending(&pend) == -1)
		return;
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&r->sigs, sig) && sigismember(&pend, sig))
			break;
	if (sig == NSIG)
		return;
	warnx("%s: stopping", strsignal(sig));
	replica_restore(s);	/* unblocks: the signal ends dbsnap */
	exit(1);
}

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
exec_q(struct snap *s, const char *what, const char *q)
{
	sql_exec(rep(s)->m, what, q, strlen(q));
}

/* Where the replica is against POS now (MariaDB: the SQL thread's). */
static enum gtid_rel
where(struct snap *s, const struct gtid *pos, size_t npos, char **curp)
{
	struct replica	*r = rep(s);
	struct gtid	 cur[256];
	struct buf	 q = BUF_INIT;
	ssize_t		 n;
	char		*v, *sub2;
	enum gtid_rel	 rel;

	if (r->mariadb) {
		v = value(s, "replica position", "SELECT @@GLOBAL.gtid_slave_pos");
		if (v == NULL || (n = parse_pos(v, cur, 256)) == -1)
			die(s, "--at-gtid: cannot read @@gtid_slave_pos (%s)",
			    v != NULL ? v : "NULL");
		*curp = v;
		return relate(cur, (size_t)n, pos, npos);
	}
	*curp = value(s, "replica position", "SELECT @@GLOBAL.gtid_executed");
	buf_adds(&q, "SELECT GTID_SUBSET(@@GLOBAL.gtid_executed, ");
	lit(&q, r->pos);
	buf_adds(&q, ")");
	must(&q);
	v = value(s, "replica position", q.p);
	buf_reset(&q);
	buf_adds(&q, "SELECT GTID_SUBSET(");
	lit(&q, r->pos);
	buf_adds(&q, ", @@GLOBAL.gtid_executed)");
	must(&q);
	sub2 = value(s, "replica position", q.p);
	rel = v == NULL || strcmp(v, "1") != 0 ? G_PAST :
	    sub2 != NULL && strcmp(sub2, "1") == 0 ? G_EQUAL : G_BEHIND;
	free(v);
	free(sub2);
	buf_release(&q);
	return rel;
}

/* Wait for POS in slices, up to the deadline; 0, or -1 on timeout. */
static int
wait_pos(struct snap *s, double deadline)
{
	struct replica	*r = rep(s);
	struct buf	 q = BUF_INIT;
	char		*v;
	double		 left;
	int		 got;

	for (;;) {
		check_signals(s);
		if ((left = deadline - now()) <= 0)
			return -1;
		buf_reset(&q);
		buf_adds(&q, r->mariadb ? "SELECT MASTER_GTID_WAIT(" :
		    "SELECT WAIT_FOR_EXECUTED_GTID_SET(");
		lit(&q, r->pos);
		buf_addf(&q, ", %.3f)", left < 1 ? left : 1.0);
		must(&q);
		v = value(s, "wait for the position", q.p);
		got = v != NULL && strcmp(v, "0") == 0;
		free(v);
		if (got)
			break;
	}
	buf_release(&q);
	return 0;
}

/* After POS: the UNTIL stops the SQL thread; wait until it shows. */
static int
wait_stopped(struct snap *s, double deadline)
{
	struct timespec	 ts = { 0, 50 * 1000 * 1000 };
	int		 io, sql;

	for (;;) {
		check_signals(s);
		if (status(s, &io, &sql, NULL) == -1)
			die(s, "--at-gtid: the server stopped being a replica");
		if (!sql)
			return 0;
		if (now() > deadline)
			return -1;
		nanosleep(&ts, NULL);
	}
}

static void
open_replica(struct snap *s)
{
	struct replica	*r;
	const char	*v;
	char		*using = NULL;

	r = s->replica = xcalloc(1, sizeof(*r));
	r->pos = s->o->at_gtid;
	r->m = session_open(s);
	v = mysql_get_server_info(r->m);
	r->mariadb = v != NULL && strstr(v, "MariaDB") != NULL;
	r->replica_kw = !r->mariadb && mysql_get_server_version(r->m) >= 80022;
	if (status(s, &r->io_was, &r->sql_was, &using) == -1)
		die(s, "--at-gtid: the server is not a replica (SHOW %s "
		    "STATUS is empty)", kw(r));
	if (r->mariadb && (using == NULL || strcasecmp(using, "No") == 0))
		die(s, "--at-gtid: replication does not use GTIDs "
		    "(Using_Gtid: No): CHANGE MASTER TO master_use_gtid="
		    "slave_pos first");
	free(using);
}

void
replica_stop_at(struct snap *s)
{
	struct replica	*r;
	struct gtid	 pos[256];
	ssize_t		 npos = 0;
	struct buf	 q = BUF_INIT;
	char		*cur = NULL;
	double		 deadline;
	unsigned	 tmo = s->o->gtid_wait_timeout;
	enum gtid_rel	 rel;

	die_undo(replica_restore);
	open_replica(s);
	r = rep(s);
	if (r->mariadb && (npos = parse_pos(r->pos, pos, 256)) <= 0)
		die(s, "--at-gtid %s: not a GTID position (domain-server-"
		    "sequence, comma-separated, one per domain)", r->pos);
	/* Past it already: refused before replication is touched. */
	if ((rel = where(s, pos, (size_t)npos, &cur)) == G_PAST ||
	    rel == G_OTHER)
		die(s, "--at-gtid %s: the replica has executed %s, past or "
		    "beside that position: it cannot stop there", r->pos, cur);
	free(cur);

	sigemptyset(&r->sigs);
	sigaddset(&r->sigs, SIGINT);
	sigaddset(&r->sigs, SIGTERM);
	sigaddset(&r->sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &r->sigs, &r->oldmask);
	r->blocked = 1;
	deadline = now() + tmo;
	buf_addf(&q, r->mariadb ? "STOP %s" : "STOP %s SQL_THREAD", kw(r));
	must(&q);
	/* A STOP that failed stopped nothing: no restart to claim then. */
	if (r->sql_was || (r->mariadb && r->io_was))
		exec_q(s, "stop replication", q.p);
	r->touched = 1;
	if ((rel = where(s, pos, (size_t)npos, &cur)) == G_BEHIND) {
		free(cur);
		buf_reset(&q);
		buf_addf(&q, r->mariadb ? "START %s UNTIL master_gtid_pos = " :
		    "START %s SQL_THREAD UNTIL SQL_AFTER_GTIDS = ", kw(r));
		lit(&q, r->pos);
		must(&q);
		exec_q(s, "start replication until the position", q.p);
		if (wait_pos(s, deadline) == -1 ||
		    wait_stopped(s, deadline + 10) == -1) {
			(void)where(s, pos, (size_t)npos, &cur);
			die(s, "--at-gtid %s: the replica did not reach it "
			    "within %u s (--gtid-wait-timeout): it is at %s",
			    r->pos, tmo, cur != NULL ? cur : "?");
		}
		rel = where(s, pos, (size_t)npos, &cur);
	}
	if (rel != G_EQUAL)
		die(s, "--at-gtid %s: the replica stopped at %s, not there",
		    r->pos, cur != NULL ? cur : "?");
	r->at_pos = 1;
	free(cur);
	buf_release(&q);
	check_signals(s);
}

void
replica_restart(struct snap *s)
{
	struct replica	*r = rep(s);
	const char	*q;
	char		 b[64], e[64];

	check_signals(s);
	if (s->o->keep_stopped) {
		if (r->io_was || r->sql_was)
			kept_stopped(r);
	} else if ((q = restart_sql(r, b, sizeof(b))) != NULL) {
		snprintf(e, sizeof(e), r->mariadb ? "STOP %s" :
		    "STOP %s SQL_THREAD", kw(r));
		exec_q(s, "restart replication", e);
		exec_q(s, "restart replication", q);	/* without the UNTIL */
	}
	r->touched = 0;
	attrs_add(&s->header, "gtid_pos", r->pos);
	mysql_close(r->m);
	r->m = NULL;
	unblock(r);
}
