/*
 * output: the converter's output buffer, statement ends and the USE that
 * every statement's database needs; see state.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "sqltrailer.h"
#include "util.h"
#include "state.h"

/* Write n bytes at p (whole text, hashed into the trailer's XXH3). */
static int
out_write(struct r2s *st, const void *p, size_t n)
{
	rp_xxh_update(st->xxh, p, n);
	if (write_all(st->out_fd, p, n) == -1) {
		st->werr = errno;
		return -1;
	}
	st->written += n;
	return 0;
}

/*
 * Write the whole statements at p as one segment and the checkpoint line
 * that checks it (lib/sqltrailer.h).  Every write is at the first
 * statement end at or past OUT_FLUSH_AT bytes into the buffer (or the
 * end), which is what the segments line promises.
 */
static int
out_segment(struct r2s *st, const char *p, size_t n)
{
	struct sqltrailer c;
	struct buf	 b = BUF_INIT;
	int		 rc;

	if (st->seg == NULL && (st->seg = rp_xxh_new()) == NULL) {
		st->werr = ENOMEM;
		return -1;
	}
	rp_xxh_update(st->seg, p, n);
	if (out_write(st, p, n) == -1)
		return -1;
	c.statements = st->stmts - st->seg_stmts;
	c.bytes = n;
	c.xxh3 = rp_xxh_digest(st->seg);
	rp_xxh_free(st->seg);
	st->seg = NULL;
	st->seg_stmts = st->stmts;
	sqltrailer_checkpoint_format(&b, &c);
	if (b.err) {
		st->werr = b.err;
		rc = -1;
	} else
		rc = out_write(st, b.p, b.len);
	buf_release(&b);
	return rc;
}

int
out_flush(struct r2s *st)
{
	if (st->out.len == 0 || st->werr)
		return st->werr ? -1 : 0;
	if (out_segment(st, st->out.p, st->out.len) == -1)
		return -1;
	progress_add(st->prog, 0, 0, st->out.len);
	st->out.len = 0;
	st->committed = 0;
	return 0;
}

/*
 * Write out the whole statements before the open INSERT and move that to
 * the front of the buffer.
 */
int
out_flush_committed(struct r2s *st)
{
	size_t	 c = st->committed, rest = st->out.len - c;

	if (c == 0 || st->werr)
		return st->werr ? -1 : 0;
	if (out_segment(st, st->out.p, c) == -1)
		return -1;
	progress_add(st->prog, 0, 0, c);
	memmove(st->out.p, st->out.p + c, rest);
	st->out.len = rest;
	st->out.p[rest] = '\0';
	st->committed = 0;
	if (st->open != NULL)
		st->stmt_start -= c;
	return 0;
}

/* A statement is complete in the buffer: terminate it. */
int
stmt_end(struct r2s *st, const char *delim)
{
	buf_adds(&st->out, delim);
	buf_addc(&st->out, '\n');
	st->stmts++;
	if (st->out.err)
		return fail(st, "%s", strerror(st->out.err));
	st->committed = st->out.len;
	if (st->out.len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

/* A whole statement given as text. */
int
stmt(struct r2s *st, const char *text)
{
	buf_adds(&st->out, text);
	return stmt_end(st, ";");
}

int
close_insert(struct r2s *st)
{
	struct tbl	*tb = st->open;

	if (tb == NULL)
		return 0;
	st->open = NULL;
	buf_add(&st->out, tb->suffix.p, tb->suffix.len);
	return stmt_end(st, ";");
}

int
use_db(struct r2s *st, const char *db)
{
	if (st->cur_db != NULL && strcmp(st->cur_db, db) == 0)
		return 0;
	free(st->cur_db);
	if ((st->cur_db = strdup(db)) == NULL)
		return fail(st, "%s", strerror(errno));
	buf_adds(&st->out, "USE ");
	quote_ident(&st->out, db, strlen(db));
	return stmt_end(st, ";");
}
