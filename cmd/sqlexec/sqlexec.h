/*
 * sqlexec: execute a rowpipe-stream(5) stream of statement frames (FT_STMT)
 * against a server, in multi-statement round trips, in transactions of
 * about --commit-every bytes, over -j connections.
 *
 * Files: main.c (options), run.c (run.h: the one lifecycle of a run:
 * set-up, the read loop, the end of the run, cleanup; the feeder
 * interface).  The statement stream (stmts.h): exec.c (its feeder:
 * orders the work), stmtbar.c (barriers, the
 * input's own transactions), stmtunit.c (units), classify.c (what each
 * statement is allowed to do: run in parallel, run once as an ordered
 * barrier, run on every connection, or be skipped), order.c (the one
 * rule of what may run out of order or on another connection; order.h
 * for its helpers: words.c, what a statement's words show, autoinc.c,
 * INSERTs that leave an AUTO_INCREMENT value to the server, rebuild.c,
 * what a resume can rebuild of the session; checks.c, the input's
 * foreign_key_checks, for it), ordered.c
 * (ordered INSERTs that follow one another: one transaction on
 * connection 1), usedb.c (USE and
 * --rename-db), target.c (what a statement names, for messages), lit.c
 * (literal INSERTs through bulk executes).  The snapshot stream (load.h,
 * snap.h): load.c (its feeder), snapobj.c (objects), snapunit.c
 * (units, barriers), bulk.c (rows through the bulk prepared INSERT),
 * defer.c (--defer-indexes), parts.c (--input parts).  Both: bind.c
 * (bind.h: the bulk execute's column-wise arrays, of bulk.c and lit.c),
 * engine.h
 * (the commit protocol's model, invariant, lock rule and executor seam),
 * commit.c (the commit protocol, all of it: units, barriers, the input's
 * own transactions), turns.c (the queue of units and their turns, the
 * serial mode after a lock conflict), worker.c (the threads, round trips, statements run
 * alone: the production executor), connect.c
 * (connections), intr.c (SIGINT and SIGTERM: KILL QUERY, roll back,
 * stop), warn.c (server warnings), nontx.c (tables that are not
 * transactional (MyISAM), whose writes run alone, in autocommit, never
 * in a unit), resume.c (the resume point and the input's identity),
 * checkpoint.c (--checkpoint), report.c (the error sink and reports).
 * Calls go one way: no file calls back a file that calls it; report.c
 * calls only target.c.
 *
 * The ordering model, in one paragraph.  INSERT statements between two
 * barriers are cut into "units" of about --commit-every bytes of
 * consecutive statements.  A worker executes one unit as one transaction
 * and commits it only after every earlier unit has committed, so that the
 * committed statements are always a prefix of the input: that prefix is
 * the resume point printed on failure (--skip-to N), and it is exact even
 * when -j > 1.  Every other statement is a barrier: the dispatcher waits
 * until every unit before it has committed, then runs it on one
 * connection (or, for session state, on every connection).  The first
 * unit into a table after a barrier is a "bulk" unit: it runs alone, with
 * unique_checks=0, so that MariaDB bulk-loads the empty table under a
 * table lock nobody else can wait for; every other unit runs with
 * unique_checks=1 and row locks.
 *
 * Snapshot streams (load.c) cut each table's rows into units of whole,
 * consecutive ROWS frames; frames of several tables interleave, so the
 * committed frames are no prefix.  Their resume point (struct sx_point)
 * is a prefix N plus each table's mark after it, exact because a table's
 * units commit in its frame order and objects are barriers.
 *
 * The invariant (engine.h states it, with the model and the lock rule,
 * and commit.c is its one home): for any input, any -j and any failure
 * point, the resume point printed and the checkpoint row describe
 * exactly what is committed, and resuming as printed loads everything
 * else exactly once; a COMMIT whose answer was lost is named with both
 * points (sqlexec(1), RESUME POINTS).
 */
#ifndef SQLEXEC_H
#define SQLEXEC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "buf.h"
#include "conn.h"
#include "frame.h"
#include "hmap.h"
#include "names.h"
#include "progress.h"

struct sx_opts {
	struct conn_opts conn;
	const char	*db;		/* default database, NULL for none */
	const char	*charset;	/* SET NAMES at connect, NULL for none */
	int		 jobs;		/* connections */
	size_t		 commit_every;	/* bytes of statements a transaction */
	size_t		 batch_bytes;	/* bytes of statements a round trip */
	uint64_t	 skip_to;	/* resume after this statement */
	uint64_t	 skip_hash;	/* the input's identity up to skip_top */
	int		 skip_has_hash;	/* skip_hash was given (N:IDENTITY) */
	int		 skip_frames;	/* a snapshot stream's point (fN...) */
	struct sx_mark	*skip_marks;	/* its tables' marks, owned */
	size_t		 nskip_marks;
	uint64_t	 skip_top;	/* max(skip_to, every mark) */
	const char	*checkpoint;	/* "db.table" of the checkpoint, or NULL */
	int		 resume;	/* continue from the checkpoint */
	int		 force;		/* report errors, continue */
	int		 strict;	/* a server warning is an error */
	int		 dry_run;	/* print the plan on stdout, no server */
	int		 allow_empty;	/* --allow-empty: no statement is fine */
	int		 no_binlog;	/* SET sql_log_bin=0 */
	int		 keep_checks;	/* no FOREIGN_KEY_CHECKS/UNIQUE_CHECKS=0 */
	int		 no_create;	/* snapshot streams: rows only */
	int		 skip_definer;	/* snapshot streams: no DEFINER= */
	int		 no_bulk;	/* rows as INSERT text, no bulk execute */
	int		 defer_indexes;	/* secondary indexes after the rows */
	int		 progress;	/* 1 on, 0 off, -1 if stderr is a tty */
	int		 verbose;
	int		 quiet;		/* -q: no summary unless something failed */
	struct names	 names;		/* --rename-db */
	char		**inputs;	/* --input FILE ..., or none: stdin */
	size_t		 ninputs;
	const char	*input_name;	/* for messages: "stdin", "the parts" */
};

/*
 * parts.c: --input FILE ... (#19).  sx_parts_open() opens the inputs and
 * reads their headers; several must be the parts of one dbsnap --plan,
 * all at one GTID position, each part once: otherwise it says why and
 * exits 1, before anything connects.  sx_parts_start() starts a thread
 * that writes them, in part order, as one snapshot stream into a pipe,
 * and returns the pipe's read end.  sx_parts_finish() closes that fd,
 * waits for the thread and frees ps; -1 if an input was damaged (the
 * thread has said which; the loader saw a truncated stream).
 */
struct sx_parts;
struct sx_parts	*sx_parts_open(char **paths, size_t n);
int		 sx_parts_start(struct sx_parts *);
int		 sx_parts_finish(struct sx_parts *, int fd);

/* What a statement may do (classify.c). */
enum sx_action {
	ACT_PARALLEL,	/* INSERT ... VALUES: in a unit, any connection */
	ACT_BARRIER,	/* alone, in order, on one connection */
	ACT_SESSION,	/* alone, in order, on every connection */
	ACT_SKIP	/* not executed (LOCK TABLES, transaction control) */
};

enum sx_action	 sx_classify(const struct rp_stmt *, const char **why);
const char	*sx_action_name(enum sx_action);
/*
 * Does s change rows only (INSERT, REPLACE, UPDATE, DELETE, LOAD DATA):
 * transactional data, no commit of its own, and an affected count that
 * is rows, as CREATE DATABASE's 1 and DROP DATABASE's tables are not?
 */
int		 sx_changes_rows(const struct rp_stmt *);

/*
 * A table's high-water mark (snapshot streams, resume.c): the table's
 * ROWS frames up to frame are committed, none after it.
 */
struct sx_mark {
	uint64_t	 table;		/* the stream's table id */
	uint64_t	 frame;
};

/* One statement of a unit. */
struct sx_stmt {
	uint64_t	 no;
	uint64_t	 line;
	size_t		 off;		/* text in unit->text */
	size_t		 len;
	uint64_t	 hash;		/* the input's identity up to no */
	size_t		 ctx;		/* "schema.table" at unit->ctx.p + ctx */
};

#define SX_NOCTX	((size_t)-1)

/*
 * A unit over twice --commit-every holds one copy of a huge statement or
 * row: its share (u->large) of the x->nconn copies that may be pushed and
 * not yet freed.  A snapshot unit that a worker sends whole by one bulk
 * execute (bulk.c) counts twice: Connector/C builds the request in a copy
 * of it.
 */
#define SX_LARGE	1
#define SX_LARGE_WHOLE	2

/* A unit: consecutive parallel statements run as one transaction. */
struct sx_unit {
	uint64_t	 seq;		/* 1, 2, ... in input order */
	uint64_t	 end_no;	/* statements <= end_no are done with it */
	uint64_t	 end_hash;	/* the input's identity up to end_no */
	int		 bulk;		/* first into a table: alone, unique_checks=0 */
	int		 has_mark;	/* rows: commits mark, at mark_hash */
	struct sx_mark	 mark;
	uint64_t	 mark_hash;	/* the input's identity up to mark.frame */
	struct sx_rows	*rows;		/* rows of one table (load.c), or NULL */
	struct buf	 text;		/* texts joined by "\n;\n" */
	struct buf	 ctx;		/* NUL-separated context strings */
	struct sx_stmt	*st;
	size_t		 n, cap;
	struct sx_ddl	*ddl;		/* a table object (snapobj.c), or NULL */
	struct sx_unit	*next;		/* queue link */
	int		 large;		/* over 2 x commit_every: its share of
					   qlarge, SX_LARGE or SX_LARGE_WHOLE */
	uint64_t	 gen;		/* x->wound_gen when its work began */
};

/* The first error (lowest statement number) of a run. */
struct sx_error {
	uint64_t	 no;		/* 0: none */
	char		*msg;		/* whole message, owned */
};

struct sx_intr;
struct sx_exec;
struct sx_ddl;
struct sx_point;

#define SX_MAX_CONN	256	/* -j at most */

struct sx {
	const struct sx_opts *o;
	MYSQL		**conn;		/* o->jobs connections */
	unsigned long	*conn_id;	/* their server thread ids (KILL QUERY) */
	pthread_t	*tid;
	int		 nconn;
	int		 nthreads;
	size_t		 batch_cap;	/* bytes a round trip, packet-safe */
	size_t		 max_packet;	/* server's max_allowed_packet, 0: unknown */
	struct progress	*prog;
	struct sx_intr	*intr;		/* NULL: signals not taken */
	struct sx_bulk	*bulk;		/* per connection (bulk.c), or NULL */
	struct sx_lit	*lit;		/* per connection (lit.c), or NULL */
	struct sx_order	*order;		/* the serial order (order.c), or NULL */
	const struct sx_exec *ex;	/* the executor (engine.h) */
	int		 by_frame;	/* positions are frames (load.c) */
	struct hmap	 eng;		/* engines known (nontx.c), dispatcher's */
	const char	*engine;	/* sx_exec_one(): s is not transactional */
	struct frame_reader *rd;	/* the input's (run.c), dispatcher's */

	pthread_mutex_t	 mu;		/* everything below */
	pthread_cond_t	 cv_work;	/* queue not empty, closed or stop */
	pthread_cond_t	 cv_space;	/* queue has room or stop */
	pthread_cond_t	 cv_commit;	/* committed_seq moved or stop */
	struct sx_unit	*qhead, *qtail;
	size_t		 qlen, qmax;
	size_t		 qlarge;	/* large units' shares pushed, not
					   yet freed (SX_LARGE) */
	int		 closed;
	uint64_t	 next_seq;	/* seq of the next unit */
	uint64_t	 committed_seq;	/* units 1..committed_seq committed */
	uint64_t	 done_no;	/* statements 1..done_no done */
	uint64_t	 done_hash;	/* the input's identity up to done_no */
	uint64_t	 at_hash;	/* ... up to the dispatcher's statement */
	struct sx_mark	*marks;		/* snapshot streams: tables' marks */
	size_t		 nmarks;
	size_t		 marks_prune;	/* compact the marks at this many */
	uint64_t	 top_no;	/* max(done_no, every mark) */
	uint64_t	 top_hash;	/* the input's identity up to top_no */
	int		 ckpt_old;	/* the checkpoint's row has no marks */
	int		 marks_lost;	/* out of memory: no exact point */
	struct sx_point	*doubt;		/* the point with the work whose COMMIT
					   got no answer (resume.c), or NULL */
	char		*doubt_what;	/* "statements 5-9", its error */
	int		 doubt_lost;	/* one could not be kept: no point */
	struct sx_mark	*pend_marks;	/* --resume: the pending point's */
	size_t		 npend_marks;
	uint64_t	 pend_top;
	int		 no_resume;	/* wrong input: print no resume point */
	int		 input_cut;	/* it ended before its trailer (report.c) */
	int		 input_damaged;	/* a frame failed its check (report.c) */
	uint64_t	 pend_no;	/* --resume: a DDL begun at the stop, or 0 */
	uint64_t	 pend_hash;
	char		**wrote;	/* tables committed work wrote to */
	size_t		 nwrote;
	struct hmap	 wrote_set;	/* ... the same, to look them up */
	uint64_t	 stop_seq;	/* units >= stop_seq roll back */
	/*
	 * A lock conflict (turns.c): once a unit's work waited on a lock
	 * of a later unit, units work only in their turn (serial); each
	 * conflict moves wound_gen, and a unit whose work began before it
	 * rolls back and works again in its turn.  holding: units with
	 * their transaction open.
	 */
	int		 serial;
	uint64_t	 wound_gen;
	int		 holding;
	uint64_t	 partial;	/* not transactional, stopped part way */
	int		 partial_tx;	/* ... a transactional table with triggers */
	int		 stop;		/* stop reading and dispatching */
	int		 interrupted;	/* the signal that stopped the run, or 0 */
	int		*busy;		/* conn[c] is running statements */
	struct sx_error	 err;

	uint64_t	 nstmts;	/* executed (or attempted) */
	uint64_t	 nfailed;
	uint64_t	 nskipped;
	uint64_t	 rows;		/* affected */
	uint64_t	 bytes;		/* statement text executed */
	uint64_t	 nwarnings;	/* server warnings of committed work */
	uint64_t	 nlit;		/* statements run by bulk executes */
	unsigned	 warn_shown;	/* statements whose warnings were printed */
};

/* The transaction statements of the input, classify.c. */
enum sx_txn {
	TXN_BEGIN,		/* BEGIN [WORK], START TRANSACTION */
	TXN_COMMIT,		/* COMMIT [WORK] (not AND CHAIN) */
	TXN_ROLLBACK,		/* ROLLBACK [WORK] (not TO, not AND CHAIN) */
	TXN_ROLLBACK_KEEP,	/* ROLLBACK TO SAVEPOINT, ROLLBACK AND CHAIN */
	TXN_OTHER		/* SAVEPOINT, RELEASE, ROLLBACK TO, ... CHAIN */
};
enum sx_txn sx_txn_kind(const struct rp_stmt *);

/*
 * order.c: what the serial order needs of statement s, classified *a
 * (issue #24).  Dispatcher's thread, for every statement in input order
 * after --skip-to; ordered: it runs in order on connection 1 anyway (the
 * input's transaction, or a serial run).  May change *a from
 * ACT_PARALLEL to ACT_BARRIER, with *why; asks the server (connection 1,
 * after sx_drain()) for a table's AUTO_INCREMENT column, once until the
 * next DDL.  0; 1: from here on one connection (*why says why); 2: a
 * session statement (*a ACT_SESSION) that runs on connection 1 only
 * (*why); -1: an error, recorded.  sx_order_new() (0, or -1 and errno) before the first
 * call, sx_order_free() at the end.
 */
struct sx_order;
int	 sx_order_new(struct sx *);
void	 sx_order_free(struct sx *);
int	 sx_order(struct sx *, const struct rp_stmt *s, enum sx_action *a,
	    const char **why, int ordered);
/* Is the statement sx_order() saw last an INSERT reading ROW_COUNT()? */
int	 sx_order_reads_count(const struct sx *);
/*
 * What a resume can rebuild of the session (rebuild.c says the rule):
 * sx_order_replay() sees every statement s, classified a, in input
 * order, before --skip-to too, before sx_order(); 1 (why added to b) if
 * s, after --skip-to, reads LAST_INSERT_ID() the resume cannot rebuild,
 * else 0.  sx_order_lost(): can a resume after
 * statement no not rebuild the session the input had there?  The
 * statement that lost it, with why ("statement 5 (line 5) set @ann from
 * LAST_INSERT_ID()") added to b, else 0; temp 0 counts only what stays
 * lost (not a TEMPORARY TABLE that a later DROP ends).
 */
int	 sx_order_replay(struct sx *, const struct rp_stmt *s,
	    enum sx_action a, struct buf *b);
uint64_t sx_order_lost(const struct sx *, uint64_t no, int temp,
	    struct buf *why);
/* SET autocommit = 0 or OFF: 0; = 1 or ON: 1; not set: -1. */
int	 sx_sets_autocommit(const struct rp_stmt *);
/*
 * The first function a session statement calls that may have side
 * effects or differ between connections (anything but a few known pure
 * ones), upper case, in a static buffer; NULL if none.
 */
const char *sx_calls_function(const struct rp_stmt *);
/* An XA statement (XA START, END, PREPARE, COMMIT, ...): 1, else 0. */
int	 sx_is_xa(const struct rp_stmt *);
/*
 * Is s a SELECT (which changes no table's engine: a stored function it
 * calls cannot run DDL)?
 */
int	 sx_is_select(const struct rp_stmt *);
/* CREATE [OR REPLACE] TEMPORARY TABLE: 1, else 0. */
int	 sx_creates_temporary(const struct rp_stmt *);

/*
 * checks.c: the input's foreign_key_checks (*fk: CK_UNKNOWN at the
 * start), for order.c.  sx_checks_see(): after statement s (session: it
 * ran on every connection; call: a CALL) in input order.
 * sx_checks_on(): 1 while the checks are on, when every write runs in
 * order; 0 off; -1 an error, recorded for statement no.  Not known, it
 * asks connection 1 after sx_drain() (with --dry-run: on).
 */
enum { CK_NONE = -1, CK_UNKNOWN, CK_OFF, CK_ON };
void	 sx_checks_see(int *fk, const struct rp_stmt *s, int session,
	    int call);
int	 sx_checks_on(struct sx *, int *fk, uint64_t no);

/*
 * usedb.c: warn (once: *warned) when a USE in the input names another
 * database than the database argument.
 */
void	 sx_check_use(struct sx *, const struct rp_stmt *, int *warned);
/*
 * --rename-db on a statement of the input: its text (then held in
 * storage of usedb.c's, valid until the next call), db and schema.
 * -1 if out of memory.
 */
int	 sx_rename_stmt(const struct sx_opts *, struct rp_stmt *);

/*
 * run.c: run the frame stream on fd (a statement stream or a snapshot
 * stream, run.h) with options given, to its trailer: set up, read, end
 * and report (the first error, the summary, the resume line), clean up.
 * 0 on complete success, or -1 after saying why on stderr.
 */
int	 sx_run(int fd, const struct sx_opts *);

/*
 * connect.c: o->jobs connections, each with the run's session (SET
 * SESSION foreign_key_checks, unique_checks, sql_notes, sql_log_bin,
 * autocommit; --default-character-set), and x->batch_cap from the
 * server's max_allowed_packet.  0, or -1 after saying why on stderr
 * (call sx_disconnect() then too).
 */
int	 sx_connect(struct sx *);
void	 sx_disconnect(struct sx *);

/* worker.c: the threads that run units, and statements run alone. */
int	 sx_start_workers(struct sx *);
void	 sx_join_workers(struct sx *);
/*
 * Run one statement on conn[c] and drain its results, then commit what it
 * left open unless keep_txn (inside the input's own transaction).  0 or
 * -1 with the error recorded.
 */
int	 sx_exec_one(struct sx *, int c, const struct rp_stmt *, int keep_txn);
/* With -j > 1, undo a SET unique_checks=0 on conn[c].  0 or -1. */
int	 sx_keep_unique_checks(struct sx *, int c, const struct rp_stmt *);
/* Is a transaction open on conn[c] (SERVER_STATUS_IN_TRANS)? */
int	 sx_in_transaction(struct sx *, int c);

/* turns.c: the order of commits (commit.c says how). */
/* Queue a unit (ownership passes); blocks while the queue is full. */
void	 sx_push(struct sx *, struct sx_unit *);
/* Wait until every queued unit has committed or the run stopped. */
int	 sx_drain(struct sx *);
void	 sx_unit_free(struct sx_unit *);
/*
 * ROLLBACK of unit u on m, checked (sx_rollback()).  -1 if it could not
 * undo everything (the error is recorded, naming u's statements and
 * tables): u must not run again; else 0 (a ROLLBACK that failed shows in
 * what is sent next).
 */
int	 sx_unit_rollback(struct sx *, MYSQL *m, struct sx_unit *u);
/*
 * In a worker, before committing unit u: wait until every earlier unit
 * has committed.  1: commit now; 0: roll back, the run stopped before u;
 * 2: roll back and work again in its turn (a lock conflict since its
 * work began: sx_wound()).
 */
int	 sx_wait_turn(struct sx *, struct sx_unit *);
/* Unit u failed: it and every later unit roll back, the run stops. */
void	 sx_fail_unit(struct sx *, struct sx_unit *);

/* report.c: the error sink and what the run says on stderr. */
/* Record an error message for statement no; the lowest no wins. */
void	 sx_set_error(struct sx *, uint64_t no, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/*
 * An error found before --skip-to's identity was checked (a table or a
 * USE of the resumed run that the target lacks), kept so that another
 * input is refused as such first: once the identity is the same, msg
 * (NULL: none) is the error of statement or frame no.  0, or -1.
 */
int	 sx_held_error(struct sx *, const char *msg, uint64_t no);
/* "sqlexec: " and the message on stderr, clear of the progress line. */
void	 sx_report(struct sx *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* "statement N (line L, table s.t)" for error messages, into b. */
void	 sx_where(struct buf *b, uint64_t no, uint64_t line, const char *ctx);
/* Lost connection, deadlock, or anything that ends the transaction. */
int	 sx_fatal_errno(unsigned);
/* "512 B", "3.1 KiB", "47.0 MiB", "2.3 GiB" to b (fmt_bytes()). */
void	 sx_add_bytes(struct buf *, double);
/*
 * How a run ended, if not well, on stderr: an interrupt, the input's
 * fault (input_err 1: r's error), or the first error recorded.
 */
void	 sx_report_end(struct sx *, struct frame_reader *r, int input_err);
/*
 * Committed work wrote to table ("schema.table"; copied); caller holds
 * x->mu.  For the report after damage.  sx_wrote_free() at the end.
 * sx_wrote_list(): "a, b and 3 more" of them, into b (takes x->mu).
 */
void	 sx_wrote(struct sx *, const char *table);
void	 sx_wrote_free(struct sx *);
void	 sx_wrote_list(struct sx *, struct buf *b);
/*
 * The input was damaged (the producer said so, why: its message): say so,
 * name the tables that hold rows of this input and that the target must
 * be restored again, and print no resume point (a damaged input cannot
 * be finished).  late: the producer found it only after it had sent the
 * damaged part (FRAME_ABORT_DAMAGED_LATE), which may then have run.
 */
void	 sx_report_damage(struct sx *, const char *why, int late);
/*
 * A --rename-db that matched no database of the input so far: the error
 * ("--rename-db d: no such database in the stream"), no resume line; -1.
 * Else 0.
 */
int	 sx_unmatched_rename(struct sx *);
/*
 * Is msg (the run's error) a failed GRANT of a snapshot stream (dbsnap
 * --users) that the restoring account may not give, so that a resume by
 * the same account fails the same way?  SX_GRANT_PROXY: a GRANT PROXY,
 * which only an account with PROXY WITH GRANT OPTION on the proxied
 * account can run; SX_GRANT_DENIED: a grant of privileges refused as
 * access denied (the account does not hold them with GRANT OPTION);
 * else SX_GRANT_NONE.
 */
enum { SX_GRANT_NONE, SX_GRANT_PROXY, SX_GRANT_DENIED };
int	 sx_error_grant(const char *msg);
/*
 * The input ended with an ABORT of another reason (the producer failed,
 * cut, cannot split: frame_abort_phrase()): one line naming it and the
 * producer's message; a resume point only if frame_abort_resumable().
 */
void	 sx_report_abort(struct sx *, int reason, const char *why);

/*
 * target.c.  sx_target_kind(): what s names as its target ("table",
 * "view", "procedure", "function", "trigger", "event", "sequence",
 * "package", "package body", "database"; static).  sx_where_kind(): as
 * sx_where() with that kind for "table" (ctx NULL or "": none).
 * sx_where_stmt(): "statement N (line L, event s.e)" of s, into b.
 * sx_target(): "schema.table" of s's target (or "table", or nothing),
 * the schema the default database (sx_set_default_db(): the database
 * argument, NULL for none) where s names none, into b.
 */
const char *sx_target_kind(const struct rp_stmt *);
void	 sx_where_kind(struct buf *b, uint64_t no, uint64_t line,
	    const char *kind, const char *ctx);
void	 sx_where_stmt(struct buf *b, const struct rp_stmt *);
void	 sx_target(struct buf *b, const struct rp_stmt *);
void	 sx_set_default_db(const char *db);
const char *sx_default_db(void);
/*
 * Mark conn[c] as running statements (so that an interrupt kills them)
 * before a query, and as idle after its results.  sx_conn_begin() returns
 * -1, and marks nothing, once the run was interrupted: send nothing more.
 */
int	 sx_conn_begin(struct sx *, int c);
void	 sx_conn_end(struct sx *, int c);

/*
 * intr.c.  sx_intr_start(): from now on SIGINT and SIGTERM are blocked in
 * this thread and every thread it creates later, and taken by a watcher
 * thread; call it after connecting, before starting any other thread.  On
 * the first signal the watcher calls sx_interrupt() and kills the
 * statements of every busy connection (KILL QUERY on a connection of its
 * own, as the mysql client does on Ctrl-C), again every 200 ms while one
 * stays busy; when that connection cannot reach the server, or the run
 * has not ended 10 s after the signal, it shuts down the sockets of
 * conn[0..nconn-1] (which must stay open until sx_intr_stop()), so that
 * every blocked call fails; a second signal ends the process at once.
 * 0, or -1 with
 * errno set (nothing changed).  sx_intr_stop() ends the watcher and
 * restores the signal mask; a no-op without sx_intr_start().
 */
int	 sx_intr_start(struct sx *);
void	 sx_intr_stop(struct sx *);
/*
 * Before sx_intr_start(): the first SIGINT or SIGTERM says "interrupted
 * (SIGNAL) while WHAT: no statement is committed" and exits 1 (what: a
 * static string, "connecting"; a later call changes it).
 * sx_intr_early_end() gives both signals their dispositions back;
 * sx_intr_stop() calls it, after sx_intr_start() under its block.
 */
void	 sx_intr_early(const char *what);
void	 sx_intr_early_end(void);
/*
 * The workers are joined (sx_join_workers()): the killer ends, once its
 * pass is over (bounded by its deadlines), so that nothing it says comes
 * after the run's last lines (the resume point); a no-op without one.
 */
void	 sx_intr_quiet(struct sx *);
/*
 * A descriptor that becomes readable on interrupt: give it to
 * frame_reader_set_cancel() so that a silent input cannot hold the run.
 * -1 without sx_intr_start().
 */
int	 sx_intr_fd(const struct sx *);
/*
 * Stop the run because of signal sig: nothing that has not begun to commit
 * will (units from committed_seq + 1 on roll back), the reader and the
 * dispatcher are woken.  Errors recorded after it are not reported.
 */
void	 sx_interrupt(struct sx *, int sig);

/*
 * warn.c: server warnings (mysql_warning_count(3); each session runs with
 * sql_notes=0, so that notes, such as DROP TABLE IF EXISTS's, count only
 * if the input turns them on).  Warnings are counted when the work that
 * gave them commits; the first SX_WARN_SHOW statements with warnings are
 * printed with their text; with --strict a warning is an error.
 */
#define SX_WARN_SHOW	5
/* Is the text of the next warnings wanted (to print, or --strict)? */
int	 sx_warn_wanted(struct sx *);
/*
 * n > 0 warnings of the statement just run on m (SHOW WARNINGS still
 * shows them); where is "statement N (line L, table T)".  Prints them
 * while fewer than SX_WARN_SHOW statements were printed and returns 0.
 * With --strict it is an error: recorded for statement no (returns -1),
 * or with --force reported as a failed statement that the caller must
 * roll back and count (returns 1).  Counts no warnings: the caller adds n
 * to x->nwarnings when the work commits.
 */
int	 sx_warn(struct sx *, MYSQL *m, unsigned n, uint64_t no,
	    const char *where);
/*
 * sx_warn() for an execute (or INSERT) of consecutive rows of one table,
 * the first of which is row first (1-based, counted in the table's stream
 * order): a warning's "at row R", which counts the execute's rows, is
 * printed as the table's row, "at row first+R-1 of table".
 */
struct sx_warn_rows {
	const char	*table;		/* "schema.table" */
	uint64_t	 first;
};
int	 sx_warn_at(struct sx *, MYSQL *m, unsigned n, uint64_t no,
	    const char *where, const struct sx_warn_rows *);

/*
 * resume.c: the resume token N:IDENTITY and the input's identity, a
 * running hash (see resume.c for what it covers).  sx_id_init(): hdr is
 * the stream header for a snapshot stream (its producer, snapshot time and
 * binary log position seed the hash), NULL for a statement stream.  0, or
 * -1 (ENOMEM).  sx_id_add(): one statement's text, or one piece of what a
 * snapshot stream loads.  sx_id_digest(): the identity so far; the state
 * goes on.
 */
struct sx_id {
	void		*st;		/* XXH3_state_t, owned */
};
int	 sx_id_init(struct sx_id *, const struct rp_kv *hdr);
void	 sx_id_add(struct sx_id *, const void *, size_t);
uint64_t sx_id_digest(const struct sx_id *);
void	 sx_id_free(struct sx_id *);
/* "N:HHHHHHHHHHHHHHHH" into b (48 bytes are enough). */
void	 sx_token(char *b, size_t len, uint64_t no, uint64_t hash);
/*
 * Parse a --skip-to argument into o: "N" (skip_has_hash 0), "N:IDENTITY"
 * (a statement stream's, or an older sqlexec's for a snapshot stream),
 * or "fN[,TABLE=MARK...][:IDENTITY]" (a snapshot stream's: skip_frames
 * 1, skip_marks owned by o, skip_top the largest of N and the marks; the
 * identity is the input's up to skip_top, and required with marks).  0,
 * or -1 with *errstr a reason (static).
 */
int	 sx_token_parse(const char *, struct sx_opts *o, const char **errstr);
/*
 * "TABLE=MARK,..." (len bytes, each MARK > no, each TABLE once) into *m
 * (malloc'd, the caller frees) and *n.  0, or -1 with *errstr a reason.
 */
int	 sx_marks_parse(const char *, size_t len, uint64_t no,
	    struct sx_mark **m, size_t *n, const char **errstr);
/* The mark of table in m[0..n), or 0 if it has none. */
uint64_t sx_mark_of(const struct sx_mark *m, size_t n, uint64_t table);
/*
 * Unit u (of rows, u->has_mark) has committed: raise its table's mark;
 * caller holds x->mu.
 */
void	 sx_mark(struct sx *, const struct sx_unit *u);
/*
 * The resume point of a snapshot stream: every frame <= no is done, and
 * of each table m[i].table (i < n) the ROWS frames in (no, m[i].frame]
 * are committed too, none after; hash is the input's identity up to top,
 * the largest of no and the marks.  The invariant of sqlexec.h's model
 * says that this is exactly what is committed.
 */
struct sx_point {
	uint64_t	 no;
	uint64_t	 top;
	uint64_t	 hash;
	struct sx_mark	*m;		/* owned: sx_point_free() */
	size_t		 n;
};
/*
 * The point once position no (identity hash, ignored if not further than
 * what is done) and unit u (NULL: none) have committed, from x's state;
 * caller holds x->mu.  0, or -1 if out of memory (*p is then only to
 * free).
 */
int	 sx_point(const struct sx *, uint64_t no, uint64_t hash,
	    const struct sx_unit *u, struct sx_point *p);
void	 sx_point_free(struct sx_point *);
/*
 * The COMMIT of unit u (with --checkpoint, the row's UPDATE and COMMIT)
 * got no answer (msg, error number e: the connection lost, its socket
 * shut down), so whether the server committed u is unknown (commit.c
 * decides, engine.h); what names u ("statements 5-9").  Without
 * --checkpoint, the resume line then names both points, with u and
 * without it (sx_print_resume()); with it the row, which commits with
 * u, tells --resume.  lost says what got no answer: "its COMMIT", or
 * for a statement that runs alone in autocommit "the statement".  Where
 * the point with u cannot be kept (out of memory, or one in doubt
 * already), the run offers no resume point at all (x->doubt_lost),
 * never one that may lie behind what the server committed.
 */
void	 sx_commit_failed(struct sx *, const struct sx_unit *u,
	    const char *what, const char *lost, const char *msg, unsigned e);
/* "TABLE=MARK,..." (nothing if n is 0) into b. */
void	 sx_point_marks(struct buf *b, const struct sx_mark *m, size_t n);
/* The token "fN[,TABLE=MARK...]:IDENTITY" into b. */
void	 sx_point_token(struct buf *b, uint64_t no, const struct sx_mark *m,
	    size_t n, uint64_t hash);
/*
 * The resume point this run was given, for messages: "--skip-to N:ID",
 * "--skip-to N", or "--resume (checkpoint db.t, at N:ID)", into b.
 */
void	 sx_resume_given(const struct sx *, char *b, size_t len);
/*
 * At the resume point: hash is this input's identity up to statement no
 * (= --skip-to N).  0 if it is the one --skip-to gave (or none was
 * given); else -1 with the error recorded, and no resume point printed.
 */
int	 sx_check_resume(struct sx *, uint64_t no, uint64_t hash);
/* Move the committed prefix to no (if further); caller holds x->mu. */
void	 sx_done(struct sx *, uint64_t no, uint64_t hash);
/*
 * checkpoint.c: --checkpoint DB.TABLE (see checkpoint.c for the model).
 * sx_ckpt_name(): 0 if the name is DB.TABLE, else -1.  sx_ckpt_open(): on
 * connection 1, before anything runs: lock the checkpoint, create its
 * table if needed, and start the run; with o->resume, set o->skip_to and
 * its identity from the row.  An unfinished run without --resume, a
 * pending statement, a missing row with --resume are errors.
 * sx_ckpt_input(): record the stream header's producer and source.
 * sx_ckpt_write(): on m, in its transaction, record point pos (and pend
 * as begun, NULL: none), then COMMIT if commit: the executor's ckpt
 * operation (engine.h); only commit.c says what to write when.
 * sx_ckpt_finish(): the run is complete.  All return 0, or -1
 * (sx_ckpt_write: the error is on m; the others record it).
 */
int	 sx_ckpt_name(const char *);
int	 sx_ckpt_open(struct sx *, struct sx_opts *);
int	 sx_ckpt_input(struct sx *, const struct rp_kv *hdr);
int	 sx_ckpt_write(struct sx *, MYSQL *m, const struct sx_point *pos,
	    const struct sx_point *pend, int commit);
int	 sx_ckpt_finish(struct sx *, uint64_t no, uint64_t hash);

/*
 * nontx.c: tables that are not transactional (MyISAM, Aria, MEMORY...).
 * sx_nontx(): is schema.table not transactional on the target (or a
 * view, or with triggers)?  1 with *engine what it is ("MyISAM (not
 * transactional)"; valid until sx_nontx_forget()), 0 if
 * transactional or not there, -1 if the query on m failed (the error is
 * on m) or out of memory; m is idle, or NULL to ask only what is known
 * (-2: not known).  Dispatcher's thread only.  sx_nontx_forget(): after a
 * statement that may change engines (DDL).  sx_nontx_free() at the end.
 */
int	 sx_nontx(struct sx *, MYSQL *m, const char *schema,
	    const char *table, const char **engine);
void	 sx_nontx_forget(struct sx *);
/* Forget what is known of schema.table alone (it was created again). */
void	 sx_nontx_drop(struct sx *, const char *schema, const char *table);
/*
 * sx_nontx_query(): what sx_nontx() asks, on m, without the cache (any
 * thread, on a connection it owns): *engine as sx_nontx()'s, malloc'd,
 * or NULL; new: a table this run's CREATE TABLE just made (no trigger
 * yet).  0, or -1 (the error is on m, or ENOMEM).  sx_nontx_set():
 * that answer into the cache (taking engine), dispatcher's thread only.
 */
int	 sx_nontx_query(MYSQL *m, const char *schema, const char *table,
	    int new, char **engine);
int	 sx_nontx_set(struct sx *, const char *schema, const char *table,
	    char *engine);
void	 sx_nontx_free(struct sx *);
/*
 * ROLLBACK on m after the work described by what ("statements 5-9
 * (tables d.t)"), the first of which is statement (or frame) no.  0; 1 if
 * the server could not undo it all (ER_WARNING_NOT_COMPLETE_ROLLBACK):
 * then an error recorded for no (also said at once if another error is
 * the run's), and x->partial set: the caller must not run it again; -1
 * if the ROLLBACK failed (the error is on m).
 */
int	 sx_rollback(struct sx *, MYSQL *m, uint64_t no, const char *what);
/*
 * Say that where ("statement 5 (line 9, table d.t)") wrote a table that
 * is not transactional (engine: what sx_nontx() said) and did not end
 * well: done, its changes stay and it counts as done; else it stopped
 * part way (x->partial), unless the table is transactional, suspect only
 * for its triggers, and kept (the rows committed before the failed
 * statement) is 0: then nothing of it stays but what its triggers wrote
 * to tables that are not transactional, if any.
 */
void	 sx_nontx_note(struct sx *, uint64_t no, const char *where,
	    const char *engine, int done, uint64_t kept);

/*
 * The last line of a run that stopped before the end of its input:
 * "statements 1-N are committed; resume with --skip-to N:IDENTITY", or
 * that nothing is committed.  N is x->done_no.
 */
void	 sx_print_resume(struct sx *);

#endif
