/*
 * intr: SIGINT and SIGTERM during a run.  A statement can run for minutes
 * (an ALTER, a large INSERT ... SELECT, a SLEEP), so a flag checked
 * between statements is not enough: the statements running on the
 * server must be killed.  The signals are blocked in every thread and
 * taken by one watcher thread (signalfd(2)), so that no connection's I/O
 * ever sees EINTR.  On the first signal the watcher stops the run
 * (sx_interrupt()), wakes the reader through a self-pipe, and starts a
 * killer thread that sends KILL QUERY for every busy connection on a
 * connection of its own, as the mysql client does on Ctrl-C
 * (client/mysql.cc, kill_query()).  The killed statements fail, their
 * units roll back, and the dispatcher reports the committed prefix.
 * KILL QUERY that reaches a connection between two statements is lost
 * (the server clears it when the next one starts), so the killer sends
 * it again every 200 ms while a connection stays busy.
 *
 * Every wait is bounded, so that the first signal always ends the run
 * with its resume point, also when the server no longer answers
 * (packets dropped, sockets open: no read on the workers' connections
 * would ever return, and they have no read timeout, which would fire on
 * a healthy ALTER that sends nothing for minutes).  The killer's
 * connection has a deadline for connecting and for each query
 * (KILL_TIMEOUT_S).  When it cannot reach the server, the watcher shuts
 * every worker's socket down (shutdown(2)), and each blocked call fails
 * at once with "Lost connection" (2013).  When the server answers but
 * the run still has not ended SHUT_AFTER_MS after the signal, the killer
 * shuts down the sockets of the connections the server is done with
 * (PROCESSLIST says Sleep, or they are gone): their answers are lost on
 * the way.  One whose statement still runs there (a long ROLLBACK) is
 * left to end; SHUT_ALL_MS after the signal the watcher shuts all.  The
 * watcher itself never waits on the server, so a second signal is always
 * taken, and ends the process at once with the signal's default effect.
 */
#include <sys/signalfd.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sqlexec.h"

#define KILL_AGAIN_MS	200
#define KILL_TIMEOUT_S	5	/* connect, and each KILL, on the killer's */
#define SHUT_AFTER_MS	10000	/* from the first signal to shutdown(2) */
/* the watcher's own deadline, should the killer hang past its own */
#define SHUT_ALL_MS	(SHUT_AFTER_MS + 3 * KILL_TIMEOUT_S * 1000)

struct sx_intr {
	pthread_t	 th, kth;	/* the watcher, the killer */
	int		 kth_on;	/* kth was started */
	sigset_t	 set, old;
	int		 sfd;		/* signalfd for SIGINT, SIGTERM */
	int		 wake[2];	/* readable once interrupted */
	int		 quit[2];	/* sx_intr_stop() to the watcher */
	int		 unreach[2];	/* the killer to the watcher: no server */
	int		 sig;		/* the first signal, 0 before */
	int		 kquit;		/* under x->mu: the killer ends */
	int		*fds;		/* the workers' sockets, -1: none */
	char		*idle_shut;	/* the killer shut fds[c] down */
	int		 nfds;
	int		 shut;		/* the sockets are shut down */
};

void
sx_interrupt(struct sx *x, int sig)
{
	pthread_mutex_lock(&x->mu);
	if (x->interrupted == 0)
		x->interrupted = sig;
	x->stop = 1;
	if (x->stop_seq > x->committed_seq + 1)
		x->stop_seq = x->committed_seq + 1;
	pthread_cond_broadcast(&x->cv_work);
	pthread_cond_broadcast(&x->cv_space);
	pthread_cond_broadcast(&x->cv_commit);
	pthread_mutex_unlock(&x->mu);
	if (x->intr != NULL)
		(void)write(x->intr->wake[1], "", 1);
}

int
sx_conn_begin(struct sx *x, int c)
{
	int	 ok;

	pthread_mutex_lock(&x->mu);
	if ((ok = x->interrupted == 0))
		x->busy[c] = 1;
	pthread_mutex_unlock(&x->mu);
	return ok ? 0 : -1;
}

void
sx_conn_end(struct sx *x, int c)
{
	pthread_mutex_lock(&x->mu);
	x->busy[c] = 0;
	pthread_mutex_unlock(&x->mu);
}

static long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * KILL QUERY for every busy connection, on *kp (opened on first use,
 * with deadlines).  Returns how many were busy, or -1 if the server
 * could not be reached or did not answer in time.
 */
static int
kill_busy(struct sx *x, MYSQL **kp)
{
	struct conn_opts co = x->o->conn;	/* shallow: read only */
	char		 q[64], errbuf[512];
	unsigned long	*ids;
	int		 c, n = 0, rc;

	if ((ids = calloc(x->nconn, sizeof(*ids))) == NULL)
		return 0;
	pthread_mutex_lock(&x->mu);
	for (c = 0; c < x->nconn; c++)
		if (x->busy[c])
			ids[n++] = x->conn_id[c];
	pthread_mutex_unlock(&x->mu);
	rc = n;
	/* connected even with none busy: a COMMIT may wait unmarked, and
	 * the connection tells whether the server answers at all */
	if (*kp == NULL) {
		co.connect_timeout = co.read_timeout = co.write_timeout =
		    KILL_TIMEOUT_S;
		if ((*kp = conn_open(&co, NULL, 0, errbuf,
		    sizeof(errbuf))) == NULL) {
			sx_report(x, "interrupted: cannot connect to kill the "
			    "running statements: %s", errbuf);
			rc = -1;
		}
	}
	for (c = 0; c < n && *kp != NULL; c++) {
		snprintf(q, sizeof(q), "KILL QUERY %lu", ids[c]);
		/* the thread gone already (1094) is fine; no answer is not */
		if (mysql_query(*kp, q) != 0 && sx_fatal_errno(mysql_errno(*kp))) {
			sx_report(x, "interrupted: KILL QUERY: %s",
			    conn_strerror(*kp, errbuf, sizeof(errbuf)));
			rc = -1;
			break;
		}
	}
	free(ids);
	return rc;
}

/*
 * The server answers, yet the run goes on: shut down the sockets of the
 * connections that the server has done with (Sleep, or gone) while they
 * still wait, since their answers are lost on the way (a network that
 * stalls old connections and lets new ones through).  A connection whose
 * statement still runs on the server (a long ROLLBACK, a COMMIT) is left
 * to end.  0, or -1 if the server did not answer the query.
 */
static int
shut_idle(struct sx *x, MYSQL *k)
{
	struct sx_intr	*in = x->intr;
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	char		 e[512];
	int		 c, live;

	buf_adds(&q, "SELECT ID FROM information_schema.PROCESSLIST WHERE "
	    "COMMAND <> 'Sleep' AND ID IN (0");
	for (c = 0; c < in->nfds; c++)
		buf_addf(&q, ",%lu", x->conn_id[c]);
	buf_adds(&q, ")");
	if (q.err || mysql_real_query(k, q.p, q.len) != 0 ||
	    (r = mysql_store_result(k)) == NULL) {
		if (!q.err)
			sx_report(x, "interrupted: %s",
			    conn_strerror(k, e, sizeof(e)));
		buf_release(&q);
		return q.err ? 0 : -1;
	}
	buf_release(&q);
	for (c = 0; c < in->nfds; c++) {
		live = 0;
		mysql_data_seek(r, 0);
		while ((row = mysql_fetch_row(r)) != NULL)
			if (row[0] != NULL &&
			    strtoul(row[0], NULL, 10) == x->conn_id[c])
				live = 1;
		if (!live && in->fds[c] != -1 && !in->idle_shut[c]) {
			in->idle_shut[c] = 1;
			sx_report(x, "interrupted: connection %d: the server is "
			    "done with it, but its answer does not arrive: "
			    "closing it", c + 1);
			(void)shutdown(in->fds[c], SHUT_RDWR);
		}
	}
	mysql_free_result(r);
	return 0;
}

/* The killer: KILL QUERY until no connection is busy or it is told to end. */
static void *
killer(void *arg)
{
	struct sx	*x = arg;
	struct sx_intr	*in = x->intr;
	MYSQL		*k = NULL;
	long long	 idle_at = now_ms() + SHUT_AFTER_MS;
	int		 n, quit;

	for (;;) {
		if ((n = kill_busy(x, &k)) == -1 ||
		    (k != NULL && now_ms() >= idle_at && shut_idle(x, k) == -1)) {
			(void)write(in->unreach[1], "", 1);
			break;
		}
		pthread_mutex_lock(&x->mu);
		quit = in->kquit;
		pthread_mutex_unlock(&x->mu);
		if (quit)
			break;
		poll(NULL, 0, KILL_AGAIN_MS);
	}
	if (k != NULL)
		mysql_close(k);
	return NULL;
}

/*
 * Shut the workers' sockets down: their blocked reads and writes return
 * at once.  The fds stay open (mysql_close() closes them), so no other
 * file can take their numbers meanwhile.
 */
static void
shut_all(struct sx *x, const char *why)
{
	struct sx_intr	*in = x->intr;
	int		 i;

	if (in->shut)
		return;
	in->shut = 1;
	sx_report(x, "interrupted: %s: closing its connections", why);
	for (i = 0; i < in->nfds; i++)
		if (in->fds[i] != -1)
			(void)shutdown(in->fds[i], SHUT_RDWR);
}

/* The first signal: stop the run, start the killer. */
static void
first_signal(struct sx *x, int sig)
{
	struct sx_intr	*in = x->intr;
	int		 on;

	in->sig = sig;
	sx_interrupt(x, sig);
	/* under x->mu: sx_intr_quiet() reads kth_on */
	pthread_mutex_lock(&x->mu);
	on = pthread_create(&in->kth, NULL, killer, x) == 0;
	in->kth_on = on;
	pthread_mutex_unlock(&x->mu);
	if (!on)
		shut_all(x, "cannot start a thread to kill the statements");
}

static void *
watcher(void *arg)
{
	struct sx		*x = arg;
	struct sx_intr		*in = x->intr;
	struct signalfd_siginfo	 si;
	struct pollfd		 pfd[3];
	long long		 deadline = 0, left;
	char			 c;

	pfd[0].fd = in->sfd;
	pfd[1].fd = in->quit[0];
	pfd[2].fd = in->unreach[0];
	pfd[0].events = pfd[1].events = pfd[2].events = POLLIN;
	for (;;) {
		left = -1;
		if (in->sig != 0 && !in->shut &&
		    (left = deadline - now_ms()) < 0)
			left = 0;
		if (poll(pfd, 3, left > INT32_MAX ? INT32_MAX : (int)left)
		    == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents != 0 &&
		    read(in->sfd, &si, sizeof(si)) == sizeof(si)) {
			if (in->sig != 0) {
				/* The second signal: its default effect. */
				signal(si.ssi_signo, SIG_DFL);
				pthread_sigmask(SIG_UNBLOCK, &in->set, NULL);
				raise(si.ssi_signo);
			}
			deadline = now_ms() + SHUT_ALL_MS;
			first_signal(x, si.ssi_signo);
		}
		if (pfd[2].revents != 0 && read(in->unreach[0], &c, 1) == 1)
			shut_all(x, "the server does not answer");
		else if (in->sig != 0 && !in->shut && now_ms() >= deadline)
			shut_all(x, "the server did not end the statements "
			    "in time");
	}
	return NULL;
}

static void
close_pair(int p[2])
{
	if (p[0] != -1)
		close(p[0]);
	if (p[1] != -1)
		close(p[1]);
	p[0] = p[1] = -1;
}

/*
 * Before the watcher: while sqlexec connects and opens the checkpoint
 * (a server that never answers the handshake, a lock of an earlier run),
 * no statement of the input has run.  The first SIGINT or SIGTERM then
 * says so and ends sqlexec with exit 1, as one taken by the watcher
 * would: it ended with 143 and no line (issue 25 F1).  Nothing needs
 * unwinding, so the handler writes its line and _exit()s.  The handler
 * stays until sx_intr_stop() restores the dispositions under the
 * watcher's block (a signal pending then is not lost to them).
 */
static struct {
	int		 on;
	struct sigaction old[2];	/* SIGINT, SIGTERM */
	char		 name[2][32];	/* their strsignal(3) */
	const char	*volatile what;
} early;

static void
early_add(char *b, size_t *n, size_t sz, const char *s)
{
	size_t	 l = strlen(s);

	if (l > sz - *n)
		l = sz - *n;
	memcpy(b + *n, s, l);
	*n += l;
}

static void
early_handler(int sig)
{
	char	 b[512];
	size_t	 n = 0;

	early_add(b, &n, sizeof(b), getprogname());
	early_add(b, &n, sizeof(b), ": interrupted (");
	early_add(b, &n, sizeof(b), early.name[sig == SIGTERM]);
	early_add(b, &n, sizeof(b), ") while ");
	early_add(b, &n, sizeof(b), early.what);
	early_add(b, &n, sizeof(b), ": no statement is committed; run the "
	    "same command again\n");
	(void)write(STDERR_FILENO, b, n);
	_exit(1);
}

void
sx_intr_early(const char *what)
{
	struct sigaction	 sa;
	static const int	 sig[2] = { SIGINT, SIGTERM };
	int			 i;

	early.what = what;
	if (early.on)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = early_handler;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		snprintf(early.name[i], sizeof(early.name[i]), "%s",
		    strsignal(sig[i]));
		if (sigaction(sig[i], &sa, &early.old[i]) == -1)
			early.old[i].sa_handler = SIG_DFL;
	}
	early.on = 1;
}

void
sx_intr_early_end(void)
{
	if (!early.on)
		return;
	early.on = 0;
	(void)sigaction(SIGINT, &early.old[0], NULL);
	(void)sigaction(SIGTERM, &early.old[1], NULL);
}

int
sx_intr_start(struct sx *x)
{
	struct sx_intr	*in;
	int		 e;

	if ((in = calloc(1, sizeof(*in))) == NULL)
		return -1;
	in->sfd = in->wake[0] = in->wake[1] = in->quit[0] = in->quit[1] = -1;
	in->unreach[0] = in->unreach[1] = -1;
	if ((in->fds = calloc(x->nconn > 0 ? x->nconn : 1,
	    sizeof(*in->fds))) == NULL ||
	    (in->idle_shut = calloc(x->nconn > 0 ? x->nconn : 1, 1)) == NULL) {
		free(in->fds);
		free(in);
		return -1;
	}
	/* the connections stay until sx_disconnect(), after sx_intr_stop() */
	for (in->nfds = 0; in->nfds < x->nconn; in->nfds++)
		in->fds[in->nfds] = conn_socket(x->conn[in->nfds]);
	sigemptyset(&in->set);
	sigaddset(&in->set, SIGINT);
	sigaddset(&in->set, SIGTERM);
	if ((e = pthread_sigmask(SIG_BLOCK, &in->set, &in->old)) != 0) {
		free(in->fds);
		free(in->idle_shut);
		free(in);
		errno = e;
		return -1;
	}
	if ((in->sfd = signalfd(-1, &in->set, SFD_CLOEXEC)) == -1 ||
	    pipe2(in->wake, O_CLOEXEC) == -1 ||
	    pipe2(in->quit, O_CLOEXEC) == -1 ||
	    pipe2(in->unreach, O_CLOEXEC) == -1)
		goto fail;
	x->intr = in;
	if ((e = pthread_create(&in->th, NULL, watcher, x)) != 0) {
		x->intr = NULL;
		errno = e;
		goto fail;
	}
	return 0;
fail:
	e = errno;
	if (in->sfd != -1)
		close(in->sfd);
	close_pair(in->wake);
	close_pair(in->quit);
	close_pair(in->unreach);
	pthread_sigmask(SIG_SETMASK, &in->old, NULL);
	free(in->fds);
	free(in->idle_shut);
	free(in);
	errno = e;
	return -1;
}

void
sx_intr_quiet(struct sx *x)
{
	struct sx_intr	*in = x->intr;
	int		 on;

	if (in == NULL)
		return;
	/* the first signal starts the only killer: once joined, no other */
	pthread_mutex_lock(&x->mu);
	if ((on = in->kth_on)) {
		in->kquit = 1;
		in->kth_on = 0;
	}
	pthread_mutex_unlock(&x->mu);
	if (on)
		pthread_join(in->kth, NULL);	/* bounded: KILL_TIMEOUT_S */
}

void
sx_intr_stop(struct sx *x)
{
	struct sx_intr	*in = x->intr;

	if (in == NULL) {
		sx_intr_early_end();
		return;
	}
	(void)write(in->quit[1], "", 1);
	pthread_join(in->th, NULL);
	sx_intr_quiet(x);
	x->intr = NULL;
	close(in->sfd);
	close_pair(in->wake);
	close_pair(in->quit);
	close_pair(in->unreach);
	free(in->fds);
	free(in->idle_shut);
	/* A signal that came after the watcher: its default effect now. */
	sx_intr_early_end();
	pthread_sigmask(SIG_SETMASK, &in->old, NULL);
	free(in);
}

int
sx_intr_fd(const struct sx *x)
{
	return x->intr != NULL ? x->intr->wake[0] : -1;
}
