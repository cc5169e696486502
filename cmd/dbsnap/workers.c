/*
 * workers: the frame output and the threads that read rows.
 *
 * Each worker owns one connection (all in the same snapshot) and takes
 * chunks from one queue: chunk 0 of every table (largest first), then
 * chunk 1 of every table, and so on.
 * Rows are read over the binary protocol (read_rows) and written as
 * text, formatted here in the worker, in FT_ROWS frames of about
 * BATCH_BYTES.  Frames of different tables interleave; within a table,
 * chunks are written in chunk order:
 * the chunk at a table's write position streams straight out, a chunk
 * that runs ahead spools its frames (in memory up to SPOOL_MEM_MAX, then
 * in an unlinked temporary file) until it becomes the head.
 */
#include <sys/uio.h>

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

struct task {
	struct table	*t;
	size_t		 ci;
};

struct worker {
	struct snap	*s;
	MYSQL		*m;
	pthread_t	 th;
	struct buf	 batch;
	uint64_t	 batch_rows;
	size_t		 at;		/* row count offset in batch */
	struct buf	 q;
	struct buf	 last[16];	/* keyset: key values of the last row */
	struct binrow	 br;
};

static pthread_mutex_t	 queue_mu = PTHREAD_MUTEX_INITIALIZER;
/*
 * Spool memory of all chunks together stays within jobs * SPOOL_MEM_MAX.
 * A worker whose chunk runs ahead and finds it full waits (spool_cv)
 * until some is given back or its chunk becomes the head; only a batch
 * larger than all of it goes to a temporary file.
 */
static pthread_mutex_t	 spool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 spool_cv = PTHREAD_COND_INITIALIZER;
static size_t		 spool_mem_used;

/* Chunk ci is at its table's write position (next_write, see emit). */
static int
is_head(struct table *t, size_t ci)
{
	return __atomic_load_n(&t->next_write, __ATOMIC_ACQUIRE) == ci;
}

/*
 * Take n bytes of spool memory for chunk ci of t, waiting while it is
 * full: 1 when taken, 0 once the chunk is the head (it writes out, no
 * memory needed), -1 for the spool file (n exceeds all of the memory, or
 * the chunk's spool is in the file already).  A batch with large values
 * in Connector/C's buffer (big) that exceeds all of the memory waits for
 * the head instead: written from that buffer, it is never copied.  No
 * deadlock: the head chunk of every table never waits, and each wait
 * ends when a spool is replayed or the write position moves (both
 * broadcast).
 */
static int
spool_mem_take(struct snap *s, struct table *t, size_t ci, size_t n,
    int big)
{
	size_t	 max = (size_t)s->o->jobs * SPOOL_MEM_MAX;
	int	 r;

	pthread_mutex_lock(&spool_mu);
	for (;;) {
		if (is_head(t, ci)) {
			r = 0;
			break;
		}
		if ((n > max && !big) || t->chunks[ci].spool.f != NULL) {
			r = -1;
			break;
		}
		if (n <= max && spool_mem_used + n <= max) {
			spool_mem_used += n;
			r = 1;
			break;
		}
		pthread_cond_wait(&spool_cv, &spool_mu);
	}
	pthread_mutex_unlock(&spool_mu);
	return r;
}

/* Wake the workers waiting for spool memory (see spool_mem_take). */
static void
spool_wake(void)
{
	pthread_mutex_lock(&spool_mu);
	pthread_cond_broadcast(&spool_cv);
	pthread_mutex_unlock(&spool_mu);
}

static void
spool_mem_give(size_t n)
{
	pthread_mutex_lock(&spool_mu);
	spool_mem_used -= n;
	pthread_cond_broadcast(&spool_cv);
	pthread_mutex_unlock(&spool_mu);
}
static struct task	*tasks;
static size_t		 ntasks, next_task;

/* A write error: EPIPE (the reader went away) stops quietly. */
static __dead void
write_failed(struct snap *s)
{
	if (errno == EPIPE)
		_exit(1);
	die(s, "stdout: %s", frame_writer_errstr(s->fw));
}

static void
out_frame(struct snap *s, int type, const void *p, size_t len)
{
	pthread_mutex_lock(&s->out_mu);
	if (frame_write(s->fw, type, 0, p, len) == -1)
		write_failed(s);
	pthread_mutex_unlock(&s->out_mu);
}

static void
out_framev(struct snap *s, int type, const struct iovec *v, int n)
{
	pthread_mutex_lock(&s->out_mu);
	if (frame_writev(s->fw, type, 0, v, n) == -1)
		write_failed(s);
	pthread_mutex_unlock(&s->out_mu);
}

static void
kv_from(struct rp_kv *kv, const struct attrs *a)
{
	size_t	 i;

	memset(kv, 0, sizeof(*kv));
	for (i = 0; i < a->n && i < RP_KV_MAX; i++) {
		kv->key[i] = a->key[i];
		kv->val[i] = a->val[i];
		kv->vlen[i] = strlen(a->val[i]);
	}
	kv->n = i;
}

void
write_header(struct snap *s)
{
	struct attrs	 h;
	const char	*keys[RP_KV_MAX], *vals[RP_KV_MAX];
	struct buf	*b;
	size_t		 i, n = 0;

	memset(&h, 0, sizeof(h));
	attrs_add(&h, "producer", "dbsnap " DBSNAP_VERSION);
	attrs_add(&h, "server_version", mysql_get_server_info(s->conns[0]));
	attrs_add(&h, "consistency", s->consistency);
	attrs_add(&h, "time_zone", "+00:00");
	for (i = 0; i < s->header.n && h.n < RP_KV_MAX; i++)
		attrs_add(&h, s->header.key[i], s->header.val[i]);
	for (i = 0; i < h.n; i++, n++) {
		keys[n] = h.key[i];
		vals[n] = h.val[i];
	}
	pthread_mutex_lock(&s->out_mu);
	b = frame_begin(s->fw);
	enc_kv(b, keys, vals, n);
	if (frame_end(s->fw, FT_HEADER, 0) == -1)
		write_failed(s);
	pthread_mutex_unlock(&s->out_mu);
	attrs_free(&h);
}

void
write_object(struct snap *s, const struct object *o)
{
	struct rp_object ro;
	struct buf	*b;

	memset(&ro, 0, sizeof(ro));
	ro.kind = o->kind;
	ro.schema = o->schema;
	ro.name = o->name;
	ro.ddl = o->ddl;
	ro.ddl_len = o->ddl_len;
	kv_from(&ro.attrs, &o->attrs);
	pthread_mutex_lock(&s->out_mu);
	b = frame_begin(s->fw);
	enc_object(b, &ro);
	if (frame_end(s->fw, FT_OBJECT, 0) == -1)
		write_failed(s);
	pthread_mutex_unlock(&s->out_mu);
}

void
write_objects(struct snap *s, const struct objlist *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		write_object(s, &l->v[i]);
}

static void
write_table(struct snap *s, struct table *t)
{
	struct rp_table	 rt;
	struct attrs	 a;
	struct buf	*b;
	char		 est[32];
	size_t		 i;

	memset(&rt, 0, sizeof(rt));
	memset(&a, 0, sizeof(a));
	rt.id = t->id;
	rt.schema = t->schema;
	rt.name = t->name;
	rt.ncols = t->ncols;
	rt.cols = xcalloc(t->ncols, sizeof(*rt.cols));
	for (i = 0; i < t->ncols; i++) {
		rt.cols[i].name = t->cols[i].name;
		rt.cols[i].type = t->cols[i].type;
		rt.cols[i].flags = t->cols[i].flags;
		rt.cols[i].charsetnr = t->cols[i].charsetnr;
		rt.cols[i].decimals = t->cols[i].decimals;
		rt.cols[i].coltype = t->cols[i].coltype;
	}
	if (t->engine != NULL)
		attrs_add(&a, "engine", t->engine);
	if (t->versioned)
		attrs_add(&a, "versioned", "1");
	snprintf(est, sizeof(est), "%llu", (unsigned long long)t->rows_est);
	attrs_add(&a, "rows_estimate", est);
	kv_from(&rt.attrs, &a);
	pthread_mutex_lock(&s->out_mu);
	b = frame_begin(s->fw);
	enc_table(b, &rt);
	if (frame_end(s->fw, FT_TABLE, 0) == -1)
		write_failed(s);
	pthread_mutex_unlock(&s->out_mu);
	free(rt.cols);
	attrs_free(&a);
}

/* The sequences, or the tables, of one database (CREATE SEQUENCE/TABLE). */
void
write_table_objects(struct snap *s, size_t dbi, int sequences)
{
	struct object	 o;
	size_t		 i, lo, hi;
	struct table	*t;
	char		 round[32], est[32], ntrg[32];

	db_span(s, dbi, &lo, &hi);
	for (i = lo; i < hi; i++) {
		t = s->tables[i];
		if (t->is_view ||
		    !t->is_sequence != !sequences)
			continue;
		memset(&o, 0, sizeof(o));
		o.kind = t->is_sequence ? OBJ_SEQUENCE : OBJ_TABLE;
		o.schema = t->schema;
		o.name = t->name;
		o.ddl = t->ddl;
		o.ddl_len = t->ddl_len;
		if (t->srid != NULL)
			attrs_add(&o.attrs, "srid", t->srid);
		/* rows2sql --rename warns early of the triggers it drops */
		if (t->ntriggers > 0) {
			snprintf(ntrg, sizeof(ntrg), "%zu", t->ntriggers);
			attrs_add(&o.attrs, "triggers", ntrg);
		}
		if (!t->is_sequence) {	/* for sqlexec --defer-indexes */
			snprintf(est, sizeof(est), "%llu",
			    (unsigned long long)t->rows_est);
			attrs_add(&o.attrs, "rows_estimate", est);
		}
		if (t->is_sequence && t->next_value != NULL) {
			attrs_add(&o.attrs, "next_value", t->next_value);
			snprintf(round, sizeof(round), "%llu", t->round);
			attrs_add(&o.attrs, "round", round);
		}
		write_object(s, &o);
		attrs_free(&o.attrs);
	}
}

/*
 * Batch buffers a spool gave back, for the workers' next batches: a
 * batch that went into a spool is replaced from here rather than by new
 * memory, whose first use costs a page fault a page (30000 more for the
 * bench table at -j 2).  At most POOL_MAX, under spool_mu.
 */
#define POOL_MAX	64
/* A batch's memory: its rows past BATCH_BYTES end it (read_rows). */
#define BATCH_CAP	(BATCH_BYTES + ((size_t)64 << 10))
static struct buf	 pool[POOL_MAX];
static size_t		 npool;

static void
pool_put(struct buf *b)
{
	pthread_mutex_lock(&spool_mu);
	if (npool < POOL_MAX && b->cap <= 2 * BATCH_CAP) {
		pool[npool++] = *b;
		*b = (struct buf)BUF_INIT;
	}
	pthread_mutex_unlock(&spool_mu);
	buf_release(b);
}

static void
pool_get(struct buf *b)
{
	pthread_mutex_lock(&spool_mu);
	if (npool > 0)
		*b = pool[--npool];
	pthread_mutex_unlock(&spool_mu);
}

/*
 * Spool: the batches themselves in memory (mem: the memory is taken
 * already; the worker goes on with a new batch, nothing is copied but
 * the large values of a batch with holes), or records of u32 length +
 * FT_ROWS payload in the spool file.  The payload is v[0..nv-1], the
 * pieces of batch (batch_iov).
 */
static void
spool_add(struct snap *s, struct spool *sp, struct buf *batch,
    const struct iovec *v, int nv, int mem)
{
	struct buf	 whole = BUF_INIT;
	uint32_t	 n = 0;
	const char	*dir;
	char		 path[4096];
	int		 fd, i;

	for (i = 0; i < nv; i++)
		n += (uint32_t)v[i].iov_len;
	if (mem && nv > 1) {
		/* Large values in Connector/C's buffer: copied in here. */
		if ((whole.p = malloc((size_t)n + 1)) == NULL)
			die(s, "out of memory");
		whole.cap = (size_t)n + 1;
		for (i = 0; i < nv; i++)
			buf_put(&whole, v[i].iov_base, v[i].iov_len);
		batch = &whole;
	}
	if (mem) {
		if (sp->nmem == sp->capmem) {
			sp->capmem = sp->capmem ? 2 * sp->capmem : 16;
			if ((sp->mem = reallocarray(sp->mem, sp->capmem,
			    sizeof(*sp->mem))) == NULL)
				die(s, "out of memory");
		}
		sp->memsize += batch->cap;
		sp->mem[sp->nmem++] = *batch;
		*batch = (struct buf)BUF_INIT;
		return;
	}
	if (sp->f == NULL) {
		if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
			dir = "/tmp";
		snprintf(path, sizeof(path), "%s/dbsnap.XXXXXX", dir);
		if ((fd = mkstemp(path)) == -1)
			die(s, "spool file in %s: %s", dir, strerror(errno));
		unlink(path);
		if ((sp->f = fdopen(fd, "w+")) == NULL)
			die(s, "spool file: %s", strerror(errno));
	}
	if (fwrite(&n, 4, 1, sp->f) != 1)
		die(s, "spool file: %s", strerror(errno));
	for (i = 0; i < nv; i++)
		if (fwrite(v[i].iov_base, 1, v[i].iov_len, sp->f) !=
		    v[i].iov_len)
			die(s, "spool file: %s", strerror(errno));
}

/* Write a spool's frames out, in order, and empty it. */
static void
spool_replay(struct snap *s, struct spool *sp)
{
	struct buf	 rec = BUF_INIT;
	uint32_t	 n;
	size_t		 i;

	pthread_mutex_lock(&s->out_mu);
	for (i = 0; i < sp->nmem; i++) {
		if (frame_write(s->fw, FT_ROWS, 0, sp->mem[i].p,
		    sp->mem[i].len) == -1)
			write_failed(s);
		pool_put(&sp->mem[i]);
	}
	if (sp->memsize > 0)
		spool_mem_give(sp->memsize);
	free(sp->mem);
	sp->mem = NULL;
	sp->nmem = sp->capmem = sp->memsize = 0;
	if (sp->f != NULL) {
		if (fflush(sp->f) == EOF || fseeko(sp->f, 0, SEEK_SET) == -1)
			die(s, "spool file: %s", strerror(errno));
		while (fread(&n, 4, 1, sp->f) == 1) {
			buf_reset(&rec);
			if (buf_grow(&rec, n) == -1)
				die(s, "out of memory");
			if (fread(rec.p, 1, n, sp->f) != n)
				die(s, "spool file: short read");
			if (frame_write(s->fw, FT_ROWS, 0, rec.p, n) == -1)
				write_failed(s);
		}
		if (ferror(sp->f))
			die(s, "spool file: %s", strerror(errno));
		fclose(sp->f);
		sp->f = NULL;
	}
	pthread_mutex_unlock(&s->out_mu);
	buf_release(&rec);
}

static void
batch_reset(struct worker *w, struct table *t)
{
	if (w->batch.p == NULL)		/* it went into a spool */
		pool_get(&w->batch);
	if (w->batch.p == NULL && (w->batch.p = malloc(BATCH_CAP)) != NULL)
		w->batch.cap = BATCH_CAP;
	buf_reset(&w->batch);
	enc_rows_begin(&w->batch, t->id, 0);
	w->at = w->batch.len;
	w->batch_rows = 0;
	(void)buf_grow(&w->batch, BATCH_BYTES + 4096);
}

/* The batch's payload in pieces: its bytes around the holes (binrow). */
static int
batch_iov(struct worker *w, struct iovec *v)
{
	struct binrow	*br = &w->br;
	size_t		 at = 0;
	unsigned	 i;
	int		 n = 0;

	for (i = 0; i < br->nholes; i++) {
		v[n].iov_base = w->batch.p + at;
		v[n++].iov_len = br->hole[i].at - at;
		v[n].iov_base = (void *)br->hole[i].p;
		v[n++].iov_len = br->hole[i].len;
		at = br->hole[i].at;
	}
	v[n].iov_base = w->batch.p + at;
	v[n++].iov_len = w->batch.len - at;
	return n;
}

/*
 * Seal the batch as an FT_ROWS payload and write it or spool it.  Called
 * before the next fetch when the batch has holes: their bytes are in
 * Connector/C's buffer until then.
 */
static void
emit(struct worker *w, struct table *t, size_t ci)
{
	struct snap	*s = w->s;
	struct iovec	 v[2 * BINROW_HOLES + 1];
	size_t		 len;
	int		 mem, nv;

	if (w->batch_rows == 0)
		return;
	if (w->batch.err)
		die(s, "out of memory");
	enc_rows_patch(&w->batch, w->at, (uint32_t)w->batch_rows);
	nv = batch_iov(w, v);
	len = w->batch.len + w->br.hole_bytes;

	/* Only this chunk moves the write position past itself. */
	mem = is_head(t, ci) ? 0 : spool_mem_take(s, t, ci,
	    nv > 1 ? len + 1 : w->batch.cap,
	    w->br.nholes > 0);
	progress_add(s->prog, 0, w->batch_rows, len);
	if (mem == 0) {
		if (t->chunks[ci].spool.nmem > 0 ||
		    t->chunks[ci].spool.f != NULL)
			spool_replay(s, &t->chunks[ci].spool);
		out_framev(s, FT_ROWS, v, nv);
	} else
		spool_add(s, &t->chunks[ci].spool, &w->batch, v, nv, mem == 1);
	w->br.nholes = 0;
	w->br.hole_bytes = 0;
	batch_reset(w, t);
}

static void
finish_table(struct snap *s, struct table *t)
{
	struct buf	 b = BUF_INIT;

	enc_table_end(&b, t->id, t->rows_written);
	if (b.err)
		die(s, "out of memory");
	out_frame(s, FT_TABLE_END, b.p, b.len);
	buf_release(&b);
	/*
	 * Named, not an error: a row filter may keep nothing on a quiet
	 * day (issue 25: mysqldump --where is silent).
	 */
	if (t->where != NULL && t->rows_written == 0) {
		progress_clear(s->prog);
		warnx("warning: %s.%s: no row matches --where: %s",
		    t->schema, t->name, t->where);
	}
	progress_add(s->prog, 1, 0, 0);
}

/* The chunk has been read and its last batch emitted. */
static void
finish_chunk(struct worker *w, struct table *t, size_t ci)
{
	struct snap	*s = w->s;
	struct chunk	*c;

	pthread_mutex_lock(&t->mu);
	if (t->next_write != ci) {
		t->chunks[ci].state = CH_DONE;
		pthread_mutex_unlock(&t->mu);
		return;
	}
	c = &t->chunks[ci];
	if (c->spool.nmem > 0 || c->spool.f != NULL)
		spool_replay(s, &c->spool);
	c->state = CH_DONE;
	t->rows_written += c->rows;
	__atomic_store_n(&t->next_write, ci + 1, __ATOMIC_RELEASE);
	while (t->next_write < t->nchunks &&
	    t->chunks[t->next_write].state == CH_DONE) {
		c = &t->chunks[t->next_write];
		spool_replay(s, &c->spool);
		t->rows_written += c->rows;
		__atomic_store_n(&t->next_write, t->next_write + 1,
		    __ATOMIC_RELEASE);
	}
	if (t->next_write == t->nchunks)
		finish_table(s, t);
	/* The chunk now at the write position may be waiting for memory. */
	spool_wake();
	pthread_mutex_unlock(&t->mu);
}

/* A key value as a literal that compares as the column sorts. */
static void
key_literal(struct buf *q, const struct col *c, const struct buf *v)
{
	if (c->flags & COL_NUMERIC)
		buf_add(q, v->p, v->len);
	else if (c->collation == NULL)
		quote_hex(q, v->p, v->len);
	else if (c->charset != NULL) {
		buf_addf(q, "_%s ", c->charset);
		quote_hex(q, v->p, v->len);
		buf_addf(q, " COLLATE %s", c->collation);
	} else
		quote_string(q, v->p, v->len);
}

/* (k1, k2, ...) > (last row's): k1 > v1 OR (k1 = v1 AND k2 > v2) ... */
static void
keyset_cond(struct worker *w, struct table *t)
{
	struct buf	*q = &w->q;
	size_t		 i, j;
	const struct col *c;

	buf_adds(q, "(");
	for (i = 0; i < t->nkey; i++) {
		if (i > 0)
			buf_adds(q, " OR ");
		buf_adds(q, "(");
		for (j = 0; j <= i; j++) {
			c = &t->cols[t->key[j]];
			if (j > 0)
				buf_adds(q, " AND ");
			quote_ident(q, c->name, strlen(c->name));
			buf_adds(q, j < i ? " = " : " > ");
			key_literal(q, c, &w->last[j]);
		}
		buf_adds(q, ")");
	}
	buf_adds(q, ")");
}

static void
build_query(struct worker *w, struct table *t, size_t ci, int keyset_after)
{
	struct buf	*q = &w->q;
	const char	*cond = t->chunks[ci].cond;
	int		 where = 0;

	buf_reset(q);
	buf_adds(q, t->select);
	if (cond != NULL && *cond != '\0') {
		buf_adds(q, " WHERE ");
		buf_adds(q, cond);
		where = 1;
	}
	if (t->where != NULL && *t->where != '\0') {
		buf_adds(q, where ? " AND " : " WHERE ");
		buf_adds(q, t->where);
		where = 1;
	}
	if (keyset_after) {
		buf_adds(q, where ? " AND " : " WHERE ");
		keyset_cond(w, t);
	}
	buf_adds(q, t->order);
	if (t->mode == TM_KEYSET)
		buf_addf(q, " LIMIT %llu", w->s->o->chunk_rows);
	if (q->err)
		die(w->s, "out of memory");
}

/*
 * The statement's error, or the connection's (a lost connection).  A
 * read that timed out (Connector/C leaves errno ETIMEDOUT: --read-timeout,
 * or TCP keepalive) says so: the server, or the network to it, stopped
 * answering.
 */
static __dead void
stmt_die(struct worker *w, struct table *t, size_t no, MYSQL_STMT *st)
{
	char		 e[512], late[96] = "";
	unsigned	 rt = w->s->o->conn.read_timeout;
	/* an error while the rows come is the connection's, not st's */
	int		 on_conn = st == NULL || mysql_stmt_errno(st) == 0;
	unsigned	 code = on_conn ? mysql_errno(w->m) : mysql_stmt_errno(st);

	if (errno == ETIMEDOUT && rt != 0)
		snprintf(late, sizeof(late), "the server sent nothing for "
		    "%u s (--read-timeout): ", rt);
	if (on_conn)
		conn_strerror(w->m, e, sizeof(e));
	else
		snprintf(e, sizeof(e), "%s (%u, %s)", mysql_stmt_error(st),
		    code, mysql_stmt_sqlstate(st));
	/* An ALTER that rebuilt it after the snapshot began, before the
	 * lock (schema.c, lock_tables()): its rows are not in the snapshot. */
	if (code == ER_TABLE_DEF_CHANGED) {
		char	 what[512];	/* not ctx2(): its buffer is shared */

		snprintf(what, sizeof(what), "%s.%s", t->schema, t->name);
		die_changed(w->s, what, e);
	}
	if (on_conn)
		die(w->s, "%s.%s: chunk %zu: %s%s", t->schema, t->name, no,
		    late, e);
	if (code == ER_LOCK_WAIT_TIMEOUT)
		die(w->s, "%s.%s: chunk %zu: its metadata lock not given in "
		    "%u s (--lock-wait-timeout): DDL on the table (ALTER, "
		    "RENAME, DROP, TRUNCATE, ...) waits for this dump, and "
		    "this read queued behind it; dump again when that DDL has "
		    "run", t->schema, t->name, no, w->s->o->lock_wait_timeout);
	die(w->s, "%s.%s: chunk %zu: %s%s", t->schema, t->name, no, late, e);
}

/* The statement's result columns, checked and made ready for binrow. */
static void
bin_setup(struct worker *w, struct table *t, size_t no, MYSQL_STMT *st)
{
	MYSQL_RES	*md;
	unsigned	 n;

	if (mysql_stmt_param_count(st) != 0)
		die(w->s, "%s.%s: chunk %zu: the query has a ? placeholder "
		    "(from --where?)", t->schema, t->name, no);
	n = mysql_stmt_field_count(st);
	if (n != t->ncols)
		die(w->s, "%s.%s: chunk %zu: %u columns, expected %zu",
		    t->schema, t->name, no, n, t->ncols);
	if ((md = mysql_stmt_result_metadata(st)) == NULL)
		stmt_die(w, t, no, st);
	w->br.out = &w->batch;
	if (binrow_setup(&w->br, mysql_fetch_fields(md), n) == -1)
		die(w->s, "%s.%s: column %s: %s", t->schema, t->name,
		    t->cols[w->br.errcol].name, w->br.err);
	mysql_free_result(md);
}

/* Keyset: the last row's key values, as written, for the next query. */
static void
keep_keys(struct worker *w, struct table *t)
{
	size_t	 i, k;

	if (w->batch.err)
		die(w->s, "out of memory");
	for (i = 0; i < t->nkey; i++) {
		k = t->key[i];
		buf_reset(&w->last[i]);
		if (w->br.off[k] != (size_t)-1)
			buf_add(&w->last[i], w->batch.p + w->br.off[k],
			    w->br.len[k]);
	}
}

/*
 * Read one query's rows into batches; returns the rows read.  A prepared
 * statement, executed without a cursor and fetched row by row without
 * mysql_stmt_store_result(): the server sends binary-protocol rows (no
 * number or temporal formatting on its side) and only one row is held
 * here at a time; binrow (installed on the connection) writes each
 * value's text into the batch.
 */
static uint64_t
read_rows(struct worker *w, struct table *t, size_t ci, size_t no)
{
	MYSQL_STMT	*st;
	uint64_t	 rows = 0;
	int		 rc, keyset = t->mode == TM_KEYSET;

	if ((st = mysql_stmt_init(w->m)) == NULL)
		stmt_die(w, t, no, NULL);
	if (mysql_stmt_prepare(st, w->q.p, w->q.len) != 0)
		stmt_die(w, t, no, st);
	bin_setup(w, t, no, st);
	if (binrow_attach(st, &w->br) == -1)
		stmt_die(w, t, no, st);
	if (mysql_stmt_execute(st) != 0)
		stmt_die(w, t, no, st);
	while ((rc = mysql_stmt_fetch(st)) == 0) {
		if (w->br.err != NULL)
			die(w->s, "%s.%s: chunk %zu: row %llu: column %s: %s",
			    t->schema, t->name, no,
			    (unsigned long long)rows + 1,
			    t->cols[w->br.errcol].name, w->br.err);
		w->batch_rows++;
		rows++;
		if (keyset)
			keep_keys(w, t);
		if (w->batch.len >= BATCH_BYTES || w->br.nholes > 0 ||
		    w->batch_rows == UINT32_MAX)
			emit(w, t, ci);
	}
	/* Not MYSQL_DATA_TRUNCATED: nothing is bound. */
	if (rc != MYSQL_NO_DATA)
		stmt_die(w, t, no, st);
	mysql_stmt_close(st);
	return rows;
}

static void
dump_chunk(struct worker *w, struct table *t, size_t ci)
{
	uint64_t	 got;
	size_t		 no = ci + 1;

	if (ci == 0)
		write_table(w->s, t);
	batch_reset(w, t);
	if (t->mode == TM_KEYSET) {
		if (t->nkey > sizeof(w->last) / sizeof(w->last[0]))
			die(w->s, "%s.%s: key too wide", t->schema, t->name);
		build_query(w, t, ci, 0);
		for (;;) {
			got = read_rows(w, t, ci, no++);
			t->chunks[ci].rows += got;
			if (got < w->s->o->chunk_rows)
				break;
			build_query(w, t, ci, 1);
		}
	} else {
		build_query(w, t, ci, 0);
		t->chunks[ci].rows = read_rows(w, t, ci, no);
	}
	emit(w, t, ci);
	finish_chunk(w, t, ci);
}

static void *
worker_main(void *arg)
{
	struct worker	*w = arg;
	struct task	 tk;

	mysql_thread_init();
	for (;;) {
		pthread_mutex_lock(&queue_mu);
		if (next_task == ntasks) {
			pthread_mutex_unlock(&queue_mu);
			break;
		}
		tk = tasks[next_task++];
		pthread_mutex_unlock(&queue_mu);
		dump_chunk(w, tk.t, tk.ci);
	}
	mysql_thread_end();
	return NULL;
}

/*
 * Round robin over the tables, largest first: every table's chunk 0, then
 * every chunk 1, ...  Workers then mostly read different tables, each at
 * its write position, and little has to be spooled.
 */
static int
cmp_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->ci != y->ci)
		return x->ci < y->ci ? -1 : 1;
	if (x->t->bytes_est != y->t->bytes_est)
		return x->t->bytes_est > y->t->bytes_est ? -1 : 1;
	return x->t->id < y->t->id ? -1 : x->t->id > y->t->id;
}

void
run_workers(struct snap *s)
{
	struct worker	*w;
	size_t		 i, j, n = 0;
	uint64_t	 rows = 0, bytes = 0, ntab = 0;

	for (i = 0; i < s->ntables; i++)
		if (s->tables[i]->id != 0) {
			n += s->tables[i]->nchunks;
			rows += s->tables[i]->rows_est;
			bytes += s->tables[i]->bytes_est;
			ntab++;
		}
	tasks = xcalloc(n, sizeof(*tasks));
	for (i = 0; i < s->ntables; i++)
		for (j = 0; s->tables[i]->id != 0 &&
		    j < s->tables[i]->nchunks; j++) {
			tasks[ntasks].t = s->tables[i];
			tasks[ntasks++].ci = j;
		}
	qsort(tasks, ntasks, sizeof(*tasks), cmp_task);
	progress_total(s->prog, ntab, rows, bytes);

	/* (a spooled copy of a large value, Connector/C's packet buffer) */
	return_large_buffers();
	w = xcalloc(s->o->jobs, sizeof(*w));
	for (i = 0; i < s->o->jobs; i++) {
		binrow_install(s->conns[i]);
		netread_install(s->conns[i]);
	}
	for (i = 0; i < s->o->jobs; i++) {
		w[i].s = s;
		w[i].m = s->conns[i];
		if (pthread_create(&w[i].th, NULL, worker_main, &w[i]) != 0)
			die(s, "pthread_create: %s", strerror(errno));
	}
	for (i = 0; i < s->o->jobs; i++)
		pthread_join(w[i].th, NULL);
	for (i = 0; i < s->o->jobs; i++) {
		binrow_uninstall(s->conns[i]);
		netread_uninstall(s->conns[i]);
	}
	for (i = 0; i < s->o->jobs; i++) {
		buf_release(&w[i].batch);
		buf_release(&w[i].q);
		for (j = 0; j < sizeof(w[i].last) / sizeof(w[i].last[0]); j++)
			buf_release(&w[i].last[j]);
		free(w[i].br.cols);
		free(w[i].br.off);
		free(w[i].br.len);
	}
	free(w);
	free(tasks);
	while (npool > 0)
		buf_release(&pool[--npool]);
}
