/*
 * map: rowmap's pass over the stream.
 *
 * A snapshot stream announces every table (OBJECT frames) before the
 * first rows (rowpipe-stream(5), Order).  rowmap holds those frames back until
 * the first TABLE frame, checks every transform against them (columns
 * that exist, keys and constraints that survive), and only then writes
 * them, rewritten: an error found there leaves a stream with nothing but
 * its header.  Views, routines, triggers and events come after the rows;
 * a transform that breaks one is found as it passes, when the rows are
 * out.  A transform's failure ends the output with an ABORT frame
 * (rowpipe-stream(5)): reason damaged-late once rows or objects are out,
 * so that sqlexec says the target holds rows of a stream that cannot be
 * finished, rather than a cut it could resume; damaged before that.  A
 * cut input gives a cut output, and an aborted one is passed on as it is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objsql.h"
#include "state.h"

/* Writing objects. */

static int
write_object(struct rm *st, const struct rp_object *ob, const char *db,
    const char *name, const struct buf *ddl)
{
	struct rp_object o = *ob;

	o.schema = db;
	o.name = name;
	o.ddl = ddl->p;
	o.ddl_len = ddl->len;
	if (ddl->err)
		return rm_fail(st, "%s", strerror(ddl->err));
	enc_object(frame_begin(st->fw), &o);
	if (frame_end(st->fw, FT_OBJECT, 0) == -1)
		return rm_wfail(st);
	return 0;
}

static int
db_written(struct rm *st, const char *db, int add)
{
	char	**v;
	size_t	 i;

	for (i = 0; i < st->ndbs; i++)
		if (strcmp(st->dbs[i], db) == 0)
			return 1;
	if (!add)
		return 0;
	if ((v = reallocarray(st->dbs, st->ndbs + 1, sizeof(*v))) == NULL ||
	    (v[st->ndbs] = strdup(db)) == NULL) {
		if (v != NULL)
			st->dbs = v;
		return -1;
	}
	st->dbs = v;
	st->ndbs++;
	return 0;
}

/*
 * A table moved into a database the stream does not create: create it,
 * with the character set and collation of the table's own database.
 */
static int
need_db(struct rm *st, const char *db)
{
	struct rp_object ob;
	struct buf	 b = BUF_INIT;
	int		 r;

	if (db_written(st, db, 0) || st->dbobj_ddl == NULL)
		return 0;
	memset(&ob, 0, sizeof(ob));
	ob.kind = OBJ_DATABASE;
	if (names_ddl_name(&b, st->dbobj_ddl, strlen(st->dbobj_ddl),
	    st->dbobj_name, db, NULL) == -1) {
		buf_release(&b);
		return 0;
	}
	r = write_object(st, &ob, db, db, &b);
	buf_release(&b);
	if (r == 0 && db_written(st, db, 1) == -1)
		return rm_fail(st, "%s", strerror(ENOMEM));
	return r;
}

/* Are any of the kept tables in database db (or none announced)? */
static int
db_wanted(struct rm *st, const char *db)
{
	size_t	 i;

	if (st->o->names.ntables == 0 && st->o->names.nexcludes == 0)
		return 1;
	for (i = 0; i < st->ntabs; i++)
		if (st->tabs[i]->keep && strcmp(st->tabs[i]->db, db) == 0)
			return 1;
	return 0;
}

static int
do_database(struct rm *st, const struct rp_object *ob)
{
	const char	*name = *ob->name ? ob->name : ob->schema;
	const char	*t = names_db(&st->o->names, name);
	struct buf	 b = BUF_INIT;
	int		 r;

	if (st->dbobj_ddl == NULL) {
		if ((st->dbobj_ddl = strndup(ob->ddl, ob->ddl_len)) == NULL ||
		    (st->dbobj_name = strdup(name)) == NULL)
			return rm_fail(st, "%s", strerror(ENOMEM));
	}
	if (!db_wanted(st, name) || db_written(st, t, 0))
		return 0;
	if (names_ddl_name(&b, ob->ddl, ob->ddl_len, name, t, NULL) == -1) {
		buf_release(&b);
		return rm_fail(st, "database %s: no name in its DDL", name);
	}
	r = write_object(st, ob, t, t, &b);
	buf_release(&b);
	if (r == 0 && db_written(st, t, 1) == -1)
		return rm_fail(st, "%s", strerror(ENOMEM));
	return r;
}

static int
do_table_object(struct rm *st, const struct rp_object *ob)
{
	struct rtab	*t;
	struct buf	 b = BUF_INIT;
	const char	*tdb, *tname;
	int		 r;

	if ((t = rm_tab(st, ob->schema, ob->name, 1)) == NULL)
		return rm_fail(st, "%s", strerror(ENOMEM));
	if (!t->keep)
		return 0;
	tdb = names_table_db(&st->o->names, ob->schema, ob->name);
	tname = names_table(&st->o->names, ob->schema, ob->name);
	if (need_db(st, tdb) == -1 || rm_table_ddl(st, t, ob, &b) == -1) {
		buf_release(&b);
		return -1;
	}
	r = write_object(st, ob, tdb, tname, &b);
	buf_release(&b);
	return r;
}

/*
 * Trigger names are per database: a renamed table's trigger, created
 * under its name in the same database, would take the trigger away from
 * the original table (as rows2sql(1) says too).
 */
static int
trigger_moves(struct rm *st, const struct rp_object *ob, const char *t)
{
	if (strcmp(names_table(&st->o->names, ob->schema, t), t) == 0 ||
	    strcmp(names_table_db(&st->o->names, ob->schema, t),
	    ob->schema) != 0)
		return 1;
	progress_clear(st->prog);
	fprintf(stderr, "rowmap: %s.%s: trigger of renamed table %s left "
	    "out (trigger names are per database; create it under a new name "
	    "by hand)\n", ob->schema, ob->name, t);
	return 0;
}

static int
do_body_object(struct rm *st, const struct rp_object *ob)
{
	struct buf	 b = BUF_INIT, r = BUF_INIT, nd = BUF_INIT;
	const char	*db = names_db(&st->o->names, ob->schema), *t = NULL;
	const char	*ddl = ob->ddl;
	size_t		 len = ob->ddl_len;
	int		 ret = -1;

	if (ob->kind == OBJ_TRIGGER) {
		if ((t = rp_kv_get(&ob->attrs, "table")) == NULL)
			return rm_fail(st, "%s.%s: trigger without its table",
			    ob->schema, ob->name);
		if (!names_keep(&st->o->names, ob->schema, t) ||
		    !trigger_moves(st, ob, t))
			return 0;
		db = names_table_db(&st->o->names, ob->schema, t);
	} else if (!names_keep(&st->o->names, ob->schema, ob->name))
		return 0;
	/* --skip-definer: the DDL without it, then renamed as any other */
	if (st->o->skip_definer) {
		objsql_strip_definer(&nd, ob);
		ddl = nd.p != NULL ? nd.p : "";
		len = nd.len;
	}
	if (t != NULL && strcmp(names_table(&st->o->names, ob->schema, t), t)) {
		names_trigger_table(&r, ddl, len, t,
		    names_table(&st->o->names, ob->schema, t));
		ddl = r.p;
		len = r.len;
	}
	if (nd.err || r.err)
		rm_fail(st, "%s", strerror(ENOMEM));
	else if (rm_check_body(st, ob, ob->kind != OBJ_VIEW) == 0) {
		names_ddl_refs(&st->o->names, &b, ddl, len, ob->schema);
		ret = need_db(st, db) == -1 ? -1 :
		    write_object(st, ob, db, ob->name, &b);
	}
	buf_release(&b);
	buf_release(&r);
	buf_release(&nd);
	return ret;
}

static int
do_object(struct rm *st, const struct frame *f)
{
	struct rp_object ob;

	if (dec_object(f, &ob) == -1)
		return rm_fail(st, "corrupt object frame");
	switch (ob.kind) {
	case OBJ_DATABASE:
		return do_database(st, &ob);
	case OBJ_TABLE:
	case OBJ_SEQUENCE:
		return do_table_object(st, &ob);
	default:
		return do_body_object(st, &ob);
	}
}

/* The schema phase. */

static int
hold(struct rm *st, const struct frame *f)
{
	struct held	*v;
	struct rp_object ob;

	if ((v = reallocarray(st->held, st->nheld + 1, sizeof(*v))) == NULL)
		return rm_fail(st, "%s", strerror(ENOMEM));
	st->held = v;
	v = &v[st->nheld];
	if ((v->p = malloc(f->len + 1)) == NULL)
		return rm_fail(st, "%s", strerror(ENOMEM));
	memcpy(v->p, f->p, f->len);
	v->len = f->len;
	v->type = f->type;
	v->flags = f->flags;
	st->nheld++;
	if (dec_object(f, &ob) == -1)
		return rm_fail(st, "corrupt object frame");
	if (ob.kind == OBJ_TABLE || ob.kind == OBJ_SEQUENCE) {
		struct rtab *t = rm_tab(st, ob.schema, ob.name, 1);

		if (t == NULL || (t->ddl = malloc(ob.ddl_len + 1)) == NULL)
			return rm_fail(st, "%s", strerror(ENOMEM));
		memcpy(t->ddl, ob.ddl, ob.ddl_len + 1);
		t->ddl_len = ob.ddl_len;
		st->table_objects = 1;
	}
	return 0;
}

/* Check the transforms, then write the frames held back. */
static int
release(struct rm *st)
{
	struct frame	 f;
	size_t		 i;

	st->holding = 0;
	st->f = NULL;		/* the schema's errors are no frame's */
	if (rm_check_tables(st) == -1)
		return -1;
	for (i = 0; i < st->nheld; i++) {
		memset(&f, 0, sizeof(f));
		f.type = st->held[i].type;
		f.flags = st->held[i].flags;
		f.p = st->held[i].p;
		f.len = st->held[i].len;
		if (do_object(st, &f) == -1)
			return -1;
	}
	return 0;
}

/* At the end: every pattern and transform must have matched something. */
static int
unmatched(struct rm *st)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	if (names_unmatched(&st->o->names, &b)) {
		rm_fail(st, "--tables or --exclude %s matched no table or "
		    "object of the stream", b.p);
		buf_release(&b);
		return -1;
	}
	if (names_unmatched_rename(&st->o->names, &b)) {
		rm_fail(st, "%s in the stream", b.p);
		buf_release(&b);
		return -1;
	}
	for (i = 0; i < st->o->nops; i++)
		if (!st->o->ops[i].hit)
			return rm_fail(st, "%s: no such table in the stream",
			    st->o->ops[i].arg);
	return 0;
}

/*
 * --tables and --exclude that leave nothing of a stream that held
 * something (--exclude '*'): an error, as a pattern that matches
 * nothing is, unless --allow-empty (sqlexec's option of that name then
 * loads it).
 */
static int
left_nothing(struct rm *st, const struct frame_reader *fr)
{
	if (st->o->allow_empty || frame_writer_totals(st->fw)->frames > 1 ||
	    frame_reader_totals(fr)->frames <= 1)
		return 0;
	return rm_fail(st, "--tables and --exclude leave nothing of the "
	    "stream: each of its tables and objects is left out "
	    "(--allow-empty if that is expected)");
}

static int
copy_frame(struct rm *st, const struct frame *f)
{
	if (frame_write(st->fw, f->type, f->flags, f->p, f->len) == -1)
		return rm_wfail(st);
	return 0;
}

static int
do_frame(struct rm *st, const struct frame *f)
{
	if (st->holding && f->type == FT_OBJECT)
		return hold(st, f);
	if (st->holding && f->type != FT_HEADER) {
		if (release(st) == -1)
			return -1;
		st->f = f;
	}
	switch (f->type) {
	case FT_HEADER:
		if (copy_frame(st, f) == -1)
			return -1;
		/* Out at once: a cut after it shows as a cut, not as empty. */
		return frame_writer_flush(st->fw) == -1 ? rm_wfail(st) : 0;
	case FT_OBJECT:
		return do_object(st, f);
	case FT_TABLE:
		return rm_do_table(st, f);
	case FT_ROWS:
		return rm_do_rows(st, f);
	case FT_TABLE_END:
		return rm_do_table_end(st, f);
	case FT_STMT:
		return copy_frame(st, f);
	default:
		return rm_fail(st, "unexpected frame type %d", f->type);
	}
}

static void
rm_free(struct rm *st)
{
	size_t	 i;

	for (i = 0; i < st->ntabs; i++)
		rm_tab_free(st->tabs[i]);
	free(st->tabs);
	stbls_free(&st->strs);
	for (i = 0; i < st->nheld; i++)
		free(st->held[i].p);
	free(st->held);
	for (i = 0; i < st->ndbs; i++)
		free(st->dbs[i]);
	free(st->dbs);
	free(st->dbobj_ddl);
	free(st->dbobj_name);
	frame_writer_free(st->fw);
	progress_free(st->prog);
}

int
rowmap(int fd, int out_fd, const struct rowmap_opts *o, const char **errmsg)
{
	static char	 msg[1100];
	struct rm	 st;
	struct frame_reader *fr;
	struct frame	 f;
	enum frame_status s;
	const char	*why;
	char		 am[sizeof(st.errbuf) + 16];
	int		 r = -1, input = 0, reason;

	memset(&st, 0, sizeof(st));
	st.strs.release = rm_stream_release;
	st.o = o;
	st.holding = 1;
	if ((fr = frame_reader_new(fd, 0)) == NULL ||
	    (st.fw = frame_writer_new(out_fd)) == NULL ||
	    (st.prog = progress_new("rowmap", "tables", o->progress)) == NULL) {
		snprintf(st.errbuf, sizeof(st.errbuf), "%s", strerror(ENOMEM));
		goto out;
	}
	for (;;) {
		if ((s = frame_read(fr, &f)) == FRAME_ERR) {
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    frame_reader_errstr(fr));
			input = 1;
			break;
		}
		if (s == FRAME_DONE) {
			st.f = NULL;
			if ((!st.holding || release(&st) == 0) &&
			    unmatched(&st) == 0 && left_nothing(&st, fr) == 0) {
				if (frame_writer_close(st.fw) == 0)
					r = 0;
				else
					rm_wfail(&st);
			}
			break;
		}
		st.f = &f;
		if (do_frame(&st, &f) == -1)
			break;
	}
	if (r == -1 && st.fw != NULL) {
		frame_cancel(st.fw);
		reason = frame_reader_aborted(fr, &why);
		if (frame_writer_totals(st.fw)->frames == 0)
			;		/* not even a header: nothing to end */
		else if (input && reason != 0)	/* the producer's, passed on */
			(void)frame_writer_abort(st.fw, reason, why);
		else if (input)
			frame_writer_flush(st.fw);	/* cut: no trailer */
		else {
			/* (a write error is sticky: then nothing more) */
			snprintf(am, sizeof(am), "rowmap: %s", st.errbuf);
			/* rowmap's own failure: its input is good */
			(void)frame_writer_abort(st.fw, FRAME_ABORT_FAILED, am);
		}
	}
out:
	snprintf(msg, sizeof(msg), "%s", st.errbuf);
	if (r == 0)
		progress_done(st.prog);
	else if (st.prog != NULL)
		progress_clear(st.prog);
	frame_reader_free(fr);
	rm_free(&st);
	*errmsg = msg;
	return r;
}
