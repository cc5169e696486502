/*
 * numfmt: integer, DOUBLE and FLOAT text (see numfmt.h).
 *
 * Shortest digits follow Schubfach (Raffaello Giulietti, "The Schubfach
 * way to render doubles", 2020, revised 2022; figures 7 and 9, sections
 * 8 and 9): with 10^k at most the value's binary spacing, scale v and the
 * ends of its rounding interval by 10^-k with a 126-bit g ~ 10^-k (one
 * product each, rounded to odd, so that comparisons with integers stay
 * exact), then the interval holds at most one multiple of 10^(k+1) and
 * at least one of 10^k: take the coarse one if there is one, else the
 * closer of floor(v / 10^k) and the next, an exact tie to even.  No digit
 * loop.  DOUBLE is the paper's algorithm as proven there.  FLOAT uses the
 * same steps on MariaDB's interval (numfmt_float_interval), whose ends
 * are finer than the float's spacing: the products keep 32 or more
 * fraction bits instead of two, and every one of the 2^32 floats is
 * checked against the reference by bench/floatcheck.
 */
#include <endian.h>
#include <math.h>
#include <string.h>

#include "numfmt.h"

#define G_EMIN		(-292)	/* g(e) ~ 10^e for -K_MAX <= e <= -K_MIN */
#define G_EMAX		324
#define M63		((((uint64_t)1) << 63) - 1)

/* g(e) = floor(10^e * 2^(125 - floor(log2(10^e)))) + 1 as [0] the low 63
 * bits, [1] the high 63 (section 9.8.3), for G_EMIN <= e <= G_EMAX:
 * computed once with multiword arithmetic and checked by tests/unit/numfmt.c
 * (which prints it again: NUMFMT_PRINT_G=1), not at each start (9M
 * instructions). */
static const uint64_t	 g_tab[G_EMAX - G_EMIN + 1][2] = {
#include "numfmt_g.inc"
};

/* floor(log10(2^q)), floor(log10(3/4 2^q)), |q| <= 1200; floor(log2(10^e)),
 * |e| <= 400 (checked exactly over these ranges). */
static inline int
flog10pow2(int q)
{
	return (int)(((int64_t)q * 661971961083) >> 41);
}

static inline int
flog10threequarterspow2(int q)
{
	return (int)(((int64_t)q * 661971961083 - 274743187321) >> 41);
}

static inline int
flog2pow10(int e)
{
	return (int)(((int64_t)e * 913124641741) >> 38);
}

static inline const uint64_t *
g_of(int e)
{
	return g_tab[e - G_EMIN];
}

/* cp g / 2^127 rounded to odd: its floor, or-ed with 1 if it has a
 * fraction (section 9.9, figure 8).  cp < 2^63. */
static inline uint64_t
rop(const uint64_t *g, uint64_t cp)
{
	unsigned __int128 x = (unsigned __int128)g[0] * cp;
	unsigned __int128 y = (unsigned __int128)g[1] * cp;
	uint64_t	 z = ((uint64_t)y >> 1) + (uint64_t)(x >> 64);

	return ((uint64_t)(y >> 64) + (z >> 63)) | (((z & M63) + M63) >> 63);
}

/* Drop d's trailing decimal zeros into its exponent. */
static inline void
strip_zeros(uint64_t m, int e, struct numfmt_dec *d)
{
	while (m % 100000000 == 0) {
		m /= 100000000;
		e += 8;
	}
	if (m % 10000 == 0) {
		m /= 10000;
		e += 4;
	}
	if (m % 100 == 0) {
		m /= 100;
		e += 2;
	}
	if (m % 10 == 0) {
		m /= 10;
		e++;
	}
	d->digits = m;
	d->exp10 = e;
}

/*
 * The digits: vb, vbl, vbr are v and its interval's ends times 10^-k,
 * with j fraction bits, rounded to odd; lo_out, hi_out say an end is
 * excluded; the digits count units of 10^k.  Figure 7 of the paper,
 * with j for its 2.
 */
static inline void
pick(uint64_t vb, uint64_t vbl, uint64_t vbr, int j, int lo_out,
    int hi_out, int k, struct numfmt_dec *d)
{
	uint64_t	 s = vb >> j, t, sp10, tp10;
	int		 uin, win;

	/*
	 * The paper skips this for s < 100: Java wants two digits.  We want
	 * the shortest (5e-324); sp10 = 0 is never inside (vbl > 0).
	 */
	sp10 = s / 10 * 10;
	tp10 = sp10 + 10;
	uin = vbl + (uint64_t)lo_out <= sp10 << j;
	win = (tp10 << j) + (uint64_t)hi_out <= vbr;
	if (uin != win) {
		strip_zeros(uin ? sp10 : tp10, k, d);
		return;
	}
	t = s + 1;
	uin = vbl + (uint64_t)lo_out <= s << j;
	win = (t << j) + (uint64_t)hi_out <= vbr;
	if (uin == win) {		/* both: the closer, a tie to even */
		uint64_t mid2 = (2 * s + 1) << (j - 1);

		win = vb > mid2 || (vb == mid2 && (s & 1) != 0);
	}
	strip_zeros(win ? t : s, k, d);
}

/*
 * c 2^q (c < 2^53 with its hidden bit), c != 0: section 8 and figure 9,
 * without the paper's tiny-value step (section 8.2.1: a second digit).
 */
static void
double_dec(uint64_t c, int q, int irregular, struct numfmt_dec *d)
{
	const uint64_t	*g;
	uint64_t	 cb = c << 2, cbl;
	int		 k, h, out = (int)(c & 1);

	if (!irregular) {
		cbl = cb - 2;
		k = flog10pow2(q);
	} else {
		cbl = cb - 1;
		k = flog10threequarterspow2(q);
	}
	h = q + flog2pow10(-k) + 2;
	g = g_of(-k);
	pick(rop(g, cb << h), rop(g, cbl << h), rop(g, (cb + 2) << h), 2,
	    out, out, k, d);
}

void
numfmt_double_digits(double v, struct numfmt_dec *d)
{
	uint64_t	 bits, t, c;
	int		 bq, mq;

	memcpy(&bits, &v, sizeof(bits));
	t = bits & (((uint64_t)1 << 52) - 1);
	bq = (int)((bits >> 52) & 0x7ff);
	if (bq != 0) {
		c = t | (uint64_t)1 << 52;
		mq = 1075 - bq;
		/* An integer below 2^53 is its own digits (section 8.3). */
		if (mq > 0 && mq < 53 && (c & (((uint64_t)1 << mq) - 1)) == 0) {
			strip_zeros(c >> mq, 0, d);
			return;
		}
		double_dec(c, -mq, t == 0 && bq > 1, d);
	} else if (t != 0) {
		double_dec(t, -1074, 0, d);
	} else {
		d->digits = 0;
		d->exp10 = 0;
	}
}

/*
 * A positive finite float as c 2^q and its binade 2^E; the interval's
 * integers are in units of 2^(E - 54), a quarter of the double spacing
 * at f: f is c << (55 - bits(c)), a double gap 4 units (2 just below
 * 2^E), the neighbours' midpoints half a float spacing away (a quarter
 * below a power of two above the subnormals).
 */
static inline void
float_interval(uint32_t fb, uint64_t *lo, uint64_t *mid, uint64_t *hi,
    int *e2, int *odd, int *clamp)
{
	uint32_t	 t = fb & 0x7fffff, bq = fb >> 23 & 0xff, c;
	uint64_t	 m, mlo, mhi;
	int		 q, sh;

	c = bq != 0 ? t | 0x800000 : t;
	q = bq != 0 ? (int)bq - 150 : -149;
	sh = 55 - (32 - __builtin_clz(c));	/* 31 for normal floats */
	*e2 = q - sh;
	*odd = (int)(c & 1);
	m = (uint64_t)c << sh;
	*mid = m;
	mhi = m + ((uint64_t)1 << (sh - 1));
	if (t == 0 && bq > 1)
		mlo = m - ((uint64_t)1 << (sh - 2));
	else
		mlo = m - ((uint64_t)1 << (sh - 1));
	/*
	 * An even float: the tie at each midpoint reads as f, and so does
	 * anything within half a double gap beyond it (ends included); an
	 * odd one: the midpoints read as the neighbours, and so does
	 * anything within half a gap inside (ends excluded).
	 */
	if (*odd) {
		*lo = mlo + (mlo < (uint64_t)1 << 54 ? 1 : 2);
		*hi = mhi - 2;
	} else {
		*lo = mlo - (mlo < (uint64_t)1 << 54 ? 1 : 2);
		*hi = mhi + 2;
	}
	*clamp = fb == 0x7f7fffff;	/* FLT_MAX: nothing above it */
	if (*clamp)
		*hi = m;
}

void
numfmt_float_interval(float f, uint64_t *lo, uint64_t *mid, uint64_t *hi,
    int *e2, int *lo_in, int *hi_in)
{
	uint32_t	 fb;
	int		 odd, clamp;

	memcpy(&fb, &f, sizeof(fb));
	float_interval(fb & 0x7fffffff, lo, mid, hi, e2, &odd, &clamp);
	*lo_in = !odd;
	*hi_in = !odd || clamp;
}

void
numfmt_float_digits(float f, struct numfmt_dec *d)
{
	const uint64_t	*g;
	uint64_t	 lo, mid, hi;
	uint32_t	 fb, t, bq, c;
	int		 e2, odd, clamp, k, j, mq;

	memcpy(&fb, &f, sizeof(fb));
	fb &= 0x7fffffff;
	t = fb & 0x7fffff;
	bq = fb >> 23;
	if (fb == 0) {
		d->digits = 0;
		d->exp10 = 0;
		return;
	}
	c = bq != 0 ? t | 0x800000 : t;
	mq = 150 - (int)bq;
	if (bq != 0 && mq > 0 && mq < 24 && (c & ((1u << mq) - 1)) == 0) {
		strip_zeros(c >> mq, 0, d);
		return;
	}
	if (t == 0 && bq > 1)
		k = flog10threequarterspow2((int)bq - 150);
	else
		k = flog10pow2(bq != 0 ? (int)bq - 150 : -149);
	float_interval(fb, &lo, &mid, &hi, &e2, &odd, &clamp);
	/* (x << 6) g / 2^127 = x 2^e2 10^-k 2^j: j fraction bits, 32-52. */
	j = 6 - flog2pow10(-k) - 2 - e2;
	g = g_of(-k);
	pick(rop(g, mid << 6), rop(g, lo << 6), rop(g, hi << 6), j, odd,
	    odd && !clamp, k, d);
}

const char numfmt_dig2[200] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";
#define dig2	numfmt_dig2

/*
 * Number of decimal digits of v: about log10 from the bit length (1233 /
 * 4096 ~ log10(2), never more than one too many), then one compare.
 */
static inline int
udigits(uint64_t v)
{
	static const uint64_t p10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull
	};
	int	 t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return t + 1 - ((v | 1) < p10[t]);
}

/*
 * The 8 decimal digits of w < 10^8, leading zeros included, as the bytes
 * of a little-endian word (first digit lowest), each digit's value, not
 * yet ASCII: split in two 4-digit halves (32-bit lanes), each half in two
 * 2-digit quarters (x * 5243 >> 19 is x / 100 for x < 43699), each
 * quarter in two digits (x * 103 >> 10 is x / 10 for x < 179), every
 * lane at once; no product overflows its lane.  Exact for every w below
 * 10^8 (tests/unit/numfmt.c checks them all).
 */
static inline uint64_t
swar8(uint32_t w)
{
	uint64_t	 x, h;

	x = (uint64_t)(w / 10000) | (uint64_t)(w % 10000) << 32;
	h = (x * 5243) >> 19 & 0x0000007f0000007fULL;
	x = h | (x - h * 100) << 16;
	h = (x * 103) >> 10 & 0x000f000f000f000fULL;
	return h | (x - h * 10) << 8;
}

#define ASCII0x8	0x3030303030303030ULL

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 digits of w < 10^8 ending at e. */
static inline void
put8(char *e, uint32_t w)
{
	uint64_t	 x = swar8(w) + ASCII0x8;

	memcpy(e - 8, &x, 8);
}
#else
static inline void
put8(char *e, uint32_t w)
{
	uint32_t	 a = w / 10000, b = w % 10000;

	memcpy(e - 2, dig2 + (b % 100) * 2, 2);
	memcpy(e - 4, dig2 + (b / 100) * 2, 2);
	memcpy(e - 6, dig2 + (a % 100) * 2, 2);
	memcpy(e - 8, dig2 + (a / 100) * 2, 2);
}
#endif

/* The m digits (1 to 8) of w < 10^m at o; 8 bytes are stored. */
static inline void
put_lead(char *o, uint32_t w, int m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t	 x = (swar8(w) + ASCII0x8) >> (8 * (8 - m));

	memcpy(o, &x, 8);
#else
	char		 t[8];

	put8(t + 8, w);
	memcpy(o, t + 8 - m, (size_t)m);
#endif
}

/*
 * The leading digits (all of them below 10^8, every id and small count)
 * in one word shifted past the leading zeros, then eight for each
 * 64-bit division; o has NUMFMT_MAX bytes (8 are stored at least).
 */
size_t
numfmt_u64(char *o, uint64_t v)
{
	int		 n = udigits(v);
	uint64_t	 q, r1, r2;

	if (v < 10) {
		*o = (char)('0' + v);
		return 1;
	}
	if (v < 100000000) {
		put_lead(o, (uint32_t)v, n);
		return (size_t)n;
	}
	q = v / 100000000;
	r1 = v - q * 100000000;
	if (q < 100000000) {
		put_lead(o, (uint32_t)q, n - 8);
		put8(o + n, (uint32_t)r1);
		return (size_t)n;
	}
	v = q / 100000000;
	r2 = q - v * 100000000;
	put_lead(o, (uint32_t)v, n - 16);
	put8(o + n - 8, (uint32_t)r2);
	put8(o + n, (uint32_t)r1);
	return (size_t)n;
}

size_t
numfmt_i64(char *o, int64_t v)
{
	if (v >= 0)
		return numfmt_u64(o, (uint64_t)v);
	*o = '-';
	return 1 + numfmt_u64(o + 1, -(uint64_t)v);
}

size_t
numfmt_u64_pad(char *o, uint64_t v, unsigned width)
{
	unsigned	 n = (unsigned)udigits(v);

	if (n >= width)
		return numfmt_u64(o, v);
	memset(o, '0', width - n);
	numfmt_u64(o + (width - n), v);
	return width;
}

static const char zeros16[16] = "0000000000000000";

/*
 * The n digits (n <= 17) of a numfmt_dec as words in registers: w0 the
 * m leading ones (1 to 8) in its low bytes, w1 and w2 eight more each
 * (0 where there are none), s8 and t8 digits 0-7 and 8-15.  The text is
 * stored from them and never read back: the digits stored as words and
 * copied on by 16-byte loads made each load wait for the stores to
 * retire (a load that spans several stores is not forwarded from them).
 */
struct dwords {
	uint64_t	 w0, w1, w2, s8, t8;
	int		 n, m;
};

static inline void
dwords_of(uint64_t v, struct dwords *s)
{
	uint64_t	 q, r;

	s->n = udigits(v);
	s->w1 = s->w2 = 0;
	if (v < 100000000) {
		s->m = s->n;
		s->w0 = (swar8((uint32_t)v) + ASCII0x8) >> (8 * (8 - s->n));
	} else {
		q = v / 100000000;
		r = v - q * 100000000;
		if (q < 100000000) {
			s->m = s->n - 8;
			s->w1 = swar8((uint32_t)r) + ASCII0x8;
		} else {
			s->m = 1;		/* 17 digits: v < 10^17 */
			s->w2 = swar8((uint32_t)r) + ASCII0x8;
			r = q % 100000000;
			q /= 100000000;
			s->w1 = swar8((uint32_t)r) + ASCII0x8;
		}
		s->w0 = (swar8((uint32_t)q) + ASCII0x8) >> (8 * (8 - s->m));
	}
	if (s->m == 8) {
		s->s8 = s->w0;
		s->t8 = s->w1;
	} else {
		s->s8 = s->w0 | s->w1 << (8 * s->m);
		s->t8 = s->w1 >> (8 * (8 - s->m)) | s->w2 << (8 * s->m);
	}
}

/*
 * x's bytes at a, its lowest first: the words below hold the first digit
 * lowest (a no-op conversion where the machine is little-endian).
 */
static inline void
st8(char *a, uint64_t x)
{
	x = htole64(x);
	memcpy(a, &x, 8);
}

/* The digits at a: three 8-byte stores, up to a + m + 16. */
static inline void
put_dwords(char *a, const struct dwords *s)
{
	st8(a, s->w0);
	st8(a + s->m, s->w1);
	st8(a + s->m + 8, s->w2);
}

/* x's 8 digits with a point after the first j (0 to 7), the rest on. */
static inline uint64_t
point8(uint64_t x, int j)
{
	uint64_t	 lo = ((uint64_t)1 << (8 * j)) - 1;

	return (x & lo) | (uint64_t)'.' << (8 * j) | (x << 8 & ~(lo << 8 | 0xff));
}

/* The digits at a with a point after the first j (1 <= j <= 16, j < n). */
static inline void
put_point(char *a, const struct dwords *s, int j)
{
	uint64_t	 x;

	put_dwords(a + 1, s);		/* the digits after the point */
	if (j < 8) {
		x = point8(s->s8, j);
		st8(a, x);
	} else if (j < 16) {
		st8(a, s->s8);
		x = point8(s->t8, j - 8);
		st8(a + 8, x);
	} else {
		st8(a, s->s8);
		st8(a + 8, s->t8);
		a[16] = '.';
	}
}

/*
 * Fixed-size stores (whole words, no library call) of the digits and of
 * runs of zeros; the bytes past the text they leave are scratch, within
 * NUMFMT_MAX.
 */
size_t
numfmt_layout(char *o, int negative, const struct numfmt_dec *d)
{
	struct dwords	 s;
	char		*p = o;
	int		 n, decpt, x;

	dwords_of(d->digits, &s);
	n = s.n;
	decpt = n + d->exp10;		/* v = 0.dig * 10^decpt */
	*p = '-';
	p += negative;
	if (decpt >= -14 && (decpt <= 15 || n > decpt)) {
		if (decpt <= 0) {
			memcpy(p, "0.", 2);
			memcpy(p + 2, zeros16, 16);
			p += 2 - decpt;
			put_dwords(p, &s);
			p += n;
		} else if (decpt < n) {
			put_point(p, &s, decpt);
			p += n + 1;
		} else {
			put_dwords(p, &s);
			memcpy(p + n, zeros16, 16);
			p += decpt;
		}
		return (size_t)(p - o);
	}
	if (n > 1) {
		put_point(p, &s, 1);
		p += n + 1;
	} else
		*p++ = (char)s.w0;
	*p++ = 'e';
	x = decpt - 1;
	if (x < 0) {
		*p++ = '-';
		x = -x;
	}
	if (x >= 100) {
		*p++ = (char)('0' + x / 100);
		x %= 100;
		numfmt_put2(p, (unsigned)x);
		p += 2;
	} else if (x >= 10) {
		numfmt_put2(p, (unsigned)x);
		p += 2;
	} else
		*p++ = (char)('0' + x);
	return (size_t)(p - o);
}

size_t
numfmt_double(char *o, double v)
{
	struct numfmt_dec d;

	if (!isfinite(v))
		return 0;
	numfmt_double_digits(v, &d);
	return numfmt_layout(o, signbit(v) != 0, &d);
}

size_t
numfmt_float(char *o, float f)
{
	struct numfmt_dec d;

	if (!isfinite(f))
		return 0;
	numfmt_float_digits(f, &d);
	return numfmt_layout(o, signbit(f) != 0, &d);
}
