/*
 * convert: the frame loop behind rows2sql(1): each frame of the stream
 * to its SQL text (see state.h for how the output is kept whole).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "state.h"

static int
do_frame(struct r2s *st, const struct frame *f)
{
	struct rp_object ob;

	switch (f->type) {
	case FT_HEADER:
		return do_header(st, f);
	case FT_OBJECT:
		if (dec_object(f, &ob) == -1)
			return fail(st, "corrupt object frame");
		return do_object(st, &ob);
	case FT_TABLE:
		return do_table(st, f);
	case FT_ROWS:
		return do_rows(st, f);
	case FT_TABLE_END:
		return do_table_end(st, f);
	case FT_STMT:
		return fail(st, "a statement stream (from sqlsplit), not rows "
		    "and objects (from dbsnap)");
	default:
		return fail(st, "unexpected frame type %d", f->type);
	}
}

static void
r2s_free(struct r2s *st)
{
	stbls_free(&st->tbls);
	objsql_free(st->objs);
	free(st->cur_db);
	buf_release(&st->out);
	rp_xxh_free(st->xxh);
	rp_xxh_free(st->seg);
}

int
rows2sql(int fd, int out_fd, const struct r2s_opts *o, const char **errmsg)
{
	static char	 msg[600];
	struct r2s	 st;
	struct frame_reader *fr;
	struct frame	 f;
	enum frame_status s;
	const char	*why;
	int		 r = -1, reason;

	memset(&st, 0, sizeof(st));
	st.tbls.release = tbl_release;
	st.o = o;
	st.out_fd = out_fd;
	st.limit = o->max_packet > R2S_PACKET_SLACK * 2 ?
	    o->max_packet - R2S_PACKET_SLACK : o->max_packet / 2;
	st.max_stmt = o->max_stmt < st.limit ? o->max_stmt : st.limit;
	if ((fr = frame_reader_new(fd, 0)) == NULL ||
	    (st.prog = progress_new("rows2sql", "tables", o->progress)) ==
	    NULL ||
	    (st.xxh = rp_xxh_new()) == NULL ||
	    (st.objs = objects_new(&st)) == NULL) {
		snprintf(msg, sizeof(msg), "%s", strerror(ENOMEM));
		goto out;
	}
	for (;;) {
		s = frame_read(fr, &f);
		if (s == FRAME_ERR) {
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    frame_reader_errstr(fr));
			break;
		}
		if (s == FRAME_DONE) {
			st.f = NULL;
			if (do_footer(&st) == 0 && (o->no_trailer ?
			    out_flush(&st) : do_trailer(&st)) == 0)
				r = 0;
			break;
		}
		st.f = &f;
		if (do_frame(&st, &f) == -1)
			break;
		if (f.type != FT_HEADER)
			st.content = 1;
	}
	if (r == -1 && !st.werr) {
		/*
		 * Keep only whole statements, then write them out; none if
		 * nothing came after the header (not a snapshot stream, or
		 * one cut at once): a session preamble alone is no dump.
		 */
		st.out.len = st.content ? st.committed : 0;
		st.out.err = 0;
		if (out_flush(&st) == -1 && st.errbuf[0] == '\0')
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    strerror(st.werr));
		/*
		 * The producer's abort goes on, into the text's end; so does
		 * rows2sql's own failure (its input is good): either way the
		 * text never reads as cut.
		 */
		if (!st.werr && (reason = frame_reader_aborted(fr, &why)) != 0)
			(void)abort_line(&st, reason, why);
		else if (!st.werr && s != FRAME_ERR && st.errbuf[0] != '\0') {
			snprintf(msg, sizeof(msg), "rows2sql: %s", st.errbuf);
			(void)abort_line(&st, FRAME_ABORT_FAILED, msg);
		}
	}
	if (st.werr && r == -1)
		snprintf(msg, sizeof(msg), "stdout: write: %s",
		    strerror(st.werr));
	else
		snprintf(msg, sizeof(msg), "%s", st.errbuf[0] ? st.errbuf :
		    "out of memory");
out:
	progress_end(st.prog, r == 0);
	frame_reader_free(fr);
	r2s_free(&st);
	*errmsg = msg;
	return r;
}
