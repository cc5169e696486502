/*
 * run: sqlexec's one lifecycle (run.c) and the feeders that plug into it.
 *
 * sx_run() sets the run up (connections, checkpoint, signals, workers),
 * reads the frame stream in one loop, ends the run in one place (what
 * the workers hold commits or rolls back, the checkpoint is finished,
 * the end is reported: error, summary, resume line) and frees it all on
 * one path.  What the frames mean is a feeder's business, chosen by the
 * first frame after the header: statement frames (sqlsplit's) go to the
 * statement feeder (exec.c), objects, tables and rows (dbsnap's, or
 * --input parts merged by parts.c) to the snapshot feeder (load.c).  A
 * feeder turns frames into units for the workers (sx_push()) and into
 * barriers it runs itself; the commit protocol is commit.c's.
 *
 * Threads and locks.  Every hook runs on the reader's thread (the
 * dispatcher), one after the other; the workers (worker.c) and the
 * interrupt watcher (intr.c) run beside it.  Of struct sx a hook may
 *   - read o, conn, conn_id, nconn, batch_cap, max_packet without a
 *     lock: set before the workers start, never changed after;
 *   - set by_frame, bulk and lit in start(), before it queues a unit
 *     (sx_push() takes x->mu: the workers see them after that), and
 *     free bulk and lit only in end() or free(), once sx_drain() has
 *     returned or the workers are joined (end() is called before
 *     sx_join_workers(), free() after it);
 *   - use conn[0] only when no unit is queued (after sx_drain()): a
 *     worker uses conn[c] for the unit it runs;
 *   - use eng, engine, order, nskipped alone: no other thread
 *     touches them;
 *   - touch every field from mu on (the queue, the committed point, the
 *     counters the workers add to, stop, interrupted, err) only under
 *     x->mu, or through the functions that take it (sx_push(),
 *     sx_drain(), sx_set_error(), sx_done() callers hold it).
 * The feeder's own state is its thread's alone; units it queued belong
 * to the workers (sx_push() passes ownership).
 */
#ifndef SQLEXEC_RUN_H
#define SQLEXEC_RUN_H

#include "sqlexec.h"

/*
 * A feeder.  start(): the first frame after the header is of this
 * feeder's kind; hdr is the header frame's payload (valid for the run).
 * It sets *st (also on failure: free() takes it; NULL if out of memory)
 * and returns 0, or -1 with the error recorded.  frame(): one frame, in
 * stream order, the first one included; 0, or -1: an error recorded, or
 * the input's own fault said on stderr with *input_err set to 2 (what
 * was queued before it still commits).  end(): the input is over (rc 0:
 * its trailer was read; -1: it failed or the run stopped; input_err: 1
 * the reader's error, 2 the feeder's, 0 neither): queue what is whole
 * (rc 0) or drop what is not queued, check the resume point's identity,
 * and return the run's rc with *no and *hash the position the run
 * reaches once everything queued has committed (sx_done(), the
 * checkpoint's end).  summary(): the run's summary line, without a
 * newline, into b.  last(): a run that failed has said its resume
 * line: what else is left for the user to do (NULL: nothing).  free():
 * everything of st (NULL: nothing), after the workers are joined.
 */
struct sx_feeder {
	const char	*unit;		/* what --progress counts: "tables" */
	int		(*start)(struct sx *, const struct buf *hdr, void **st);
	int		(*frame)(void *st, const struct frame *, int *input_err);
	int		(*end)(void *st, int rc, int input_err, uint64_t *no,
			    uint64_t *hash);
	void		(*summary)(void *st, struct buf *b, double secs);
	void		(*last)(void *st);
	void		(*free)(void *st);
};

/* exec.c: statement streams (sqlsplit's). */
extern const struct sx_feeder sx_stmt_feeder;
/* load.c: snapshot streams (dbsnap's: objects, tables, rows). */
extern const struct sx_feeder sx_snap_feeder;

#endif
