/*
 * binrow: the values of a binary-protocol result row as the canonical
 * text of rowpipe-stream(5), written straight into a worker's FT_ROWS batch.
 *
 * The row format is MariaDB's "Binary Protocol Result Set Row" (and
 * MySQL's COM_STMT_EXECUTE response): fixed-width little-endian integers,
 * FLOAT and DOUBLE; DATE/DATETIME/TIMESTAMP and TIME as a length byte and
 * packed fields; everything else as a length-encoded string of the bytes
 * the text protocol would send too (DECIMAL, strings, BLOB, BIT, ENUM,
 * SET, JSON, GEOMETRY, UUID and INET6 as text).  mysql_stmt_fetch()
 * reads each row packet and hands it whole to row_decode() (in place of
 * Connector/C's own decoding into bound buffers, or its per-column
 * callback, which cost about 1000 instructions a row of 15 columns).
 */
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "dbsnap.h"
#include "numfmt.h"
#include "timefmt.h"

enum {
	BK_STR, BK_I8, BK_U8, BK_I16, BK_U16, BK_I32, BK_U32, BK_I64, BK_U64,
	BK_FLOAT, BK_DOUBLE, BK_DATE, BK_DATETIME, BK_TIME
};

/* Width of fixed-size kinds on the wire, 0 for length-prefixed ones. */
static const unsigned char kind_width[BK_TIME + 1] = {
	[BK_I8] = 1, [BK_U8] = 1, [BK_I16] = 2, [BK_U16] = 2, [BK_I32] = 4,
	[BK_U32] = 4, [BK_I64] = 8, [BK_U64] = 8, [BK_FLOAT] = 4,
	[BK_DOUBLE] = 8
};

static int
int_kind(unsigned type, int uns)
{
	switch (type) {
	case MYSQL_TYPE_TINY:
		return uns ? BK_U8 : BK_I8;
	case MYSQL_TYPE_SHORT:
	case MYSQL_TYPE_YEAR:
		return uns ? BK_U16 : BK_I16;
	case MYSQL_TYPE_LONG:
	case MYSQL_TYPE_INT24:
		return uns ? BK_U32 : BK_I32;
	case MYSQL_TYPE_LONGLONG:
		return uns ? BK_U64 : BK_I64;
	}
	return -1;
}

static int
field_kind(const MYSQL_FIELD *f)
{
	switch (f->type) {
	case MYSQL_TYPE_FLOAT:
		return BK_FLOAT;
	case MYSQL_TYPE_DOUBLE:
		return BK_DOUBLE;
	case MYSQL_TYPE_DATE:
	case MYSQL_TYPE_NEWDATE:
		return BK_DATE;
	case MYSQL_TYPE_DATETIME:
	case MYSQL_TYPE_TIMESTAMP:
		return BK_DATETIME;
	case MYSQL_TYPE_TIME:
		return BK_TIME;
	case MYSQL_TYPE_DECIMAL:
	case MYSQL_TYPE_NEWDECIMAL:
	case MYSQL_TYPE_NULL:
	case MYSQL_TYPE_VARCHAR:
	case MYSQL_TYPE_BIT:
	case MYSQL_TYPE_JSON:
	case MYSQL_TYPE_ENUM:
	case MYSQL_TYPE_SET:
	case MYSQL_TYPE_TINY_BLOB:
	case MYSQL_TYPE_MEDIUM_BLOB:
	case MYSQL_TYPE_LONG_BLOB:
	case MYSQL_TYPE_BLOB:
	case MYSQL_TYPE_VAR_STRING:
	case MYSQL_TYPE_STRING:
	case MYSQL_TYPE_GEOMETRY:
		return BK_STR;
	default:
		return int_kind(f->type, (f->flags & UNSIGNED_FLAG) != 0);
	}
}

/* Room a fixed-width or temporal value's text takes: varint, pad, text. */
#define TEXT_ROOM	(2 + 255 + TIMEFMT_MAX + NUMFMT_MAX)
/* A string up to this long is copied into the room the row reserved. */
#define STR_ROOM	256

int
binrow_setup(struct binrow *br, const MYSQL_FIELD *f, unsigned n)
{
	unsigned	 i;
	int		 k;

	if (n > br->cap) {
		free(br->cols);
		free(br->off);
		free(br->len);
		br->cols = xcalloc(n, sizeof(*br->cols));
		br->off = xcalloc(n, sizeof(*br->off));
		br->len = xcalloc(n, sizeof(*br->len));
		br->cap = n;
	}
	br->ncols = n;
	br->err = NULL;
	br->room = 1;
	for (i = 0; i < n; i++) {
		if ((k = field_kind(&f[i])) == -1) {
			br->err = "type not readable over the binary protocol";
			br->errcol = i;
			return -1;
		}
		br->cols[i].kind = (unsigned char)k;
		/* A string's varint, a short one and its copy's overshoot. */
		br->room += k == BK_STR ? 10 + STR_ROOM + 16 : TEXT_ROOM;
		br->cols[i].dec = (unsigned char)(f[i].decimals > 6 ? 6 :
		    f[i].decimals);
		/* ZEROFILL (and YEAR): padded to the display width. */
		br->cols[i].pad = (f[i].flags & ZEROFILL_FLAG) &&
		    k != BK_FLOAT && k != BK_DOUBLE ?
		    (unsigned short)(f[i].length > 255 ? 255 : f[i].length) : 0;
	}
	return 0;
}

/* An n-byte little-endian unsigned integer, n <= 8. */
static inline uint64_t
le(const unsigned char *p, unsigned n)
{
	uint64_t	 v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, n);
#else
	while (n-- > 0)
		v = v << 8 | p[n];
#endif
	return v;
}

/*
 * The same for n of 1, 2, 3, 4 or 8 known only at run time: one load of
 * each width.  le() with a variable n copies piece by piece into v, and
 * the 8-byte load of v that follows cannot be forwarded from the smaller
 * stores: it waited for them to retire, a third of row_decode's time.
 */
static inline uint64_t
le_n(const unsigned char *p, unsigned n)
{
	switch (n) {
	case 1:
		return p[0];
	case 2:
		return le(p, 2);
	case 3:
		return le(p, 2) | (uint64_t)p[2] << 16;
	case 4:
		return le(p, 4);
	default:
		return le(p, 8);
	}
}

static size_t
fmt_int(char *o, int kind, uint64_t u, unsigned pad)
{
	int64_t	 s;

	switch (kind) {
	case BK_I8:
		s = (int8_t)u;
		break;
	case BK_I16:
		s = (int16_t)u;
		break;
	case BK_I32:
		s = (int32_t)u;
		break;
	case BK_I64:
		s = (int64_t)u;
		break;
	default:
		return pad ? numfmt_u64_pad(o, u, pad) : numfmt_u64(o, u);
	}
	return numfmt_i64(o, s);
}

/* DATE, DATETIME, TIMESTAMP: length 0, 4, 7 or 11, then the fields. */
static size_t
fmt_datetime(char *o, int kind, const unsigned char *p, unsigned len,
    unsigned dec)
{
	unsigned	 y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
	uint32_t	 us = 0;

	if (len != 0 && len != 4 && len != 7 && len != 11)
		return 0;
	if (len >= 4) {
		y = (unsigned)le(p, 2);
		mo = p[2];
		d = p[3];
	}
	if (len >= 7) {
		h = p[4];
		mi = p[5];
		s = p[6];
	}
	if (len == 11)
		us = (uint32_t)le(p + 7, 4);
	if (kind == BK_DATE)
		return timefmt_date(o, y, mo, d);
	return timefmt_datetime(o, y, mo, d, h, mi, s, us, dec);
}

/* TIME: length 0, 8 or 12: sign, days, hours, minutes, seconds, us. */
static size_t
fmt_time(char *o, const unsigned char *p, unsigned len, unsigned dec)
{
	uint64_t	 hours = 0;
	unsigned	 mi = 0, s = 0;
	uint32_t	 us = 0;
	int		 neg = 0;

	if (len != 0 && len != 8 && len != 12)
		return 0;
	if (len >= 8) {
		neg = p[0] != 0;
		hours = le(p + 1, 4) * 24 + p[5];
		mi = p[6];
		s = p[7];
	}
	if (len == 12)
		us = (uint32_t)le(p + 8, 4);
	return timefmt_time(o, neg, hours, mi, s, us, dec);
}

static size_t
fmt_real(char *o, int kind, uint64_t u)
{
	uint32_t	 u32 = (uint32_t)u;
	float		 f;
	double		 d;

	if (kind == BK_FLOAT) {
		memcpy(&f, &u32, sizeof(f));
		return numfmt_float(o, f);
	}
	memcpy(&d, &u, sizeof(d));
	return numfmt_double(o, d);
}

/* A val field's length varint (the text's length + 1) at o. */
static inline char *
put_len(char *o, uint64_t len)
{
	uint64_t	 v = len + 1;

	while (v >= 0x80) {
		*o++ = (char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (char)v;
	return o;
}

/* The text of a number or temporal value (n bytes in t) after its length. */
static inline char *
put_text(char *o, const char *t, size_t n)
{
	o = put_len(o, n);
	memcpy(o, t, n);
	return o + n;
}

static int
row_bad(struct binrow *br, unsigned col, const char *why)
{
	br->err = why;
	br->errcol = col;
	return 0;
}

/*
 * One binary-protocol row packet (row, len bytes: the 0x00 header, the
 * NULL bitmap with its 2-bit offset, the values) appended to br->out as
 * the val fields of rowpipe-stream(5).  The batch grows once per row, by
 * each column's longest text (a string's up to STR_ROOM), so that each
 * value is written in place without a check of room; only a longer
 * string checks.  A string of BINROW_HOLE_MIN bytes or more stays in
 * the packet (a hole of the batch, see struct binrow).  Every value's
 * length is checked against what is left of the packet, and the values
 * must end where the packet does.
 */
static int
row_decode(struct binrow *br, const unsigned char *row, size_t len)
{
	struct buf	*b = br->out;
	const unsigned char *p, *end = row + len, *nul = row + 1;
	const struct bincol *c;
	uint64_t	 u;
	unsigned	 i, n = br->ncols, w;
	size_t		 t;
	char		*o, *o0;

	if (len < 1 + (size_t)(n + 9) / 8 || row[0] != 0)
		return row_bad(br, 0, "malformed row");
	p = row + 1 + (n + 9) / 8;
	if (b->err || (b->cap - b->len <= br->room &&
	    buf_grow(b, br->room + 1) == -1))
		return row_bad(br, 0, "out of memory");
	o0 = b->p;
	o = o0 + b->len;
	for (i = 0; i < n; i++) {
		c = &br->cols[i];
		if (nul[(i + 2) >> 3] & (1u << ((i + 2) & 7))) {
			br->off[i] = (size_t)-1;
			*o++ = 0;
			continue;
		}
		if ((w = kind_width[c->kind]) != 0) {
			if ((size_t)(end - p) < w)
				return row_bad(br, i, "malformed value");
			u = le_n(p, w);
			p += w;
			if (c->pad >= 0x7e) {
				t = numfmt_u64_pad(br->tmp, u, c->pad);
				o = put_text(o, br->tmp, t);
				br->off[i] = (size_t)(o - o0) - t;
				br->len[i] = t;
				continue;
			}
			t = c->kind >= BK_FLOAT ? fmt_real(o + 1, c->kind, u) :
			    fmt_int(o + 1, c->kind, u, c->pad);
			if (t == 0)
				return row_bad(br, i, "not a finite number");
		} else {
			if (p >= end)
				return row_bad(br, i, "malformed value");
			if (*p < 0xfb)
				u = *p++;
			else {
				w = *p == 0xfc ? 2 : *p == 0xfd ? 3 :
				    *p == 0xfe ? 8 : 0;
				if (w == 0 || (size_t)(end - p) <= w)
					return row_bad(br, i, "malformed value");
				u = le_n(p + 1, w);
				p += 1 + w;
			}
			if ((uint64_t)(end - p) < u)
				return row_bad(br, i, "malformed value");
			if (c->kind == BK_STR) {
				if (u < 0x7f)
					*o++ = (char)(u + 1);
				else
					o = put_len(o, u);
				if (u >= BINROW_HOLE_MIN &&
				    br->nholes < BINROW_HOLES) {
					/* Left where it is: see binrow.hole. */
					br->hole[br->nholes].at = (size_t)(o - o0);
					br->hole[br->nholes].p = p;
					br->hole[br->nholes++].len = (size_t)u;
					br->hole_bytes += (size_t)u;
					br->off[i] = (size_t)-2;
					br->len[i] = (size_t)u;
					p += u;
					continue;
				}
				if (u > STR_ROOM && (size_t)(o0 + b->cap - o) <=
				    u + br->room) {
					b->len = (size_t)(o - o0);
					if (buf_grow(b, u + br->room) == -1)
						return row_bad(br, i, "out of memory");
					o0 = b->p;
					o = o0 + b->len;
				}
				/* A short value: one fixed-size copy. */
				if (u <= 16 && end - p >= 16)
					memcpy(o, p, 16);
				else
					memcpy(o, p, (size_t)u);
				br->off[i] = (size_t)(o - o0);
				br->len[i] = (size_t)u;
				o += u;
				p += u;
				continue;
			}
			t = c->kind == BK_TIME ?
			    fmt_time(o + 1, p, (unsigned)u, c->dec) :
			    fmt_datetime(o + 1, c->kind, p, (unsigned)u, c->dec);
			p += u;
			if (t == 0)
				return row_bad(br, i, "malformed value");
		}
		*o = (char)(t + 1);	/* the val's varint: t < 0x7f */
		br->off[i] = (size_t)(o - o0) + 1;
		br->len[i] = t;
		o += t + 1;
	}
	if (p != end)
		return row_bad(br, n - 1, "malformed row");
	b->len = (size_t)(o - o0);
	*o = '\0';
	return 0;
}

/*
 * Connector/C's methods of every connection, but for the decoding of a
 * binary-protocol row of a statement whose user_data is a binrow (set by
 * binrow_attach): st_mariadb_methods is mysql.h's table that "can be
 * overwritten by db plugins".  The row is the packet as read
 * (mysql_stmt_fetch() reads it and keeps the statement's state).
 */
static struct st_mariadb_methods binrow_methods;
static const struct st_mariadb_methods *orig_methods;

static int
fetch_to_bind(MYSQL_STMT *st, unsigned char *row, unsigned long len)
{
	struct binrow	*br = st->user_data;

	if (br == NULL || br->magic != &binrow_methods)
		return orig_methods->db_stmt_fetch_to_bind(st, row, len);
	br->err = NULL;
	(void)row_decode(br, row, len);
	return 0;
}

void
binrow_install(MYSQL *m)
{
	if (orig_methods == NULL) {
		orig_methods = m->methods;
		binrow_methods = *m->methods;
		binrow_methods.db_stmt_fetch_to_bind = fetch_to_bind;
	}
	if (m->methods == orig_methods)
		m->methods = &binrow_methods;
}

void
binrow_uninstall(MYSQL *m)
{
	if (m->methods == &binrow_methods)
		m->methods = orig_methods;
}

int
binrow_attach(MYSQL_STMT *st, struct binrow *br)
{
	br->magic = &binrow_methods;
	return mysql_stmt_attr_set(st, STMT_ATTR_CB_USER_DATA, br) == 0 ? 0 : -1;
}
