/*
 * report: dbsnap's one way out of a failed run, from any thread.  The
 * lowest module of dbsnap: it calls no other file of cmd/dbsnap, so
 * every file can end the run through it without a call circle.
 */
#ifndef DBSNAP_REPORT_H
#define DBSNAP_REPORT_H

#include <mysql.h>

#include "util.h"

struct snap;

/*
 * The run, set by main() once its snapshot state exists: the snap that
 * die() is given by the helpers that have none of their own (allocation,
 * sql_die()).  NULL before then.
 */
extern struct snap *the_snap;

/*
 * Have die() call undo(s) before it exits, after its message: something
 * the run changed on a server that must not stay so (replica.c's
 * replica_restore()).  One undo; a second call replaces the first.  Set
 * it on the main thread before the workers start.
 */
void	 die_undo(void (*undo)(struct snap *));

/*
 * The end of a failed run: let out what was written, end the stream as
 * dbsnap's failure (rowpipe-stream(5) ABORT, reason failed; a stream not
 * yet begun gets one when it may have one), print one line
 * "dbsnap: reason", run the undo and exit 1, from any thread.  s may be
 * NULL.
 */
__dead void die(struct snap *s, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * die(the_snap, "what: server's message (errno, SQLSTATE)") for the last
 * error on m (lib/conn's conn_strerror()).
 */
__dead void sql_die(MYSQL *m, const char *what);

/*
 * die(s, "what: changed while the dump started (why): dump again"): DDL
 * on table what ("db.t") between the snapshot's start and its metadata
 * lock (dbsnap(1) CONSISTENCY).  sql_die() says it for a server's
 * ER_TABLE_DEF_CHANGED (1412).
 */
__dead void die_changed(struct snap *s, const char *what, const char *why);

#endif
