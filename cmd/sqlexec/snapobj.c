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

int
ld_run_stmt(void *arg, const struct objsql_stmt *os)
{
	struct loader	*l = arg;
	struct sx	*x = l->x;
	struct buf	 b = BUF_INIT;
	MYSQL		*m;
	unsigned	 w;
	int		 c, rc, made;

	if ((os->role == OBJSQL_USE && l->db != NULL &&
	    strcmp(l->db, os->db) == 0) || needless(l, os))
		return 0;
	for (c = 0; c < l->nconn; c++) {
		m = x->conn[c];
		if (run_on(x, c, os, &w, &made) == 0) {
			if (made && c == 0 && os->role == OBJSQL_CREATE &&
			    os->obj != NULL && os->obj->kind == OBJ_DATABASE) {
				buf_adds(&l->newdbs, os->db);
				buf_addc(&l->newdbs, '\0');
			}
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
	int		 rc = -1;

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
	if (ld_barrier(l) == -1)
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
