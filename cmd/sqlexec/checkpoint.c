/*
 * checkpoint: --checkpoint DB.TABLE keeps the committed position in the
 * target itself, written in the same transaction as the work it covers,
 * so that --resume continues exactly once after any stop: an error, an
 * interrupt, a kill -9 of sqlexec, a lost connection or a server crash.
 *
 * The table holds one row (id 1): the state of the run ('running' or
 * 'done'), the position N (statements 1..N are committed) and the input's
 * identity up to N (resume.c); for a snapshot stream the resume point
 * (struct sx_point): N, every frame up to it done, "marks" the tables'
 * marks after it ("TABLE=FRAME,...", '' for none; NULL in a row of an
 * sqlexec before #23, or of a statement stream) and the identity up to
 * the last of them; and, while a statement that is not
 * transactional runs (DDL: it commits on its own), that statement's number
 * and identity as "pending": if the run stops then, only the user can
 * tell whether it took effect, and --resume says so instead of guessing.
 * A unit writes the row in its transaction, before its COMMIT; a DML
 * barrier runs in a transaction of its own with the row; the input's own
 * BEGIN ... COMMIT writes it before its COMMIT (commit.c decides what is
 * written when; this file writes and reads the row).  Exactly once holds for
 * transactional tables (InnoDB); a write to MyISAM or Aria is done when
 * its statement runs, whatever happens to the transaction.
 *
 * GET_LOCK() on connection 1 keeps two runs from sharing one checkpoint;
 * a lock on each other connection lets a resume wait until every
 * connection of a killed run has ended on the server.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "quote.h"
#include "sqlexec.h"

int
sx_ckpt_name(const char *name)
{
	const char	*dot = strchr(name, '.');

	return dot == NULL || dot == name || dot[1] == '\0' ? -1 : 0;
}

/* `db`.`table` of the checkpoint into b. */
static void
ckpt_table(struct buf *b, const char *name)
{
	const char	*dot = strchr(name, '.');
	char		*db;

	if ((db = strndup(name, dot - name)) == NULL) {
		b->err = 1;
		return;
	}
	quote_ident2(b, db, dot + 1);
	free(db);
}

/* Run q on m, drain every result; 0, or -1 (mysql_error(m) says why). */
static int
query(MYSQL *m, const char *q, size_t len)
{
	MYSQL_RES	*res;
	int		 rc;

	if (mysql_real_query(m, q, len) != 0)
		return -1;
	do {
		if ((res = mysql_store_result(m)) != NULL)
			mysql_free_result(res);
	} while ((rc = mysql_next_result(m)) == 0);
	return rc > 0 ? -1 : 0;
}

/* "checkpoint db.t: what: ERROR ..." recorded for statement no. */
static int
ckpt_fail(struct sx *x, MYSQL *m, uint64_t no, const char *what)
{
	sx_set_error(x, no, "checkpoint %s: %s: ERROR %u (%s): %s",
	    x->o->checkpoint, what, mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
	return -1;
}

/* "COL = N, IDCOL = 'H', MCOL = 'marks'" (NULL: no marks) of p, into b. */
static void
ckpt_set(struct buf *b, const char *col, const char *idcol, const char *mcol,
    const struct sx_point *p, int by_frame)
{
	buf_addf(b, "%s = %" PRIu64 ", %s = '%016" PRIx64 "', %s = ", col,
	    p->no, idcol, p->hash, mcol);
	if (!by_frame) {
		buf_adds(b, "NULL");
		return;
	}
	buf_addc(b, '\'');		/* digits, '=' and ',' */
	sx_point_marks(b, p->m, p->n);
	buf_addc(b, '\'');
}

/*
 * The UPDATE that records position pos and, if pend is not NULL, pend as
 * begun (checkpoint.c's header), then COMMIT if commit; run on m.
 * commit.c says which point when (engine.h).
 */
int
sx_ckpt_write(struct sx *x, MYSQL *m, const struct sx_point *pos,
    const struct sx_point *pend, int commit)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	buf_adds(&b, "UPDATE ");
	ckpt_table(&b, x->o->checkpoint);
	buf_adds(&b, " SET ");
	ckpt_set(&b, "position", "identity", "marks", pos, x->by_frame);
	buf_adds(&b, ", ");
	if (pend != NULL)
		ckpt_set(&b, "pending", "pending_identity", "pending_marks",
		    pend, x->by_frame);
	else
		buf_adds(&b, "pending = NULL, pending_identity = NULL, "
		    "pending_marks = NULL");
	buf_adds(&b, ", updated = NOW(6) WHERE id = 1");
	if (commit)
		buf_adds(&b, ";COMMIT");
	rc = b.err ? -1 : query(m, b.p, b.len);
	buf_release(&b);
	return rc;
}

/* Read the row: 1 if there is one, 0 if not, -1 on error (recorded). */
static int
ckpt_read(struct sx *x, MYSQL *m, int *done, uint64_t *pos, uint64_t *hash,
    uint64_t *pend, uint64_t *pend_hash, char **marks, char **pend_marks)
{
	struct buf	 b = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	int		 found = 0;

	buf_adds(&b, "SELECT state, position, identity, pending, "
	    "pending_identity, marks, pending_marks FROM ");
	ckpt_table(&b, x->o->checkpoint);
	buf_adds(&b, " WHERE id = 1");
	if (b.err || mysql_real_query(m, b.p, b.len) != 0 ||
	    (res = mysql_store_result(m)) == NULL) {
		buf_release(&b);
		return ckpt_fail(x, m, 0, "read");
	}
	buf_release(&b);
	if ((row = mysql_fetch_row(res)) != NULL) {
		found = 1;
		*done = strcmp(row[0], "done") == 0;
		*pos = strtoull(row[1], NULL, 10);
		*hash = strtoull(row[2], NULL, 16);
		*pend = row[3] != NULL ? strtoull(row[3], NULL, 10) : 0;
		*pend_hash = row[4] != NULL ? strtoull(row[4], NULL, 16) : 0;
		*marks = row[5] != NULL ? strdup(row[5]) : NULL;
		*pend_marks = row[6] != NULL ? strdup(row[6]) : NULL;
	}
	mysql_free_result(res);
	return found;
}

/* One user lock's value (GET_LOCK, IS_USED_LOCK) of query q on m. */
static int
lock_query(struct sx *x, MYSQL *m, const char *q, char *val, size_t vlen)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;

	if (mysql_query(m, q) != 0 || (res = mysql_store_result(m)) == NULL)
		return ckpt_fail(x, m, 0, "GET_LOCK");
	row = mysql_fetch_row(res);
	snprintf(val, vlen, "%s", row != NULL && row[0] != NULL ? row[0] : "");
	mysql_free_result(res);
	return 0;
}

/*
 * The user lock of connection k (1-based) of a run on this checkpoint:
 * "rowpipe-checkpoint-H" for k 1, "rowpipe-checkpoint-H-k" for the
 * others (a name is at most 64 characters: H is a hash of the name).
 */
static void
lock_name(char *b, size_t len, uint64_t h, int k)
{
	if (k == 1)
		snprintf(b, len, "rowpipe-checkpoint-%016" PRIx64, h);
	else
		snprintf(b, len, "rowpipe-checkpoint-%016" PRIx64 "-%d", h, k);
}

/*
 * Wait until no connection of an earlier run holds its lock k (2 to the
 * most -j), then take ours: a run that was killed (kill -9 of sqlexec)
 * leaves statements running on the server, and a COMMIT that reached the
 * server goes on and writes the checkpoint row; only once the server has
 * ended each of those connections (rolled back what was not committed)
 * is the row the whole truth, and are their row locks gone (else the
 * resume's units wait on them, or deadlock).  0, or -1 (recorded).
 */
static int
ckpt_lock_conns(struct sx *x, uint64_t h)
{
	struct buf	 q = BUF_INIT, ids = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	char		 name[64], cmd[128], val[32];
	unsigned	 i, n;
	int		 k, first, said = 0, rc = -1;

	buf_adds(&q, "SELECT ");
	for (k = 2; k <= SX_MAX_CONN; k++) {
		lock_name(name, sizeof(name), h, k);
		buf_addf(&q, "%sIS_USED_LOCK('%s')", k > 2 ? ", " : "", name);
	}
	if (q.err)
		goto oom;
	for (;;) {
		if (mysql_real_query(x->conn[0], q.p, q.len) != 0 ||
		    (res = mysql_store_result(x->conn[0])) == NULL) {
			ckpt_fail(x, x->conn[0], 0, "IS_USED_LOCK");
			goto out;
		}
		buf_reset(&ids);
		first = 0;
		n = mysql_num_fields(res);
		if ((row = mysql_fetch_row(res)) != NULL)
			for (i = 0; i < n; i++) {
				if (row[i] == NULL)
					continue;
				buf_addf(&ids, "%s%s", ids.len ? ", " : "",
				    row[i]);
				if (first == 0)
					first = (int)i + 2;
			}
		mysql_free_result(res);
		if (ids.err)
			goto oom;
		if (first == 0)
			break;
		if (said++ % 12 == 0)
			sx_report(x, "checkpoint %s: waiting for connection %s "
			    "of an earlier run of it to end on the server (a "
			    "statement of that run still runs or rolls back; "
			    "KILL it to end it sooner)", x->o->checkpoint,
			    ids.p);
		/* wait for it on the server, then let it go again */
		lock_name(name, sizeof(name), h, first);
		snprintf(cmd, sizeof(cmd), "SELECT GET_LOCK('%s', 5)", name);
		if (lock_query(x, x->conn[0], cmd, val, sizeof(val)) == -1)
			goto out;
		snprintf(cmd, sizeof(cmd), "SELECT RELEASE_LOCK('%s')", name);
		if (strcmp(val, "1") == 0 &&
		    lock_query(x, x->conn[0], cmd, val, sizeof(val)) == -1)
			goto out;
	}
	/* nobody takes them now: a new run needs lock 1 first */
	for (k = 2; k <= x->nconn; k++) {
		lock_name(name, sizeof(name), h, k);
		snprintf(cmd, sizeof(cmd), "SELECT GET_LOCK('%s', 5)", name);
		if (lock_query(x, x->conn[k - 1], cmd, val, sizeof(val)) == -1)
			goto out;
		if (strcmp(val, "1") != 0) {
			sx_set_error(x, 0, "checkpoint %s: in use by another "
			    "sqlexec", x->o->checkpoint);
			x->no_resume = 1;
			goto out;
		}
	}
	rc = 0;
	goto out;
oom:
	sx_set_error(x, 0, "checkpoint %s: out of memory", x->o->checkpoint);
out:
	buf_release(&q);
	buf_release(&ids);
	return rc;
}

/*
 * The run's locks on this checkpoint: lock 1 on connection 1 keeps two
 * runs from sharing it, and each connection's lock says when the last of
 * a killed run's connections has ended (ckpt_lock_conns()).  0, or -1
 * (recorded).
 */
static int
ckpt_lock(struct sx *x, MYSQL *m)
{
	char		 name[64], q[128], val[32];
	uint64_t	 h;

	/*
	 * Wait a little: the server releases a killed run's lock when it
	 * sees its connection close, after the statement running then.
	 */
	h = (uint64_t)XXH3_64bits(x->o->checkpoint, strlen(x->o->checkpoint));
	lock_name(name, sizeof(name), h, 1);
	snprintf(q, sizeof(q), "SELECT GET_LOCK('%s', 2)", name);
	if (lock_query(x, m, q, val, sizeof(val)) == -1)
		return -1;
	if (strcmp(val, "1") == 0)
		return ckpt_lock_conns(x, h);
	sx_set_error(x, 0, "checkpoint %s: in use by another sqlexec, or by a "
	    "statement of an earlier run still running on the server",
	    x->o->checkpoint);
	x->no_resume = 1;
	return -1;
}

static const char ckpt_ddl[] =
    " (id TINYINT UNSIGNED NOT NULL PRIMARY KEY,"
    " state ENUM('running', 'done') NOT NULL,"
    " position BIGINT UNSIGNED NOT NULL,"
    " identity CHAR(16) CHARACTER SET ascii NOT NULL,"
    " pending BIGINT UNSIGNED NULL,"
    " pending_identity CHAR(16) CHARACTER SET ascii NULL,"
    " input VARCHAR(1024) NOT NULL DEFAULT '',"
    " marks TEXT CHARACTER SET ascii NULL,"
    " pending_marks TEXT CHARACTER SET ascii NULL,"
    " updated DATETIME(6) NOT NULL)"
    " ENGINE=InnoDB COMMENT='sqlexec --checkpoint: see sqlexec(1)'";

/* CREATE TABLE IF NOT EXISTS, and check that it is InnoDB.  0 or -1. */
static int
ckpt_create(struct sx *x, MYSQL *m)
{
	struct buf	 b = BUF_INIT;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	const char	*dot = strchr(x->o->checkpoint, '.');
	int		 innodb = 0, has_marks = 0, rc;

	buf_adds(&b, "CREATE TABLE IF NOT EXISTS ");
	ckpt_table(&b, x->o->checkpoint);
	buf_adds(&b, ckpt_ddl);
	if (b.err || query(m, b.p, b.len) != 0) {
		buf_release(&b);
		return ckpt_fail(x, m, 0, "create");
	}
	buf_reset(&b);
	buf_adds(&b, "SELECT engine, (SELECT COUNT(*) FROM "
	    "information_schema.columns c WHERE c.table_schema = "
	    "t.table_schema AND c.table_name = t.table_name AND "
	    "c.column_name = 'marks') FROM information_schema.tables t WHERE "
	    "table_schema = ");
	quote_string(&b, x->o->checkpoint, dot - x->o->checkpoint);
	buf_adds(&b, " AND table_name = ");
	quote_string(&b, dot + 1, strlen(dot + 1));
	if (b.err || mysql_real_query(m, b.p, b.len) != 0 ||
	    (res = mysql_store_result(m)) == NULL) {
		buf_release(&b);
		return ckpt_fail(x, m, 0, "engine");
	}
	buf_release(&b);
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL) {
		innodb = strcasecmp(row[0], "InnoDB") == 0;
		has_marks = row[1] != NULL && strcmp(row[1], "0") != 0;
	}
	mysql_free_result(res);
	/* a table an older sqlexec created: its rows then have NULL marks */
	if (innodb && !has_marks) {
		buf_adds(&b, "ALTER TABLE ");
		ckpt_table(&b, x->o->checkpoint);
		buf_adds(&b, " ADD COLUMN marks TEXT CHARACTER SET ascii NULL, "
		    "ADD COLUMN pending_marks TEXT CHARACTER SET ascii NULL");
		rc = b.err || query(m, b.p, b.len) != 0 ? ckpt_fail(x, m, 0,
		    "add its marks columns") : 0;
		buf_release(&b);
		return rc;
	}
	if (innodb)
		return 0;
	sx_set_error(x, 0, "checkpoint %s: not an InnoDB table: the position "
	    "must commit with the rows", x->o->checkpoint);
	x->no_resume = 1;
	return -1;
}

/*
 * --resume from the row's position pos (identity hash: up to the last of
 * pos and the marks), marks (NULL: none recorded), into o and x.
 * 0, or -1 (recorded).
 */
static int
ckpt_resume(struct sx *x, struct sx_opts *o, uint64_t pos, uint64_t hash,
    const char *marks, int done)
{
	const char	*why;
	size_t		 i;

	o->skip_to = o->skip_top = pos;
	o->skip_hash = hash;
	o->skip_has_hash = 1;
	o->skip_frames = marks != NULL;
	/* a snapshot stream's row of an older sqlexec: refused (load.c) */
	x->ckpt_old = marks == NULL && !done && pos > 0;
	if (marks != NULL && sx_marks_parse(marks, strlen(marks), pos,
	    &o->skip_marks, &o->nskip_marks, &why) == -1) {
		sx_set_error(x, 0, "checkpoint %s: marks '%s': %s",
		    o->checkpoint, marks, why);
		x->no_resume = 1;
		return -1;
	}
	for (i = 0; i < o->nskip_marks; i++)
		if (o->skip_marks[i].frame > o->skip_top)
			o->skip_top = o->skip_marks[i].frame;
	x->done_no = pos;
	x->done_hash = hash;
	x->top_no = o->skip_top;
	x->top_hash = hash;
	return 0;
}

/* --resume and a pending point: into x, said at the resume point. */
static int
ckpt_pending(struct sx *x, uint64_t pend, uint64_t pend_hash,
    const char *marks)
{
	const char	*why;

	x->pend_no = pend;
	x->pend_hash = pend_hash;
	if (marks != NULL && sx_marks_parse(marks, strlen(marks), pend,
	    &x->pend_marks, &x->npend_marks, &why) == -1) {
		sx_set_error(x, 0, "checkpoint %s: pending marks '%s': %s",
		    x->o->checkpoint, marks, why);
		x->no_resume = 1;
		return -1;
	}
	return 0;
}

int
sx_ckpt_open(struct sx *x, struct sx_opts *o)
{
	MYSQL		*m = x->conn[0];
	struct buf	 b = BUF_INIT;
	uint64_t	 pos = 0, hash = 0, pend = 0, pend_hash = 0;
	char		*marks = NULL, *pmarks = NULL;
	int		 found, done = 0, rc = -1;

	if (ckpt_lock(x, m) == -1 || ckpt_create(x, m) == -1 ||
	    (found = ckpt_read(x, m, &done, &pos, &hash, &pend,
	    &pend_hash, &marks, &pmarks)) == -1)
		return -1;
	if (o->resume && !found) {
		sx_set_error(x, 0, "checkpoint %s: no run recorded: nothing to "
		    "resume (start without --resume)", o->checkpoint);
		x->no_resume = 1;
		goto out;
	}
	/* said at the resume point, when it is known what N counts */
	if (o->resume && pend != 0 && ckpt_pending(x, pend, pend_hash,
	    pmarks) == -1)
		goto out;
	/*
	 * A row at position 0 with nothing pending and no marks records a
	 * run stopped before its first commit (an interrupt just after the
	 * REPLACE below): starting again is what --resume would do.
	 */
	if (!o->resume && found && !done && o->skip_top == 0 &&
	    (pos != 0 || pend != 0 || (marks != NULL && *marks != '\0'))) {
		buf_adds(&b, "DELETE FROM ");
		ckpt_table(&b, o->checkpoint);
		buf_adds(&b, " WHERE id = 1");
		sx_set_error(x, 0, "checkpoint %s: holds an unfinished run "
		    "(statements 1-%" PRIu64 " committed): continue it with "
		    "--resume, or delete its row to start again (%s)",
		    o->checkpoint, pos, b.err ? "out of memory" : b.p);
		x->no_resume = 1;
		goto out;
	}
	if (o->resume) {
		if (ckpt_resume(x, o, pos, hash, marks, done) == -1)
			goto out;
		if (done)
			sx_report(x, "checkpoint %s: the run it records is "
			    "complete (statements 1-%" PRIu64 "): only the "
			    "input's session statements (SET, USE) up to %"
			    PRIu64 " run again, and what comes after it",
			    o->checkpoint, pos, pos);
	}
	buf_adds(&b, "REPLACE INTO ");
	ckpt_table(&b, o->checkpoint);
	buf_addf(&b, " (id, state, position, identity, marks, pending, "
	    "pending_identity, pending_marks, updated) VALUES (1, '%s', %"
	    PRIu64 ", '%016" PRIx64 "', ", done && o->resume ? "done" :
	    "running", o->skip_to, o->skip_hash);
	if (o->skip_frames) {
		buf_addc(&b, '\'');
		sx_point_marks(&b, o->skip_marks, o->nskip_marks);
		buf_adds(&b, "', ");
	} else
		buf_adds(&b, "NULL, ");
	/* a --resume refused for it: the next one must be refused too */
	if (o->resume && pend != 0) {
		buf_addf(&b, "%" PRIu64 ", '%016" PRIx64 "', ", pend, pend_hash);
		if (pmarks != NULL) {
			buf_addc(&b, '\'');
			sx_point_marks(&b, x->pend_marks, x->npend_marks);
			buf_adds(&b, "', ");
		} else
			buf_adds(&b, "NULL, ");
	} else
		buf_adds(&b, "NULL, NULL, NULL, ");
	buf_adds(&b, "NOW(6))");
	rc = b.err || query(m, b.p, b.len) != 0 ? ckpt_fail(x, m, 0, "start") :
	    0;
out:
	buf_release(&b);
	free(marks);
	free(pmarks);
	return rc;
}

int
sx_ckpt_input(struct sx *x, const struct rp_kv *hdr)
{
	static const char *const keys[] = { "producer", "source",
	    "snapshot_time", "gtid_binlog_pos" };
	struct buf	 b = BUF_INIT, v = BUF_INIT;
	const char	*s;
	size_t		 i;
	int		 rc;

	if (x->o->checkpoint == NULL || hdr == NULL)
		return 0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((s = rp_kv_get(hdr, keys[i])) != NULL)
			buf_addf(&v, "%s%s=%s", v.len ? " " : "", keys[i], s);
	buf_adds(&b, "UPDATE ");
	ckpt_table(&b, x->o->checkpoint);
	buf_adds(&b, " SET input = LEFT(");
	quote_string(&b, v.p != NULL ? v.p : "", v.len);
	buf_adds(&b, ", 1024) WHERE id = 1");
	rc = b.err || query(x->conn[0], b.p, b.len) != 0 ?
	    ckpt_fail(x, x->conn[0], 0, "input") : 0;
	buf_release(&b);
	buf_release(&v);
	return rc;
}

int
sx_ckpt_finish(struct sx *x, uint64_t no, uint64_t hash)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	if (x->o->checkpoint == NULL)
		return 0;
	buf_adds(&b, "UPDATE ");
	ckpt_table(&b, x->o->checkpoint);
	buf_addf(&b, " SET state = 'done', position = %" PRIu64 ", identity = "
	    "'%016" PRIx64 "', marks = %s, pending = NULL, pending_identity = "
	    "NULL, pending_marks = NULL, updated = NOW(6) WHERE id = 1;COMMIT",
	    no, hash, x->by_frame ? "''" : "NULL");
	rc = b.err || query(x->conn[0], b.p, b.len) != 0 ?
	    ckpt_fail(x, x->conn[0], no, "finish") : 0;
	buf_release(&b);
	return rc;
}
