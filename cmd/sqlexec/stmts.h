/*
 * stmts: what exec.c (the statement feeder, run.h), stmtbar.c (its
 * barriers and the input's transactions) and stmtunit.c (its units)
 * share.  Calls go exec.c -> stmtbar.c -> stmtunit.c, never back.
 */
#ifndef SQLEXEC_STMTS_H
#define SQLEXEC_STMTS_H

#include "sqlexec.h"

/* The dispatcher's state, one per run. */
struct dispatch {
	struct sx	*x;
	const struct sx_opts *o;
	struct sx_unit	*cur;		/* unit being filled */
	uint64_t	 consumed;	/* last statement number read */
	uint64_t	 resumed;	/* statements skipped by --skip-to */
	uint64_t	 resumed_session; /* ... of which run again (SET, USE) */
	uint64_t	 txn_rows;	/* rows affected before the input's BEGIN */
	uint64_t	 dry_seq;	/* units planned, for --dry-run */
	int		 exclusive;	/* the unit being filled is a bulk unit */
	int		 ignore;	/* it holds an INSERT IGNORE */
	char		**warm;		/* tables written since the last barrier */
	size_t		 nwarm;
	struct buf	 last;		/* the last target found warm */
	uint64_t	 txn;		/* the input's BEGIN open: its number */
	uint64_t	 txn_hash;	/* the identity up to just before it */
	struct sx_id	 id;		/* the input's identity, running */
	uint64_t	 hash;		/* ... up to the statement read last */
	uint64_t	 prev_hash;	/* ... up to the one before it */
	int		 checked;	/* --skip-to's identity was checked */
	char		*held_err;	/* a session statement before it failed */
	uint64_t	 held_no;	/* ... said once the identity is checked */
	int		 serial;	/* one connection from here on */
	int		 autocommit_off; /* the input said SET autocommit=0 */
	int		 use_warned;	/* a USE overrode the database argument */
	const struct frame *f;		/* the frame being dispatched, or NULL */
	/* ordered.c: statements ord_first..ord_last in one transaction */
	uint64_t	 ord_first;	/* 0: none open */
	uint64_t	 ord_last, ord_hash;	/* and the identity up to it */
	uint64_t	 ord_rows;	/* rows affected before ord_first */
	size_t		 ord_bytes;
};

/* stmtunit.c */
/* Forget the tables written since the last barrier (the bulk rule). */
void	 st_cool_all(struct dispatch *);
/*
 * Append parallel statement s to the unit being filled.  A large one
 * (st_large()), which exec.c gives a unit of its own, takes its frame's
 * buffer from the reader rather than a copy: the frame (d->f) and s's
 * strings are not valid after.  0, or -1.
 */
int	 st_unit_add(struct dispatch *, const struct rp_stmt *s);
/* Is s large (a unit of its own, one per connection: sx_push())? */
int	 st_large(const struct dispatch *, const struct rp_stmt *s);
/* Hand the unit being filled to the workers (--dry-run: its plan). */
void	 st_unit_close(struct dispatch *);
/* --dry-run: statement s's line of the plan on stdout. */
void	 st_plan_line(const struct rp_stmt *, const char *what, const char *why);
/* sx_done() under the lock. */
void	 st_done(struct sx *, uint64_t no, uint64_t hash);

/* ordered.c */
/*
 * Statement s after the order rule; ordered: the rule took this INSERT
 * out of the units (order.c).  Such an INSERT into a transactional table
 * runs now on connection 1, in the transaction of the ordered INSERTs
 * right before it (begun if none): 0, or -1 with the error recorded (the
 * transaction rolled back).  Any other statement ends that transaction
 * first (st_ordered_end(d, 1)): 1 (dispatch goes on), or -1.
 */
int	 st_ordered(struct dispatch *, const struct rp_stmt *s, int ordered);
/*
 * End the transaction of ordered statements, if one is open: with
 * commit, the checkpoint and COMMIT, and the resume point past them (0,
 * or -1 with the error recorded, an unanswered COMMIT in doubt as a
 * unit's); else ROLLBACK (0).
 */
int	 st_ordered_end(struct dispatch *, int commit);

/* stmtbar.c */
/* ROLLBACK of the input's transaction begun by statement no.  0 or -1. */
int	 st_input_txn_rollback(struct sx *, uint64_t no);
/*
 * Is the table s writes not transactional (nontx.c)?  1 with *engine, 0,
 * or -1 with the error recorded.
 */
int	 st_stmt_engine(struct dispatch *, const struct rp_stmt *s,
	    const char **engine);
/*
 * Run barrier or session statement s once everything before is done:
 * where ST_BARRIER on connection 1, ST_EVERY (a session statement) on
 * each connection, ST_SESSION_ONE (one that order.c keeps to connection
 * 1) there only; why: for --dry-run.  0, or -1 (recorded).
 */
#define ST_BARRIER	0
#define ST_EVERY	1
#define ST_SESSION_ONE	2
int	 st_barrier(struct dispatch *, const struct rp_stmt *s, int where,
	    const char *why);
/* From s on, one connection (why: said once). */
void	 st_go_serial(struct dispatch *, const struct rp_stmt *s,
	    const char *why);
/* The input's transaction was rolled back: its rows are not counted. */
void	 st_txn_undone(struct dispatch *);
/*
 * The input's BEGIN ... COMMIT and the transaction statements outside
 * one (stmtbar.c says how).  1 when s is not one of these (dispatch goes
 * on), else 0 or -1.
 */
int	 st_input_txn(struct dispatch *, const struct rp_stmt *s,
	    enum sx_action a);
/* A session statement before --skip-to: it runs again.  0, or -1. */
int	 st_session_before(struct dispatch *, const struct rp_stmt *s);

#endif
