/*
 * lockwait: the global read lock, with a guard.  FLUSH TABLES WITH READ
 * LOCK waits for every running write (a slow UPDATE, an INSERT ...
 * SELECT; MariaDB 10.11 does not wait for SELECTs) and, while it waits,
 * blocks every new write of the applications.  So: after a second of waiting, say on
 * stderr what dbsnap waits for (the longest-running statement: its id,
 * user and time) and how many statements wait behind it, and again every
 * ten seconds; give up after --lock-wait-timeout seconds (the session's
 * lock_wait_timeout, which bounds the flush's wait as well as the lock's)
 * with an error that names the statement.  The error names what the
 * watcher saw last while the lock was waiting: once the lock has failed,
 * the statements that waited behind it run, and one of them may have run
 * longer than the blocker (it started before, waiting for something else).
 *
 * The watcher thread asks through conns[1], which is idle until the lock
 * is taken (a lock is only taken with -j > 1).  It only prints: errors of
 * its own queries are ignored, the lock's outcome is the main thread's.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"
#include "util.h"

#define FIRST_SAY	1	/* seconds before the first message */
#define AGAIN_SAY	10	/* seconds between the next ones */

struct watch {
	struct snap	*s;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 done;
	double		 start;
	char		 last[512];	/* the blocker seen last, under mu */
};

/*
 * "query 1234 of app@10.0.0.5, running for 5.5 s: INSERT INTO ..." for
 * the longest-running statement other than dbsnap's and those waiting
 * for a lock, into buf; and the number of those waiting, into *behind.
 * While the lock waits, a statement younger than the lock's own is not
 * what it waits for; one waiting for a user lock (GET_LOCK) is not
 * writing.  "" if there is none, or the processlist could not be read.
 */
static void
blocker(struct snap *s, MYSQL *m, char *buf, size_t len, unsigned *behind)
{
	char		 q[1024];
	MYSQL_RES	*r;
	MYSQL_ROW	 row;

	*buf = '\0';
	*behind = 0;
	snprintf(q, sizeof(q), "SELECT ID, USER, HOST, TIME_MS, "
	    "REPLACE(REPLACE(LEFT(INFO, 80), '\\n', ' '), '\\r', ' '), "
	    "(SELECT COUNT(*) FROM information_schema.PROCESSLIST w WHERE "
	    "w.STATE LIKE 'Waiting for %%lock%%' AND w.ID <> %lu) "
	    "FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() "
	    "AND ID <> %lu AND INFO IS NOT NULL AND COMMAND NOT IN ('Sleep', "
	    "'Daemon', 'Binlog Dump', 'Killed') AND STATE NOT LIKE "
	    "'Waiting for %%lock%%' AND STATE <> 'User lock' AND TIME_MS >= "
	    "COALESCE((SELECT TIME_MS FROM information_schema.PROCESSLIST "
	    "WHERE ID = %lu), 0) ORDER BY TIME_MS DESC LIMIT 1",
	    mysql_thread_id(s->conns[0]), mysql_thread_id(s->conns[0]),
	    mysql_thread_id(s->conns[0]));
	if (mysql_query(m, q) != 0 || (r = mysql_store_result(m)) == NULL)
		return;
	if ((row = mysql_fetch_row(r)) != NULL && row[0] != NULL) {
		snprintf(buf, len, "query %s of %s@%s, running for %.1f s: %s",
		    row[0], row[1] ? row[1] : "?", row[2] ? row[2] : "?",
		    row[3] ? strtod(row[3], NULL) / 1000 : 0.0,
		    row[4] ? row[4] : "");
		*behind = row[5] ? (unsigned)strtoul(row[5], NULL, 10) : 0;
	}
	mysql_free_result(r);
}

static void
say_waiting(struct watch *w, double waited, const char *b, unsigned behind)
{
	struct snap	*s = w->s;

	progress_clear(s->prog);
	fprintf(stderr, "%s: waiting %.0f s for the global read lock%s%s; "
	    "%u statement%s of others wait behind it (giving up after %u s: "
	    "--lock-wait-timeout)\n", getprogname(), waited,
	    *b != '\0' ? ", for " : "", b, behind, behind == 1 ? "" : "s",
	    s->o->lock_wait_timeout);
}

/* Each second: what the lock waits for; said after 1 s, then every 10 s. */
static void *
watcher(void *arg)
{
	struct watch	*w = arg;
	struct timespec	 ts;
	double		 next = FIRST_SAY, waited;
	char		 b[512];
	unsigned	 behind;

	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;		/* look at most a second late */
		if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) != ETIMEDOUT ||
		    w->done || (waited = mono_now() - w->start) < FIRST_SAY)
			continue;
		pthread_mutex_unlock(&w->mu);
		blocker(w->s, w->s->conns[1], b, sizeof(b), &behind);
		if (waited >= next) {
			say_waiting(w, waited, b, behind);
			next += next == FIRST_SAY ? AGAIN_SAY - FIRST_SAY :
			    AGAIN_SAY;
		}
		pthread_mutex_lock(&w->mu);
		if (*b != '\0' && !w->done)
			strlcpy(w->last, b, sizeof(w->last));
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/*
 * The lock's statement on conns[0], watched.  0, or mysql's error; the
 * blocker the watcher saw last into last[len] ("" if none).
 */
static int
watched_query(struct snap *s, const char *q, char *last, size_t len)
{
	struct watch	 w = { .s = s, .start = mono_now() };
	pthread_t	 t;
	int		 rc, started;

	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	started = pthread_create(&t, NULL, watcher, &w) == 0;
	rc = mysql_query(s->conns[0], q);
	if (started) {
		pthread_mutex_lock(&w.mu);
		w.done = 1;
		pthread_cond_signal(&w.cv);
		pthread_mutex_unlock(&w.mu);
		pthread_join(t, NULL);
	}
	strlcpy(last, w.last, len);
	pthread_mutex_destroy(&w.mu);
	pthread_cond_destroy(&w.cv);
	return rc;
}

const char *
take_read_lock(struct snap *s)
{
	MYSQL		*m = s->conns[0];
	char		 q[128], e[512], b[512];
	unsigned	 no, behind;

	snprintf(q, sizeof(q), "SET SESSION lock_wait_timeout = %u",
	    s->o->lock_wait_timeout);
	sql_exec(m, "lock_wait_timeout", q, strlen(q));
	if (watched_query(s, "FLUSH TABLES WITH READ LOCK", b, sizeof(b)) == 0)
		return "UNLOCK TABLES";
	no = mysql_errno(m);
	conn_strerror(m, e, sizeof(e));
	if (no == ER_SPECIFIC_ACCESS_DENIED_ERROR || no == ER_ACCESS_DENIED_ERROR ||
	    no == ER_DBACCESS_DENIED_ERROR || no == ER_TABLEACCESS_DENIED_ERROR)
		die(s, "cannot lock for a consistent parallel snapshot "
		    "(needs the RELOAD privilege): %s; use -j 1 for a "
		    "consistent snapshot without it, or --no-lock to give up "
		    "consistency", e);
	if (no == ER_LOCK_WAIT_TIMEOUT) {
		if (*b == '\0')	/* not seen while it waited */
			blocker(s, s->conns[1], b, sizeof(b), &behind);
		die(s, "global read lock: not taken in %u s "
		    "(--lock-wait-timeout)%s%s", s->o->lock_wait_timeout,
		    *b != '\0' ? ", waiting for " : "", b);
	}
	die(s, "lock for a consistent snapshot: %s", e);
}
