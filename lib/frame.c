/*
 * frame: the rowpipe-stream(5) frame stream reader and writer; see
 * frame.h and man/man5/rowpipe-stream.5.  The payloads' encodings are in
 * payload.c.
 *
 * Checksums: the prelude and every frame header carry XXH32 of their first
 * 12 bytes (a frame's seeded with its sequence number, so a dropped,
 * repeated or reordered frame fails); a payload carries the low 32 bits of
 * its XXH3_64bits (lib/xxh: AVX2 where the CPU has it).  xxHash:
 * https://github.com/Cyan4973/xxHash.
 */
#include <sys/uio.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "frame.h"
#include "util.h"
#include "xxh.h"

#define READ_CHUNK	((size_t)1 << 20)

static uint32_t
hdr_check(const uint8_t *h, uint64_t seq)
{
	return XXH32(h, 12, (uint32_t)(seq ^ (seq >> 32)));
}

static uint32_t
payload_check(const void *p, size_t len)
{
	return (uint32_t)rp_xxh3(p, len);
}

static void
enc_totals(struct buf *b, const struct frame_totals *t)
{
	enc_varint(b, t->frames);
	enc_varint(b, t->rows);
	enc_varint(b, t->stmts);
	enc_varint(b, t->objects);
	enc_varint(b, t->bytes);
}

static int
dec_totals(const struct frame *f, struct frame_totals *t)
{
	struct dec	 d;

	dec_init(&d, f->p, f->len);
	t->frames = dec_varint(&d);
	t->rows = dec_varint(&d);
	t->stmts = dec_varint(&d);
	t->objects = dec_varint(&d);
	t->bytes = dec_varint(&d);
	return d.err ? -1 : 0;
}

/* Count a frame into totals, as both ends do. */
static void
count_frame(struct frame_totals *t, int type, const uint8_t *p, size_t len)
{
	struct dec	 d;

	t->frames++;
	switch (type) {
	case FT_ROWS:
		dec_init(&d, p, len);
		dec_varint(&d);
		if (!d.err && d.end - d.p >= 4)
			t->rows += le32_get(d.p);
		break;
	case FT_STMT:
		t->stmts++;
		break;
	case FT_OBJECT:
		t->objects++;
		break;
	}
}

/* The reader. */

struct frame_reader {
	int			 fd;
	int			 cancel_fd;	/* -1: none */
	size_t			 max_frame;
	uint8_t			*buf;
	size_t			 cap;
	size_t			 start;		/* first unconsumed byte */
	size_t			 end;		/* end of data read */
	uint64_t		 base;		/* stream offset of buf[0] */
	uint64_t		 seq;		/* next frame's sequence number */
	int			 eof;
	enum {
		RD_PRELUDE, RD_FRAMES, RD_DONE, RD_ERR
	}			 state;
	struct frame_totals	 totals;
	int			 abort;		/* FT_ABORT's reason, or 0 */
	char			 abort_msg[512];
	char			 errstr[256];
};

static enum frame_status
rd_fail(struct frame_reader *r, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum frame_status
rd_fail(struct frame_reader *r, int errnum, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(r->errstr, sizeof(r->errstr), fmt, ap);
	va_end(ap);
	r->state = RD_ERR;
	errno = errnum;
	return FRAME_ERR;
}

/* The failure of a read: "interrupted" for a cancel, else errno's text. */
static enum frame_status
rd_readerr(struct frame_reader *r)
{
	if (errno == ECANCELED)
		return rd_fail(r, ECANCELED, "interrupted at byte %" PRIu64,
		    r->base + r->end);
	return rd_fail(r, errno, "read: %s", strerror(errno));
}

struct frame_reader *
frame_reader_new(int fd, size_t max_frame)
{
	struct frame_reader	*r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	r->fd = fd;
	r->cancel_fd = -1;
	r->max_frame = max_frame ? max_frame : FRAME_MAX_DEFAULT;
	r->cap = READ_CHUNK;
	if ((r->buf = malloc(r->cap)) == NULL) {
		free(r);
		return NULL;
	}
	return r;
}

void
frame_reader_free(struct frame_reader *r)
{
	if (r == NULL)
		return;
	free(r->buf);
	free(r);
}

const char *
frame_reader_errstr(const struct frame_reader *r)
{
	return r->errstr[0] ? r->errstr : "no error";
}

const struct frame_totals *
frame_reader_totals(const struct frame_reader *r)
{
	return &r->totals;
}

uint64_t
frame_reader_offset(const struct frame_reader *r)
{
	return r->base + r->start;
}

void
frame_reader_set_cancel(struct frame_reader *r, int fd)
{
	r->cancel_fd = fd;
}

/*
 * read(2) from r->fd, retrying on EINTR; with a cancel fd, wait for either
 * and fail with ECANCELED once the cancel fd is readable.
 */
static ssize_t
rd_read(struct frame_reader *r, void *p, size_t n)
{
	struct pollfd	 pfd[2];
	ssize_t		 got;

	for (;;) {
		if (r->cancel_fd != -1) {
			pfd[0].fd = r->fd;
			pfd[0].events = POLLIN;
			pfd[1].fd = r->cancel_fd;
			pfd[1].events = POLLIN;
			if (poll(pfd, 2, -1) == -1) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			if (pfd[1].revents != 0) {
				errno = ECANCELED;
				return -1;
			}
		}
		if ((got = read(r->fd, p, n)) == -1 && errno == EINTR)
			continue;
		return got;
	}
}

/*
 * Make at least need bytes available from start, growing the buffer if
 * needed.  Returns 1 if they are, 0 at EOF before that, -1 on error.
 */
static int
rd_fill(struct frame_reader *r, size_t need)
{
	uint8_t	*p;
	size_t	 cap;
	ssize_t	 n;

	while (r->end - r->start < need) {
		if (r->eof)
			return 0;
		if (r->cap - r->start < need) {
			/* Slide down; grow if that is not enough. */
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->base += r->start;
			r->end -= r->start;
			r->start = 0;
			if (r->cap < need) {
				cap = need + READ_CHUNK;
				if ((p = realloc(r->buf, cap)) == NULL)
					return -1;
				r->buf = p;
				r->cap = cap;
			}
		}
		if ((n = rd_read(r, r->buf + r->end, r->cap - r->end)) == -1)
			return -1;
		if (n == 0)
			r->eof = 1;
		r->end += (size_t)n;
	}
	return 1;
}

int
frame_reader_take(struct frame_reader *r, void **p, size_t *cap)
{
	size_t	 left = r->end - r->start;
	size_t	 ncap = left > READ_CHUNK ? left : READ_CHUNK;
	uint8_t	*nb;

	if ((nb = malloc(ncap)) == NULL)
		return -1;
	memcpy(nb, r->buf + r->start, left);
	*p = r->buf;
	*cap = r->cap;
	r->buf = nb;
	r->cap = ncap;
	r->base += r->start;
	r->end = left;
	r->start = 0;
	return 0;
}

const char *
frame_sniff_magic(const void *vp, size_t n)
{
	const uint8_t	*p = vp;

	if (n >= FRAME_MAGIC_LEN && memcmp(p, FRAME_MAGIC,
	    FRAME_MAGIC_LEN) == 0)
		return "input is a rowpipe frame stream";
	if (n >= 4 && memcmp(p, "\x04\x22\x4d\x18", 4) == 0)
		return "input is LZ4-compressed (decompress it with lz -d)";
	if (n >= 4 && memcmp(p, "\x02\x21\x4c\x18", 4) == 0)
		return "input is legacy LZ4 (decompress it with lz -d)";
	if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return "input is zstd-compressed";
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return "input is gzip-compressed";
	if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return "input is xz-compressed";
	return NULL;
}

int
frame_verrf(char *buf, size_t size, const struct frame *f, const char *fmt,
    va_list ap)
{
	int	 n = 0;

	if (f != NULL)
		n = snprintf(buf, size, "frame %" PRIu64 " at offset %" PRIu64
		    ": ", f->seq, f->offset);
	if (n < 0 || (size_t)n >= size)
		n = 0;
	vsnprintf(buf + n, size - n, fmt, ap);
	return -1;
}

/* What input that is not a rowpipe stream looks like, for the error. */
static const char *
sniff(const uint8_t *p, size_t n)
{
	static const char *const sqlwords[] = {
		"--", "/*", "#", "CREATE", "INSERT", "SET", "DROP", "USE",
		"LOCK", "DELIMITER", "SELECT", "REPLACE", "ALTER", "START",
		"BEGIN", "UNLOCK", "COMMIT", NULL
	};
	const char	*what;
	size_t		 i, k, len;

	if ((what = frame_sniff_magic(p, n)) != NULL)
		return what;
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 && !isspace(p[i]))
			return "unrecognized binary data (bad magic)";
	/* Text: skip a BOM and blanks, then look for SQL. */
	i = n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	while (i < n && isspace(p[i]))
		i++;
	for (k = 0; sqlwords[k] != NULL; k++) {
		len = strlen(sqlwords[k]);
		if (n - i >= len && strncasecmp((const char *)p + i,
		    sqlwords[k], len) == 0)
			return "input looks like SQL text (split it with sqlsplit)";
	}
	/* rows2json's lines: {"type":"header",... */
	if (i < n && p[i] == '{') {
		for (i++; i < n && isspace(p[i]); i++)
			;
		if (i < n && p[i] == '"')
			return "input looks like JSON Lines (read rows2json "
			    "output back into a stream with json2rows)";
	}
	return "input looks like text";
}

static enum frame_status
rd_prelude(struct frame_reader *r)
{
	const uint8_t	*p;
	size_t		 have, i, same = 0;
	uint32_t	 version;
	int		 rc;

	if ((rc = rd_fill(r, FRAME_PRELUDE_LEN)) == -1)
		return rd_readerr(r);
	p = r->buf + r->start;
	have = r->end - r->start;
	if (rc == 0 && have == 0)
		return rd_fail(r, EINVAL, "empty input: not a rowpipe stream");
	for (i = 0; i < FRAME_MAGIC_LEN && i < have; i++)
		same += p[i] == (uint8_t)FRAME_MAGIC[i];
	if (rc == 0 && same == have && have < FRAME_MAGIC_LEN)
		return rd_fail(r, EINVAL, "truncated at byte %zu: in the "
		    "stream prelude", have);
	if (same < FRAME_MAGIC_LEN) {
		if (same >= FRAME_MAGIC_LEN - 2)
			return rd_fail(r, EINVAL, "corrupt: bad magic at byte 0");
		return rd_fail(r, EINVAL, "not a rowpipe stream: %s",
		    sniff(p, have < 64 ? have : 64));
	}
	if (rc == 0)
		return rd_fail(r, EINVAL, "truncated at byte %zu: in the "
		    "stream prelude", have);
	if (hdr_check(p, 0) != le32_get(p + 12))
		return rd_fail(r, EINVAL, "corrupt: stream prelude checksum "
		    "mismatch at byte 0");
	version = le32_get(p + 8);
	if (version != FRAME_VERSION)
		return rd_fail(r, EPROTO, "unsupported rowpipe stream version "
		    "%" PRIu32 " (this program reads version %d)", version,
		    FRAME_VERSION);
	r->start += FRAME_PRELUDE_LEN;
	r->state = RD_FRAMES;
	return FRAME_OK;
}

static int
known_type(int type)
{
	return type >= FT_HEADER && type <= FT_ABORT;
}

/* An FT_ABORT frame: the stream ends here, as the producer said. */
static enum frame_status
rd_abort(struct frame_reader *r, const struct frame *f)
{
	struct dec	 d;
	const char	*m;
	size_t		 n;

	dec_init(&d, f->p, f->len);
	r->abort = (int)dec_varint(&d);
	m = dec_str(&d, &n);
	if (d.err || r->abort == 0)
		return rd_fail(r, EINVAL, "corrupt: frame %" PRIu64 " at byte "
		    "%" PRIu64 ": malformed abort frame", f->seq + 1,
		    f->offset);
	snprintf(r->abort_msg, sizeof(r->abort_msg), "%s", m);
	return rd_fail(r, ECONNABORTED, "aborted by the producer: %s",
	    r->abort_msg);
}

const char *
frame_abort_phrase(int reason)
{
	switch (reason) {
	case FRAME_ABORT_DAMAGED:
		return "damaged";
	case FRAME_ABORT_DAMAGED_LATE:
		return "damaged (found late)";
	case FRAME_ABORT_CUT:
		return "cut";
	case FRAME_ABORT_NOSPLIT:
		return "cannot split";
	default:
		return "the dump failed when it was made; this is not a complete "
		    "backup; its bytes are not damaged";
	}
}

int
frame_abort_resumable(int reason)
{
	return reason == FRAME_ABORT_CUT;
}

int
frame_reader_aborted(const struct frame_reader *r, const char **msg)
{
	if (msg != NULL)
		*msg = r->abort_msg;
	return r->abort;
}

static enum frame_status
rd_trailer(struct frame_reader *r, const struct frame *f)
{
	struct frame_totals	 t;
	uint8_t			 extra;
	ssize_t			 n;

	if (dec_totals(f, &t) == -1)
		return rd_fail(r, EINVAL, "corrupt: malformed trailer at byte "
		    "%" PRIu64, f->offset);
	r->totals.bytes = f->offset;
	if (t.frames != r->totals.frames || t.rows != r->totals.rows ||
	    t.stmts != r->totals.stmts || t.objects != r->totals.objects ||
	    t.bytes != r->totals.bytes)
		return rd_fail(r, EINVAL, "corrupt: trailer at byte %" PRIu64
		    " does not match the stream (frames %" PRIu64 "/%" PRIu64
		    ", rows %" PRIu64 "/%" PRIu64 ")", f->offset,
		    t.frames, r->totals.frames, t.rows, r->totals.rows);
	/* Nothing may follow the trailer. */
	if (r->end == r->start && !r->eof) {
		if ((n = rd_read(r, &extra, 1)) == -1)
			return rd_readerr(r);
		r->end += (size_t)n;	/* counted only for the message */
		if (n == 0)
			r->eof = 1;
	}
	if (r->end > r->start)
		return rd_fail(r, EINVAL, "corrupt: data after the trailer at "
		    "byte %" PRIu64, r->base + r->start);
	r->state = RD_DONE;
	return FRAME_DONE;
}

enum frame_status
frame_read(struct frame_reader *r, struct frame *f)
{
	const uint8_t	*h;
	uint64_t	 off;
	uint32_t	 len;
	int		 rc;

	if (r->state == RD_PRELUDE && rd_prelude(r) == FRAME_ERR)
		return FRAME_ERR;
	for (;;) {
		if (r->state == RD_ERR)
			return FRAME_ERR;
		if (r->state == RD_DONE)
			return FRAME_DONE;
		off = r->base + r->start;
		if ((rc = rd_fill(r, FRAME_HDR_LEN)) == -1)
			return rd_readerr(r);
		if (rc == 0) {
			if (r->end == r->start)
				return rd_fail(r, EINVAL, "truncated at byte "
				    "%" PRIu64 ": the stream ends after frame "
				    "%" PRIu64 " without a trailer", off,
				    r->seq);
			return rd_fail(r, EINVAL, "truncated at byte %" PRIu64
			    ": in the header of frame %" PRIu64,
			    r->base + r->end, r->seq + 1);
		}
		h = r->buf + r->start;
		if (hdr_check(h, r->seq) != le32_get(h + 12))
			return rd_fail(r, EINVAL, "corrupt: frame %" PRIu64
			    " at byte %" PRIu64 ": header checksum mismatch",
			    r->seq + 1, off);
		len = le32_get(h);
		f->type = h[4];
		f->flags = h[5];
		if (h[6] != 0 || h[7] != 0)
			return rd_fail(r, EINVAL, "corrupt: frame %" PRIu64
			    " at byte %" PRIu64 ": reserved bits set",
			    r->seq + 1, off);
		if (len > r->max_frame)
			return rd_fail(r, EMSGSIZE, "corrupt: frame %" PRIu64
			    " at byte %" PRIu64 ": length %" PRIu32
			    " exceeds the limit of %zu", r->seq + 1, off,
			    len, r->max_frame);
		if ((rc = rd_fill(r, FRAME_HDR_LEN + (size_t)len)) == -1)
			return rd_readerr(r);
		if (rc == 0)
			return rd_fail(r, EINVAL, "truncated at byte %" PRIu64
			    ": in frame %" PRIu64 " (%" PRIu32 " bytes) that "
			    "starts at byte %" PRIu64, r->base + r->end,
			    r->seq + 1, len, off);
		h = r->buf + r->start;
		f->p = h + FRAME_HDR_LEN;
		f->len = len;
		f->seq = r->seq;
		f->offset = off;
		if (payload_check(f->p, len) != le32_get(h + 8))
			return rd_fail(r, EINVAL, "corrupt: frame %" PRIu64
			    " at byte %" PRIu64 ": payload checksum mismatch",
			    r->seq + 1, off);
		r->start += FRAME_HDR_LEN + (size_t)len;
		r->seq++;
		if ((f->seq == 0) != (f->type == FT_HEADER))
			return rd_fail(r, EINVAL, "corrupt: frame %" PRIu64
			    " at byte %" PRIu64 ": %s", f->seq + 1, off,
			    f->seq == 0 ? "the first frame is not a header" :
			    "a second stream header");
		if (f->type == FT_TRAILER)
			return rd_trailer(r, f);
		if (f->type == FT_ABORT)
			return rd_abort(r, f);
		count_frame(&r->totals, f->type, f->p, f->len);
		if (known_type(f->type))
			return FRAME_OK;
		if (!(f->flags & FRAME_F_OPTIONAL))
			return rd_fail(r, EPROTO, "frame %" PRIu64 " at byte "
			    "%" PRIu64 ": unknown required frame type %d "
			    "(written by a newer version?)", f->seq + 1, off,
			    f->type);
		/* An unknown optional frame: skip it. */
	}
}

/* The writer. */

struct frame_writer {
	int			 fd;
	struct buf		 out;
	size_t			 hdr_at;	/* header of the open frame */
	int			 open;		/* between begin and end */
	int			 closed;
	uint64_t		 seq;
	uint64_t		 written;	/* bytes written to fd */
	int			 err;		/* sticky errno */
	struct frame_totals	 totals;
	int			 held;		/* frame_writer_hold() */
	size_t			 hold_at;	/* out.len when it began */
	uint64_t		 hold_seq;
	struct frame_totals	 hold_totals;
	char			 errstr[128];
};

static int
wr_fail(struct frame_writer *w, int errnum, const char *what)
{
	if (!w->err) {
		w->err = errnum;
		snprintf(w->errstr, sizeof(w->errstr), "%s: %s", what,
		    strerror(errnum));
	}
	errno = w->err;
	return -1;
}

struct frame_writer *
frame_writer_new(int fd)
{
	struct frame_writer	*w;
	uint8_t			 pre[FRAME_PRELUDE_LEN];

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->fd = fd;
	memcpy(pre, FRAME_MAGIC, FRAME_MAGIC_LEN);
	le32_put(pre + 8, FRAME_VERSION);
	le32_put(pre + 12, hdr_check(pre, 0));
	if (buf_grow(&w->out, FRAME_FLUSH_AT + FRAME_HDR_LEN) == -1) {
		free(w);
		return NULL;
	}
	buf_put(&w->out, pre, sizeof(pre));
	return w;
}

void
frame_writer_free(struct frame_writer *w)
{
	if (w == NULL)
		return;
	buf_release(&w->out);
	free(w);
}

const char *
frame_writer_errstr(const struct frame_writer *w)
{
	return w->errstr[0] ? w->errstr : "no error";
}

const struct frame_totals *
frame_writer_totals(const struct frame_writer *w)
{
	return &w->totals;
}

struct buf *
frame_begin(struct frame_writer *w)
{
	if (w->open || w->closed)
		abort();	/* programmer error: frames do not nest */
	w->open = 1;
	w->hdr_at = w->out.len;
	if (buf_grow(&w->out, FRAME_HDR_LEN) == 0)
		w->out.len += FRAME_HDR_LEN;
	return &w->out;
}

int
frame_writer_flush(struct frame_writer *w)
{
	size_t	 n = w->held ? w->hold_at : w->out.len;

	if (w->err)
		return wr_fail(w, w->err, "");
	if (w->out.err)
		return wr_fail(w, w->out.err, "frame buffer");
	if (write_all(w->fd, w->out.p, n) == -1)
		return wr_fail(w, errno, "write");
	w->written += n;
	if (n < w->out.len) {
		/* what is held stays, at the front */
		memmove(w->out.p, w->out.p + n, w->out.len - n);
		w->out.len -= n;
		w->hold_at = 0;
		return 0;
	}
	/* Do not keep the memory of one huge frame around. */
	if (w->out.cap > 4 * FRAME_FLUSH_AT)
		buf_release(&w->out);
	else
		buf_reset(&w->out);
	return 0;
}

void
frame_cancel(struct frame_writer *w)
{
	if (!w->open)
		return;
	w->open = 0;
	w->out.len = w->hdr_at;
	if (w->out.p != NULL)
		w->out.p[w->out.len] = '\0';
}

void
frame_writer_hold(struct frame_writer *w)
{
	if (w->open)
		abort();	/* programmer error: inside a frame */
	w->held = 1;
	w->hold_at = w->out.len;
	w->hold_seq = w->seq;
	w->hold_totals = w->totals;
}

int
frame_writer_release(struct frame_writer *w)
{
	w->held = 0;
	if (w->err || w->out.err)
		return wr_fail(w, w->err ? w->err : w->out.err, "frame buffer");
	if (w->out.len >= FRAME_FLUSH_AT)
		return frame_writer_flush(w);
	return 0;
}

void
frame_writer_discard(struct frame_writer *w)
{
	if (!w->held || w->open)
		abort();	/* programmer error */
	w->out.len = w->hold_at;
	w->seq = w->hold_seq;
	w->totals = w->hold_totals;
	w->held = 0;
}

int
frame_writer_abort(struct frame_writer *w, int reason, const char *msg)
{
	struct buf	*b;

	if (w->closed)
		return w->err ? wr_fail(w, w->err, "") : 0;
	if (w->held)
		frame_writer_discard(w);
	if (w->seq == 0) {
		/* failed before its header: an empty one, then the abort */
		b = frame_begin(w);
		enc_kv(b, NULL, NULL, 0);
		if (frame_end(w, FT_HEADER, 0) == -1)
			return -1;
	}
	b = frame_begin(w);
	enc_varint(b, (uint64_t)reason);
	enc_cstr(b, msg);
	if (frame_end(w, FT_ABORT, 0) == -1)
		return -1;
	w->closed = 1;
	return frame_writer_flush(w);
}

/*
 * The header of the frame at w->hdr_at, whose payload (len bytes, of
 * checksum check) follows it in w->out or is to be written after it.
 */
static int
seal(struct frame_writer *w, int type, unsigned flags, size_t len,
    uint32_t check, const uint8_t *p)
{
	uint8_t	*h;

	if ((w->seq == 0) != (type == FT_HEADER))
		abort();	/* programmer error: header first, once */
	if (w->err || w->out.err)
		return wr_fail(w, w->err ? w->err : w->out.err, "frame buffer");
	if (len > UINT32_MAX) {
		w->out.len = w->hdr_at;
		return wr_fail(w, EMSGSIZE, "frame");
	}
	h = (uint8_t *)w->out.p + w->hdr_at;
	le32_put(h, (uint32_t)len);
	h[4] = (uint8_t)type;
	h[5] = (uint8_t)flags;
	h[6] = h[7] = 0;
	le32_put(h + 8, check);
	le32_put(h + 12, hdr_check(h, w->seq));
	w->seq++;
	if (type != FT_TRAILER)
		count_frame(&w->totals, type, p, len);
	return 0;
}

int
frame_end(struct frame_writer *w, int type, unsigned flags)
{
	const uint8_t	*p;
	size_t		 len;

	if (!w->open)
		abort();	/* programmer error */
	w->open = 0;
	len = w->out.len - w->hdr_at - FRAME_HDR_LEN;
	p = (const uint8_t *)w->out.p + w->hdr_at + FRAME_HDR_LEN;
	if (seal(w, type, flags, len, w->err || w->out.err ? 0 :
	    payload_check(p, len), p) == -1)
		return -1;
	if (w->out.len >= FRAME_FLUSH_AT && (!w->held || w->hold_at > 0))
		return frame_writer_flush(w);
	return 0;
}

/* writev(2) all of iov[0..n-1], retrying on EINTR and short writes. */
static int
writev_all(int fd, struct iovec *iov, int n)
{
	ssize_t	 r;

	while (n > 0) {
		if ((r = writev(fd, iov, n > IOV_MAX ? IOV_MAX : n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (; n > 0 && (size_t)r >= iov->iov_len; iov++, n--)
			r -= (ssize_t)iov->iov_len;
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return 0;
}

/*
 * A large payload goes out from where it is, after the frames buffered
 * before it and its header, in one writev(2): no copy into the buffer.
 */
static int
write_direct(struct frame_writer *w, int type, unsigned flags,
    const struct iovec *iov, int n, size_t len)
{
	struct iovec	 v[1 + FRAME_IOV_MAX];
	struct rp_xxh	*x;
	uint8_t		 first[32];
	size_t		 k = 0, m;
	uint32_t	 check;
	int		 i;

	if (n == 1)
		check = payload_check(iov[0].iov_base, len);
	else {
		if ((x = rp_xxh_new()) == NULL)
			return wr_fail(w, ENOMEM, "frame");
		for (i = 0; i < n; i++)
			rp_xxh_update(x, iov[i].iov_base, iov[i].iov_len);
		check = (uint32_t)rp_xxh_digest(x);
		rp_xxh_free(x);
	}
	/* What count_frame reads of it: its first bytes, together. */
	for (i = 0; i < n && k < sizeof(first); i++) {
		m = iov[i].iov_len < sizeof(first) - k ? iov[i].iov_len :
		    sizeof(first) - k;
		memcpy(first + k, iov[i].iov_base, m);
		k += m;
	}
	w->hdr_at = w->out.len;
	if (buf_grow(&w->out, FRAME_HDR_LEN) == 0)
		w->out.len += FRAME_HDR_LEN;
	if (seal(w, type, flags, len, check, first) == -1)
		return -1;
	v[0].iov_base = w->out.p;
	v[0].iov_len = w->out.len;
	memcpy(v + 1, iov, (size_t)n * sizeof(*iov));
	if (writev_all(w->fd, v, n + 1) == -1)
		return wr_fail(w, errno, "write");
	w->written += w->out.len + len;
	buf_reset(&w->out);
	return 0;
}

int
frame_writev(struct frame_writer *w, int type, unsigned flags,
    const struct iovec *iov, int n)
{
	struct buf	*b;
	size_t		 len = 0;
	int		 i;

	if (w->open || w->closed || n < 1 || n > FRAME_IOV_MAX)
		abort();	/* programmer error */
	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (len >= FRAME_DIRECT_AT && !w->held && !w->err && !w->out.err)
		return write_direct(w, type, flags, iov, n, len);
	b = frame_begin(w);
	for (i = 0; i < n; i++)
		buf_add(b, iov[i].iov_base, iov[i].iov_len);
	return frame_end(w, type, flags);
}

int
frame_write(struct frame_writer *w, int type, unsigned flags,
    const void *payload, size_t len)
{
	struct iovec	 v;

	v.iov_base = (void *)payload;
	v.iov_len = len;
	return frame_writev(w, type, flags, &v, 1);
}

int
frame_writer_close(struct frame_writer *w)
{
	struct buf	*b;

	if (w->closed)
		return w->err ? wr_fail(w, w->err, "") : 0;
	if (w->err)
		return -1;
	w->held = 0;		/* a complete stream: what is held goes too */
	w->totals.bytes = w->written + w->out.len;
	b = frame_begin(w);
	enc_totals(b, &w->totals);
	if (frame_end(w, FT_TRAILER, 0) == -1)
		return -1;
	w->closed = 1;
	return frame_writer_flush(w);
}
