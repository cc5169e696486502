/*
 * worker: the threads that run units, and the production executor
 * (engine.h's struct sx_exec over libmysqlclient) whose operations the
 * commit protocol (commit.c) calls.
 *
 * A unit is sent as multi-statement round trips (CLIENT_MULTI_STATEMENTS,
 * MariaDB Connector/C mysql_next_result(3)): the server runs the
 * statements of a round trip in order and stops at the first error, so
 * counting the results tells which statement failed.  Warnings: a
 * statement's text is available only while it is the last one run on
 * its connection (SHOW WARNINGS), so a unit whose warnings are wanted
 * (the first few, or --strict) and came from a statement inside a round
 * trip is rolled back and run again one statement per round trip.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <errmsg.h>
#include <mysqld_error.h>

#include "lit.h"
#include "engine.h"
#include "load.h"


/*
 * Is s a CREATE TRIGGER, PROCEDURE, FUNCTION or EVENT with a BEGIN and
 * no END at its end: a compound body that the mysql client's reading (a
 * ";" ends a statement) cut, as it cuts mydumper's, which have no
 * DELIMITER?
 */
static int
cut_body(const struct rp_stmt *s)
{
	size_t	 n = s->len, i;

	if (s->kind != STK_CREATE_TRIGGER && s->kind != STK_CREATE_ROUTINE &&
	    s->kind != STK_CREATE_EVENT)
		return 0;
	for (i = 0; i + 5 <= n; i++)
		if (strncasecmp(s->text + i, "BEGIN", 5) == 0)
			break;
	if (i + 5 > n)
		return 0;
	while (n > 0 && strchr(" \t\r\n;", s->text[n - 1]) != NULL)
		n--;
	return n < 3 || strncasecmp(s->text + n - 3, "END", 3) != 0;
}

static void
add_server_error(struct buf *b, MYSQL *m)
{
	buf_addf(b, "ERROR %u (%s): %s", mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
}

static int
in_transaction(MYSQL *m)
{
	unsigned int	 status = 0;

	if (mariadb_get_infov(m, MARIADB_CONNECTION_SERVER_STATUS, &status))
		return 0;
	return (status & SERVER_STATUS_IN_TRANS) != 0;
}

int
sx_in_transaction(struct sx *x, int c)
{
	return in_transaction(x->conn[c]);
}

/* Drain one result; count affected rows. */
static void
take_result(struct sx *x, MYSQL *m, uint64_t *rows)
{
	MYSQL_RES	*res;
	my_ulonglong	 n;

	if ((res = mysql_store_result(m)) != NULL)
		mysql_free_result(res);
	else if (mysql_field_count(m) == 0) {
		n = mysql_affected_rows(m);
		if (n != (my_ulonglong)-1)
			*rows += n;
	}
}

#define RT_MISMATCH	((size_t)-1)
#define RT_STOPPED	((size_t)-2)

/*
 * Send statements [i, j) of u in one round trip on conn[c].  Returns j on
 * success, the index of the statement that failed (the server ran those
 * before it and none after it), RT_MISMATCH if the results do not map to
 * the statements, or RT_STOPPED if the run was interrupted (nothing sent).
 * Rows and warnings go to *p.
 */
static size_t
round_trip(struct sx *x, int c, struct sx_unit *u, size_t i, size_t j,
    struct sx_pass *p)
{
	MYSQL		*m = x->conn[c];
	const char	*q = u->text.p + u->st[i].off;
	size_t		 len = u->st[j - 1].off + u->st[j - 1].len - u->st[i].off;
	size_t		 k = i, r = j;
	unsigned	 w;
	int		 rc;

	if (sx_conn_begin(x, c) == -1)
		return RT_STOPPED;
	p->last_warn = 0;
	if (mysql_real_query(m, q, len) != 0) {
		sx_conn_end(x, c);
		return i;
	}
	for (;;) {
		take_result(x, m, &p->rows);
		if ((w = mysql_warning_count(m)) > 0) {
			p->warns += w;
			if (k + 1 < j)
				p->mid_warn = 1;
			else
				p->last_warn = w;
		}
		k++;
		if ((rc = mysql_next_result(m)) == -1)
			break;
		if (rc > 0) {
			r = k < j ? k : RT_MISMATCH;
			break;
		}
	}
	sx_conn_end(x, c);
	/* more or fewer results than statements: cannot map errors */
	if (r == j && k != j)
		r = RT_MISMATCH;
	return r;
}

/* The warnings of u's statement k, just run on m: sx_warn(). */
static int
warn_stmt(struct sx *x, MYSQL *m, struct sx_unit *u, size_t k, unsigned n)
{
	struct buf	 b = BUF_INIT;
	struct sx_stmt	*s = &u->st[k];
	int		 rc;

	sx_where(&b, s->no, s->line,
	    s->ctx == SX_NOCTX ? NULL : u->ctx.p + s->ctx);
	rc = sx_warn(x, m, n, s->no, b.p);
	buf_release(&b);
	return rc;
}

static void
report_stmt(struct sx *x, struct sx_unit *u, size_t k, MYSQL *m, int force)
{
	struct buf	 b = BUF_INIT;
	struct sx_stmt	*s = &u->st[k];

	sx_where(&b, s->no, s->line,
	    s->ctx == SX_NOCTX ? NULL : u->ctx.p + s->ctx);
	buf_adds(&b, ": ");
	add_server_error(&b, m);
	if (force)
		sx_report(x, "%s", b.p);
	else
		sx_set_error(x, s->no, "%s", b.p);
	buf_release(&b);
}

static void
mismatch(struct sx *x, struct sx_unit *u, size_t i, size_t j)
{
	sx_set_error(x, u->st[i].no, "statements %" PRIu64 "-%" PRIu64
	    ": the server returned a different number of results than "
	    "statements were sent", u->st[i].no, u->st[j - 1].no);
}

/*
 * Execute every statement of u inside the open transaction, one per round
 * trip if single.  0: all ran.  1: with --force, a statement failed;
 * nothing is reported yet: the unit is to be rolled back and replayed (a
 * failed statement can roll back the whole transaction: MariaDB's bulk
 * insert into an empty table does).  2: a statement inside a round trip
 * gave warnings whose text is wanted: roll back and run it again single.
 * SX_WORK_LOCK: a lock wait timeout or deadlock while other units held
 * transactions, not reported (engine.h).  -1: failed, error recorded (or
 * interrupted).
 */
static int
run_statements(struct sx *x, int c, struct sx_unit *u, int single,
    struct sx_pass *p)
{
	MYSQL	*m = x->conn[c];
	size_t	 i = 0, j, k, bytes;
	int	 rc;

	while (i < u->n) {
		bytes = u->st[i].len;
		for (j = i + 1; j < u->n && !single; j++) {
			bytes += u->st[j].len + 3;
			if (bytes > x->batch_cap)
				break;
		}
		k = round_trip(x, c, u, i, j, p);
		if (k == RT_STOPPED)
			return -1;
		/* --strict --force: replayed, each warning a failure */
		if (k == j && (p->mid_warn || p->last_warn > 0) &&
		    x->o->strict && x->o->force)
			return 1;
		if (k == j && p->mid_warn && sx_warn_wanted(x))
			return 2;
		if (k == j && p->last_warn > 0 && sx_warn_wanted(x) &&
		    (rc = warn_stmt(x, m, u, j - 1, p->last_warn)) != 0)
			return rc;	/* --strict; 1: with --force */
		if (k == j) {
			i = j;
			continue;
		}
		if (k == RT_MISMATCH) {
			mismatch(x, u, i, j);
			return -1;
		}
		if (mysql_errno(m) == ER_EMPTY_QUERY) {
			i = k + 1;	/* only a comment: nothing to do */
			continue;
		}
		if (!p->alone && (mysql_errno(m) == ER_LOCK_WAIT_TIMEOUT ||
		    mysql_errno(m) == ER_LOCK_DEADLOCK))
			return SX_WORK_LOCK;	/* commit.c decides */
		if (x->o->force && !sx_fatal_errno(mysql_errno(m)))
			return 1;
		report_stmt(x, u, k, m, 0);
		return -1;
	}
	return 0;
}

/*
 * The executor's work (engine.h): unit u in the transaction open on
 * conn[c]: its rows (bulk.c), or its statements: INSERTs of literals
 * through bulk executes (lit.c), or as text.
 */
static int
unit_work(struct sx *x, int c, struct sx_unit *u, struct sx_pass *p)
{
	int	 rc, alone;

	if (u->rows != NULL)
		return sx_rows_load(x, c, u, &p->rows, &p->warns);
	rc = x->lit != NULL ? sx_lit_unit(x, c, u, &p->rows, &p->warns,
	    &p->lit) : 1;
	if (rc == 1 && (rc = run_statements(x, c, u, 0, p)) == 2) {
		/* Warnings whose text is wanted: one statement a round trip. */
		alone = p->alone;
		memset(p, 0, sizeof(*p));
		p->alone = alone;
		rc = sx_unit_rollback(x, x->conn[c], u) == -1 ||
		    sx_unit_begin(x, c, u) == -1 ? -1 :
		    run_statements(x, c, u, 1, p);
	}
	return rc;
}

/*
 * The executor's work_one (engine.h): --force replays u's statement k
 * alone, as mysql --force would; with --strict a statement with
 * warnings is a failure, to be undone (1).
 */
static int
unit_work_one(struct sx *x, int c, struct sx_unit *u, size_t k,
    struct sx_pass *p)
{
	MYSQL		*m = x->conn[c];
	uint64_t	 rows = p->rows;
	size_t		 r;

	r = round_trip(x, c, u, k, k + 1, p);
	if (r == RT_STOPPED)
		return -1;
	if (r == RT_MISMATCH) {
		mismatch(x, u, k, k + 1);
		return -1;
	}
	if (r != k + 1 && mysql_errno(m) != ER_EMPTY_QUERY) {
		if (sx_fatal_errno(mysql_errno(m))) {
			report_stmt(x, u, k, m, 0);
			return -1;
		}
		report_stmt(x, u, k, m, 1);
		p->failed++;
		return 0;
	}
	if (p->last_warn > 0 && sx_warn_wanted(x) &&
	    warn_stmt(x, m, u, k, p->last_warn) == 1) {
		/* --strict --force: a failed statement, undone */
		p->warns -= p->last_warn;
		p->rows = rows;
		p->failed++;
		return 1;
	}
	return 0;
}

static int
ex_begin(struct sx *x, int c)
{
	return mysql_query(x->conn[c], "START TRANSACTION") == 0 ? 0 : -1;
}

static void
ex_unique_checks(struct sx *x, int c, int on)
{
	(void)mysql_query(x->conn[c], on ? "SET SESSION unique_checks=1" :
	    "SET SESSION unique_checks=0");
}

static int
ex_ckpt(struct sx *x, int c, const struct sx_point *pos,
    const struct sx_point *pend, int commit)
{
	return sx_ckpt_write(x, x->conn[c], pos, pend, commit);
}

static int
ex_commit(struct sx *x, int c)
{
	return mysql_commit(x->conn[c]) == 0 ? 0 : -1;
}

static int
ex_rollback(struct sx *x, int c, uint64_t no, const char *what)
{
	return sx_rollback(x, x->conn[c], no, what);
}

static int
ex_in_txn(struct sx *x, int c)
{
	return in_transaction(x->conn[c]);
}

/*
 * A client error (CR_*: the connection lost or its socket shut down,
 * the answer never read) leaves unknown what the server did.
 */
static enum sx_fault
ex_fault(struct sx *x, int c, struct sx_err *e)
{
	MYSQL		*m = x->conn[c];
	unsigned	 n = mysql_errno(m);

	if (e != NULL) {
		e->no = n;
		e->state = mysql_sqlstate(m);
		e->msg = mysql_error(m);
	}
	if (n >= CR_MIN_ERROR && n <= CR_MAX_ERROR)
		return SX_LOST;
	if (n >= CER_MIN_ERROR && n <= CER_MAX_ERROR)
		return SX_CLIENT;
	return SX_REFUSED;
}

const struct sx_exec sx_exec_mysql = {
	.begin = ex_begin,
	.work = unit_work,
	.work_one = unit_work_one,
	.stmt = sx_exec_one,
	.unique_checks = ex_unique_checks,
	.ckpt = ex_ckpt,
	.commit = ex_commit,
	.rollback = ex_rollback,
	.in_txn = ex_in_txn,
	.turn = sx_wait_turn,
	.fault = ex_fault,
	.ddl = sx_ddl_run,
};

struct worker_arg {
	struct sx	*x;
	int		 c;
};

static void *
worker(void *arg)
{
	struct sx	*x = ((struct worker_arg *)arg)->x;
	int		 c = ((struct worker_arg *)arg)->c;
	struct sx_unit	*u;
	int		 large;

	free(arg);
	for (;;) {
		pthread_mutex_lock(&x->mu);
		while (x->qhead == NULL && !x->closed)
			pthread_cond_wait(&x->cv_work, &x->mu);
		if ((u = x->qhead) == NULL) {
			pthread_mutex_unlock(&x->mu);
			break;
		}
		if ((x->qhead = u->next) == NULL)
			x->qtail = NULL;
		x->qlen--;
		pthread_cond_broadcast(&x->cv_space);
		pthread_mutex_unlock(&x->mu);
		large = u->large;
		sx_unit_run(x, c, u);
		sx_unit_free(u);
		if (large) {
			/* its memory is back: another large unit may come */
			pthread_mutex_lock(&x->mu);
			x->qlarge -= (size_t)large;
			pthread_cond_broadcast(&x->cv_space);
			pthread_mutex_unlock(&x->mu);
		}
	}
	return NULL;
}

int
sx_start_workers(struct sx *x)
{
	struct worker_arg	*a;
	int			 i, e;

	if (x->ex == NULL)
		x->ex = &sx_exec_mysql;
	if ((x->tid = calloc(x->o->jobs, sizeof(*x->tid))) == NULL)
		return -1;
	for (i = 0; i < x->o->jobs; i++) {
		if ((a = malloc(sizeof(*a))) == NULL)
			return -1;
		a->x = x;
		a->c = i;
		if ((e = pthread_create(&x->tid[i], NULL, worker, a)) != 0) {
			free(a);
			errno = e;
			return -1;
		}
		x->nthreads++;
	}
	return 0;
}

void
sx_join_workers(struct sx *x)
{
	int	 i;

	pthread_mutex_lock(&x->mu);
	x->closed = 1;
	pthread_cond_broadcast(&x->cv_work);
	pthread_mutex_unlock(&x->mu);
	for (i = 0; i < x->nthreads; i++)
		pthread_join(x->tid[i], NULL);
	free(x->tid);
	x->tid = NULL;
	x->nthreads = 0;
	/* no unit waits on the server now: the killer has nothing to do */
	sx_intr_quiet(x);
}

/*
 * MariaDB (MDEV-24818) inserts into an empty InnoDB table or partition in
 * bulk mode, under an exclusive table lock held until commit, when both
 * unique_checks and foreign_key_checks are 0, as dumps set them.  A unit
 * holding that lock while it waits for an earlier unit's commit would
 * deadlock with that unit if it needed the table (InnoDB cannot see the
 * wait: it is ours).  So unique_checks stays 1, also after the input sets
 * it to 0, except in bulk units, which run alone (exec.c).  With 1 the
 * server only leaves the bulk mode off: MariaDB 10.5+ does no change
 * buffering by default.  0, or -1 with the error recorded.
 */
int
sx_keep_unique_checks(struct sx *x, int c, const struct rp_stmt *s)
{
	struct buf	 b = BUF_INIT;

	if (strcasestr(s->text, "unique_checks") == NULL)
		return 0;
	if (mysql_query(x->conn[c], "SET SESSION unique_checks=1") == 0)
		return 0;
	sx_where(&b, s->no, s->line, NULL);
	buf_adds(&b, ": SET SESSION unique_checks=1: ");
	add_server_error(&b, x->conn[c]);
	sx_set_error(x, s->no, "%s", b.p);
	buf_release(&b);
	return -1;
}

/*
 * sx_exec_one(): with --strict, statement s had warnings (sx_warn()
 * returned w).  It ran: if that left a transaction open (and not the
 * input's own), roll it back (*undone 1); otherwise, or if its table is
 * not transactional, it is committed, and the resume point moves past
 * it.  With --force (w == 1) count it as failed and go on (0); else the
 * error is recorded (-1).
 */
static int
strict_done(struct sx *x, MYSQL *m, const struct rp_stmt *s, int keep_txn,
    int w, const char *where, int *undone)
{
	int	 committed = 0;

	/* Not transactional: it cannot be undone (nontx.c), it is done. */
	if (!keep_txn && in_transaction(m) && x->engine == NULL)
		*undone = sx_rollback(x, m, s->no, where) == 0;
	else if (!keep_txn)
		committed = in_transaction(m) ? mysql_commit(m) == 0 : 1;
	pthread_mutex_lock(&x->mu);
	if (w == 1)
		x->nfailed++;
	if (committed)
		sx_done(x, s->no, x->at_hash);
	pthread_mutex_unlock(&x->mu);
	return w == 1 ? 0 : -1;
}

/*
 * A barrier or session statement on conn[c], alone, every result drained;
 * commits if the statement left a transaction open (the dump may have
 * said SET autocommit=0), unless keep_txn: a statement of the input's own
 * BEGIN ... COMMIT.  0, or -1 with the error recorded (or, with --force
 * and a non-fatal error, reported and counted).
 */
int
sx_exec_one(struct sx *x, int c, const struct rp_stmt *s, int keep_txn)
{
	MYSQL		*m = x->conn[c];
	struct buf	 e = BUF_INIT;
	uint64_t	 rows = 0;
	unsigned	 warns = 0;
	int		 rc, w = 0, undone = 0, failed;

	if (sx_conn_begin(x, c) == -1)
		return -1;	/* interrupted */
	if (mysql_real_query(m, s->text, s->len) == 0) {
		do {
			take_result(x, m, &rows);
			warns += mysql_warning_count(m);
		} while ((rc = mysql_next_result(m)) == 0);
		rc = rc > 0 ? -1 : 0;
	} else
		rc = -1;
	sx_conn_end(x, c);
	/* CREATE DATABASE's 1, DROP DATABASE's tables: not rows */
	if (!sx_changes_rows(s))
		rows = 0;
	sx_where_stmt(&e, s);
	if (x->nconn > 1 && c > 0)
		buf_addf(&e, " on connection %d", c + 1);
	/* Every connection runs a session statement: count and show once. */
	if (rc == 0 && warns > 0 && c == 0 && !x->interrupted &&
	    sx_warn_wanted(x) &&
	    (w = sx_warn(x, m, warns, s->no, e.p)) != 0)
		rc = strict_done(x, m, s, keep_txn, w, e.p, &undone);
	else if (rc == 0 && !keep_txn && in_transaction(m) &&
	    mysql_commit(m) != 0)
		rc = -1;
	if (rc == -1 && mysql_errno(m) == ER_EMPTY_QUERY)
		rc = 0;
	failed = rc == -1 || w != 0;
	if (c == 0) {
		pthread_mutex_lock(&x->mu);
		x->nstmts++;
		/* only what is committed (or is done: not transactional) */
		if (rc == 0 || w != 0 || x->engine != NULL)
			x->rows += undone ? 0 : rows;
		x->bytes += s->len;
		x->nwarnings += warns;
		pthread_mutex_unlock(&x->mu);
		if (x->prog != NULL)
			progress_add(x->prog, 1, rows, s->len);
	}
	if (rc == -1 && w == 0) {
		buf_adds(&e, ": ");
		add_server_error(&e, m);
		/* rows2sql's guard on a value assembled in pieces. */
		if (mysql_errno(m) == ER_SUBQUERY_NO_1_ROW &&
		    strncmp(s->text, "SET @rp_v", 9) == 0)
			buf_addf(&e, " (rows2sql's guard: a value larger than "
			    "the server's max_allowed_packet, %zu; raise it)",
			    x->max_packet);
		/* mydumper's bodies, read as the mysql client reads them */
		if (mysql_errno(m) == ER_PARSE_ERROR && cut_body(s)) {
			buf_adds(&e, " (a BEGIN ... END body cut at its first "
			    "';': the input has no DELIMITER, as mydumper writes "
			    "its -schema-triggers and -schema-post files; a "
			    "resume runs the same cut statement again: split the "
			    "input with sqlsplit --mydumper, which cuts as "
			    "myloader does, and restore it from the start)");
			pthread_mutex_lock(&x->mu);
			x->no_resume = 1;
			pthread_mutex_unlock(&x->mu);
		}
		if (x->o->force && !sx_fatal_errno(mysql_errno(m))) {
			sx_report(x, "%s", e.p);
			pthread_mutex_lock(&x->mu);
			x->nfailed++;
			pthread_mutex_unlock(&x->mu);
			rc = 0;
		} else
			sx_set_error(x, s->no, "%s", e.p);
	}
	/* what a MyISAM table got stays: say so, also after an interrupt */
	if (c == 0 && x->engine != NULL && failed) {
		buf_reset(&e);
		sx_where_stmt(&e, s);
		sx_nontx_note(x, s->no, e.p, x->engine, w != 0, 0);
	}
	buf_release(&e);
	return rc == 0 ? 0 : -1;
}
