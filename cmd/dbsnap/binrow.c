/*
 * binrow: the values of a binary-protocol result row as the canonical
 * text of rowpipe-stream(5), written straight into a worker's FT_ROWS batch.
 *
 * The row format is MariaDB's "Binary Protocol Result Set Row" (and
 * MySQL's COM_STMT_EXECUTE response): fixed-width little-endian integers,
 * FLOAT and DOUBLE; DATE/DATETIME/TIMESTAMP and TIME as a length byte and
 * packed fields; everything else as a length-encoded string of the bytes
 * the text protocol would send too (DECIMAL, strings, BLOB, BIT, ENUM,
 * SET, JSON, GEOMETRY, UUID and INET6 as text).  Connector/C hands each
 * value to binrow_value() (STMT_ATTR_CB_RESULT) without copying it into
 * bound buffers, and checks each value's length against what is left of
 * the packet as the callback moves on (2027, Malformed packet).
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
	for (i = 0; i < n; i++) {
		if ((k = field_kind(&f[i])) == -1) {
			br->err = "type not readable over the binary protocol";
			br->errcol = i;
			return -1;
		}
		br->cols[i].kind = (unsigned char)k;
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

/* A length-encoded integer; -1 for the NULL marker or a bad first byte. */
static inline int
lenenc(unsigned char **pp, uint64_t *v)
{
	unsigned char	*p = *pp;

	if (*p < 0xfb) {
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	switch (*p) {
	case 0xfc:
		*v = le(p + 1, 2);
		*pp = p + 3;
		return 0;
	case 0xfd:
		*v = le(p + 1, 3);
		*pp = p + 4;
		return 0;
	case 0xfe:
		*v = le(p + 1, 8);
		*pp = p + 9;
		return 0;
	}
	return -1;
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

/*
 * Room at the end of the batch for a value formatted in place: its
 * one-byte length prefix and the longest text (a ZEROFILL width below
 * DIRECT_PAD_MAX, NUMFMT_MAX, TIMEFMT_MAX).
 */
#define DIRECT_PAD_MAX	100
#define DIRECT_ROOM	(1 + DIRECT_PAD_MAX + TIMEFMT_MAX + NUMFMT_MAX)

/*
 * Where a number or temporal value is formatted: straight into the batch
 * after its one-byte val length (the text is shorter than 0x7f bytes)
 * rather than into t and copied; t serves wide ZEROFILL padding and a
 * batch that cannot grow (its error is sticky: enc_val keeps it).
 */
static inline char *
place(struct buf *b, const struct bincol *c, char *t, int *direct)
{
	*direct = c->pad < DIRECT_PAD_MAX &&
	    (b->cap - b->len > DIRECT_ROOM || buf_grow(b, DIRECT_ROOM) == 0);
	return *direct ? b->p + b->len + 1 : t;
}

void
binrow_value(void *arg, unsigned col, unsigned char **row)
{
	struct binrow	*br = arg;
	struct buf	*b = br->out;
	struct bincol	*c;
	unsigned char	*p;
	uint64_t	 len;
	char		*t = br->tmp, *o;
	size_t		 n;
	int		 direct;

	if (br->err != NULL || col >= br->ncols) {
		br->err = br->err ? br->err : "more columns than described";
		return;		/* the rest of the row is not read */
	}
	if (row == NULL) {
		br->off[col] = (size_t)-1;
		enc_val(b, NULL, 0);
		return;
	}
	c = &br->cols[col];
	p = *row;
	if (kind_width[c->kind] != 0) {
		len = le(p, kind_width[c->kind]);
		*row = p + kind_width[c->kind];
		o = place(b, c, t, &direct);
		n = c->kind >= BK_FLOAT ? fmt_real(o, c->kind, len) :
		    fmt_int(o, c->kind, len, c->pad);
		if (n == 0)
			goto bad;
		goto text;
	}
	if (lenenc(&p, &len) == -1)
		goto bad;
	*row = p + len;
	if (c->kind == BK_STR) {
		enc_val(b, p, (size_t)len);
		br->off[col] = b->len - (size_t)len;
		br->len[col] = (size_t)len;
		return;
	}
	o = place(b, c, t, &direct);
	if (c->kind == BK_TIME)
		n = fmt_time(o, p, (unsigned)len, c->dec);
	else
		n = fmt_datetime(o, c->kind, p, (unsigned)len, c->dec);
	if (n == 0)
		goto bad;
text:
	if (direct) {
		b->p[b->len] = (char)(n + 1);	/* the val's varint */
		br->off[col] = b->len + 1;
		br->len[col] = n;
		b->len += n + 1;
		b->p[b->len] = '\0';
		return;
	}
	enc_val(b, t, n);
	br->off[col] = b->len - n;
	br->len[col] = n;
	return;
bad:
	br->err = c->kind == BK_FLOAT || c->kind == BK_DOUBLE ?
	    "not a finite number" : "malformed value";
	br->errcol = col;
}
