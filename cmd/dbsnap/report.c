/*
 * report: die() and what it needs (the run, the undo), kept apart from
 * the modules that call it so that the error sink depends on none of
 * them.
 */
#include <err.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "conn.h"
#include "dbsnap.h"
#include "report.h"

struct snap	*the_snap;
static void	(*die_undo_fn)(struct snap *);

void
die_undo(void (*undo)(struct snap *))
{
	die_undo_fn = undo;
}

__dead void
die(struct snap *s, const char *fmt, ...)
{
	static pthread_mutex_t die_mu = PTHREAD_MUTEX_INITIALIZER;
	va_list	 ap;

	char	 msg[512], am[600];

	pthread_mutex_lock(&die_mu);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/*
	 * Let what was written before the failure out, then end the stream
	 * as dbsnap's failure (rowpipe-stream(5) ABORT, reason failed), so
	 * that no reader downstream takes it for a cut.
	 */
	snprintf(am, sizeof(am), "dbsnap: %s", msg);
	if (s != NULL && s->fw != NULL &&
	    pthread_mutex_trylock(&s->out_mu) == 0)
		(void)frame_writer_abort(s->fw, FRAME_ABORT_FAILED, am);
	else if (s != NULL && s->fw == NULL && !s->o->list &&
	    !s->o->plan_parts && (s->fw = frame_writer_new(STDOUT_FILENO)))
		(void)frame_writer_abort(s->fw, FRAME_ABORT_FAILED, am);
	warnx("%s", msg);
	if (die_undo_fn != NULL)
		die_undo_fn(s);	/* --at-gtid: replication as it was found */
	_exit(1);
}

__dead void
die_changed(struct snap *s, const char *what, const char *why)
{
	die(s, "%s: changed while the dump started (%s): dump again", what,
	    why);
}

__dead void
sql_die(MYSQL *m, const char *what)
{
	char	 e[512];

	conn_strerror(m, e, sizeof(e));
	/* an ALTER that rebuilt the table after the snapshot began */
	if (mysql_errno(m) == ER_TABLE_DEF_CHANGED)
		die_changed(the_snap, what, e);
	die(the_snap, "%s: %s", what, e);
}
