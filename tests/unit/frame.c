/*
 * Unit tests for lib/frame.c: the rowpipe-stream(5) stream, round trips and every
 * way a stream can be damaged.  cmocka, TAP output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

#include <sys/uio.h>

#include "frame.h"
#include "sqltok.h"
#include "sqltrailer.h"
#include "tmpfd.h"

/* A file holding bytes, positioned at 0; closed by the caller. */
static int
fd_with(const void *p, size_t n)
{
	int	 fd = tmpfd();

	if (n > 0)
		assert_int_equal(write(fd, p, n), (ssize_t)n);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* Read a whole file back into a malloc'd buffer. */
static uint8_t *
slurp(int fd, size_t *lenp)
{
	off_t	 n = lseek(fd, 0, SEEK_END);
	uint8_t	*p;

	assert_true(n >= 0);
	assert_non_null(p = malloc((size_t)n + 1));
	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	*lenp = (size_t)n;
	return p;
}

static void
write_header(struct frame_writer *w)
{
	const char	*k[] = { "producer", "server_version" };
	const char	*v[] = { "unit", "10.11" };

	enc_kv(frame_begin(w), k, v, 2);
	assert_int_equal(frame_end(w, FT_HEADER, 0), 0);
}

/* A small stream of every frame type; returns its bytes. */
static uint8_t *
sample_stream(size_t *lenp)
{
	struct frame_writer	*w;
	struct rp_column	 cols[2] = {
		{ "id", 3, COL_NOT_NULL | COL_PRIMARY | COL_NUMERIC, 63, 0, "int(11)" },
		{ "b`n", 252, COL_BINARY, 63, 0, "blob" },
	};
	struct rp_table		 t = { 7, "db", "t 1", 2, cols, { 0 }, NULL };
	struct rp_object	 o = { OBJ_TABLE, "db", "t 1", "CREATE TABLE x (a int)", 22, { 0 } };
	struct rp_stmt		 s = { 1, 3, 40, STK_INSERT, "db", "db", "t 1", "INSERT INTO x VALUES (1)", 24, 0, 0 };
	struct buf		*b;
	size_t			 at;
	int			 fd;
	uint8_t			*p;

	fd = fd_with(NULL, 0);
	assert_non_null(w = frame_writer_new(fd));
	write_header(w);
	o.attrs.n = 1;
	o.attrs.key[0] = "sql_mode";
	o.attrs.val[0] = "STRICT_ALL_TABLES";
	enc_object(frame_begin(w), &o);
	assert_int_equal(frame_end(w, FT_OBJECT, 0), 0);
	enc_table(frame_begin(w), &t);
	assert_int_equal(frame_end(w, FT_TABLE, 0), 0);
	b = frame_begin(w);
	enc_rows_begin(b, 7, 0);
	at = b->len;
	enc_val(b, "1", 1);
	enc_val(b, NULL, 0);
	enc_val(b, "2", 1);
	enc_val(b, "", 0);
	enc_rows_patch(b, at, 2);
	assert_int_equal(frame_end(w, FT_ROWS, 0), 0);
	enc_table_end(frame_begin(w), 7, 2);
	assert_int_equal(frame_end(w, FT_TABLE_END, 0), 0);
	enc_stmt(frame_begin(w), &s);
	assert_int_equal(frame_end(w, FT_STMT, 0), 0);
	assert_int_equal(frame_writer_close(w), 0);
	frame_writer_free(w);
	p = slurp(fd, lenp);
	close(fd);
	return p;
}

/* Read a whole stream from bytes; the final status and its reason. */
static enum frame_status
read_all(const uint8_t *p, size_t n, char *why, size_t whylen)
{
	struct frame_reader	*r;
	struct frame		 f;
	enum frame_status	 st;
	int			 fd;

	fd = fd_with(p, n);
	assert_non_null(r = frame_reader_new(fd, 0));
	while ((st = frame_read(r, &f)) == FRAME_OK)
		;
	snprintf(why, whylen, "%s", frame_reader_errstr(r));
	frame_reader_free(r);
	close(fd);
	return st;
}

static void
test_round_trip_all_types(void **state)
{
	struct frame_reader	*r;
	struct frame		 f;
	struct rp_object	 o;
	struct rp_table		*t = NULL;
	struct rp_rows		 rows;
	struct rp_val		 v[2];
	struct rp_stmt		 s;
	struct dec		 d;
	struct rp_kv		 kv;
	uint64_t		 id, n;
	uint8_t			*p;
	size_t			 len;
	int			 fd, seen = 0;

	p = sample_stream(&len);
	fd = fd_with(p, len);
	assert_non_null(r = frame_reader_new(fd, 0));
	while (frame_read(r, &f) == FRAME_OK) {
		seen |= 1 << f.type;
		switch (f.type) {
		case FT_HEADER:
			dec_init(&d, f.p, f.len);
			assert_int_equal(dec_kv(&d, &kv), 0);
			assert_string_equal(rp_kv_get(&kv, "producer"), "unit");
			assert_null(rp_kv_get(&kv, "nope"));
			break;
		case FT_OBJECT:
			assert_int_equal(dec_object(&f, &o), 0);
			assert_int_equal(o.kind, OBJ_TABLE);
			assert_string_equal(o.name, "t 1");
			assert_int_equal(o.ddl_len, 22);
			assert_string_equal(rp_kv_get(&o.attrs, "sql_mode"),
			    "STRICT_ALL_TABLES");
			break;
		case FT_TABLE:
			assert_non_null(t = dec_table(&f));
			assert_int_equal(t->id, 7);
			assert_int_equal(t->ncols, 2);
			assert_string_equal(t->cols[1].name, "b`n");
			assert_int_equal(t->cols[1].flags, COL_BINARY);
			assert_string_equal(t->cols[0].coltype, "int(11)");
			break;
		case FT_ROWS:
			assert_int_equal(dec_rows_begin(&f, &rows), 0);
			assert_int_equal(rows.nrows, 2);
			assert_int_equal(dec_rows_next(&rows, v, 2), 1);
			assert_memory_equal(v[0].p, "1", 1);
			assert_null(v[1].p);
			assert_int_equal(dec_rows_next(&rows, v, 2), 1);
			assert_non_null(v[1].p);
			assert_int_equal(v[1].len, 0);
			assert_int_equal(dec_rows_next(&rows, v, 2), 0);
			break;
		case FT_TABLE_END:
			assert_int_equal(dec_table_end(&f, &id, &n), 0);
			assert_int_equal(id, 7);
			assert_int_equal(n, 2);
			break;
		case FT_STMT:
			assert_int_equal(dec_stmt(&f, &s), 0);
			assert_int_equal(s.no, 1);
			assert_int_equal(s.line, 3);
			assert_int_equal(s.offset, 40);
			assert_int_equal(s.kind, STK_INSERT);
			assert_string_equal(s.table, "t 1");
			assert_int_equal(s.len, 24);
			break;
		}
	}
	assert_int_equal(frame_read(r, &f), FRAME_DONE);
	assert_int_equal(seen, 0x7e);
	assert_int_equal(frame_reader_totals(r)->rows, 2);
	assert_int_equal(frame_reader_totals(r)->stmts, 1);
	assert_int_equal(frame_reader_totals(r)->objects, 1);
	assert_int_equal(frame_reader_totals(r)->frames, 6);
	rp_table_free(t);
	frame_reader_free(r);
	close(fd);
	free(p);
}

/* Rows of every byte value, NULL vs empty, and one 64 MiB value. */
static void
test_values(void **state)
{
	struct frame_writer	*w;
	struct frame_reader	*r;
	struct frame		 f;
	struct rp_rows		 rows;
	struct rp_val		 v[3];
	struct buf		*b;
	size_t			 big = (size_t)64 << 20, i, nrows = 0;
	char			*blob, bytes[256];
	int			 fd;

	for (i = 0; i < 256; i++)
		bytes[i] = (char)i;
	assert_non_null(blob = malloc(big));
	for (i = 0; i < big; i++)
		blob[i] = (char)(i * 7 + (i >> 13));
	fd = fd_with(NULL, 0);
	assert_non_null(w = frame_writer_new(fd));
	write_header(w);
	b = frame_begin(w);
	enc_rows_begin(b, 1, 3);
	for (i = 0; i < 2; i++) {
		enc_val(b, bytes, 256);
		enc_val(b, i ? NULL : "", 0);
		enc_val(b, bytes + i, 1);
	}
	enc_val(b, blob, big);
	enc_val(b, NULL, 0);
	enc_val(b, "x", 1);
	assert_int_equal(frame_end(w, FT_ROWS, 0), 0);
	assert_int_equal(frame_writer_close(w), 0);
	frame_writer_free(w);

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(r = frame_reader_new(fd, 0));
	assert_int_equal(frame_read(r, &f), FRAME_OK);
	assert_int_equal(frame_read(r, &f), FRAME_OK);
	assert_int_equal(f.type, FT_ROWS);
	assert_int_equal(dec_rows_begin(&f, &rows), 0);
	while (dec_rows_next(&rows, v, 3) == 1) {
		if (nrows < 2) {
			assert_int_equal(v[0].len, 256);
			assert_memory_equal(v[0].p, bytes, 256);
			if (nrows == 0) {
				assert_non_null(v[1].p);
				assert_int_equal(v[1].len, 0);
			} else
				assert_null(v[1].p);
			assert_int_equal(v[2].p[0], (char)nrows);
		} else {
			assert_int_equal(v[0].len, big);
			assert_memory_equal(v[0].p, blob, big);
			assert_null(v[1].p);
		}
		nrows++;
	}
	assert_int_equal(nrows, 3);
	assert_int_equal(frame_read(r, &f), FRAME_DONE);
	frame_reader_free(r);
	close(fd);
	free(blob);
}

/* Every prefix of a valid stream is reported as truncated at its length. */
static void
test_every_cut(void **state)
{
	uint8_t		*p;
	size_t		 len, cut;
	char		 why[256], want[64];

	p = sample_stream(&len);
	assert_int_equal(read_all(p, len, why, sizeof(why)), FRAME_DONE);
	for (cut = 0; cut < len; cut++) {
		assert_int_equal(read_all(p, cut, why, sizeof(why)), FRAME_ERR);
		if (cut == 0) {
			assert_non_null(strstr(why, "empty input"));
			continue;
		}
		snprintf(want, sizeof(want), "truncated at byte %zu", cut);
		if (strstr(why, want) == NULL)
			fail_msg("cut at %zu: %s", cut, why);
	}
	free(p);
}

/* Every single-bit flip is reported as corrupt. */
static void
test_every_bit_flip(void **state)
{
	uint8_t		*p;
	size_t		 len, i;
	char		 why[256];
	int		 bit;

	p = sample_stream(&len);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			p[i] ^= 1 << bit;
			if (read_all(p, len, why, sizeof(why)) != FRAME_ERR ||
			    strstr(why, "corrupt") == NULL)
				fail_msg("flip byte %zu bit %d: %s", i, bit, why);
			p[i] ^= 1 << bit;
		}
	}
	free(p);
}

static void
test_wrong_input(void **state)
{
	static const uint8_t	 lz4[] = { 0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0, 0, 0x05, 0x5d, 0xcc, 0x02 };
	const char		*sql = "-- MariaDB dump 10.19\n/*!40101 SET NAMES utf8mb4 */;\n";
	const char		*ins = "INSERT INTO t VALUES (1);\n";
	char			 why[256];

	assert_int_equal(read_all((const uint8_t *)"", 0, why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "empty input"));
	assert_int_equal(read_all((const uint8_t *)sql, strlen(sql), why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "SQL text"));
	assert_int_equal(read_all((const uint8_t *)ins, strlen(ins), why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "SQL text"));
	assert_int_equal(read_all(lz4, sizeof(lz4), why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "LZ4"));
	assert_int_equal(read_all((const uint8_t *)"\x01\x02\x03\x04garbage!!", 12, why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "not a rowpipe stream"));
}

/* Unknown optional frames are skipped, unknown required ones are errors. */
static void
test_unknown_frames(void **state)
{
	struct frame_writer	*w;
	struct frame_reader	*r;
	struct frame		 f;
	int			 fd, required;

	for (required = 0; required < 2; required++) {
		fd = fd_with(NULL, 0);
		assert_non_null(w = frame_writer_new(fd));
		write_header(w);
		assert_int_equal(frame_write(w, 99, required ? 0 :
		    FRAME_F_OPTIONAL, "future", 6), 0);
		assert_int_equal(frame_writer_close(w), 0);
		frame_writer_free(w);
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
		assert_non_null(r = frame_reader_new(fd, 0));
		assert_int_equal(frame_read(r, &f), FRAME_OK);
		if (required) {
			assert_int_equal(frame_read(r, &f), FRAME_ERR);
			assert_non_null(strstr(frame_reader_errstr(r),
			    "unknown required frame type 99"));
		} else
			assert_int_equal(frame_read(r, &f), FRAME_DONE);
		frame_reader_free(r);
		close(fd);
	}
}

static void
test_trailing_garbage_and_limit(void **state)
{
	struct frame_reader	*r;
	struct frame		 f;
	enum frame_status	 st;
	uint8_t			*p;
	size_t			 len;
	char			 why[256];
	int			 fd;

	p = sample_stream(&len);
	p = realloc(p, len + 1);
	p[len] = 'x';
	assert_int_equal(read_all(p, len + 1, why, sizeof(why)), FRAME_ERR);
	assert_non_null(strstr(why, "after the trailer"));
	/* A frame longer than the reader's cap is refused before reading it. */
	fd = fd_with(p, len);
	assert_non_null(r = frame_reader_new(fd, 16));
	while ((st = frame_read(r, &f)) == FRAME_OK)
		;
	assert_int_equal(st, FRAME_ERR);
	assert_non_null(strstr(frame_reader_errstr(r), "exceeds the limit"));
	frame_reader_free(r);
	close(fd);
	free(p);
}

/* A closed pipe makes the writer fail, stickily. */
static void
test_writer_error(void **state)
{
	struct frame_writer	*w;
	int			 fds[2];

	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	assert_non_null(w = frame_writer_new(fds[1]));
	write_header(w);
	assert_int_equal(frame_writer_flush(w), -1);
	assert_int_equal(errno, EPIPE);
	assert_int_equal(frame_writer_close(w), -1);
	assert_non_null(strstr(frame_writer_errstr(w), "Broken pipe"));
	frame_writer_free(w);
	close(fds[1]);
}

/*
 * A reader waiting on a silent pipe stops, with "interrupted", once its
 * cancel fd is readable; the frames before are read as usual.
 */
static void
test_cancel(void **state)
{
	struct frame_reader	*r;
	struct frame		 f;
	uint8_t			*p;
	size_t			 n, hdr;
	int			 in[2], cancel[2];

	p = sample_stream(&n);
	/* the prelude and the header frame (length at bytes 16-19) */
	hdr = 32 + ((size_t)p[16] | (size_t)p[17] << 8 | (size_t)p[18] << 16);
	assert_true(hdr < n);
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(cancel), 0);
	assert_int_equal(write(in[1], p, hdr), (ssize_t)hdr);
	assert_non_null(r = frame_reader_new(in[0], 0));
	frame_reader_set_cancel(r, cancel[0]);
	assert_int_equal(frame_read(r, &f), FRAME_OK);
	assert_int_equal(f.type, FT_HEADER);
	assert_int_equal(write(cancel[1], "", 1), 1);
	assert_int_equal(frame_read(r, &f), FRAME_ERR);
	assert_int_equal(errno, ECANCELED);
	assert_non_null(strstr(frame_reader_errstr(r), "interrupted at byte"));
	frame_reader_free(r);
	close(in[0]);
	close(in[1]);
	close(cancel[0]);
	close(cancel[1]);
	free(p);
}

/*
 * Held frames: released ones reach the reader, discarded ones never do
 * (nor their sequence numbers), and an abort frame ends the stream with
 * its reason and message.
 */
static void
test_hold_abort(void **state)
{
	struct frame_writer	*w;
	struct frame_reader	*r;
	struct frame		 f;
	struct rp_stmt		 st = { 1, 1, 0, STK_OTHER, "", "", "", "A", 1, 0, 0 };
	const char		*msg;
	int			 fd, i, n = 0;

	fd = fd_with(NULL, 0);
	assert_non_null(w = frame_writer_new(fd));
	write_header(w);
	for (i = 0; i < 3; i++) {	/* 3 held, released */
		frame_writer_hold(w);
		enc_stmt(frame_begin(w), &st);
		assert_int_equal(frame_end(w, FT_STMT, 0), 0);
		assert_int_equal(frame_writer_release(w), 0);
	}
	frame_writer_hold(w);		/* 2 held, then the abort drops them */
	for (i = 0; i < 2; i++) {
		enc_stmt(frame_begin(w), &st);
		assert_int_equal(frame_end(w, FT_STMT, 0), 0);
	}
	assert_int_equal(frame_writer_abort(w, FRAME_ABORT_DAMAGED,
	    "unit: damaged input"), 0);
	frame_writer_free(w);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(r = frame_reader_new(fd, 0));
	while (frame_read(r, &f) == FRAME_OK)
		n += f.type == FT_STMT;
	assert_int_equal(n, 3);
	assert_int_equal(errno, ECONNABORTED);
	assert_int_equal(frame_reader_aborted(r, &msg), FRAME_ABORT_DAMAGED);
	assert_string_equal(msg, "unit: damaged input");
	assert_non_null(strstr(frame_reader_errstr(r),
	    "aborted by the producer: unit: damaged input"));
	frame_reader_free(r);
	close(fd);
}

/*
 * A producer that fails before its header: an empty header, then the
 * abort, read with its reason.  And the vocabulary: a phrase for each
 * reason, an unknown one read as "failed", a resume only after a cut.
 */
static void
test_abort_unstarted(void **state)
{
	struct frame_writer	*w;
	struct frame_reader	*r;
	struct frame		 f;
	const char		*msg;
	int			 fd;

	fd = fd_with(NULL, 0);
	assert_non_null(w = frame_writer_new(fd));
	assert_int_equal(frame_writer_abort(w, FRAME_ABORT_FAILED,
	    "unit: no server"), 0);
	frame_writer_free(w);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(r = frame_reader_new(fd, 0));
	assert_int_equal(frame_read(r, &f), FRAME_OK);
	assert_int_equal(f.type, FT_HEADER);
	assert_int_equal(frame_read(r, &f), FRAME_ERR);
	assert_int_equal(frame_reader_aborted(r, &msg), FRAME_ABORT_FAILED);
	assert_string_equal(msg, "unit: no server");
	frame_reader_free(r);
	close(fd);
	assert_string_equal(frame_abort_phrase(FRAME_ABORT_DAMAGED), "damaged");
	assert_string_equal(frame_abort_phrase(FRAME_ABORT_FAILED),
	    "the dump failed when it was made; this is not a complete backup; "
	    "its bytes are not damaged");
	assert_string_equal(frame_abort_phrase(99), frame_abort_phrase(
	    FRAME_ABORT_FAILED));
	assert_string_equal(frame_abort_phrase(FRAME_ABORT_CUT), "cut");
	assert_string_equal(frame_abort_phrase(FRAME_ABORT_NOSPLIT),
	    "cannot split");
	assert_true(frame_abort_resumable(FRAME_ABORT_CUT));
	assert_false(frame_abort_resumable(FRAME_ABORT_FAILED));
	assert_false(frame_abort_resumable(FRAME_ABORT_DAMAGED));
}

/* rows2sql's abort line: its xxh3 makes a changed byte a damaged line. */
static void
test_abort_line(void **state)
{
	struct buf	 b = BUF_INIT;
	const char	*m;
	size_t		 ml, i;

	sqltrailer_abort_format(&b, FRAME_ABORT_FAILED, "rows2sql: x", 11);
	assert_non_null(b.p);
	assert_int_equal(b.p[b.len - 1], '\n');
	assert_int_equal(sqltrailer_abort_parse(b.p, b.len - 1, &m, &ml),
	    FRAME_ABORT_FAILED);
	assert_int_equal(ml, 11);
	assert_memory_equal(m, "rows2sql: x", 11);
	for (i = SQLTRAILER_ABORT_LEN; i < b.len - 1; i++) {
		b.p[i] ^= 0x01;
		assert_int_equal(sqltrailer_abort_parse(b.p, b.len - 1, &m,
		    &ml), -1);
		b.p[i] ^= 0x01;
	}
	/* an older rows2sql's line: no xxh3, reasons 1 and 2 only */
	assert_int_equal(sqltrailer_abort_parse(SQLTRAILER_ABORT "2 old msg",
	    SQLTRAILER_ABORT_LEN + 9, &m, &ml), 2);
	assert_int_equal(sqltrailer_abort_parse(SQLTRAILER_ABORT "3 old msg",
	    SQLTRAILER_ABORT_LEN + 9, &m, &ml), -1);
	buf_release(&b);
}

static void
test_kinds(void **state)
{
	int	 k;

	for (k = 0; k < STK_KIND_MAX; k++)
		assert_int_equal(rp_stmt_kind_parse(rp_stmt_kind_name(k)), k);
	assert_int_equal(rp_stmt_kind_parse("nonsense"), -1);
	assert_null(rp_stmt_kind_name(STK_KIND_MAX));
}

/*
 * FT_STMT's lexer mode: written only when said, read back with said set;
 * a payload without it (an older producer's) reads as mode 0, said 0.
 */
static void
test_stmt_mode(void **state)
{
	struct rp_stmt	 s = { 7, 2, 9, STK_SET, "d", "", "", "SET x = 1", 9,
	    SQLTOK_NBE | SQLTOK_ANSIQ, 1 }, o;
	struct buf	 b = BUF_INIT;
	struct frame	 f;

	(void)state;
	enc_stmt(&b, &s);
	f.p = (const uint8_t *)b.p;
	f.len = b.len;
	assert_int_equal(dec_stmt(&f, &o), 0);
	assert_int_equal(o.mode, SQLTOK_NBE | SQLTOK_ANSIQ);
	assert_int_equal(o.said, 1);
	assert_string_equal(o.text, "SET x = 1");
	f.len = b.len - 1;		/* the mode's varint left off */
	assert_int_equal(dec_stmt(&f, &o), 0);
	assert_int_equal(o.mode, 0);
	assert_int_equal(o.said, 0);
	buf_reset(&b);
	s.said = 0;
	enc_stmt(&b, &s);
	assert_int_equal(b.len, f.len);
	buf_release(&b);
}

/*
 * frame_writev: the same bytes as frame_begin/buf_add/frame_end, for a
 * payload in pieces below FRAME_DIRECT_AT (buffered) and above it
 * (written from the pieces, after frames buffered before it), with empty
 * pieces, and the reader takes each frame back whole.
 */
static void
test_writev(void **state)
{
	static const size_t	 sizes[] = { 10, 1000, FRAME_DIRECT_AT - 1,
	    FRAME_DIRECT_AT, 3 * FRAME_DIRECT_AT + 7 };
	struct frame_writer	*w[2];
	struct frame_reader	*r;
	struct frame		 f;
	struct iovec		 v[4];
	uint8_t			*pay, *a, *b;
	size_t			 i, j, n, alen, blen;
	int			 fd[2], k;

	(void)state;
	n = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1];
	assert_non_null(pay = malloc(n));
	for (i = 0; i < n; i++)
		pay[i] = (uint8_t)(i * 131 + (i >> 9));
	for (k = 0; k < 2; k++) {
		fd[k] = fd_with(NULL, 0);
		assert_non_null(w[k] = frame_writer_new(fd[k]));
		write_header(w[k]);
	}
	for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
		n = sizes[j];
		buf_add(frame_begin(w[0]), pay, n);
		assert_int_equal(frame_end(w[0], FT_STMT, 0), 0);
		v[0].iov_base = pay;
		v[0].iov_len = n / 3;
		v[1].iov_base = pay;
		v[1].iov_len = 0;
		v[2].iov_base = pay + n / 3;
		v[2].iov_len = n / 2 - n / 3;
		v[3].iov_base = pay + n / 2;
		v[3].iov_len = n - n / 2;
		assert_int_equal(frame_writev(w[1], FT_STMT, 0, v, 4), 0);
		/* A small frame buffered between them. */
		for (k = 0; k < 2; k++)
			assert_int_equal(frame_write(w[k], FT_STMT, 0, "x", 1), 0);
	}
	for (k = 0; k < 2; k++) {
		assert_int_equal(frame_writer_close(w[k]), 0);
		frame_writer_free(w[k]);
	}
	a = slurp(fd[0], &alen);
	b = slurp(fd[1], &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	assert_int_equal(lseek(fd[1], 0, SEEK_SET), 0);
	assert_non_null(r = frame_reader_new(fd[1], 0));
	assert_int_equal(frame_read(r, &f), FRAME_OK);	/* header */
	for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
		assert_int_equal(frame_read(r, &f), FRAME_OK);
		assert_int_equal(f.len, sizes[j]);
		assert_memory_equal(f.p, pay, sizes[j]);
		assert_int_equal(frame_read(r, &f), FRAME_OK);
		assert_int_equal(f.len, 1);
	}
	assert_int_equal(frame_read(r, &f), FRAME_DONE);
	frame_reader_free(r);
	free(a);
	free(b);
	free(pay);
	close(fd[0]);
	close(fd[1]);
}

/*
 * frame_reader_take(): a frame taken stays as it was while the reader
 * reads on (what it had read past the frame kept), and the stream still
 * ends with its trailer's totals checked.
 */
static void
test_take(void **state)
{
	static const size_t	 sizes[] = { 3 << 20, 10, 5 << 20, 1 };
	struct frame_writer	*w;
	struct frame_reader	*r;
	struct frame		 f;
	const uint8_t		*view[4];
	uint8_t			*pay;
	void			*own[4];
	size_t			 i, j, n = 5 << 20, cap;
	int			 fd;

	(void)state;
	assert_non_null(pay = malloc(n));
	for (i = 0; i < n; i++)
		pay[i] = (uint8_t)(i * 131 + (i >> 9));
	fd = fd_with(NULL, 0);
	assert_non_null(w = frame_writer_new(fd));
	write_header(w);
	for (j = 0; j < 4; j++) {
		assert_int_equal(frame_write(w, FT_STMT, 0, pay, sizes[j]), 0);
		assert_int_equal(frame_write(w, FT_STMT, 0, "x", 1), 0);
	}
	assert_int_equal(frame_writer_close(w), 0);
	frame_writer_free(w);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(r = frame_reader_new(fd, 0));
	assert_int_equal(frame_read(r, &f), FRAME_OK);	/* header */
	for (j = 0; j < 4; j++) {
		assert_int_equal(frame_read(r, &f), FRAME_OK);
		assert_int_equal(f.len, sizes[j]);
		assert_int_equal(frame_reader_take(r, &own[j], &cap), 0);
		assert_true(f.p >= (uint8_t *)own[j] &&
		    f.p + f.len <= (uint8_t *)own[j] + cap);
		view[j] = f.p;
		assert_int_equal(frame_read(r, &f), FRAME_OK);
		assert_int_equal(f.len, 1);
		assert_int_equal(*f.p, 'x');
	}
	assert_int_equal(frame_read(r, &f), FRAME_DONE);
	for (j = 0; j < 4; j++) {
		assert_memory_equal(view[j], pay, sizes[j]);
		free(own[j]);
	}
	frame_reader_free(r);
	free(pay);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_all_types),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_every_bit_flip),
		cmocka_unit_test(test_wrong_input),
		cmocka_unit_test(test_unknown_frames),
		cmocka_unit_test(test_trailing_garbage_and_limit),
		cmocka_unit_test(test_writer_error),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_hold_abort),
		cmocka_unit_test(test_abort_unstarted),
		cmocka_unit_test(test_abort_line),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_stmt_mode),
		cmocka_unit_test(test_writev),
		cmocka_unit_test(test_take),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
