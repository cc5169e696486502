/*
 * load: sqlexec's dispatcher for snapshot streams (dbsnap's output).
 *
 * Objects are barriers: every unit before them commits, then they run on
 * one connection.  The rows of each table are cut into units of whole
 * ROWS frames, about --commit-every bytes each, that the workers load in
 * parallel and commit in order (bulk.c, worker.c).  Frames of different
 * tables interleave in the stream, so each table has its own unit being
 * filled; a unit's prefix is the frame before the first frame still
 * held by an open unit, which keeps "every frame up to N is done" true,
 * and its last frame becomes its table's mark when it commits, which
 * says what is committed after N (load.h).  The input's identity
 * (resume.c) runs over the frames, seeded by the header.  A resumed run
 * skips frames up to N and each table's frames up to its mark, and holds
 * every unit (queues nothing) until it has checked the identity at the
 * last of those frames, so that nothing of another input commits.
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "objsql.h"
#include "quote.h"
#include "util.h"

struct loader {
	struct sx	*x;
	const struct sx_opts *o;
	struct ld_table	**tbl;
	size_t		 ntbl;
	struct ld_table	*last;		/* the last one looked up */
	uint64_t	 frame;		/* sequence number of the frame at hand */
	uint64_t	 skipped;	/* frames skipped by --skip-to */
	uint64_t	 objects;	/* objects created */
	uint64_t	 tables;	/* tables whose rows ended */
	uint64_t	 tot_rows;	/* the stream's estimate so far */
	uint64_t	 dry_seq;
	const char	*time_zone;	/* the header's */
	const struct frame *f;		/* the frame at hand */
	struct objsql	*objs;		/* objects as rows2sql's SQL has them */
	char		*db;		/* connection 1's database (USE) */
	int		 nconn;		/* connections a statement runs on */
	int		 history;	/* system_versioning_insert_history set */
	struct sx_deferred *defer;	/* --defer-indexes: ALTERs to run */
	size_t		 ndefer;
	int		 text;		/* no bulk execute: INSERT text */
	struct sx_id	 id;		/* the input's identity, running */
	uint64_t	 hash;		/* ... up to the frame at hand */
	uint64_t	 prev_hash;	/* ... up to the one before it */
	int		 checked;	/* --skip-to's identity was checked */
	uint64_t	 top;		/* the resume point's last frame */
	int		 hold;		/* before it: queue nothing */
};

static void
ld_table_free(struct ld_table *t)
{
	if (t == NULL)
		return;
	rp_table_free(t->t);
	free(t->name);
	buf_release(&t->insert);
	buf_release(&t->prefix);
	free(t->emit);
	free(t->bind);
	free(t->cols);
	free(t->engine);
	sx_unit_free(t->open);
	free(t);
}

static struct ld_table *
table_find(struct loader *l, uint64_t id)
{
	size_t	 i;

	if (l->last != NULL && l->last->t->id == id)
		return l->last;
	for (i = 0; i < l->ntbl; i++)
		if (l->tbl[i]->t->id == id)
			return l->last = l->tbl[i];
	return NULL;
}

/* "frame N at offset O: " and the message, as the run's error. */
static int
frame_error(struct loader *l, const struct frame *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
frame_error(struct loader *l, const struct frame *f, const char *fmt, ...)
{
	struct buf	 b = BUF_INIT;
	va_list		 ap;

	buf_addf(&b, "frame %" PRIu64 " at offset %" PRIu64 ": ", f->seq,
	    f->offset);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	sx_set_error(l->x, f->seq, "%s", b.p);
	buf_release(&b);
	return -1;
}

static const char *
kind_name(int kind)
{
	const char	*n = rp_object_kind_name(kind);

	return n != NULL ? n : "object";
}

static const char *
role_name(int role)
{
	switch (role) {
	case OBJSQL_USE:	return "USE";
	case OBJSQL_DROP:	return "DROP";
	case OBJSQL_CREATE:	return "CREATE";
	case OBJSQL_STATE:	return "SETVAL";
	default:		return "session context";
	}
}

/*
 * Running lib/objsql's statements: on l->nconn connections, every result
 * drained, committed if left open; warnings counted once and shown as
 * warn.c does.  0, or -1 with the error recorded (with --force, a failed
 * object is reported and counted and the run goes on).
 */

/* "frame N: view s.v: CREATE" or "session: SET ...", for messages. */
static void
stmt_where(struct buf *b, const struct loader *l,
    const struct objsql_stmt *os, int c)
{
	if (os->obj != NULL)
		buf_addf(b, "frame %" PRIu64 ": %s %s%s%s: %.*s", l->frame,
		    kind_name(os->obj->kind), os->obj->schema,
		    *os->obj->schema != '\0' ? "." : "", os->obj->name,
		    /* a grant: which one (a PROXY grant, say) */
		    os->obj->kind == OBJ_GRANT ? (int)os->len : -1,
		    os->obj->kind == OBJ_GRANT ? os->text :
		    role_name(os->role));
	else
		buf_addf(b, "session: %s", os->text);
	if (c > 0)
		buf_addf(b, " on connection %d", c + 1);
}

/*
 * os on conn[c], every result drained; *warns: its warnings.  0, or -1
 * (a server error on m, or interrupted: *m NULL).
 */
static int
run_on(struct sx *x, int c, const struct objsql_stmt *os, unsigned *warns)
{
	MYSQL		*m = x->conn[c];
	MYSQL_RES	*res;
	int		 rc;

	*warns = 0;
	if (sx_conn_begin(x, c) == -1)
		return -1;
	if ((rc = mysql_real_query(m, os->text, os->len)) == 0) {
		do {
			if ((res = mysql_store_result(m)) != NULL)
				mysql_free_result(res);
			*warns += mysql_warning_count(m);
		} while ((rc = mysql_next_result(m)) == 0);
		rc = rc > 0;
	}
	sx_conn_end(x, c);
	if (rc == 0 && mysql_commit(m) != 0)
		rc = 1;
	return rc == 0 ? 0 : -1;
}

static int
run_stmt(void *arg, const struct objsql_stmt *os)
{
	struct loader	*l = arg;
	struct sx	*x = l->x;
	struct buf	 b = BUF_INIT;
	MYSQL		*m;
	unsigned	 w;
	int		 c, rc;

	if (os->role == OBJSQL_USE && l->db != NULL &&
	    strcmp(l->db, os->db) == 0)
		return 0;
	for (c = 0; c < l->nconn; c++) {
		m = x->conn[c];
		if (run_on(x, c, os, &w) == 0) {
			if (w == 0 || c > 0)
				continue;	/* every connection: count once */
			pthread_mutex_lock(&x->mu);
			x->nwarnings += w;
			pthread_mutex_unlock(&x->mu);
			if (x->interrupted || !sx_warn_wanted(x))
				continue;
			stmt_where(&b, l, os, c);
			rc = sx_warn(x, m, w, l->frame, b.p);
			buf_release(&b);
			if (rc == -1)
				return -1;	/* --strict */
			if (rc == 1)
				x->nfailed++;	/* --strict --force */
			continue;
		}
		if (x->interrupted)
			return -1;
		stmt_where(&b, l, os, c);
		buf_addf(&b, ": ERROR %u (%s): %s", mysql_errno(m),
		    mysql_sqlstate(m), mysql_error(m));
		if (x->o->force && os->obj != NULL &&
		    !sx_fatal_errno(mysql_errno(m))) {
			sx_report(x, "%s", b.p);
			x->nfailed++;
			buf_release(&b);
			return 0;
		}
		sx_set_error(x, l->frame, "%s", b.p);
		buf_release(&b);
		return -1;
	}
	if (os->role == OBJSQL_USE) {
		free(l->db);
		l->db = strdup(os->db);
	}
	if (os->role == OBJSQL_CREATE)
		l->objects++;
	return 0;
}

/*
 * The session rows2sql's SQL sets (its dump header, lib/objsql), on every
 * connection; then sqlexec's own rule: unique_checks stays 1 (exec.c).
 */
static int
session(struct loader *l)
{
	struct objsql_stmt os;
	const char	*why;

	l->nconn = l->x->nconn;
	if (objsql_session(l->objs, l->time_zone, run_stmt, l) == -1) {
		why = objsql_errstr(l->objs);
		if (*why != '\0')
			sx_set_error(l->x, 0, "%s", why);
		return -1;
	}
	memset(&os, 0, sizeof(os));
	os.text = "SET SESSION unique_checks=1";
	os.len = strlen(os.text);
	os.role = OBJSQL_CONTEXT;
	return run_stmt(l, &os);
}

static int
header(struct loader *l, const struct buf *hdr)
{
	struct rp_kv	 kv;
	struct dec	 d;
	const char	*tz, *part, *parts;

	dec_init(&d, hdr->p, hdr->len);
	if (hdr->len == 0 || dec_kv(&d, &kv) == -1) {
		sx_set_error(l->x, 0, "corrupt header frame");
		return -1;
	}
	if (sx_id_init(&l->id, &kv) == -1) {
		sx_set_error(l->x, 0, "%s", strerror(errno));
		return -1;
	}
	l->hash = sx_id_digest(&l->id);
	/* One part alone is not a dump (parts.c loads a plan's parts). */
	if ((part = rp_kv_get(&kv, "part")) != NULL &&
	    ((parts = rp_kv_get(&kv, "parts")) == NULL ||
	    strcmp(parts, "1") != 0)) {
		sx_set_error(l->x, 0, "the input is part %s of %s of a dbsnap "
		    "plan: load every part at once (--input FILE for each)",
		    part, parts != NULL ? parts : "?");
		l->x->no_resume = 1;
		return -1;
	}
	if ((tz = rp_kv_get(&kv, "time_zone")) == NULL)
		tz = "";
	if ((l->time_zone = strdup(tz)) == NULL) {
		sx_set_error(l->x, 0, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The resume point once unit u (of table t, being queued now) commits:
 * the frame before the first frame any other table's open unit holds,
 * or the frame at hand.  Monotonic: open units only ever start later.
 */
static uint64_t
end_point(struct loader *l, const struct ld_table *t, uint64_t *hash)
{
	uint64_t	 e = l->frame;
	size_t		 i;

	*hash = l->hash;
	for (i = 0; i < l->ntbl; i++)
		if (l->tbl[i] != t && l->tbl[i]->open != NULL &&
		    l->tbl[i]->open->rows->first_frame - 1 < e) {
			e = l->tbl[i]->open->rows->first_frame - 1;
			*hash = l->tbl[i]->open->rows->first_prev_hash;
		}
	return e;
}

/* Queue the unit table t is filling. */
static void
unit_push(struct loader *l, struct ld_table *t)
{
	struct sx_unit	*u = t->open;
	struct buf	 b = BUF_INIT;
	int		 bulk, alone;

	if (u == NULL || l->hold)
		return;
	t->open = NULL;
	u->end_no = end_point(l, t, &u->end_hash);
	/* committed, the table's frames up to its last are in */
	u->has_mark = 1;
	u->mark.table = t->t->id;
	u->mark.frame = u->rows->last_frame;
	u->mark_hash = u->rows->last_hash;
	/*
	 * Not the statement path's first unit alone with unique_checks=0
	 * (exec.c): MariaDB's bulk load of an empty table (MDEV-24818) cost
	 * the server more CPU than row inserts did for bulk executes here
	 * (1.74 s against 0.61 s, 200000 rows as one unit), and without it
	 * every unit can run in parallel.
	 */
	t->nunits++;
	bulk = u->bulk = 0;
	/* not transactional: alone, so that nothing rolls it back (nontx.c) */
	alone = t->engine != NULL;
	if (l->o->dry_run) {
		sx_rows_where(&b, u);
		printf("unit %" PRIu64 ": %s, %zu bytes: one transaction%s\n",
		    ++l->dry_seq, b.p, u->rows->data.len, bulk ?
		    ", alone (first into a table: bulk)" : "");
		buf_release(&b);
		sx_unit_free(u);
		return;
	}
	if (bulk || alone)
		sx_drain(l->x);
	sx_push(l->x, u);		/* the workers' now */
	if (bulk || alone)
		sx_drain(l->x);
}

static void
push_all(struct loader *l)
{
	size_t	 i;

	for (i = 0; i < l->ntbl; i++)
		unit_push(l, l->tbl[i]);
}

/* Wait for everything queued; frames before this one are done. */
static int
barrier(struct loader *l)
{
	struct sx	*x = l->x;

	/* resuming, before its last frame: nothing is queued */
	if (l->hold)
		return 0;
	push_all(l);
	if (l->o->dry_run)
		return 0;
	if (sx_drain(x) == -1)
		return -1;
	pthread_mutex_lock(&x->mu);
	sx_done(x, l->frame - 1, l->prev_hash);
	pthread_mutex_unlock(&x->mu);
	return 0;
}

/* A failed checkpoint write on connection 1 (--checkpoint): recorded. */
static int
ckpt_error(struct loader *l, const struct frame *f)
{
	MYSQL	*m = l->x->conn[0];

	return frame_error(l, f, "checkpoint %s: ERROR %u (%s): %s",
	    l->o->checkpoint, mysql_errno(m), mysql_sqlstate(m),
	    mysql_error(m));
}

/*
 * --defer-indexes: once every row before is in, add the deferred
 * indexes, one ALTER per table, in parallel.  0 or -1 (recorded).
 */
static int
run_deferred(struct loader *l)
{
	size_t	 i;
	int	 rc;

	if (l->ndefer == 0 || barrier(l) == -1)
		return l->ndefer == 0 ? 0 : -1;
	rc = sx_defer_run(l->x, l->defer, l->ndefer);
	for (i = 0; i < l->ndefer; i++) {
		free(l->defer[i].table);
		free(l->defer[i].sql);
	}
	l->ndefer = 0;
	if (rc == 0) {
		pthread_mutex_lock(&l->x->mu);
		sx_done(l->x, l->frame - 1, l->prev_hash);
		pthread_mutex_unlock(&l->x->mu);
	}
	return rc;
}

/*
 * --defer-indexes: create table ob without its non-unique secondary
 * keys and keep an ALTER that adds them.  *create: the object to create
 * (ob itself, or a copy whose ddl points into ddl).  0 or -1 (recorded).
 */
static int
defer_table(struct loader *l, const struct rp_object *ob,
    struct rp_object *create, struct buf *ddl)
{
	struct sx_deferred *d;
	struct buf	 adds = BUF_INIT, alter = BUF_INIT;
	int		 rc;

	*create = *ob;
	if (!sx_defer_pays(ob))
		return 0;
	if ((rc = sx_defer_split(ob->ddl, ob->ddl_len, ddl, &adds)) <= 0) {
		buf_release(&adds);
		return rc == 0 ? 0 : frame_error(l, l->f, "%s",
		    strerror(ENOMEM));
	}
	buf_adds(&alter, "ALTER TABLE ");
	quote_ident2(&alter, names_db(&l->o->names, ob->schema), ob->name);
	buf_addc(&alter, ' ');
	buf_add(&alter, adds.p, adds.len);
	buf_release(&adds);
	d = reallocarray(l->defer, l->ndefer + 1, sizeof(*d));
	if (alter.err || d == NULL) {
		buf_release(&alter);
		return frame_error(l, l->f, "%s", strerror(ENOMEM));
	}
	l->defer = d;
	d = &l->defer[l->ndefer++];
	d->len = alter.len;
	d->sql = buf_detach(&alter, NULL);
	d->frame = l->frame;
	if (asprintf(&d->table, "%s.%s", names_db(&l->o->names, ob->schema),
	    ob->name) == -1)
		d->table = NULL;
	create->ddl = ddl->p;
	create->ddl_len = ddl->len;
	return 0;
}

/*
 * --defer-indexes and --skip-to past a table's creation: if the run that
 * created it stopped before its deferred indexes were added (it has none
 * of them), add them at the end of this one.  0 or -1 (recorded).
 */
static int
resumed(struct loader *l, const struct rp_object *ob)
{
	struct sx	*x = l->x;
	struct rp_object create;
	struct buf	 q = BUF_INIT, ddl = BUF_INIT, a = BUF_INIT;
	MYSQL_RES	*res = NULL;
	MYSQL_ROW	 row;
	unsigned long	*len;
	int		 rc = -1, has;

	buf_adds(&q, "SHOW CREATE TABLE ");
	quote_ident2(&q, names_db(&l->o->names, ob->schema), ob->name);
	if (q.err || mysql_real_query(x->conn[0], q.p, q.len) != 0 ||
	    (res = mysql_store_result(x->conn[0])) == NULL ||
	    (row = mysql_fetch_row(res)) == NULL ||
	    (len = mysql_fetch_lengths(res)) == NULL || row[1] == NULL) {
		frame_error(l, l->f, "%s.%s: SHOW CREATE TABLE: %s",
		    ob->schema, ob->name, mysql_error(x->conn[0]));
		goto out;
	}
	if ((has = sx_defer_split(row[1], len[1], &ddl, &a)) == -1) {
		frame_error(l, l->f, "%s", strerror(ENOMEM));
		goto out;
	}
	/* it has indexes to defer: they were added, or never deferred */
	rc = has == 1 ? 0 : defer_table(l, ob, &create, &ddl);
out:
	if (res != NULL)
		mysql_free_result(res);
	buf_release(&q);
	buf_release(&ddl);
	buf_release(&a);
	return rc;
}

static int
object(struct loader *l, const struct frame *f)
{
	struct rp_object ob, create;
	struct buf	 ddl = BUF_INIT;
	const char	*why, *schema, *eng;
	int		 rc = -1;

	if (dec_object(f, &ob) == -1)
		return frame_error(l, f, "corrupt object frame");
	if (f->seq <= l->o->skip_to)
		return ob.kind == OBJ_TABLE && l->o->defer_indexes &&
		    !l->o->no_create && !l->o->dry_run ? resumed(l, &ob) : 0;
	/* objects are barriers: no resume point has one after N */
	if (l->hold) {
		char	 given[512];

		sx_resume_given(l->x, given, sizeof(given));
		l->x->no_resume = 1;
		return frame_error(l, f, "%s: an object among the frames the "
		    "resume point skips: it is not the input the resume point "
		    "was made from", given);
	}
	/* The objects after the rows: the tables' indexes first. */
	if (ob.kind != OBJ_DATABASE && ob.kind != OBJ_TABLE &&
	    ob.kind != OBJ_SEQUENCE && run_deferred(l) == -1)
		return -1;
	if (barrier(l) == -1)
		return -1;
	if (l->o->dry_run) {
		printf("frame %" PRIu64 ": %s %s.%s: barrier\n", f->seq,
		    kind_name(ob.kind), ob.schema, ob.name);
		return 0;
	}
	create = ob;
	if (ob.kind == OBJ_TABLE && l->o->defer_indexes && !l->o->no_create &&
	    defer_table(l, &ob, &create, &ddl) == -1)
		goto out;
	l->nconn = 1;
	/* DDL commits on its own: pending while it runs (checkpoint.c) */
	if (l->o->checkpoint != NULL && sx_ckpt_write(l->x, l->x->conn[0],
	    f->seq - 1, l->prev_hash, f->seq, l->hash, 1) == -1) {
		ckpt_error(l, f);
		goto out;
	}
	if (objsql_object(l->objs, &create, run_stmt, l) == -1) {
		why = objsql_errstr(l->objs);
		if (*why != '\0')
			frame_error(l, f, "%s", why);
		goto out;
	}
	if (l->o->checkpoint != NULL && sx_ckpt_write(l->x, l->x->conn[0],
	    f->seq, l->hash, 0, 0, 1) == -1) {
		ckpt_error(l, f);
		goto out;
	}
	pthread_mutex_lock(&l->x->mu);
	sx_done(l->x, f->seq, l->hash);
	pthread_mutex_unlock(&l->x->mu);
	/* its engine, while nothing runs: for its rows (table_engine()) */
	if (ob.kind == OBJ_TABLE || ob.kind == OBJ_SEQUENCE ||
	    ob.kind == OBJ_VIEW) {
		schema = names_db(&l->o->names, ob.schema);
		sx_nontx_drop(l->x, schema, ob.name);
		if (ob.kind == OBJ_TABLE && !l->o->no_create &&
		    sx_nontx(l->x, l->x->conn[0], schema, ob.name, &eng) == -1) {
			frame_error(l, f, "%s.%s: its engine: ERROR %u (%s): %s",
			    schema, ob.name, mysql_errno(l->x->conn[0]),
			    mysql_sqlstate(l->x->conn[0]),
			    mysql_error(l->x->conn[0]));
			goto out;
		}
	}
	rc = 0;
out:
	buf_release(&ddl);
	return rc;
}

/*
 * How a column's values are bound (bulk.c).  Integers and FLOAT/DOUBLE
 * as numbers (the server then skips converting their text: measured 9 %
 * less server CPU on the bench table, and exact: the same integer, the
 * same correctly rounded double); temporals stay text (as MYSQL_TIME
 * they measured no cheaper); INET6 and UUID as text (as binary strings
 * they would be taken for their 16-byte binary form); everything else
 * as the bytes.
 */
static enum ld_bind
bind_kind(const struct rp_column *c)
{
	if (c->flags & COL_NUMERIC) {
		switch (c->type) {
		case MYSQL_TYPE_TINY:
		case MYSQL_TYPE_SHORT:
		case MYSQL_TYPE_INT24:
		case MYSQL_TYPE_LONG:
		case MYSQL_TYPE_LONGLONG:
			return c->flags & COL_UNSIGNED ? LB_UINT : LB_INT;
		case MYSQL_TYPE_FLOAT:
		case MYSQL_TYPE_DOUBLE:
			return LB_DOUBLE;
		default:
			break;
		}
	}
	if (c->coltype != NULL && (strncmp(c->coltype, "inet", 4) == 0 ||
	    strncmp(c->coltype, "uuid", 4) == 0))
		return LB_TEXT;
	return LB_BINARY;
}

/* The INSERT of t: every column but the generated ones, by name. */
static int
table_setup(struct ld_table *t, const struct names *names)
{
	const struct rp_table *rt = t->t;
	const struct rp_column *c;
	size_t		 i, n = 0;

	if ((t->emit = calloc(rt->ncols, sizeof(*t->emit))) == NULL ||
	    (t->bind = calloc(rt->ncols, sizeof(*t->bind))) == NULL ||
	    (t->cols = calloc(rt->ncols, sizeof(*t->cols))) == NULL)
		return -1;
	buf_addf(&t->prefix, "INSERT INTO ");
	quote_ident2(&t->prefix, names_db(names, rt->schema), rt->name);
	buf_adds(&t->prefix, " (");
	for (i = 0; i < rt->ncols; i++) {
		c = &rt->cols[i];
		/* system-versioning's row start and end are loaded too */
		if ((c->flags & COL_GENERATED) &&
		    !(c->flags & (COL_ROW_START | COL_ROW_END)))
			continue;
		if (n > 0)
			buf_addc(&t->prefix, ',');
		quote_ident(&t->prefix, c->name, strlen(c->name));
		t->cols[i].emit = 1;
		sqlval_col_setup(&t->cols[i], c, 1);
		t->bind[n] = bind_kind(c);
		t->emit[n++] = i;
	}
	t->nemit = n;
	buf_adds(&t->prefix, ") VALUES ");
	buf_add(&t->insert, t->prefix.p, t->prefix.len);
	buf_addc(&t->insert, '(');
	for (i = 0; i < n; i++)
		buf_adds(&t->insert, i ? ",?" : "?");
	buf_addc(&t->insert, ')');
	return t->prefix.err || t->insert.err ? -1 : 0;
}

static int
versioned(const struct rp_table *rt)
{
	const char	*v = rp_kv_get(&rt->attrs, "versioned");
	size_t		 i;

	if (v != NULL && strcmp(v, "1") == 0)
		return 1;
	for (i = 0; i < rt->ncols; i++)
		if (rt->cols[i].flags & (COL_ROW_START | COL_ROW_END))
			return 1;
	return 0;
}

/*
 * Is t's table not transactional (nontx.c)?  Known since its creation,
 * or asked once every unit before has committed.  0, or -1 (recorded).
 */
static int
table_engine(struct loader *l, struct ld_table *t)
{
	struct sx	*x = l->x;
	const char	*schema = names_db(&l->o->names, t->t->schema), *e;
	int		 rc;

	if ((rc = sx_nontx(x, NULL, schema, t->t->name, &e)) == -2) {
		if (barrier(l) == -1)
			return -1;
		rc = sx_nontx(x, x->conn[0], schema, t->t->name, &e);
	}
	if (rc == -1)
		return frame_error(l, l->f, "%s: its engine: ERROR %u (%s): %s",
		    t->name, mysql_errno(x->conn[0]),
		    mysql_sqlstate(x->conn[0]), mysql_error(x->conn[0]));
	if (rc == 1 && (t->engine = strdup(e)) == NULL)
		return frame_error(l, l->f, "%s", strerror(ENOMEM));
	return 0;
}

static int
table(struct loader *l, const struct frame *f)
{
	struct ld_table	*t, **nt;
	const char	*est;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return frame_error(l, f, "%s", strerror(errno));
	if ((t->t = dec_table(f)) == NULL) {
		free(t);
		return frame_error(l, f, "corrupt table frame");
	}
	if (table_find(l, t->t->id) != NULL) {
		ld_table_free(t);
		return frame_error(l, f, "table id %" PRIu64 " sent twice",
		    t->t->id);
	}
	if (asprintf(&t->name, "%s.%s", names_db(&l->o->names,
	    t->t->schema), t->t->name) == -1)
		t->name = NULL;
	if (t->name == NULL || table_setup(t, &l->o->names) == -1 ||
	    (nt = reallocarray(l->tbl, l->ntbl + 1, sizeof(*nt))) == NULL) {
		ld_table_free(t);
		return frame_error(l, f, "%s", strerror(ENOMEM));
	}
	l->tbl = nt;
	l->tbl[l->ntbl++] = t;
	t->skip_mark = sx_mark_of(l->o->skip_marks, l->o->nskip_marks,
	    t->t->id);
	if (!l->o->dry_run && table_engine(l, t) == -1)
		return -1;
	if ((est = rp_kv_get(&t->t->attrs, "rows_estimate")) != NULL)
		l->tot_rows += strtoull(est, NULL, 10);
	if (l->x->prog != NULL)
		progress_total(l->x->prog, l->ntbl, l->tot_rows, 0);
	/* History rows need it to be inserted with their row start and end. */
	if (versioned(t->t) && !l->history && !l->o->dry_run) {
		struct objsql_stmt os;

		memset(&os, 0, sizeof(os));
		os.text = "SET SESSION system_versioning_insert_history=1";
		os.len = strlen(os.text);
		os.role = OBJSQL_CONTEXT;
		l->nconn = l->x->nconn;
		if (barrier(l) == -1 || run_stmt(l, &os) == -1)
			return -1;
		l->history = 1;
	}
	return 0;
}

static struct sx_unit *
unit_new(struct loader *l, struct ld_table *t)
{
	struct sx_unit	*u;

	if ((u = calloc(1, sizeof(*u))) == NULL)
		return NULL;
	if ((u->rows = calloc(1, sizeof(*u->rows))) == NULL) {
		free(u);
		return NULL;
	}
	u->rows->t = t;
	u->rows->first_frame = l->frame;
	u->rows->first_prev_hash = l->prev_hash;
	u->rows->first_row = t->rows + 1;
	u->rows->text = l->text;
	return u;
}

/* Append a ROWS payload to the unit of its table. */
static int
rows(struct loader *l, const struct frame *f)
{
	struct rp_rows	 rr;
	struct ld_table	*t;
	struct sx_rows	*r;
	size_t		*ne;

	if (dec_rows_begin(f, &rr) == -1)
		return frame_error(l, f, "corrupt rows frame");
	if ((t = table_find(l, rr.table_id)) == NULL)
		return frame_error(l, f, "rows of unknown table id %" PRIu64,
		    rr.table_id);
	if (t->ended)
		return frame_error(l, f, "%s: rows after the end of the "
		    "table", t->name);
	if (f->seq <= l->o->skip_to || f->seq <= t->skip_mark) {
		t->rows += rr.nrows;
		l->skipped++;
		return 0;
	}
	if (t->open == NULL && (t->open = unit_new(l, t)) == NULL)
		return frame_error(l, f, "%s", strerror(errno));
	r = t->open->rows;
	if (r->n == r->cap) {
		if ((ne = reallocarray(r->end, r->cap ? r->cap * 2 : 8,
		    sizeof(*ne))) == NULL)
			return frame_error(l, f, "%s", strerror(errno));
		r->end = ne;
		r->cap = r->cap ? r->cap * 2 : 8;
	}
	buf_add(&r->data, f->p, f->len);
	if (r->data.err)
		return frame_error(l, f, "%s", strerror(ENOMEM));
	r->end[r->n++] = r->data.len;
	r->last_frame = f->seq;
	r->last_hash = l->hash;
	r->nrows += rr.nrows;
	t->rows += rr.nrows;
	if (r->data.len >= l->o->commit_every)
		unit_push(l, t);
	return 0;
}

/* The first piece of its table to end (parts: one piece per part)? */
static int
first_piece(const struct loader *l, const struct ld_table *t)
{
	size_t	 i;

	for (i = 0; i < l->ntbl; i++)
		if (l->tbl[i] != t && l->tbl[i]->ended &&
		    strcmp(l->tbl[i]->name, t->name) == 0)
			return 0;
	return 1;
}

static int
table_end(struct loader *l, const struct frame *f)
{
	struct ld_table	*t;
	uint64_t	 id, n;

	if (dec_table_end(f, &id, &n) == -1)
		return frame_error(l, f, "corrupt table end frame");
	if ((t = table_find(l, id)) == NULL)
		return frame_error(l, f, "end of unknown table id %" PRIu64,
		    id);
	if (n != t->rows)
		return frame_error(l, f, "%s: %" PRIu64 " rows announced, %"
		    PRIu64 " received", t->name, n, t->rows);
	if (first_piece(l, t))
		l->tables++;	/* the summary's tables, not (table, part)s */
	t->ended = 1;
	if (l->x->prog != NULL)
		progress_add(l->x->prog, 1, 0, 0);
	unit_push(l, t);
	return 0;
}

/*
 * The input's identity, frame by frame (its type and payload); at the
 * first frame after --skip-to N, check frames 1..N against the resume
 * point before anything after N runs.
 */
static int
identity(struct loader *l, const struct frame *f)
{
	struct sx	*x = l->x;
	unsigned char	 type = f->type;

	l->prev_hash = l->hash;
	if (!l->checked && f->seq > l->top) {
		l->checked = 1;
		pthread_mutex_lock(&x->mu);
		if (x->done_no == l->o->skip_to && l->top == l->o->skip_to)
			x->done_hash = l->prev_hash;
		if (x->top_no == l->top)
			x->top_hash = l->prev_hash;
		pthread_mutex_unlock(&x->mu);
		if (sx_check_resume(x, l->top, l->prev_hash) == -1)
			return -1;
		/* the same input: what was held may commit */
		l->hold = 0;
		push_all(l);
	}
	sx_id_add(&l->id, &type, 1);
	sx_id_add(&l->id, f->p, f->len);
	l->hash = sx_id_digest(&l->id);
	return 0;
}

/* At the trailer: the stream must reach --skip-to N. */
static int
identity_end(struct loader *l)
{
	if (l->checked || l->top == 0)
		return 0;
	l->checked = 1;
	l->hold = 0;
	if (l->frame != l->top) {
		char	 given[512];

		sx_resume_given(l->x, given, sizeof(given));
		sx_set_error(l->x, l->frame, "%s: the input ends at frame %"
		    PRIu64 ": it is not the input the resume point was made "
		    "from", given, l->frame);
		l->x->no_resume = 1;
		return -1;
	}
	return sx_check_resume(l->x, l->frame, l->hash);
}

static int
dispatch_frame(struct loader *l, const struct frame *f)
{
	l->f = f;
	if (identity(l, f) == -1)
		return -1;
	l->frame = f->seq;
	switch (f->type) {
	case FT_OBJECT:
		return object(l, f);
	case FT_TABLE:
		return table(l, f);
	case FT_ROWS:
		return rows(l, f);
	case FT_TABLE_END:
		return table_end(l, f);
	case FT_STMT:
		return frame_error(l, f, "a statement frame in a snapshot "
		    "stream");
	default:
		return frame_error(l, f, "unexpected frame type %d", f->type);
	}
}

static void
summary(struct loader *l, double secs)
{
	struct sx	*x = l->x;
	struct buf	 b = BUF_INIT;

	buf_addf(&b, "%s: %" PRIu64 " table%s, %" PRIu64 " rows, %" PRIu64
	    " object%s created, ", getprogname(), l->tables,
	    l->tables == 1 ? "" : "s", x->rows, l->objects,
	    l->objects == 1 ? "" : "s");
	sx_add_bytes(&b, (double)x->bytes);
	buf_addf(&b, " of rows in %.2f s", secs);
	if (secs > 0)
		buf_addf(&b, " (%.0f rows/s)", x->rows / secs);
	if (l->skipped > 0)
		buf_addf(&b, ", %" PRIu64 " frames before --skip-to",
		    l->skipped);
	if (x->nwarnings > 0)
		buf_addf(&b, ", %" PRIu64 " warning%s", x->nwarnings,
		    x->nwarnings == 1 ? "" : "s");
	if (x->nfailed > 0)
		buf_addf(&b, ", %" PRIu64 " objects FAILED", x->nfailed);
	fprintf(stderr, "%s\n", b.p);
	buf_release(&b);
}

/* Read and dispatch frames until the trailer (1), an error or a stop. */
static int
read_frames(struct loader *l, struct frame_reader *r, int *input_err)
{
	struct frame	 f;
	enum frame_status st;
	int		 stop;

	for (;;) {
		pthread_mutex_lock(&l->x->mu);
		stop = l->x->stop;	/* an error, or an interrupt (intr.c) */
		pthread_mutex_unlock(&l->x->mu);
		if (stop)
			return -1;
		if ((st = frame_read(r, &f)) == FRAME_DONE)
			return 0;
		if (st == FRAME_ERR) {
			*input_err = 1;
			return -1;
		}
		if (dispatch_frame(l, &f) == -1)
			return -1;
	}
}

/*
 * The resume point given must be of a snapshot stream's form (fN...),
 * whose marks it takes as committed; a bare N:IDENTITY is the form of an
 * sqlexec before #23, a prefix of frames that could lie behind committed
 * rows of other tables: never trusted.  0, or -1 (recorded).
 */
static int
resume_form(struct loader *l)
{
	struct sx	*x = l->x;
	const struct sx_opts *o = l->o;
	char		 given[512];
	size_t		 i;

	if (o->resume && x->ckpt_old) {
		sx_set_error(x, 0, "checkpoint %s: its row was written by an "
		    "older sqlexec, whose position in a snapshot stream can lie "
		    "behind rows of other tables that are committed: it is not "
		    "trusted: empty the tables it loaded (or the database), "
		    "delete the checkpoint's row and load the input again",
		    o->checkpoint);
		x->no_resume = 1;
		return -1;
	}
	if (o->skip_has_hash && !o->skip_frames && !o->resume) {
		sx_resume_given(x, given, sizeof(given));
		sx_set_error(x, 0, "%s: the resume point of a statement stream, "
		    "or of a snapshot stream as an older sqlexec printed it (a "
		    "prefix of frames, which can lie behind rows of other "
		    "tables that are committed): it is not trusted: empty the "
		    "tables it loaded (or the database) and load the input "
		    "again", given);
		x->no_resume = 1;
		return -1;
	}
	pthread_mutex_lock(&x->mu);
	for (i = 0; i < o->nskip_marks; i++) {
		struct sx_unit	 u;

		memset(&u, 0, sizeof(u));
		u.has_mark = 1;
		u.mark = o->skip_marks[i];
		u.mark_hash = o->skip_hash;	/* right for the top one */
		sx_mark(x, &u);
	}
	x->top_no = o->skip_top;
	x->top_hash = o->skip_hash;
	pthread_mutex_unlock(&x->mu);
	return 0;
}

static void
loader_free(struct loader *l)
{
	size_t	 i;

	for (i = 0; i < l->ntbl; i++)
		ld_table_free(l->tbl[i]);
	free(l->tbl);
	free((char *)l->time_zone);
	free(l->db);
	objsql_free(l->objs);
	for (i = 0; i < l->ndefer; i++) {
		free(l->defer[i].table);
		free(l->defer[i].sql);
	}
	free(l->defer);
	sx_id_free(&l->id);
}

int
sx_load(struct sx *x, struct frame_reader *r, const struct buf *hdr,
    const struct frame *first, double t0)
{
	struct loader	 l;
	struct objsql_opts oo;
	int		 rc = -1, input_err = 0, ok;
	size_t		 i;

	memset(&l, 0, sizeof(l));
	l.x = x;
	l.o = x->o;
	x->by_frame = 1;
	l.top = l.o->skip_top;
	l.hold = l.top > l.o->skip_to;
	if (x->prog != NULL) {
		/* nothing is queued yet: no worker uses it */
		progress_free(x->prog);
		x->prog = progress_new(getprogname(), "tables", l.o->progress);
	}
	memset(&oo, 0, sizeof(oo));
	oo.no_create = l.o->no_create;
	oo.skip_definer = l.o->skip_definer;
	oo.names = &l.o->names;		/* --rename-db */
	if ((l.objs = objsql_new(&oo)) == NULL ||
	    (!l.o->dry_run && sx_bulk_new(x) == -1))
		sx_set_error(x, 0, "%s", strerror(errno));
	if (l.o->no_bulk)
		l.text = 1;
	else if (!l.o->dry_run && !sx_bulk_supported(x->conn[0])) {
		l.text = 1;
		sx_report(x, "the server has no bulk execute "
		    "(COM_STMT_BULK_EXECUTE: MySQL, or MariaDB before 10.2): "
		    "rows go as INSERT text");
	}
	if (x->err.msg == NULL && resume_form(&l) == 0 &&
	    header(&l, hdr) == 0 &&
	    (l.o->dry_run || session(&l) == 0) &&
	    dispatch_frame(&l, first) == 0)
		rc = read_frames(&l, r, &input_err);
	if (rc == 0 && identity_end(&l) == -1)
		rc = -1;
	if (rc == 0) {
		push_all(&l);	/* tables the trailer ended without TABLE_END */
		if (!l.o->dry_run && run_deferred(&l) == 0 &&
		    sx_drain(x) == 0) {
			pthread_mutex_lock(&x->mu);
			sx_done(x, l.frame, l.hash);
			pthread_mutex_unlock(&x->mu);
		}
	} else {
		/* What was queued commits (it is whole), the rest is dropped. */
		for (i = 0; i < l.ntbl; i++) {
			sx_unit_free(l.tbl[i]->open);
			l.tbl[i]->open = NULL;
		}
		if (!l.o->dry_run && input_err)
			(void)sx_drain(x);
	}
	if (!l.o->dry_run) {
		sx_join_workers(x);
		sx_bulk_free(x);
		if (rc == 0 && x->err.msg == NULL && x->interrupted == 0 &&
		    sx_ckpt_finish(x, l.frame, l.hash) == -1)
			rc = -1;
	}
	if (x->prog != NULL)
		progress_clear(x->prog);
	sx_report_end(x, r, input_err);
	ok = rc == 0 && x->err.msg == NULL && x->nfailed == 0 &&
	    x->interrupted == 0;
	if (!l.o->dry_run) {
		if (!l.o->quiet || !ok)
			summary(&l, mono_now() - t0);
		if (!ok && !x->no_resume)
			sx_print_resume(x);
	}
	loader_free(&l);
	return ok ? 0 : -1;
}
