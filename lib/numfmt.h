/*
 * numfmt: integers, FLOAT and DOUBLE as the canonical text rowpipe-stream(5)
 * carries, written into a caller's buffer without stdio or allocation.
 *
 * Integers: decimal, '-' for negatives, optionally left-padded with zeros
 * (ZEROFILL columns, YEAR).  DOUBLE: the shortest decimal that reads back
 * to the same double (round to nearest, ties to even), the closest such
 * one when several have as few digits.  FLOAT: the same, but read back
 * the way MariaDB reads a float literal: parsed as a double (correctly
 * rounded, my_strtod), then rounded to float, and never above FLT_MAX in
 * magnitude (Field_float::store clamps, an error in strict mode).  That
 * double rounding accepts and refuses a few decimals that strtof(3) would
 * not; see numfmt_float_interval().
 *
 * The digits come from Schubfach (Raffaello Giulietti, "The Schubfach
 * way to render doubles", 2020, revised 2022), the FLOAT interval's ends
 * carried at a finer scale; the 126-bit table of powers of ten is
 * computed once, exactly, on first use.  The layout
 * (fixed or exponent notation) is the server's: my_gcvt() of
 * strings/dtoa.c as used for the text protocol, e.g. 0.1, 1e15, 1e-15,
 * 123456789012345, 2.2250738585072014e-308, -0.
 */
#ifndef ROWPIPE_NUMFMT_H
#define ROWPIPE_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The room numfmt_* need at o: the text (at most 25 bytes for a DOUBLE,
 * 40 for a padded integer) and, for DOUBLE and FLOAT, scratch bytes past
 * it, overwritten.  No NUL is written.
 */
#define NUMFMT_MAX	48

/* "00" to "99": the two digits of v < 100 are numfmt_dig2[2v], [2v + 1]. */
extern const char numfmt_dig2[200];

static inline void
numfmt_put2(char *o, unsigned v)
{
	memcpy(o, numfmt_dig2 + 2 * v, 2);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NUMFMT_SWAR	1
/*
 * The two digits of each of a, b, c, d (each below 100) as the 8 ASCII
 * bytes of a little-endian word, a's first: all four at once in 16-bit
 * lanes, the tens as x * 103 >> 10 (x / 10 for x < 179; no lane's
 * product overflows into the next).
 */
static inline uint64_t
numfmt_dig2x4(unsigned a, unsigned b, unsigned c, unsigned d)
{
	uint64_t	 x, t;

	x = a | (uint64_t)b << 16 | (uint64_t)c << 32 | (uint64_t)d << 48;
	t = (x * 103) >> 10 & 0x000f000f000f000fULL;
	return (t | (x - t * 10) << 8) + 0x3030303030303030ULL;
}
#endif

/*
 * Decimal digits of v; returns the length.  o has NUMFMT_MAX bytes, of
 * which those past the text may be overwritten.
 */
size_t	 numfmt_u64(char *o, uint64_t v);
size_t	 numfmt_i64(char *o, int64_t v);
/* The same, left-padded with '0' to at least width (at most 32) bytes. */
size_t	 numfmt_u64_pad(char *o, uint64_t v, unsigned width);

/*
 * v as the shortest text strtod(3) and the server read back to v; returns
 * the length, or 0 if v is NaN or infinite (nothing written).  o has
 * NUMFMT_MAX bytes.
 */
size_t	 numfmt_double(char *o, double v);

/*
 * f as the shortest text MariaDB reads back to f (see above); returns the
 * length, or 0 if f is NaN or infinite.  o has NUMFMT_MAX bytes.
 */
size_t	 numfmt_float(char *o, float f);

/*
 * A decimal digits * 10^exp10, digits without trailing zeros (0 for zero).
 * The *_digits functions give numfmt_double/numfmt_float's digits for
 * |v|; v must be finite.
 */
struct numfmt_dec {
	uint64_t	 digits;
	int		 exp10;
};
void	 numfmt_double_digits(double v, struct numfmt_dec *);
void	 numfmt_float_digits(float f, struct numfmt_dec *);

/*
 * The reals MariaDB reads back to the positive finite float f, as
 * lo * 2^e2 .. hi * 2^e2 (lo < f * 2^-e2 < hi, all below 2^55), each end
 * included if *_in: the doubles that round to f, widened or narrowed by
 * half a double ulp at each end as ties to even decide, and capped at
 * FLT_MAX.  Exposed for the tests and bench/floatcheck.
 */
void	 numfmt_float_interval(float f, uint64_t *lo, uint64_t *mid,
	    uint64_t *hi, int *e2, int *lo_in, int *hi_in);

/*
 * digits * 10^exp10 in the server's layout (my_gcvt with a wide field):
 * fixed notation when the decimal point falls within 14 places left of
 * the first digit and 15 right of it, else d.ddde[-]x.  digits has at
 * most 17 decimal digits; o has NUMFMT_MAX bytes.  Returns the length.
 */
size_t	 numfmt_layout(char *o, int negative, const struct numfmt_dec *);

#endif
