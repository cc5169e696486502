/*
 * snapobj: the snapshot stream's objects (snap.h), barriers each: run as
 * lib/objsql gives them (rows2sql's statements), on connection 1 or, for
 * session context, every connection; DDL pending in the checkpoint while
 * it runs; --defer-indexes' ALTERs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "snap.h"
#include "quote.h"

/*
 * Running lib/objsql's statements: on l->nconn connections, every result
 * drained, committed if left open; warnings counted once and shown as
 * warn.c does.  0, or -1 with the error recorded (with --force, a failed
 * object is reported and counted and the run goes on).
 */

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

/* "frame N: view s.v: CREATE" or "session: SET ...", for messages. */
static void
stmt_where(struct buf *b, uint64_t frame, const struct objsql_stmt *os,
    int c)
{
	if (os->obj != NULL)
		buf_addf(b, "frame %" PRIu64 ": %s %s%s%s: %.*s", frame,
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

/* Is db (a target database) one this run created? */
static int
new_db(const struct loader *l, const char *db)
{
	const char	*p = l->newdbs.p, *e = p + l->newdbs.len;

	for (; p != NULL && p < e; p += strlen(p) + 1)
		if (strcmp(p, db) == 0)
			return 1;
	return 0;
}

/*
 * Statements whose round trip is saved: DROP TABLE IF EXISTS of a table
 * in a database this run's CREATE DATABASE IF NOT EXISTS made (not one of
 * a plan's parts, which may bring a table again); it cannot exist.
 */
static int
needless(const struct loader *l, const struct objsql_stmt *os)
{
	return os->role == OBJSQL_DROP && os->obj != NULL &&
	    os->obj->kind == OBJ_TABLE && !l->plan && new_db(l, os->db);
}

/*
 * os on conn[c], every result drained; *warns: its warnings; *made: it
 * affected rows (CREATE DATABASE made the database).  Then COMMIT, but
 * not after USE, DROP and CREATE TABLE, VIEW or DATABASE, which commit
 * themselves (autocommit is on).  0, or -1 (a server error on m, or
 * interrupted: *m NULL).
 */
static int
run_on(struct sx *x, int c, const struct objsql_stmt *os, unsigned *warns,
    int *made)
{
	MYSQL		*m = x->conn[c];
	MYSQL_RES	*res;
	int		 rc, kind = os->obj != NULL ? os->obj->kind : 0;

	*warns = 0;
	*made = 0;
	if (sx_conn_begin(x, c) == -1)
		return -1;
	if ((rc = mysql_real_query(m, os->text, os->len)) == 0) {
		*made = mysql_affected_rows(m) > 0 &&
		    mysql_affected_rows(m) != (my_ulonglong)-1;
		do {
			if ((res = mysql_store_result(m)) != NULL)
				mysql_free_result(res);
			*warns += mysql_warning_count(m);
		} while ((rc = mysql_next_result(m)) == 0);
		rc = rc > 0;
	}
	sx_conn_end(x, c);
	if (os->role == OBJSQL_USE || os->role == OBJSQL_DROP ||
	    (os->role == OBJSQL_CREATE && (kind == OBJ_TABLE ||
	    kind == OBJ_VIEW || kind == OBJ_DATABASE)))
		return rc == 0 ? 0 : -1;
	if (rc == 0 && mysql_commit(m) != 0)
		rc = 1;
	return rc == 0 ? 0 : -1;
}

/*
 * os on conn[c] (its owner's: the dispatcher's after a drain, or the
 * worker's that holds a table object's unit), for the object of frame
 * frame: warnings counted and shown, a failed object with --force
 * reported and counted.  0, or -1 (recorded).
 */
static int
stmt_on(struct loader *l, int c, const struct objsql_stmt *os,
    uint64_t frame)
{
	struct sx	*x = l->x;
	struct buf	 b = BUF_INIT;
	MYSQL		*m = x->conn[c];
	unsigned	 w;
	int		 rc, made;

	if (run_on(x, c, os, &w, &made) == 0) {
		if (made && c == 0 && os->role == OBJSQL_CREATE &&
		    os->obj != NULL && os->obj->kind == OBJ_DATABASE) {
			buf_adds(&l->newdbs, os->db);
			buf_addc(&l->newdbs, '\0');
		}
		if (os->role == OBJSQL_USE) {
			free(l->cdb[c]);
			l->cdb[c] = strdup(os->db);
		}
		if (w == 0 || (c > 0 && os->obj == NULL))
			return 0;	/* every connection: count once */
		pthread_mutex_lock(&x->mu);
		x->nwarnings += w;
		pthread_mutex_unlock(&x->mu);
		if (x->interrupted || !sx_warn_wanted(x))
			return 0;
		stmt_where(&b, frame, os, os->obj == NULL ? c : 0);
		rc = sx_warn(x, m, w, frame, b.p);
		buf_release(&b);
		if (rc == -1)
			return -1;	/* --strict */
		if (rc == 1) {
			pthread_mutex_lock(&x->mu);
			x->nfailed++;	/* --strict --force */
			pthread_mutex_unlock(&x->mu);
		}
		return 0;
	}
	if (x->interrupted)
		return -1;
	stmt_where(&b, frame, os, os->obj == NULL ? c : 0);
	buf_addf(&b, ": ERROR %u (%s): %s", mysql_errno(m),
	    mysql_sqlstate(m), mysql_error(m));
	if (x->o->force && os->obj != NULL &&
	    !sx_fatal_errno(mysql_errno(m))) {
		sx_report(x, "%s", b.p);
		pthread_mutex_lock(&x->mu);
		x->nfailed++;
		pthread_mutex_unlock(&x->mu);
		buf_release(&b);
		return 1;
	}
	sx_set_error(x, frame, "%s", b.p);
	buf_release(&b);
	return -1;
}

/* USE of the database connection c is in already: saved. */
static int
same_db(const struct loader *l, int c, const struct objsql_stmt *os)
{
	return os->role == OBJSQL_USE && l->cdb[c] != NULL &&
	    strcmp(l->cdb[c], os->db) == 0;
}

int
ld_run_stmt(void *arg, const struct objsql_stmt *os)
{
	struct loader	*l = arg;
	int		 c, rc;

	if (same_db(l, 0, os) || needless(l, os))
		return 0;
	for (c = 0; c < l->nconn; c++)
		if ((rc = stmt_on(l, c, os, l->frame)) != 0)
			return rc == 1 ? 0 : -1;
	if (os->role == OBJSQL_CREATE)
		l->objects++;
	return 0;
}

/*
 * The session rows2sql's SQL sets (its dump header, lib/objsql: also
 * foreign_key_checks=0, as mysqldump's and myloader's), on every
 * connection; then sqlexec's own rules: unique_checks stays 1 (exec.c),
 * and with --keep-checks foreign_key_checks goes back on.
 */
int
ld_session(struct loader *l)
{
	struct objsql_stmt os;
	const char	*why;

	l->nconn = l->x->nconn;
	if (objsql_session(l->objs, l->time_zone, ld_run_stmt, l) == -1) {
		why = objsql_errstr(l->objs);
		if (*why != '\0')
			sx_set_error(l->x, 0, "%s", why);
		return -1;
	}
	memset(&os, 0, sizeof(os));
	os.text = l->o->keep_checks ? "SET SESSION unique_checks=1, "
	    "foreign_key_checks=1" : "SET SESSION unique_checks=1";
	os.len = strlen(os.text);
	os.role = OBJSQL_CONTEXT;
	return ld_run_stmt(l, &os);
}

/*
 * --defer-indexes: once every row before is in, add the deferred
 * indexes, one ALTER per table, in parallel.  0 or -1 (recorded).
 */
int
ld_run_deferred(struct loader *l)
{
	size_t	 i, n;
	int	 rc;

	if (l->ndefer == 0 || ld_barrier(l) == -1)
		return l->ndefer == 0 ? 0 : -1;
	rc = sx_defer_run(l->x, l->defer, l->ndefer);
	/* those that did not run stay, for sx_report_deferred() */
	for (i = n = 0; i < l->ndefer; i++) {
		if (!l->defer[i].done) {
			l->defer[n++] = l->defer[i];
			continue;
		}
		free(l->defer[i].table);
		free(l->defer[i].sql);
	}
	l->ndefer = n;
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
		return rc == 0 ? 0 : ld_frame_error(l, l->f, "%s",
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
		return ld_frame_error(l, l->f, "%s", strerror(ENOMEM));
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
 * of them), add them at the end of this one.  0 or -1 (recorded).  A
 * table that is not there, before the input's identity is checked, is
 * kept as l->held_err: another input's point is refused as that first
 * (issue 25 F7: the SHOW CREATE TABLE error of an empty target came
 * instead of it).
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
		buf_addf(&a, "frame %" PRIu64 " at offset %" PRIu64 ": %s.%s: "
		    "SHOW CREATE TABLE: %s (the resume point is past its "
		    "creation: resume into the target the run loaded)",
		    l->f->seq, l->f->offset, ob->schema, ob->name,
		    mysql_error(x->conn[0]));
		if (a.err)
			ld_frame_error(l, l->f, "%s", strerror(ENOMEM));
		else if (l->checked || l->top == 0)
			sx_set_error(x, l->f->seq, "%s", a.p);
		else {
			/* the run's error once the identity is checked */
			if (l->held_err == NULL) {
				l->held_err = buf_detach(&a, NULL);
				l->held_no = l->f->seq;
			}
			rc = 0;
		}
		goto out;
	}
	if ((has = sx_defer_split(row[1], len[1], &ddl, &a)) == -1) {
		ld_frame_error(l, l->f, "%s", strerror(ENOMEM));
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

/* objsql_object()'s callback: the statement into d, unless needless. */
static int
ddl_collect(void *arg, const struct objsql_stmt *os)
{
	struct sx_ddl	*d = arg;
	struct ddl_stmt	*st;

	if (needless(d->l, os))
		return 0;
	if ((st = reallocarray(d->st, d->n + 1, sizeof(*st))) == NULL)
		return -1;
	d->st = st;
	st = &d->st[d->n];
	st->role = os->role;
	st->of_obj = os->obj != NULL;
	st->len = os->len;
	st->db = strdup(os->db != NULL ? os->db : "");
	if ((st->text = malloc(os->len + 1)) != NULL) {
		memcpy(st->text, os->text, os->len);
		st->text[os->len] = '\0';
	}
	if (st->db == NULL || st->text == NULL) {
		free(st->db);
		free(st->text);
		return -1;
	}
	d->n++;
	return 0;
}

int
sx_ddl_run(struct sx *x, int c, struct sx_unit *u)
{
	struct sx_ddl	*d = u->ddl;
	struct objsql_stmt os;
	MYSQL		*m = x->conn[c];
	size_t		 k;
	int		 rc = 0, r, failed = 0;

	for (k = 0; k < d->n && rc == 0; k++) {
		memset(&os, 0, sizeof(os));
		os.role = d->st[k].role;
		os.text = d->st[k].text;
		os.len = d->st[k].len;
		os.db = d->st[k].db;
		os.obj = d->st[k].of_obj ? &d->ob : NULL;
		if (same_db(d->l, c, &os))
			continue;
		/* --force: a failed statement is reported, the next runs */
		if ((r = stmt_on(d->l, c, &os, d->frame)) == -1)
			rc = -1;
		else if (r == 1)
			failed = 1;
		else if (os.role == OBJSQL_CREATE)
			d->created++;
	}
	/*
	 * Its engine, before any row of it: for its rows (table_engine());
	 * made by its CREATE TABLE, nothing failing, it has no trigger.
	 */
	if (rc == 0 && sx_nontx_query(m, d->target, d->ob.name,
	    d->created > 0 && !failed, &d->engine) == -1) {
		sx_set_error(x, d->frame, "frame %" PRIu64 " at offset %" PRIu64
		    ": %s.%s: its engine: ERROR %u (%s): %s", d->frame,
		    d->offset, d->target, d->ob.name, mysql_errno(m),
		    mysql_sqlstate(m), mysql_error(m));
		rc = -1;
	}
	pthread_mutex_lock(&x->mu);
	d->done = rc == 0 ? 1 : 2;
	pthread_mutex_unlock(&x->mu);
	return rc;
}

/* Is w (lower case letters) in ddl, in any case? */
static int
has_word(const char *ddl, size_t len, const char *w)
{
	size_t		 i, k, n = strlen(w);

	for (i = 0; i + n <= len; i++) {
		for (k = 0; k < n; k++)
			if ((ddl[i + k] | 0x20) != w[k])
				break;
		if (k == n)
			return 1;
	}
	return 0;
}

/*
 * May table object ob run as a unit, at once with the objects before
 * it?  Its CREATE must be all there is to run again, and nothing the
 * server locks for one of them may be another's: in a database this
 * run made (no DROP, no table there but the ones it creates), naming no
 * other table (a foreign key's REFERENCES, a MERGE table's UNION: two
 * DROPs of tables with foreign keys between them waited on each other
 * for good, MariaDB 10.11) and of no engine whose CREATE opens another
 * table or server (FEDERATED's connects to its CONNECTION, CONNECT's
 * reads its source table or file: one named there may be one this run
 * makes after it); not a
 * plan's part (a table may come in several); not with --checkpoint
 * (whose row holds one DDL pending: barriers'); with 2 connections or
 * more.  Not while an object queued before names the same table.
 */
static int
ddl_parallel(struct loader *l, const struct rp_object *ob)
{
	return ob->kind == OBJ_TABLE && l->x->nconn > 1 && !l->plan &&
	    !l->o->no_create && l->o->checkpoint == NULL &&
	    new_db(l, names_db(&l->o->names, ob->schema)) &&
	    !has_word(ob->ddl, ob->ddl_len, "references") &&
	    !has_word(ob->ddl, ob->ddl_len, "union") &&
	    !has_word(ob->ddl, ob->ddl_len, "engine=federated") &&
	    !has_word(ob->ddl, ob->ddl_len, "engine=connect");
}

static int
ddl_conflict(const struct loader *l, const struct rp_object *ob)
{
	const struct sx_ddl *d;
	const char	*schema = names_db(&l->o->names, ob->schema);

	for (d = l->ddl; d != NULL; d = d->next)
		if (strcmp(d->ob.name, ob->name) == 0 &&
		    strcmp(d->target, schema) == 0)
			return 1;
	return 0;
}

/* Queue table object ob (create: as it is to be made) as a unit. */
static int
ddl_queue(struct loader *l, const struct frame *f, const struct rp_object *ob,
    const struct rp_object *create)
{
	struct sx_ddl	*d;
	struct sx_unit	*u = NULL;
	const char	*why;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return ld_frame_error(l, f, "%s", strerror(errno));
	d->l = l;
	d->frame = f->seq;
	d->offset = f->offset;
	d->ob.kind = ob->kind;
	d->ob.schema = strdup(ob->schema);
	d->ob.name = strdup(ob->name);
	d->target = strdup(names_db(&l->o->names, ob->schema));
	if (d->ob.schema == NULL || d->ob.name == NULL || d->target == NULL ||
	    (u = calloc(1, sizeof(*u))) == NULL) {
		ld_ddl_free(d);
		return ld_frame_error(l, f, "%s", strerror(ENOMEM));
	}
	if (objsql_object(l->objs, create, ddl_collect, d) == -1) {
		why = objsql_errstr(l->objs);
		ld_frame_error(l, f, "%s", *why != '\0' ? why :
		    strerror(ENOMEM));
		ld_ddl_free(d);
		free(u);
		return -1;
	}
	u->ddl = d;
	u->end_no = f->seq;
	u->end_hash = l->hash;
	if (l->ddl_tail != NULL)
		l->ddl_tail->next = d;
	else
		l->ddl = d;
	l->ddl_tail = d;
	sx_nontx_drop(l->x, d->target, d->ob.name);
	sx_push(l->x, u);
	return 0;
}

struct object_arg {
	struct loader	*l;
	const struct frame *f;
	struct rp_object *ob;
	int		 created;	/* its statements ran */
};

/* sx_barrier_ddl()'s work: the object's statements (ld_run_stmt()). */
static int
run_object(void *arg)
{
	struct object_arg *a = arg;
	const char	*why;

	if (objsql_object(a->l->objs, a->ob, ld_run_stmt, a->l) == 0) {
		a->created = 1;
		return 0;
	}
	why = objsql_errstr(a->l->objs);
	if (*why != '\0')
		ld_frame_error(a->l, a->f, "%s", why);
	return -1;
}

int
ld_object(struct loader *l, const struct frame *f)
{
	struct rp_object ob, create;
	struct object_arg oa = { NULL, NULL, NULL, 0 };
	struct buf	 ddl = BUF_INIT, where = BUF_INIT;
	const char	*schema, *eng;
	int		 rc = -1, par;

	if (dec_object(f, &ob) == -1)
		return ld_frame_error(l, f, "corrupt object frame");
	if (f->seq <= l->o->skip_to)
		return ob.kind == OBJ_TABLE && l->o->defer_indexes &&
		    !l->o->no_create && !l->o->dry_run ? resumed(l, &ob) : 0;
	/* objects are barriers: no resume point has one after N */
	if (l->hold) {
		char	 given[512];

		sx_resume_given(l->x, given, sizeof(given));
		l->x->no_resume = 1;
		return ld_frame_error(l, f, "%s: an object among the frames the "
		    "resume point skips: it is not the input the resume point "
		    "was made from", given);
	}
	/* The objects after the rows: the tables' indexes first. */
	if (ob.kind != OBJ_DATABASE && ob.kind != OBJ_TABLE &&
	    ob.kind != OBJ_SEQUENCE && ld_run_deferred(l) == -1)
		return -1;
	/* a table after a table queued as a unit: at once with it */
	ld_ddl_fold(l, 0);
	par = !l->o->dry_run && ddl_parallel(l, &ob);
	if ((!par || !l->ddl_run || ddl_conflict(l, &ob)) &&
	    ld_barrier(l) == -1)
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
	if (par) {
		if ((rc = ddl_queue(l, f, &ob, &create)) == 0)
			oa.created = l->ddl_run = 1;
		goto out;
	}
	l->nconn = 1;
	/* DDL commits on its own: pending while it runs (commit.c) */
	oa.l = l;
	oa.f = f;
	oa.ob = &create;
	buf_addf(&where, "frame %" PRIu64 " at offset %" PRIu64, f->seq,
	    f->offset);
	if (sx_barrier_ddl(l->x, f->seq, l->prev_hash, l->hash, run_object,
	    &oa, where.p) == -1)
		goto out;
	/* its engine, while nothing runs: for its rows (table_engine()) */
	if (ob.kind == OBJ_TABLE || ob.kind == OBJ_SEQUENCE ||
	    ob.kind == OBJ_VIEW) {
		schema = names_db(&l->o->names, ob.schema);
		sx_nontx_drop(l->x, schema, ob.name);
		if (ob.kind == OBJ_TABLE && !l->o->no_create &&
		    sx_nontx(l->x, l->x->conn[0], schema, ob.name, &eng) == -1) {
			ld_frame_error(l, f, "%s.%s: its engine: ERROR %u (%s): %s",
			    schema, ob.name, mysql_errno(l->x->conn[0]),
			    mysql_sqlstate(l->x->conn[0]),
			    mysql_error(l->x->conn[0]));
			goto out;
		}
	}
	rc = 0;
out:
	/* not created: no table is left without its deferred indexes */
	if (rc != 0 && !oa.created && l->ndefer > 0 &&
	    l->defer[l->ndefer - 1].frame == f->seq) {
		l->ndefer--;
		free(l->defer[l->ndefer].table);
		free(l->defer[l->ndefer].sql);
	}
	buf_release(&ddl);
	buf_release(&where);
	return rc;
}
