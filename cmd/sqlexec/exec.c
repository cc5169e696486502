/*
 * exec: sqlexec's dispatcher.  Reads statement frames, classifies each
 * one, packs parallel statements into units for the workers and runs
 * barriers in order once every unit before them has committed.  Reports
 * the first error, the resume point and the summary.
 */
#include <err.h>
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errmsg.h>

#include "util.h"
#include "lit.h"
#include "load.h"

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
	int		 serial;	/* one connection from here on */
	int		 autocommit_off; /* the input said SET autocommit=0 */
	struct buf	 header;	/* the header frame's payload */
	int		 snapshot;	/* a snapshot stream: sx_load() ran it */
	int		 use_warned;	/* a USE overrode the database argument */
	double		 t0;
};

/*
 * MariaDB (MDEV-24818) loads an empty InnoDB table or partition in bulk,
 * which is faster, when unique_checks and foreign_key_checks are both 0,
 * but under a table lock held until commit.  The first unit that writes a
 * table after a barrier is therefore a "bulk" unit: it runs with
 * unique_checks=0 and alone (the dispatcher waits for its commit before
 * queueing the next unit), so that no other unit can wait for its lock
 * while it waits for their commits.  Every other unit runs with
 * unique_checks=1 (worker.c), in parallel, under row locks.
 */
static int
check_warm(struct dispatch *d, const char *t, size_t len)
{
	size_t	 i;
	char	**w;

	if (d->last.p != NULL && d->last.len == len &&
	    memcmp(d->last.p, t, len) == 0)
		return 0;
	for (i = 0; i < d->nwarm; i++)
		if (strcmp(d->warm[i], t) == 0)
			break;
	if (i == d->nwarm) {
		if ((w = reallocarray(d->warm, d->nwarm + 1,
		    sizeof(*w))) == NULL)
			return -1;
		d->warm = w;
		if ((w[d->nwarm] = strdup(t)) == NULL)
			return -1;
		d->nwarm++;
		d->exclusive = 1;
	}
	buf_reset(&d->last);
	buf_add(&d->last, t, len);
	return d->last.err ? -1 : 0;
}

static void
cool_all(struct dispatch *d)
{
	while (d->nwarm > 0)
		free(d->warm[--d->nwarm]);
	buf_reset(&d->last);
}

/*
 * Is s an INSERT IGNORE?  MariaDB's bulk load of an empty table
 * (MDEV-24818: unique_checks and foreign_key_checks 0) loses every row of
 * the transaction when an INSERT IGNORE in it meets a duplicate key
 * (10.11.19: INSERT INTO t VALUES (1); INSERT IGNORE INTO t VALUES (2),
 * (2); COMMIT leaves t empty), so a unit holding one is never a bulk
 * unit.  A word IGNORE before the values is enough: a false yes only
 * costs the bulk load.
 */
static int
insert_ignore(const struct rp_stmt *s)
{
	const char	*p = s->text, *e = s->text + s->len, *w;

	for (; p < e && *p != '(' && *p != '\''; p++) {
		if ((*p | 0x20) != 'i' || (size_t)(e - p) < 6 ||
		    strncasecmp(p, "IGNORE", 6) != 0)
			continue;
		w = p + 6;
		if ((p == s->text || !isalnum((unsigned char)p[-1])) &&
		    (w == e || !isalnum((unsigned char)*w)))
			return 1;
	}
	return 0;
}

/* Append a parallel statement to the unit being filled. */
static int
unit_add(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx_unit	*u = d->cur;
	struct sx_stmt	*st;
	size_t		 mark;

	if (u == NULL) {
		if ((u = d->cur = calloc(1, sizeof(*u))) == NULL)
			return -1;
	}
	if (u->n == u->cap) {
		st = reallocarray(u->st, u->cap ? u->cap * 2 : 64,
		    sizeof(*u->st));
		if (st == NULL)
			return -1;
		u->st = st;
		u->cap = u->cap ? u->cap * 2 : 64;
	}
	if (insert_ignore(s))
		d->ignore = 1;
	st = &u->st[u->n++];
	st->no = s->no;
	st->line = s->line;
	st->hash = d->hash;
	if (u->n > 1)
		buf_add(&u->text, "\n;\n", 3);
	st->off = u->text.len;
	st->len = s->len;
	buf_add(&u->text, s->text, s->len);
	mark = u->ctx.len;
	sx_target(&u->ctx, s);
	if (check_warm(d, u->ctx.p != NULL ? u->ctx.p + mark : "",
	    u->ctx.len - mark) == -1)
		return -1;
	if (u->ctx.len == mark)
		st->ctx = SX_NOCTX;
	else {
		st->ctx = mark;
		buf_add(&u->ctx, "", 1);	/* the NUL separator */
	}
	u->end_no = s->no;
	u->end_hash = d->hash;
	if (u->text.err || u->ctx.err) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* Hand the unit being filled to the workers. */
static void
unit_close(struct dispatch *d)
{
	struct sx_unit	*u = d->cur;
	int		 bulk = d->exclusive && !d->ignore;

	if (u == NULL)
		return;
	d->cur = NULL;
	u->bulk = bulk;
	d->exclusive = 0;
	d->ignore = 0;
	if (d->o->dry_run) {
		printf("unit %" PRIu64 ": statements %" PRIu64 "-%" PRIu64
		    ", %zu bytes: one transaction%s\n", ++d->dry_seq,
		    u->st[0].no, u->st[u->n - 1].no, u->text.len,
		    u->bulk ? ", alone (first into a table: bulk)" : "");
		sx_unit_free(u);
		return;
	}
	/*
	 * Alone means alone: nothing before it may still be running either
	 * (a target named differently, or not known, could be the same table).
	 */
	if (bulk)
		sx_drain(d->x);
	sx_push(d->x, u);		/* u belongs to the workers now */
	if (bulk)
		sx_drain(d->x);
}

static void
plan_line(const struct rp_stmt *s, const char *what, const char *why)
{
	struct buf	 b = BUF_INIT;

	sx_where_stmt(&b, s);
	printf("%s: %s: %s%s%s%s\n", b.p,
	    rp_stmt_kind_name(s->kind) ? rp_stmt_kind_name(s->kind) : "?",
	    what, *why ? " (" : "", why, *why ? ")" : "");
	buf_release(&b);
}

/* A failed checkpoint write for statement s: recorded, -1. */
/*
 * The input's own transaction, begun by statement no, rolled back on
 * connection 1: checked, so that what it wrote to tables that are not
 * transactional is an error, never "nothing is committed" (nontx.c).
 */
static int
input_txn_rollback(struct sx *x, uint64_t no)
{
	char	 what[64];

	snprintf(what, sizeof(what), "the transaction begun by statement %"
	    PRIu64, no);
	return sx_rollback(x, x->conn[0], no, what);
}

static int
ckpt_error(struct dispatch *d, const struct rp_stmt *s, MYSQL *m)
{
	struct buf	 b = BUF_INIT;

	sx_where(&b, s->no, s->line, NULL);
	sx_set_error(d->x, s->no, "%s: checkpoint %s: ERROR %u (%s): %s", b.p,
	    d->o->checkpoint, mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
	(void)sx_rollback(d->x, m, s->no, b.p);
	buf_release(&b);
	return -1;
}

/* sx_done() under the lock. */
static void
done(struct sx *x, uint64_t no, uint64_t hash)
{
	pthread_mutex_lock(&x->mu);
	sx_done(x, no, hash);
	pthread_mutex_unlock(&x->mu);
}

/* Does s change only transactional data (and not commit on its own)? */
static int
transactional(const struct rp_stmt *s)
{
	return s->kind == STK_INSERT || s->kind == STK_UPDATE ||
	    s->kind == STK_DELETE || s->kind == STK_LOAD;
}

/*
 * Is the table s writes not transactional (nontx.c)?  1 with *engine, 0,
 * or -1 with the error recorded.  Asks the server on connection 1 once
 * per table (until the next DDL), after every unit queued has committed.
 */
static int
stmt_engine(struct dispatch *d, const struct rp_stmt *s, const char **engine)
{
	struct sx	*x = d->x;
	const char	*schema = s->schema[0] != '\0' ? s->schema :
	    s->db[0] != '\0' ? s->db : sx_default_db();
	struct buf	 b = BUF_INIT;
	int		 rc;

	if ((rc = sx_nontx(x, NULL, schema, s->table, engine)) == -2) {
		if (sx_drain(x) == -1)
			return -1;
		rc = sx_nontx(x, x->conn[0], schema, s->table, engine);
	}
	if (rc != -1)
		return rc;
	sx_where(&b, s->no, s->line, NULL);
	sx_set_error(x, s->no, "%s: the engine of %s.%s: ERROR %u (%s): %s",
	    b.p, schema, s->table, mysql_errno(x->conn[0]),
	    mysql_sqlstate(x->conn[0]), mysql_error(x->conn[0]));
	buf_release(&b);
	return -1;
}

/* A statement that committed: the table it filled, for sx_report_damage. */
static void
wrote(struct sx *x, const struct rp_stmt *s)
{
	struct buf	 b = BUF_INIT;

	if (!transactional(s) && s->kind != STK_CREATE_TABLE)
		return;
	sx_target(&b, s);
	pthread_mutex_lock(&x->mu);
	sx_wrote(x, b.p);
	pthread_mutex_unlock(&x->mu);
	buf_release(&b);
}

/*
 * barrier() with --checkpoint, on connection 1, everything before s
 * committed.  DML runs in a transaction with the checkpoint row; anything
 * else (DDL commits on its own) is recorded as pending while it runs, so
 * that a stop in the middle is not mistaken for either outcome.
 */
static int
barrier_checkpointed(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	MYSQL		*m = x->conn[0];
	struct buf	 b = BUF_INIT;
	int		 rc, ran;

	/* A write to a MyISAM table is done when it runs: as DDL. */
	if (transactional(s) && x->engine == NULL) {
		if (mysql_query(m, "START TRANSACTION") != 0)
			return ckpt_error(d, s, m);
		if (sx_exec_one(x, 0, s, 1) == -1) {
			sx_where(&b, s->no, s->line, NULL);
			(void)sx_rollback(x, m, s->no, b.p);
			buf_release(&b);
			return -1;
		}
		if (sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1) == -1)
			return ckpt_error(d, s, m);
		wrote(x, s);
		done(x, s->no, d->hash);
		return 0;
	}
	if (sx_ckpt_write(x, m, s->no - 1, d->prev_hash, s->no, d->hash,
	    1) == -1)
		return ckpt_error(d, s, m);
	rc = sx_exec_one(x, 0, s, 0);
	pthread_mutex_lock(&x->mu);
	ran = x->done_no >= s->no;	/* --strict: it ran, with warnings */
	pthread_mutex_unlock(&x->mu);
	if (rc == -1 && ran)
		(void)sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1);
	/*
	 * It did not run, or failed as a whole: no longer pending.  A write
	 * to a table that is not transactional may have stopped part way:
	 * it stays pending, for the user to decide.
	 */
	else if (rc == -1 && mysql_errno(m) < CR_MIN_ERROR &&
	    x->engine == NULL)
		(void)sx_ckpt_write(x, m, s->no - 1, d->prev_hash, 0, 0, 1);
	if (rc == -1)
		return -1;
	if (sx_ckpt_write(x, m, s->no, d->hash, 0, 0, 1) == -1)
		return ckpt_error(d, s, m);
	wrote(x, s);
	done(x, s->no, d->hash);
	return 0;
}

/* Run a barrier or session statement once everything before is done. */
static int
barrier(struct dispatch *d, const struct rp_stmt *s, int every,
    const char *why)
{
	struct sx	*x = d->x;
	int		 c, rc;

	unit_close(d);
	if (!every)
		cool_all(d);
	if (d->o->dry_run) {
		plan_line(s, every ? "session, every connection" : "barrier",
		    why);
		return 0;
	}
	if (sx_drain(x) == -1)
		return -1;
	done(x, s->no - 1, d->prev_hash);
	/* for the checkpoint, and to say what a failure leaves behind */
	if (!every && transactional(s) &&
	    stmt_engine(d, s, &x->engine) == -1)
		return -1;
	if (!every && d->o->checkpoint != NULL) {
		rc = barrier_checkpointed(d, s);
		x->engine = NULL;
		return rc;
	}
	for (c = 0; c < (every ? x->nconn : 1); c++) {
		if (sx_exec_one(x, c, s, 0) == -1) {
			x->engine = NULL;
			return -1;
		}
		if (every && sx_keep_unique_checks(x, c, s) == -1)
			return -1;
	}
	x->engine = NULL;
	if (!every)
		wrote(x, s);
	done(x, s->no, d->hash);
	return 0;
}

/* The largest max_allowed_packet a server accepts (1G), in bytes. */
#define SX_PACKET_MAX	(1024UL * 1024 * 1024)

/*
 * A statement the server would refuse: a COM_QUERY packet is one command
 * byte and the statement (MariaDB protocol, "COM_QUERY"), and the server
 * refuses a packet of max_allowed_packet bytes or more (net_realloc() in
 * sql/net_serv.cc; tried: with 1M, 1048574 bytes of statement run and
 * 1048575 do not), mostly by dropping the connection, which the client
 * sees as "server has gone away".  So it is reported here, before it is
 * sent.  -1 with the error recorded (the run stops as for a failed
 * statement), or with --force 0, reported and counted.
 */
static int
too_large(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	struct buf	 b = BUF_INIT;
	size_t		 mib = 1024 * 1024, want;

	sx_where_stmt(&b, s);
	buf_addf(&b, ": %zu bytes: too large for the server's "
	    "max_allowed_packet (%zu): ", s->len, x->max_packet);
	want = (s->len + 2 + mib - 1) / mib * mib;
	if (want <= SX_PACKET_MAX)
		buf_addf(&b, "raise it on the server (SET GLOBAL "
		    "max_allowed_packet=%zu)", want);
	else
		buf_addf(&b, "a server accepts at most %lu: split the "
		    "statement", SX_PACKET_MAX);
	if (d->o->force) {
		sx_report(x, "%s", b.p);
		pthread_mutex_lock(&x->mu);
		x->nstmts++;
		x->nfailed++;
		pthread_mutex_unlock(&x->mu);
		if (d->cur != NULL) {
			d->cur->end_no = s->no;
			d->cur->end_hash = d->hash;
		}
	} else
		sx_set_error(x, s->no, "%s and resume", b.p);
	buf_release(&b);
	return d->o->force ? 0 : -1;
}

/*
 * With -j > 1 a session statement runs on every connection; if it reads
 * what only the connection that ran an earlier statement knows (SET @id =
 * LAST_INSERT_ID()), each connection gets its own value.  Say so once.
 */
static void
warn_per_connection(struct dispatch *d, const struct rp_stmt *s)
{
	struct buf	 b = BUF_INIT;
	const char	*what;

	if (d->o->jobs < 2 || (what = sx_reads_connection(s)) == NULL)
		return;
	sx_where(&b, s->no, s->line, NULL);
	sx_report(d->x, "warning: %s: %s reads per-connection state (%s); "
	    "with -j %d each connection gets its own value: use -j 1",
	    b.p, s->kind == STK_OTHER && strncasecmp(s->text, "SELECT", 6) == 0 ?
	    "SELECT ... INTO" : "SET", what, d->o->jobs);
	buf_release(&b);
}

/*
 * From here on everything runs on connection 1, session statements too:
 * for what lives in one session (a temporary table, a user variable set
 * inside a transaction or by a function with side effects).
 */
static void
go_serial(struct dispatch *d, const struct rp_stmt *s,
    const char *why)	/* NULL: say nothing */
{
	struct buf	 b = BUF_INIT;

	if (d->serial)
		return;
	d->serial = 1;
	if (d->o->jobs < 2 || why == NULL)
		return;
	sx_where(&b, s->no, s->line, NULL);
	sx_report(d->x, "%s: %s: from here on one connection", b.p, why);
	buf_release(&b);
}

/*
 * --checkpoint inside the input's BEGIN ... COMMIT, on connection 1 in
 * that transaction, before (after == 0) and after statement s of kind k:
 * a COMMIT writes the position first, so that both commit together; a
 * statement that is not transactional writes itself as pending first (a
 * DDL's implicit commit then commits the row with the transaction); once
 * the transaction has ended otherwise (ROLLBACK, XA, a DDL), the position
 * is written and committed.
 */
static int
txn_checkpoint(struct dispatch *d, const struct rp_stmt *s, enum sx_txn k,
    enum sx_action a, int after)
{
	MYSQL	*m = d->x->conn[0];
	int	 plain_commit = k == TXN_COMMIT && !sx_is_xa(s);
	int	 rc = 0;

	if (!after && plain_commit)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 0);
	else if (!after && !transactional(s) && a != ACT_SESSION &&
	    s->kind != STK_TRANSACTION)
		rc = sx_ckpt_write(d->x, m, s->no - 1, d->prev_hash, s->no,
		    d->hash, 0);
	else if (after && d->txn == 0 && !plain_commit)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 1);
	else if (after && !transactional(s) && a != ACT_SESSION &&
	    s->kind != STK_TRANSACTION)
		rc = sx_ckpt_write(d->x, m, s->no, d->hash, 0, 0, 0);
	return rc == -1 ? ckpt_error(d, s, m) : 0;
}

/* The input's transaction was rolled back: its rows are not counted. */
static void
txn_undone(struct dispatch *d)
{
	pthread_mutex_lock(&d->x->mu);
	d->x->rows = d->txn_rows;
	pthread_mutex_unlock(&d->x->mu);
}

/*
 * The input's own transactions.  BEGIN (or XA START) is a barrier; from
 * it up to its COMMIT or ROLLBACK every statement runs in order on
 * connection 1, in that transaction, as the mysql client would run it; a
 * session statement in it makes the rest of the run serial (its value may
 * depend on the transaction's uncommitted rows).  LOCK and UNLOCK TABLES
 * stay skipped.  A statement that ends the transaction implicitly (DDL)
 * ends the block there.  Outside such a block, COMMIT, SAVEPOINT and
 * RELEASE are skipped (sqlexec commits its units itself), and so is a
 * ROLLBACK while autocommit is on (it does nothing); after SET
 * autocommit=0 a ROLLBACK cannot be honoured, as what came before ran in
 * sqlexec's own transactions: an error.  Returns 1 when the statement is
 * not one of these (dispatch goes on), else 0 or -1.
 */
static int
input_txn(struct dispatch *d, const struct rp_stmt *s, enum sx_action a)
{
	struct sx	*x = d->x;
	int		 txn = s->kind == STK_TRANSACTION ||
			    (s->kind == STK_OTHER && sx_is_xa(s));
	enum sx_txn	 k = txn ? sx_txn_kind(s) : TXN_OTHER;
	struct buf	 b = BUF_INIT;

	if (d->txn == 0 && !txn)
		return 1;
	if (d->txn == 0 && (k == TXN_ROLLBACK || k == TXN_ROLLBACK_KEEP)) {
		if (!d->autocommit_off)
			return 1;	/* a no-op: skipped */
		sx_where(&b, s->no, s->line, NULL);
		sx_set_error(x, s->no, "%s: ROLLBACK after SET autocommit=0, "
		    "outside BEGIN ... COMMIT: what came before it ran in "
		    "sqlexec's own transactions and may be committed; run "
		    "this input with the mysql client", b.p);
		buf_release(&b);
		return -1;
	}
	if (d->txn == 0 && k != TXN_BEGIN)
		return 1;	/* skipped, as any transaction control; XA: a barrier */
	if (d->txn == 0) {
		unit_close(d);
		cool_all(d);
		d->txn = s->no;
		d->txn_hash = d->prev_hash;
		if (d->o->dry_run) {
			plan_line(s, "barrier", "the input's transaction "
			    "begins: up to its COMMIT or ROLLBACK, one "
			    "connection");
			return 0;
		}
		if (sx_drain(x) == -1)
			return -1;
		done(x, s->no - 1, d->prev_hash);
		pthread_mutex_lock(&x->mu);
		d->txn_rows = x->rows;
		pthread_mutex_unlock(&x->mu);
		return sx_exec_one(x, 0, s, 1);
	}
	if (s->kind == STK_LOCK || s->kind == STK_UNLOCK) {
		if (d->o->dry_run)
			plan_line(s, "skipped", "table locks");
		x->nskipped++;
		return 0;
	}
	if (a == ACT_SESSION)
		go_serial(d, s, "a session statement inside the input's "
		    "transaction");
	if (k == TXN_COMMIT || k == TXN_ROLLBACK)
		d->txn = 0;
	if (d->o->dry_run) {
		plan_line(s, d->txn ? "in the input's transaction" :
		    "ends the input's transaction", "");
		return 0;
	}
	if (d->o->checkpoint != NULL && txn_checkpoint(d, s, k, a, 0) == -1)
		return -1;
	if (sx_exec_one(x, 0, s, 1) == -1) {
		/* A DDL that failed after its implicit commit: not pending. */
		if (d->o->checkpoint != NULL && !transactional(s) &&
		    mysql_errno(x->conn[0]) < CR_MIN_ERROR &&
		    !sx_in_transaction(x, 0))
			(void)sx_ckpt_write(x, x->conn[0], s->no - 1,
			    d->prev_hash, 0, 0, 1);
		return -1;
	}
	if (a == ACT_SESSION && sx_keep_unique_checks(x, 0, s) == -1)
		return -1;
	/* rolled back: the summary counts the rows committed */
	if (k == TXN_ROLLBACK)
		txn_undone(d);
	/* Ended, or ended implicitly (DDL, LOCK TABLES): all committed. */
	if (d->txn != 0 && !sx_in_transaction(x, 0))
		d->txn = 0;
	if (d->o->checkpoint != NULL && txn_checkpoint(d, s, k, a, 1) == -1)
		return -1;
	if (d->txn == 0)
		done(x, s->no, d->hash);
	return 0;
}

/*
 * A session statement before --skip-to: it runs again (the session after
 * it is the one the input intended), and the summary counts it apart.
 */
static int
session_before(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;
	uint64_t	 n, bytes;
	int		 rc;

	/* before --skip-to nothing is in a unit: the workers are idle */
	pthread_mutex_lock(&x->mu);
	n = x->nstmts;
	bytes = x->bytes;
	pthread_mutex_unlock(&x->mu);
	rc = barrier(d, s, 1, "before --skip-to");
	if (d->o->dry_run)
		return rc;
	pthread_mutex_lock(&x->mu);
	x->nstmts = n;
	x->bytes = bytes;
	pthread_mutex_unlock(&x->mu);
	d->resumed_session++;
	return rc;
}

/*
 * The input's identity, statement by statement; at the first statement
 * after --skip-to N, check that statements 1..N are those of the input
 * the resume point was made from, before anything after N runs.
 */
static int
resume_point(struct dispatch *d, const struct rp_stmt *s)
{
	struct sx	*x = d->x;

	d->prev_hash = d->hash;
	if (!d->checked && d->o->skip_frames) {
		char	 given[512];

		d->checked = 1;
		sx_resume_given(x, given, sizeof(given));
		sx_set_error(x, s->no, "%s: a snapshot stream's resume point "
		    "(frames), and this input is a statement stream: it is not "
		    "the input the resume point was made from", given);
		x->no_resume = 1;
		return -1;
	}
	if (!d->checked && s->no > d->o->skip_to) {
		d->checked = 1;
		pthread_mutex_lock(&x->mu);
		if (x->done_no == d->o->skip_to)
			x->done_hash = d->prev_hash;
		pthread_mutex_unlock(&x->mu);
		if (sx_check_resume(x, d->o->skip_to, d->prev_hash) == -1)
			return -1;
	}
	sx_id_add(&d->id, s->text, s->len);
	d->hash = sx_id_digest(&d->id);
	x->at_hash = d->hash;
	return 0;
}

/* At the end of the input: it must reach --skip-to N. */
static int
resume_end(struct dispatch *d)
{
	struct sx	*x = d->x;

	if (d->checked || d->o->skip_to == 0)
		return 0;
	if (d->consumed != d->o->skip_to) {
		char	 given[512];

		sx_resume_given(x, given, sizeof(given));
		sx_set_error(x, d->consumed, "%s: the input ends at statement %"
		    PRIu64 ": it is not the input the resume point was made "
		    "from", given, d->consumed);
		x->no_resume = 1;
		return -1;
	}
	d->checked = 1;
	pthread_mutex_lock(&x->mu);
	x->done_hash = d->hash;
	pthread_mutex_unlock(&x->mu);
	return sx_check_resume(x, d->consumed, d->hash);
}

static int
dispatch(struct dispatch *d, const struct rp_stmt *s)
{
	const char	*why, *fn, *eng;
	enum sx_action	 a = sx_classify(s, &why);
	char		 fnwhy[128];
	int		 rc, ac;

	if (resume_point(d, s) == -1)
		return -1;
	d->consumed = s->no;
	if (a == ACT_SESSION)
		warn_per_connection(d, s);
	sx_check_use(d->x, s, &d->use_warned);
	if (a != ACT_SKIP && (s->no > d->o->skip_to || a == ACT_SESSION) &&
	    !d->o->dry_run && d->x->max_packet > 0 &&
	    s->len + 1 >= d->x->max_packet)
		return too_large(d, s);
	/* DDL (or a CALL, ...) may change the tables' engines */
	if (a == ACT_BARRIER && !transactional(s) && !d->o->dry_run)
		sx_nontx_forget(d->x);
	if (s->no <= d->o->skip_to) {
		if (a == ACT_SESSION)
			return session_before(d, s);
		d->resumed++;
		if (d->o->dry_run)
			plan_line(s, "skipped", "--skip-to");
		return 0;
	}
	if (a == ACT_SESSION && (ac = sx_sets_autocommit(s)) != -1)
		d->autocommit_off = ac == 0;
	/* A temporary table exists only on the connection that made it. */
	if (a != ACT_SKIP && sx_creates_temporary(s))
		go_serial(d, s, "CREATE TEMPORARY TABLE (it exists only on "
		    "the connection that made it)");
	/*
	 * A session statement runs on every connection: one that calls a
	 * function (NEXTVAL, RAND, a stored function...) would run it once
	 * per connection, with its side effects, and give each its own
	 * value.
	 */
	if (a == ACT_SESSION && d->o->jobs > 1 && !d->serial &&
	    (fn = sx_calls_function(s)) != NULL) {
		snprintf(fnwhy, sizeof(fnwhy), "a session statement calls "
		    "%s()", fn);
		/* silently if warn_per_connection() has spoken already */
		go_serial(d, s, sx_reads_connection(s) ? NULL : fnwhy);
	}
	if ((rc = input_txn(d, s, a)) != 1)
		return rc;
	if (d->serial && a != ACT_SKIP)
		return barrier(d, s, 0, d->o->dry_run ? "one connection from "
		    "here on" : why);
	switch (a) {
	case ACT_SKIP:
		if (d->o->dry_run)
			plan_line(s, "skipped", why);
		d->x->nskipped++;
		if (d->cur != NULL) {
			d->cur->end_no = s->no;
			d->cur->end_hash = d->hash;
		}
		return 0;
	case ACT_PARALLEL:
		/* not transactional: alone, autocommit, never run again */
		if (!d->o->dry_run && (rc = stmt_engine(d, s, &eng)) != 0)
			return rc == -1 ? -1 : barrier(d, s, 0, "");
		if (d->o->dry_run)
			plan_line(s, "parallel", why);
		if (unit_add(d, s) == -1) {
			sx_set_error(d->x, s->no, "%s", strerror(errno));
			return -1;
		}
		if (d->cur->text.len >= d->o->commit_every)
			unit_close(d);
		return 0;
	case ACT_BARRIER:
		return barrier(d, s, 0, why);
	case ACT_SESSION:
		return barrier(d, s, 1, why);
	}
	return 0;
}

static void
summary(struct dispatch *d, double secs)
{
	struct sx	*x = d->x;
	struct buf	 b = BUF_INIT;

	buf_addf(&b, "%s: %" PRIu64 " %s, %" PRIu64 " %s affected, ",
	    getprogname(), x->nstmts, x->nstmts == 1 ? "statement" :
	    "statements", x->rows, x->rows == 1 ? "row" : "rows");
	/* the paths the statements took (lit.c) */
	if (x->lit != NULL)
		buf_addf(&b, "%" PRIu64 " by bulk execute and %" PRIu64
		    " as text, ", x->nlit, x->nstmts - x->nlit);
	sx_add_bytes(&b, (double)x->bytes);
	buf_addf(&b, " in %.2f s", secs);
	if (secs > 0) {
		buf_adds(&b, " (");
		sx_add_bytes(&b, x->bytes / secs);
		buf_addf(&b, "/s, %.0f statements/s)", x->nstmts / secs);
	}
	if (x->nskipped > 0)
		buf_addf(&b, ", %" PRIu64 " skipped", x->nskipped);
	if (d->resumed + d->resumed_session > 0)
		buf_addf(&b, ", %" PRIu64 " before --skip-to", d->resumed +
		    d->resumed_session);
	if (d->resumed_session > 0)
		buf_addf(&b, " (%" PRIu64 " SET or USE of them run again)",
		    d->resumed_session);
	if (x->nwarnings > 0)
		buf_addf(&b, ", %" PRIu64 " warning%s", x->nwarnings,
		    x->nwarnings == 1 ? "" : "s");
	if (x->nfailed > 0)
		buf_addf(&b, ", %" PRIu64 " FAILED", x->nfailed);

	fprintf(stderr, "%s\n", b.p);
	buf_release(&b);
}

/* The stream header: what the checkpoint records of the input. */
static int
header(struct dispatch *d, const struct frame *f)
{
	struct dec	 dd;
	struct rp_kv	 kv;

	if (d->o->dry_run || d->o->checkpoint == NULL)
		return 0;
	dec_init(&dd, f->p, f->len);
	if (dec_kv(&dd, &kv) == -1)
		return 0;	/* the reader checked it: cannot be */
	return sx_ckpt_input(d->x, &kv);
}

/*
 * A whole stream with no statement and no object (sqlsplit of an empty
 * text, a header and a trailer alone) is an error unless --allow-empty:
 * a zero-byte backup must not restore as a success.
 */
static int
empty_input(struct dispatch *d, int *input_err)
{
	fprintf(stderr, "%s: %s: empty input: the stream holds no statement "
	    "and no object (--allow-empty if that is expected)\n",
	    getprogname(), d->o->input_name != NULL ? d->o->input_name :
	    "stdin");
	d->x->no_resume = 1;
	*input_err = 2;
	return -1;
}

/* Read frames and dispatch statements until the trailer or a failure. */
static int
read_loop(struct dispatch *d, struct frame_reader *r, int *input_err)
{
	struct frame	 f;
	struct rp_stmt	 s;
	enum frame_status st;
	int		 stop;

	for (;;) {
		pthread_mutex_lock(&d->x->mu);
		stop = d->x->stop;
		pthread_mutex_unlock(&d->x->mu);
		if (stop)
			return -1;
		if ((st = frame_read(r, &f)) == FRAME_DONE)
			return d->consumed == 0 && !d->o->allow_empty ?
			    empty_input(d, input_err) : 0;
		if (st == FRAME_ERR) {
			*input_err = 1;
			return -1;
		}
		if (f.type == FT_HEADER) {
			buf_reset(&d->header);
			buf_add(&d->header, f.p, f.len);
			if (header(d, &f) == -1)
				return -1;
			continue;
		}
		/* A snapshot stream (dbsnap's): load.c takes it from here. */
		if (d->consumed == 0 &&
		    (f.type == FT_OBJECT || f.type == FT_TABLE)) {
			d->snapshot = 1;
			return sx_load(d->x, r, &d->header, &f, d->t0);
		}
		if (f.type != FT_STMT) {
			fprintf(stderr, "%s: frame %" PRIu64 " at offset %"
			    PRIu64 ": not a statement frame (type %d): "
			    "sqlexec runs the output of sqlsplit\n",
			    getprogname(), f.seq, f.offset, f.type);
			*input_err = 2;
			return -1;
		}
		if (dec_stmt(&f, &s) == -1) {
			fprintf(stderr, "%s: frame %" PRIu64 " at offset %"
			    PRIu64 ": corrupt statement frame\n",
			    getprogname(), f.seq, f.offset);
			*input_err = 2;
			return -1;
		}
		if (sx_rename_stmt(d->o, &s) == -1) {
			warn("rename");
			return -1;
		}
		if (dispatch(d, &s) == -1)
			return -1;
	}
}

int
sx_run(int fd, const struct sx_opts *given)
{
	struct sx_opts		 opts = *given, *o = &opts;	/* --resume sets skip_to */
	struct sx		 x;
	struct dispatch		 d;
	struct frame_reader	*r;
	struct stat		 sb;
	double			 t0 = mono_now();
	uint64_t		 end_no, end_hash;
	int			 rc, input_err = 0, ok, started;

	sx_set_default_db(o->db);
	memset(&x, 0, sizeof(x));
	memset(&d, 0, sizeof(d));
	x.o = o;
	x.qmax = o->jobs;
	x.stop_seq = UINT64_MAX;
	x.done_no = o->skip_to;
	x.done_hash = o->skip_hash;
	x.top_no = o->skip_top;
	x.top_hash = o->skip_hash;
	pthread_mutex_init(&x.mu, NULL);
	pthread_cond_init(&x.cv_work, NULL);
	pthread_cond_init(&x.cv_space, NULL);
	pthread_cond_init(&x.cv_commit, NULL);
	d.x = &x;
	d.o = o;
	d.t0 = t0;
	if (sx_id_init(&d.id, NULL) == -1 ||
	    (r = frame_reader_new(fd, 0)) == NULL) {
		warn("frame reader");
		sx_id_free(&d.id);
		return -1;
	}
	d.hash = sx_id_digest(&d.id);
	if (!o->dry_run) {
		if (sx_connect(&x) == -1) {
			sx_disconnect(&x);
			frame_reader_free(r);
			sx_id_free(&d.id);
			return -1;
		}
		if (o->checkpoint != NULL && sx_ckpt_open(&x, &opts) == -1) {
			fprintf(stderr, "%s: %s\n", getprogname(), x.err.msg);
			free(x.err.msg);
			sx_disconnect(&x);
			frame_reader_free(r);
			sx_id_free(&d.id);
			return -1;
		}
		/* INSERTs of literals through bulk executes (lit.c) */
		if (!o->no_bulk && sx_bulk_supported(x.conn[0]) &&
		    sx_lit_new(&x) == -1)
			warn("bulk");		/* then as text */
		/* Before any thread: they inherit the blocked signals. */
		if (sx_intr_start(&x) == -1)
			warn("signals");	/* then they have their default effect */
		frame_reader_set_cancel(r, sx_intr_fd(&x));
		if (sx_start_workers(&x) == -1) {
			warn("pthread_create");
			x.stop = 1;
			sx_join_workers(&x);
			sx_intr_stop(&x);
			sx_disconnect(&x);
			frame_reader_free(r);
			return -1;
		}
		x.prog = progress_new(getprogname(), "statements",
		    o->progress);
		if (x.prog != NULL && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
			progress_total(x.prog, 0, 0, sb.st_size);
	}
	if (o->skip_to > 0 && !o->skip_has_hash)
		fprintf(stderr, "%s: warning: --skip-to %" PRIu64 " without the "
		    "input's identity (N:IDENTITY, as the resume line prints "
		    "it): not checked that this is the same input\n",
		    getprogname(), o->skip_to);

	rc = read_loop(&d, r, &input_err);
	if (d.snapshot) {
		ok = rc == 0;	/* sx_load() has reported */
		goto done;
	}
	if (rc == 0 && resume_end(&d) == -1)
		rc = -1;
	end_no = d.consumed;
	end_hash = d.hash;
	if (rc == 0 && d.txn != 0) {
		/* As the mysql client at its end: not committed. */
		fprintf(stderr, "%s: warning: the input ends inside the "
		    "transaction begun by statement %" PRIu64 ": rolled "
		    "back, as the mysql client does\n", getprogname(), d.txn);
		if (!o->dry_run)
			(void)input_txn_rollback(&x, d.txn);
		txn_undone(&d);
		end_no = d.txn - 1;
		end_hash = d.txn_hash;
	}
	if (rc == 0 || input_err) {
		if (rc == 0)
			unit_close(&d);
		else {
			sx_unit_free(d.cur);	/* the open batch: dropped */
			d.cur = NULL;
		}
		if (!o->dry_run && sx_drain(&x) == 0 && rc == 0)
			done(&x, end_no, end_hash);
	} else {
		sx_unit_free(d.cur);
		d.cur = NULL;
	}
	if (!o->dry_run) {
		sx_join_workers(&x);
		if (rc != 0 && d.txn != 0)	/* the input's, left open */
			(void)input_txn_rollback(&x, d.txn);
		if (rc == 0 && x.err.msg == NULL && x.interrupted == 0 &&
		    sx_ckpt_finish(&x, end_no, end_hash) == -1)
			rc = -1;
	}
	if (x.prog != NULL)
		progress_clear(x.prog);

	sx_report_end(&x, r, input_err);
	ok = rc == 0 && x.err.msg == NULL && x.nfailed == 0 &&
	    x.interrupted == 0;
	/* Input that never was a stream: its one error line says it all. */
	started = frame_reader_totals(r)->frames > 0;
	if (!o->dry_run && started && (!o->quiet || !ok))
		summary(&d, mono_now() - t0);
	if (!o->dry_run && !ok && !x.no_resume && ((started && (rc != 0 ||
	    x.err.msg != NULL)) || x.interrupted != 0))
		sx_print_resume(&x);
done:
	sx_intr_stop(&x);		/* a signal from now on: its default */

	cool_all(&d);
	free(d.warm);
	buf_release(&d.last);
	buf_release(&d.header);
	progress_free(x.prog);
	sx_lit_free(&x);
	if (!o->dry_run)
		sx_disconnect(&x);
	frame_reader_free(r);
	sx_id_free(&d.id);
	sx_wrote_free(&x);
	sx_nontx_free(&x);
	free(x.marks);
	free(x.pend_marks);
	free(x.doubt);
	free(x.doubt_what);
	if (opts.skip_marks != given->skip_marks)	/* the checkpoint's */
		free(opts.skip_marks);
	free(x.err.msg);
	pthread_mutex_destroy(&x.mu);
	pthread_cond_destroy(&x.cv_work);
	pthread_cond_destroy(&x.cv_space);
	pthread_cond_destroy(&x.cv_commit);
	return ok ? 0 : -1;
}
