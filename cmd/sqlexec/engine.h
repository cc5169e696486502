/*
 * engine: sqlexec's commit protocol and the executor it runs over
 * (commit.c, and turns.c for the order; tests/unit/engine.c drives the same code through a fake
 * executor, without a server).
 *
 * The invariant.  For any input kind (statement stream, snapshot stream,
 * --input parts), any -j on either side, and any failure point (a cut, a
 * damaged frame, a server error, SIGINT, SIGKILL, the server killed, the
 * connection lost), the resume point and the checkpoint describe exactly
 * the set of rows and statements that are committed, and resuming as
 * printed loads everything else exactly once.  Non-transactional tables
 * keep their rule: they run alone, are never replayed, and are named
 * when pending (nontx.c).  The one thing a client cannot know is whether
 * a COMMIT (or a statement in autocommit) whose answer was lost took
 * effect: with --checkpoint the row, which commits with the work, tells
 * --resume; without it the resume line names both points, with and
 * without that work ("in doubt", sx_commit_failed()).
 *
 * The model.  Work comes in units (a statement stream's consecutive
 * INSERTs, a snapshot stream's consecutive ROWS frames of one table) and
 * barriers (everything else: alone, in order, once every unit before it
 * has committed).  The dispatcher numbers units in input order
 * (sx_push()); a worker runs unit u in a transaction of its own and
 * commits it only in its turn, after units 1..u-1 (sx_wait_turn()), with
 * the checkpoint row written in the same transaction, just before its
 * COMMIT; a unit that fails stops the run and every later unit rolls
 * back (sx_fail_unit()).  Committed work is therefore always units
 * 1..committed_seq and the barriers between them, which resume.c turns
 * into a point: a prefix N (statement streams), or N and each table's
 * mark after it (snapshot streams, whose tables' frames interleave).
 * The protocol, for each kind of work, is in commit.c alone:
 *   unit:       begin, work, [turn], checkpoint + COMMIT | ROLLBACK
 *   --force:    begin, work fails, ROLLBACK, turn, then each statement
 *               alone: begin, work, checkpoint + COMMIT (serial: with
 *               no other unit holding a transaction)
 *   a lock conflict (work waited on a lock, SX_WORK_LOCK, or the turn
 *               says 2): ROLLBACK; from then on units work only in their
 *               turn, with no other unit holding a transaction, so
 *               that no unit waits on a later one's locks
 *   not transactional (rows of a MyISAM table): turn, [checkpoint of
 *               the unit as pending + COMMIT], work in autocommit,
 *               [checkpoint] (no COMMIT after it to fail without one)
 *   barrier:    autocommit; with --checkpoint a DML one in a transaction
 *               with the row, any other pending while it runs (DDL
 *               commits on its own)
 *   table object (a snapshot stream's run of them, -j 2+, without
 *               --checkpoint): a unit whose DROP TABLE IF EXISTS and
 *               CREATE TABLE run at once in autocommit, then its turn;
 *               the point passes it only in its turn.  Stopped before,
 *               what it made stays behind the point, and a resume runs
 *               it again: the same empty table (no row of it is in a
 *               unit before it)
 *   the input's BEGIN ... COMMIT: its statements in order on connection
 *               1, the row written before its COMMIT (sx_input_stmt()).
 *
 * Lock rule.  x->mu guards every field of struct sx after it (the queue,
 * committed_seq, stop_seq, done_no/done_hash, marks, top_no, doubt, the
 * counters); x->conn[c] belongs to whoever runs on it: the worker c
 * while it holds a unit (until it has published the unit's commit), the
 * dispatcher only after sx_drain() (connection 1 for barriers, the
 * input's transaction and ordered groups; every connection for session
 * statements); the executor's operations on c are called only by that
 * owner, never with x->mu held.  committed_seq, done_no and the
 * marks move only under x->mu, after the COMMIT, in unit order.
 */
#ifndef SQLEXEC_ENGINE_H
#define SQLEXEC_ENGINE_H

#include "sqlexec.h"

/* What a failure on a connection means. */
enum sx_fault {
	SX_REFUSED,	/* the server answered with an error: not done */
	SX_CLIENT,	/* the client gave up before sending: not done */
	SX_LOST		/* sent, no answer: the server may have done it */
};

/* The last failure on a connection: valid until its next operation. */
struct sx_err {
	unsigned	 no;		/* server or client error number */
	const char	*state;		/* SQLSTATE */
	const char	*msg;
};

/* What a unit's work gave. */
struct sx_pass {
	uint64_t	 rows;		/* affected */
	uint64_t	 warns;		/* warnings */
	uint64_t	 lit;		/* statements run by bulk executes */
	uint64_t	 failed;	/* --force: statements that failed */
	unsigned	 last_warn;	/* (worker.c) the round trip's last's */
	int		 mid_warn;	/* (worker.c) one before it had some */
	int		 alone;		/* no other unit holds a transaction */
};

/*
 * work()'s answer when a statement waited on a lock too long or lost a
 * deadlock (ERROR 1205, 1213) while other units held transactions
 * (!p->alone): not recorded; the lock may be a later unit's, which waits
 * for this one's COMMIT (a cycle InnoDB cannot see), so commit.c rolls
 * back and runs the unit again alone, in its turn.
 */
#define SX_WORK_LOCK	3

/*
 * The executor: every operation the commit protocol performs on
 * connection c (x->ex; sx_start_workers() sets sx_exec_mysql, over
 * libmysqlclient, where none is set).  Unless said otherwise each
 * returns 0, or -1 with the failure on c (fault() says what it means).
 */
struct sx_exec {
	int	(*begin)(struct sx *, int c);		/* START TRANSACTION */
	/*
	 * Unit u's work in the open transaction (its statements, or its
	 * rows: u->rows), counted into *p.  0; 1 (--force) a statement
	 * failed: roll back and replay; -1 failed, recorded (or
	 * interrupted).
	 */
	int	(*work)(struct sx *, int c, struct sx_unit *u, struct sx_pass *p);
	/*
	 * --force: statement k of u alone.  0 it ran (or it failed, was
	 * reported and counted in p->failed); 1 it ran but is to be undone
	 * (--strict); -1 fatal, recorded.
	 */
	int	(*work_one)(struct sx *, int c, struct sx_unit *u, size_t k,
		    struct sx_pass *p);
	/* Statement s alone, committed unless keep_txn: sx_exec_one(). */
	int	(*stmt)(struct sx *, int c, const struct rp_stmt *s,
		    int keep_txn);
	/* A bulk unit's session around it: SET unique_checks = on. */
	void	(*unique_checks)(struct sx *, int c, int on);
	/* The checkpoint row: position pos, pend (NULL: none), COMMIT. */
	int	(*ckpt)(struct sx *, int c, const struct sx_point *pos,
		    const struct sx_point *pend, int commit);
	int	(*commit)(struct sx *, int c);
	/* ROLLBACK, checked: sx_rollback()'s 0, 1 (not all undone), -1. */
	int	(*rollback)(struct sx *, int c, uint64_t no, const char *what);
	int	(*in_txn)(struct sx *, int c);	/* a transaction open? */
	/*
	 * The turn wait (sx_wait_turn()): 1 commit now, 0 roll back, 2 roll
	 * back and work again in the turn (a lock conflict since the work
	 * began).
	 */
	int	(*turn)(struct sx *, struct sx_unit *u);
	/* The last failure on c, into *e (may be NULL), and its meaning. */
	enum sx_fault (*fault)(struct sx *, int c, struct sx_err *e);
	/*
	 * A snapshot stream's table object u->ddl in autocommit (its DROP
	 * and CREATE commit on their own), and its engine: sx_ddl_run().
	 */
	int	(*ddl)(struct sx *, int c, struct sx_unit *u);
};

extern const struct sx_exec sx_exec_mysql;	/* worker.c */
int	 sx_ddl_run(struct sx *, int c, struct sx_unit *u);	/* snapobj.c */

/*
 * commit.c.  sx_unit_run(): unit u on connection c, the whole protocol
 * (worker.c's threads call it); committed, it moves committed_seq, the
 * resume point and the counters.  sx_unit_begin(): START TRANSACTION for
 * u, 0 or -1 recorded (for an executor that must begin again).
 */
void	 sx_unit_run(struct sx *, int c, struct sx_unit *u);
/*
 * turns.c, for commit.c.  sx_unit_start(): before u's transaction: 0 it
 * works in parallel, 1 in its turn with no other unit holding a
 * transaction (the run is serial since a lock conflict), -1 the run
 * stopped before u; unless -1, u holds one until sx_unit_release().
 * sx_wound(): u's work met a lock conflict (e: its error) or is to be
 * replayed (e NULL): the run is serial from here, and units whose work
 * began before roll back and work again in their turn (sx_wait_turn()
 * says 2); said once.
 */
int	 sx_unit_start(struct sx *, struct sx_unit *u);
void	 sx_unit_release(struct sx *);
void	 sx_wound(struct sx *, const struct sx_unit *u, const char *e);
int	 sx_unit_begin(struct sx *, int c, struct sx_unit *u);
/*
 * Barrier statement s on connection 1, everything before it committed
 * (statement streams, stmtbar.c).  prev_hash/hash: the input's identity
 * up to s - 1 and s.  Flags: SX_BAR_DML (a transactional write: with
 * --checkpoint in one transaction with the row), SX_BAR_EVERY (a session
 * statement, run on each connection in turn: never checkpointed; with
 * SX_BAR_ONE on connection 1 only: order.c's rule).  In
 * autocommit, an answer lost on connection 1 leaves s in doubt.  Moves
 * the resume point past s once it is committed.  0, or -1 recorded.
 */
#define SX_BAR_DML	1
#define SX_BAR_EVERY	2
#define SX_BAR_ONE	4
int	 sx_barrier_stmt(struct sx *, const struct rp_stmt *s,
	    uint64_t prev_hash, uint64_t hash, int flags);
/*
 * A snapshot stream's object at frame no (its DDL commits on its own):
 * run(arg) on connection 1, pending in the checkpoint while it runs, and
 * the resume point past it once done; where: "frame N at offset O" for
 * errors.  0, or -1 recorded.
 */
int	 sx_barrier_ddl(struct sx *, uint64_t no, uint64_t prev_hash,
	    uint64_t hash, int (*run)(void *), void *arg, const char *where);
/*
 * A statement of the input's own BEGIN ... COMMIT on connection 1.
 * Flags: SX_IN_COMMIT (a plain COMMIT: the row goes before it, in its
 * transaction), SX_IN_NONTX (DDL or a write that is not transactional:
 * pending while it runs).  *open: the input's transaction is open; on
 * return 0 if s ended it.  Moves the resume point past s once the
 * transaction has ended.  A COMMIT whose answer was lost is in doubt.
 * 0, or -1 recorded.
 */
#define SX_IN_COMMIT	1
#define SX_IN_NONTX	2
int	 sx_input_stmt(struct sx *, const struct rp_stmt *s,
	    uint64_t prev_hash, uint64_t hash, uint64_t begin_no, int flags,
	    int *open);
/*
 * A group of ordered statements in one transaction on connection 1
 * (ordered.c's ordered INSERTs): sx_group_begin() once everything before is
 * committed (sx_drain()), with its first statement s,
 * sx_group_stmt() for each statement, in the transaction, then
 * sx_group_end(): with commit, the checkpoint at no (identity hash) and
 * COMMIT (in doubt if its answer is lost) and the resume point past no;
 * else ROLLBACK.  first_no: the group's first statement, for messages.
 * 0, or -1 recorded.
 */
int	 sx_group_begin(struct sx *, const struct rp_stmt *s);
int	 sx_group_stmt(struct sx *, const struct rp_stmt *s);
int	 sx_group_end(struct sx *, uint64_t first_no, uint64_t no,
	    uint64_t hash, int commit);

#endif
