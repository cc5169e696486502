/*
 * intr: SIGINT and SIGTERM during a run.  A statement can run for minutes
 * (an ALTER, a large INSERT ... SELECT, a SLEEP), so a flag checked
 * between statements is not enough: the statements running on the
 * server must be killed.  The signals are blocked in every thread and
 * taken by one watcher thread (signalfd(2)), so that no connection's I/O
 * ever sees EINTR.  On the first signal the watcher stops the run
 * (sx_interrupt()), wakes the reader through a self-pipe, and sends
 * KILL QUERY for every busy connection on a connection of its own, as the
 * mysql client does on Ctrl-C (client/mysql.cc, kill_query()).  The killed
 * statements fail, their units roll back, and the dispatcher reports the
 * committed prefix.  KILL QUERY that reaches a connection between two
 * statements is lost (the server clears it when the next one starts), so
 * the watcher sends it again every 200 ms while a connection stays busy.
 */
#include <sys/signalfd.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlexec.h"

#define KILL_AGAIN_MS	200

struct sx_intr {
	pthread_t	 th;
	sigset_t	 set, old;
	int		 sfd;		/* signalfd for SIGINT, SIGTERM */
	int		 wake[2];	/* readable once interrupted */
	int		 quit[2];	/* sx_intr_stop() to the watcher */
	int		 sig;		/* the first signal, 0 before */
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

/*
 * KILL QUERY for every busy connection.  Returns how many were busy; the
 * killer connection is opened on first use and kept in *kp.
 */
static int
kill_busy(struct sx *x, MYSQL **kp)
{
	char		 q[64], errbuf[512];
	unsigned long	*ids;
	int		 c, n = 0;

	if ((ids = calloc(x->nconn, sizeof(*ids))) == NULL)
		return 0;
	pthread_mutex_lock(&x->mu);
	for (c = 0; c < x->nconn; c++)
		if (x->busy[c])
			ids[n++] = x->conn_id[c];
	pthread_mutex_unlock(&x->mu);
	if (n > 0 && *kp == NULL &&
	    (*kp = conn_open(&x->o->conn, NULL, 0, errbuf,
	    sizeof(errbuf))) == NULL)
		sx_report(x, "interrupted: cannot connect to kill the running "
		    "statements: %s", errbuf);
	for (c = 0; c < n && *kp != NULL; c++) {
		snprintf(q, sizeof(q), "KILL QUERY %lu", ids[c]);
		(void)mysql_query(*kp, q);	/* gone already: fine */
	}
	free(ids);
	return n;
}

static void *
watcher(void *arg)
{
	struct sx		*x = arg;
	struct sx_intr		*in = x->intr;
	struct signalfd_siginfo	 si;
	struct pollfd		 pfd[2];
	MYSQL			*k = NULL;
	int			 busy = 0;

	pfd[0].fd = in->sfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = in->quit[0];
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, busy ? KILL_AGAIN_MS : -1) == -1) {
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
			in->sig = si.ssi_signo;
			sx_interrupt(x, in->sig);
		}
		if (in->sig != 0)
			busy = kill_busy(x, &k) > 0 && k != NULL;
	}
	if (k != NULL)
		mysql_close(k);
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

int
sx_intr_start(struct sx *x)
{
	struct sx_intr	*in;
	int		 e;

	if ((in = calloc(1, sizeof(*in))) == NULL)
		return -1;
	in->sfd = in->wake[0] = in->wake[1] = in->quit[0] = in->quit[1] = -1;
	sigemptyset(&in->set);
	sigaddset(&in->set, SIGINT);
	sigaddset(&in->set, SIGTERM);
	if ((e = pthread_sigmask(SIG_BLOCK, &in->set, &in->old)) != 0) {
		free(in);
		errno = e;
		return -1;
	}
	if ((in->sfd = signalfd(-1, &in->set, SFD_CLOEXEC)) == -1 ||
	    pipe2(in->wake, O_CLOEXEC) == -1 ||
	    pipe2(in->quit, O_CLOEXEC) == -1)
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
	pthread_sigmask(SIG_SETMASK, &in->old, NULL);
	free(in);
	errno = e;
	return -1;
}

void
sx_intr_stop(struct sx *x)
{
	struct sx_intr	*in = x->intr;

	if (in == NULL)
		return;
	(void)write(in->quit[1], "", 1);
	pthread_join(in->th, NULL);
	x->intr = NULL;
	close(in->sfd);
	close_pair(in->wake);
	close_pair(in->quit);
	/* A signal that came after the watcher: its default effect now. */
	pthread_sigmask(SIG_SETMASK, &in->old, NULL);
	free(in);
}

int
sx_intr_fd(const struct sx *x)
{
	return x->intr != NULL ? x->intr->wake[0] : -1;
}
