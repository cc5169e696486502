/*
 * load: the snapshot feeder (run.h) of sqlexec, for snapshot streams
 * (dbsnap's output).
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
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "snap.h"
#include "objsql.h"
#include "quote.h"
#include "util.h"

/* stbls_free()'s release: what a struct ld_table has past its stbl. */
static void
ld_table_free(struct stbl *s)
{
	struct ld_table	*t = (struct ld_table *)s;

	free(t->name);
	buf_release(&t->insert);
	buf_release(&t->prefix);
	free(t->emit);
	free(t->bind);
	free(t->cols);
	free(t->engine);
	sx_unit_free(t->open);
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
	l->plan = rp_kv_get(&kv, "plan") != NULL;
	if ((tz = rp_kv_get(&kv, "time_zone")) == NULL)
		tz = "";
	if ((l->time_zone = strdup(tz)) == NULL) {
		sx_set_error(l->x, 0, "%s", strerror(errno));
		return -1;
	}
	return 0;
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
		if (ld_barrier(l) == -1)
			return -1;
		rc = sx_nontx(x, x->conn[0], schema, t->t->name, &e);
	}
	if (rc == -1)
		return ld_frame_error(l, l->f, "%s: its engine: ERROR %u (%s): %s",
		    t->name, mysql_errno(x->conn[0]),
		    mysql_sqlstate(x->conn[0]), mysql_error(x->conn[0]));
	if (rc == 1 && (t->engine = strdup(e)) == NULL)
		return ld_frame_error(l, l->f, "%s", strerror(ENOMEM));
	return 0;
}

static int
table(struct loader *l, const struct frame *f)
{
	struct ld_table	*t;
	const char	*est;

	/* (the set frees it at the end, made whole or not) */
	if ((t = stbls_add(&l->tbls, f, sizeof(*t))) == NULL)
		return ld_frame_error(l, f, "%s", l->tbls.why);
	t->t = t->s.t;
	t->index = l->tbls.n - 1;
	if (asprintf(&t->name, "%s.%s", names_db(&l->o->names,
	    t->t->schema), t->t->name) == -1)
		t->name = NULL;
	if (t->name == NULL || table_setup(t, &l->o->names) == -1)
		return ld_frame_error(l, f, "%s", strerror(ENOMEM));
	t->skip_mark = sx_mark_of(l->o->skip_marks, l->o->nskip_marks,
	    t->t->id);
	if (!l->o->dry_run && table_engine(l, t) == -1)
		return -1;
	if ((est = rp_kv_get(&t->t->attrs, "rows_estimate")) != NULL)
		l->tot_rows += strtoull(est, NULL, 10);
	if (l->x->prog != NULL)
		progress_total(l->x->prog, l->tbls.n, l->tot_rows, 0);
	/* History rows need it to be inserted with their row start and end. */
	if (versioned(t->t) && !l->history && !l->o->dry_run) {
		struct objsql_stmt os;

		memset(&os, 0, sizeof(os));
		os.text = "SET SESSION system_versioning_insert_history=1";
		os.len = strlen(os.text);
		os.role = OBJSQL_CONTEXT;
		l->nconn = l->x->nconn;
		if (ld_barrier(l) == -1 || ld_run_stmt(l, &os) == -1)
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
	u->rows->first_row = t->s.rows + 1;
	u->rows->text = l->text;
	return u;
}

/*
 * A ROWS payload over twice --commit-every that starts its unit: the
 * frame reader's buffer it was read into, taken (frame_reader_take()) and
 * the payload moved to its start, so that a huge row is held once, as a
 * huge statement is (stmtunit.c).  1, or 0 where it is not (then it is
 * copied).  After it f->p is not to be read: the unit may be freed.
 */
static int
take_rows(struct loader *l, struct sx_rows *r, const struct frame *f)
{
	void	*p;
	size_t	 cap;

	if (r->n != 0 || r->data.p != NULL || f->len / 2 <=
	    l->o->commit_every || l->x->rd == NULL ||
	    frame_reader_take(l->x->rd, &p, &cap) == -1)
		return 0;
	memmove(p, f->p, f->len);
	r->data.p = p;
	r->data.len = f->len;
	r->data.cap = cap;
	return 1;
}

/* Append a ROWS payload to the unit of its table. */
static int
rows(struct loader *l, const struct frame *f)
{
	struct rp_rows	 rr;
	struct ld_table	*t;
	struct sx_rows	*r;
	size_t		*ne;

	if ((t = stbls_rows(&l->tbls, f, &rr)) == NULL)
		return ld_frame_error(l, f, "%s", l->tbls.why);
	if (f->seq <= l->o->skip_to || f->seq <= t->skip_mark) {
		t->s.rows += rr.nrows;
		l->skipped++;
		return 0;
	}
	if (t->open == NULL) {
		if ((t->open = unit_new(l, t)) == NULL)
			return ld_frame_error(l, f, "%s", strerror(errno));
		ld_unit_open(l, t);
	}
	r = t->open->rows;
	if (r->n == r->cap) {
		if ((ne = reallocarray(r->end, r->cap ? r->cap * 2 : 8,
		    sizeof(*ne))) == NULL)
			return ld_frame_error(l, f, "%s", strerror(errno));
		r->end = ne;
		r->cap = r->cap ? r->cap * 2 : 8;
	}
	if (!take_rows(l, r, f))
		buf_add(&r->data, f->p, f->len);
	if (r->data.err)
		return ld_frame_error(l, f, "%s", strerror(ENOMEM));
	r->end[r->n++] = r->data.len;
	r->last_frame = f->seq;
	r->last_hash = l->hash;
	r->nrows += rr.nrows;
	t->s.rows += rr.nrows;
	if (r->data.len >= l->o->commit_every)
		ld_unit_push(l, t);
	return 0;
}

/*
 * The first piece of its table to end (parts: one piece per part)?  The
 * names of those ended, in l->ended (out of memory: the summary counts
 * a piece as a table).
 */
static int
first_piece(struct loader *l, struct ld_table *t)
{
	size_t	 len = strlen(t->name);

	if (!l->plan)
		return 1;
	if (hmap_get(&l->ended, t->name, len) != NULL)
		return 0;
	(void)hmap_put(&l->ended, t->name, len, t, NULL);
	return 1;
}

static int
table_end(struct loader *l, const struct frame *f)
{
	struct ld_table	*t;

	/* the count checked, ended */
	if ((t = stbls_end(&l->tbls, f)) == NULL)
		return ld_frame_error(l, f, "%s", l->tbls.why);
	if (first_piece(l, t))
		l->tables++;	/* the summary's tables, not (table, part)s */
	if (l->x->prog != NULL)
		progress_add(l->x->prog, 1, 0, 0);
	ld_unit_push(l, t);
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
		if (sx_check_resume(x, l->top, l->prev_hash) == -1 ||
		    sx_held_error(l->x, l->held_err, l->held_no) == -1)
			return -1;
		/* the same input: what was held may commit */
		l->hold = 0;
		ld_push_all(l);
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
	return sx_check_resume(l->x, l->frame, l->hash) == -1 ? -1 :
	    sx_held_error(l->x, l->held_err, l->held_no);
}

static int
dispatch_frame(struct loader *l, const struct frame *f)
{
	l->f = f;
	if (identity(l, f) == -1)
		return -1;
	l->frame = f->seq;
	/* table objects queued as units: only more of them at once */
	if (l->ddl_run && f->type != FT_OBJECT && ld_barrier(l) == -1)
		return -1;
	switch (f->type) {
	case FT_OBJECT:
		return ld_object(l, f);
	case FT_TABLE:
		return table(l, f);
	case FT_ROWS:
		return rows(l, f);
	case FT_TABLE_END:
		return table_end(l, f);
	case FT_STMT:
		return ld_frame_error(l, f, "a statement frame in a snapshot "
		    "stream");
	default:
		return ld_frame_error(l, f, "unexpected frame type %d", f->type);
	}
}

/* The summary line (run.h). */
static void
summary(void *st, struct buf *b, double secs)
{
	struct loader	*l = st;
	struct sx	*x = l->x;

	/* after the workers: every table object queued is as it ended */
	ld_ddl_fold(l, 1);
	buf_addf(b, "%" PRIu64 " table%s, %" PRIu64 " rows, %" PRIu64
	    " object%s created, ", l->tables, l->tables == 1 ? "" : "s",
	    x->rows, l->objects, l->objects == 1 ? "" : "s");
	sx_add_bytes(b, (double)x->bytes);
	buf_addf(b, " of rows in %.2f s", secs);
	if (secs > 0)
		buf_addf(b, " (%.0f rows/s)", x->rows / secs);
	if (l->skipped > 0)
		buf_addf(b, ", %" PRIu64 " frames before --skip-to",
		    l->skipped);
	if (x->nwarnings > 0)
		buf_addf(b, ", %" PRIu64 " warning%s", x->nwarnings,
		    x->nwarnings == 1 ? "" : "s");
	if (x->nfailed > 0)
		buf_addf(b, ", %" PRIu64 " objects FAILED", x->nfailed);
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
		/* no marks: a statement stream's row, or an older one's */
		sx_set_error(x, 0, "checkpoint %s: its row holds a statement "
		    "stream's position (statements), and this input is a "
		    "snapshot stream: it is not the input the checkpoint was "
		    "made from (an older sqlexec wrote such rows for snapshot "
		    "streams too, whose position can lie behind committed rows "
		    "of other tables: not trusted either)", o->checkpoint);
		x->no_resume = 1;
		return -1;
	}
	if (o->skip_has_hash && !o->skip_frames && !o->resume) {
		sx_resume_given(x, given, sizeof(given));
		/* (older versions printed this form for snapshot streams
		 * too: a prefix of frames, not exact: refused as well) */
		sx_set_error(x, 0, "%s: a statement stream's resume point "
		    "(statements), and this input is a snapshot stream (its "
		    "resume points are fN[,table=mark...]:IDENTITY): it is not "
		    "the input the resume point was made from", given);
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
feeder_free(void *st)
{
	struct loader	*l = st;
	size_t		 i;

	if (l == NULL)
		return;
	stbls_free(&l->tbls);
	hmap_free(&l->ended, NULL);
	free((char *)l->time_zone);
	ld_ddl_fold(l, 1);
	for (i = 0; l->cdb != NULL && i < l->ncdb; i++)
		free(l->cdb[i]);
	free(l->cdb);
	buf_release(&l->newdbs);
	free(l->held_err);
	objsql_free(l->objs);
	for (i = 0; i < l->ndefer; i++) {
		free(l->defer[i].table);
		free(l->defer[i].sql);
	}
	free(l->defer);
	sx_id_free(&l->id);
	sx_bulk_free(l->x);
	free(l);
}

/*
 * The loader's state, the rows' path (bulk execute, or INSERT text), the
 * resume point's form, the header and the session (run.h).
 */
static int
start(struct sx *x, const struct buf *hdr, void **st)
{
	struct loader	*l;
	struct objsql_opts oo;

	if ((*st = l = calloc(1, sizeof(*l))) == NULL) {
		sx_set_error(x, 0, "%s", strerror(errno));
		return -1;
	}
	l->x = x;
	l->o = x->o;
	l->tbls.release = ld_table_free;
	x->by_frame = 1;
	l->top = l->o->skip_top;
	l->hold = l->top > l->o->skip_to;
	memset(&oo, 0, sizeof(oo));
	oo.no_create = l->o->no_create;
	oo.skip_definer = l->o->skip_definer;
	oo.names = &l->o->names;	/* --rename-db */
	if ((l->objs = objsql_new(&oo)) == NULL ||
	    (l->cdb = calloc(l->ncdb = x->nconn + 1, sizeof(*l->cdb))) ==
	    NULL ||
	    (!l->o->dry_run && sx_bulk_new(x) == -1)) {
		sx_set_error(x, 0, "%s", strerror(errno));
		return -1;
	}
	if (l->o->no_bulk)
		l->text = 1;
	else if (!l->o->dry_run && !sx_bulk_supported(x->conn[0])) {
		l->text = 1;
		sx_report(x, "the server has no bulk execute "
		    "(COM_STMT_BULK_EXECUTE: MySQL, or MariaDB before 10.2): "
		    "rows go as INSERT text");
	}
	if (resume_form(l) == -1 || header(l, hdr) == -1 ||
	    (!l->o->dry_run && ld_session(l) == -1))
		return -1;
	return 0;
}

/*
 * A failed run: the tables left without their deferred indexes, and the
 * helper role of dbsnap --users' accounts if it is still there (made on
 * connection 1, as every object is, and not yet dropped: lib/objsql).
 * It stays: the roles made so far have it as their admin, and a resume,
 * or a load from the start, needs it to grant them; it makes it again
 * and drops it at its end.
 */
static void
last(void *st)
{
	struct loader	*l = st;
	const char	*role;

	sx_report_deferred(l->x, l->defer, l->ndefer);
	if (l->objs == NULL || (role = objsql_helper_role(l->objs)) == NULL)
		return;
	sx_report(l->x, "the helper role %s, which administers the dump's "
	    "roles while they are made, stays on the target for %s, which "
	    "drops it at its end; DROP ROLE %s if you will not %s", role,
	    l->x->no_resume ? "a load from the start" : "the resume", role,
	    l->x->no_resume ? "load again" : "resume");
}

static int
frame(void *st, const struct frame *f, int *input_err)
{
	return dispatch_frame(st, f);
}

/*
 * The input is over: every table's open unit is queued and the deferred
 * indexes added (rc 0), or what is not queued is dropped (what was
 * queued commits: it is whole).
 */
static int
end(void *st, int rc, int input_err, uint64_t *no, uint64_t *hash)
{
	struct loader	*l = st;

	if (rc == 0 && identity_end(l) == -1)
		rc = -1;
	if (rc == 0 && l->ddl_run && ld_barrier(l) == -1)
		rc = -1;
	if (rc == 0) {
		ld_push_all(l);	/* tables the trailer ended without TABLE_END */
		if (!l->o->dry_run && ld_run_deferred(l) == -1)
			rc = -1;
	} else
		ld_drop_all(l);
	*no = l->frame;
	*hash = l->hash;
	return rc;
}

const struct sx_feeder sx_snap_feeder = {
	.unit = "tables",
	.start = start,
	.frame = frame,
	.end = end,
	.summary = summary,
	.last = last,
	.free = feeder_free,
};
