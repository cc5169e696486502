/*
 * numfmt: integer, DOUBLE and FLOAT text (see numfmt.h).
 *
 * Shortest digits follow Ryu (Adams, PLDI 2018, section 3): scale the
 * value v and the ends of its rounding interval, all integers times 2^e2,
 * by 2^e2 / 10^q with 128-bit approximations of 5^q and 5^-q (exact for
 * inputs below 2^55, the paper's bound), then drop decimal digits while
 * the interval still holds a multiple of ten, keeping what is needed to
 * round v correctly and to know whether an end is itself a candidate.
 * Unlike Ryu's d2s the ends are arbitrary (the FLOAT interval of MariaDB
 * is not strtof's), and the exactness tests are plain divisibility checks.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "numfmt.h"

#define POW5_BITS	125	/* bits kept of 5^i and of 2^k / 5^q */
#define POW5_N		326	/* 5^0 .. 5^325: e2 < 0 down to -1076 */
#define POW5_INV_N	292	/* q = 0 .. 291: e2 >= 0 up to 969 */

/* [i][0] low, [i][1] high 64 bits. */
static uint64_t		 pow5_tab[POW5_N][2];	  /* top bits of 5^i */
static uint64_t		 pow5_inv_tab[POW5_INV_N][2]; /* 2^k / 5^q, rounded up */
static pthread_once_t	 tab_once = PTHREAD_ONCE_INIT;
/* Set (release) once the tables are filled: most calls only load it. */
static int		 tab_ready;

/* 5^0 .. 5^27, exact (5^27 < 2^63). */
static uint64_t		 pow5_small[28];

/* A little-endian multiword integer, enough for 5^325 (755 bits). */
struct big {
	uint32_t	 w[26];
	int		 n;
};

static void
big_mul5(struct big *b)
{
	uint64_t	 c = 0;
	int		 i;

	for (i = 0; i < b->n; i++) {
		c += (uint64_t)b->w[i] * 5;
		b->w[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c != 0)
		b->w[b->n++] = (uint32_t)c;
}

static int
big_bits(const struct big *b)
{
	return (b->n - 1) * 32 + (32 - __builtin_clz(b->w[b->n - 1]));
}

static int
big_bit(const struct big *b, int i)
{
	return i / 32 < b->n ? (b->w[i / 32] >> (i % 32)) & 1 : 0;
}

/* b's bits [from, from + 125) as a 128-bit integer. */
static unsigned __int128
big_slice(const struct big *b, int from)
{
	unsigned __int128 v = 0;
	int		 i;

	for (i = POW5_BITS - 1; i >= 0; i--)
		v = v << 1 | (unsigned)(from + i >= 0 ? big_bit(b, from + i) : 0);
	return v;
}

static int
big_cmp(const struct big *a, const struct big *b)
{
	int	 i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static void
big_shl1(struct big *b)
{
	uint32_t	 c = 0, t;
	int		 i;

	for (i = 0; i < b->n; i++) {
		t = b->w[i] >> 31;
		b->w[i] = b->w[i] << 1 | c;
		c = t;
	}
	if (c != 0)
		b->w[b->n++] = c;
}

static void
big_sub(struct big *a, const struct big *b)
{
	int64_t	 c = 0;
	int	 i;

	for (i = 0; i < a->n; i++) {
		c += (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0);
		a->w[i] = (uint32_t)c;
		c = c < 0 ? -1 : 0;
	}
	while (a->n > 1 && a->w[a->n - 1] == 0)
		a->n--;
}

/* floor(2^(bits(p) - 1 + 125) / p) + 1, for p = 5^q. */
static unsigned __int128
big_inv(const struct big *p)
{
	struct big	 r;
	unsigned __int128 q = 0;
	int		 i, bits = big_bits(p);

	if (bits == 1)			/* p = 1 */
		return ((unsigned __int128)1 << POW5_BITS) + 1;
	memset(&r, 0, sizeof(r));
	r.w[(bits - 1) / 32] = 1u << ((bits - 1) % 32);
	r.n = (bits - 1) / 32 + 1;	/* 2^(bits - 1) < p */
	for (i = 0; i < POW5_BITS; i++) {
		big_shl1(&r);
		q <<= 1;
		if (big_cmp(&r, p) >= 0) {
			big_sub(&r, p);
			q |= 1;
		}
	}
	return q + 1;
}

static void
tab_init(void)
{
	struct big	 p;
	unsigned __int128 v;
	int		 i, bits;

	memset(&p, 0, sizeof(p));
	p.w[0] = 1;
	p.n = 1;
	for (i = 0; i < POW5_N; i++) {
		if (i < 28)
			pow5_small[i] = (uint64_t)p.w[0] |
			    (p.n > 1 ? (uint64_t)p.w[1] << 32 : 0);
		bits = big_bits(&p);
		v = big_slice(&p, bits - POW5_BITS);
		pow5_tab[i][0] = (uint64_t)v;
		pow5_tab[i][1] = (uint64_t)(v >> 64);
		if (i < POW5_INV_N) {
			v = big_inv(&p);
			pow5_inv_tab[i][0] = (uint64_t)v;
			pow5_inv_tab[i][1] = (uint64_t)(v >> 64);
		}
		big_mul5(&p);
	}
	__atomic_store_n(&tab_ready, 1, __ATOMIC_RELEASE);
}

/* ceil(log2(5^e)) for 1 <= e <= 3528, 1 for e = 0 (Ryu, section 3.1). */
static inline int
pow5bits(int e)
{
	return (int)(((uint32_t)e * 1217359) >> 19) + 1;
}

/* floor(log10(2^e)), 0 <= e <= 1650. */
static inline int
log10pow2(int e)
{
	return (int)(((uint32_t)e * 78913) >> 18);
}

/* floor(log10(5^e)), 0 <= e <= 2620. */
static inline int
log10pow5(int e)
{
	return (int)(((uint32_t)e * 732923) >> 20);
}

/* floor(m * mul / 2^j), 64 < j < 192. */
static inline uint64_t
mulshift(uint64_t m, const uint64_t *mul, int j)
{
	unsigned __int128 b0 = (unsigned __int128)m * mul[0];
	unsigned __int128 b2 = (unsigned __int128)m * mul[1];

	return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}

/* x * 5^... / 2^q is an integer: 2^q divides x. */
static inline int
pow2_divides(uint64_t x, int q)
{
	return q < 64 && (x & (((uint64_t)1 << q) - 1)) == 0;
}

static inline int
pow5_divides(uint64_t x, int q)
{
	return q < 28 && x % pow5_small[q] == 0;
}

/*
 * The shortest decimal in the interval mm .. mp (times 2^e2; ends
 * included if lo_in, hi_in), the closest to mv among those, ties to an
 * even last digit.  0 < mm < mv < mp < 2^55 (mp == mv is allowed for an
 * included upper end).
 */
static void
shortest(uint64_t mv, uint64_t mp, uint64_t mm, int e2, int lo_in,
    int hi_in, struct numfmt_dec *d)
{
	uint64_t	 vr, vp, vm, out;
	int		 q, i, k, e10, last = 0, vm_tz = 0, vr_tz = 0;

	if (!__atomic_load_n(&tab_ready, __ATOMIC_ACQUIRE))
		pthread_once(&tab_once, tab_init);
	if (e2 >= 0) {
		/* v / 10^q = mv * 2^(e2 - q) / 5^q; one digit more (e2 > 3). */
		q = log10pow2(e2) - (e2 > 3);
		e10 = q;
		k = POW5_BITS + pow5bits(q) - 1;
		vr = mulshift(mv, pow5_inv_tab[q], -e2 + q + k);
		vp = mulshift(mp, pow5_inv_tab[q], -e2 + q + k);
		vm = mulshift(mm, pow5_inv_tab[q], -e2 + q + k);
		vr_tz = pow5_divides(mv, q);
		vm_tz = lo_in && pow5_divides(mm, q);
		if (!hi_in && pow5_divides(mp, q))
			vp--;
	} else {
		/* v / 10^(q + e2) = mv * 5^i / 2^q, i = -e2 - q. */
		q = log10pow5(-e2) - (-e2 > 1);
		i = -e2 - q;
		e10 = q + e2;
		k = pow5bits(i) - POW5_BITS;
		vr = mulshift(mv, pow5_tab[i], q - k);
		vp = mulshift(mp, pow5_tab[i], q - k);
		vm = mulshift(mm, pow5_tab[i], q - k);
		vr_tz = pow2_divides(mv, q);
		vm_tz = lo_in && pow2_divides(mm, q);
		if (!hi_in && pow2_divides(mp, q))
			vp--;
	}
	/*
	 * Drop digits while a multiple of ten lies in (vm, vp]; eight, four
	 * and two at a time first (the same steps, taken together: if a
	 * multiple of 10^k lies there, so does one of every 10^j, j < k).
	 */
	while (vp / 100000000 > vm / 100000000) {
		vm_tz &= vm % 100000000 == 0;
		vr_tz &= last == 0 && vr % 10000000 == 0;
		last = (int)(vr % 100000000 / 10000000);
		vr /= 100000000;
		vp /= 100000000;
		vm /= 100000000;
		e10 += 8;
	}
	while (vp / 10000 > vm / 10000) {
		vm_tz &= vm % 10000 == 0;
		vr_tz &= last == 0 && vr % 1000 == 0;
		last = (int)(vr % 10000 / 1000);
		vr /= 10000;
		vp /= 10000;
		vm /= 10000;
		e10 += 4;
	}
	while (vp / 100 > vm / 100) {
		vm_tz &= vm % 100 == 0;
		vr_tz &= last == 0 && vr % 10 == 0;
		last = (int)(vr % 100 / 10);
		vr /= 100;
		vp /= 100;
		vm /= 100;
		e10 += 2;
	}
	while (vp / 10 > vm / 10) {
		vm_tz &= vm % 10 == 0;
		vr_tz &= last == 0;
		last = (int)(vr % 10);
		vr /= 10;
		vp /= 10;
		vm /= 10;
		e10++;
	}
	/* An included lower end that is itself round: it is a candidate. */
	if (vm_tz)
		while (vm != 0 && vm % 10 == 0) {
			vr_tz &= last == 0;
			last = (int)(vr % 10);
			vr /= 10;
			vp /= 10;
			vm /= 10;
			e10++;
		}
	if (vr_tz && last == 5 && vr % 2 == 0)
		last = 4;		/* exactly half: to even */
	out = vr + ((vr == vm && !vm_tz) || last >= 5);
	if (out > vp)
		out = vp;		/* an upper end at v itself (FLT_MAX) */
	while (out != 0 && out % 10 == 0) {
		out /= 10;
		e10++;
	}
	d->digits = out;
	d->exp10 = e10;
}

void
numfmt_double_digits(double v, struct numfmt_dec *d)
{
	uint64_t	 bits, m, m2;
	int		 e, e2, even, mmshift;

	memcpy(&bits, &v, sizeof(bits));
	m = bits & (((uint64_t)1 << 52) - 1);
	e = (int)((bits >> 52) & 0x7ff);
	if (e == 0 && m == 0) {
		d->digits = 0;
		d->exp10 = 0;
		return;
	}
	if (e == 0) {
		m2 = m;
		e2 = 1 - 1075;
	} else {
		m2 = m | (uint64_t)1 << 52;
		e2 = e - 1075;
	}
	even = (m2 & 1) == 0;
	/* The lower gap is half as wide just above a power of two. */
	mmshift = m != 0 || e <= 1;
	shortest(4 * m2, 4 * m2 + 2, 4 * m2 - 1 - (uint64_t)mmshift, e2 - 2,
	    even, even, d);
}

/* The next float or double away from zero (up) or toward it, for v > 0. */
static float
fstep(float v, int up)
{
	uint32_t	 b;

	memcpy(&b, &v, sizeof(b));
	b = up ? b + 1 : b - 1;
	memcpy(&v, &b, sizeof(v));
	return v;
}

static double
dstep(double v, int up)
{
	uint64_t	 b;

	memcpy(&b, &v, sizeof(b));
	b = up ? b + 1 : b - 1;
	memcpy(&v, &b, sizeof(v));
	return v;
}

/* A positive normal double as M * 2^E, M 53 bits with the leading one. */
static void
dsplit(double v, uint64_t *m, int *e)
{
	uint64_t	 bits;

	memcpy(&bits, &v, sizeof(bits));
	*m = (bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52;
	*e = (int)((bits >> 52) & 0x7ff) - 1075;
}

void
numfmt_float_interval(float f, uint64_t *lo, uint64_t *mid, uint64_t *hi,
    int *e2, int *lo_in, int *hi_in)
{
	uint32_t	 fb;
	uint64_t	 mlo, mf, mhi;
	double		 fd = f, dlo, dhi, h;
	float		 up = fstep(f, 1), dn = fstep(f, 0);
	int		 even, elo, ef, ehi, u, clamp = 0;

	memcpy(&fb, &f, sizeof(fb));
	even = (fb & 1) == 0;
	/* The least and greatest doubles that round to f (ties to even). */
	h = (fd + (double)dn) / 2;
	dlo = even ? h : dstep(h, 1);
	if (isinf(up)) {
		dhi = fd;		/* above FLT_MAX the server clamps */
		clamp = 1;
	} else {
		h = (fd + (double)up) / 2;
		dhi = even ? h : dstep(h, 0);
	}
	dsplit(dlo, &mlo, &elo);
	dsplit(fd, &mf, &ef);
	dsplit(dhi, &mhi, &ehi);
	/* One unit: half the gap below dlo, the finest of the three. */
	u = elo - 1 - (mlo == (uint64_t)1 << 52);
	*e2 = u;
	*lo = (mlo << (elo - u)) - 1;
	*lo_in = (mlo & 1) == 0;
	*mid = mf << (ef - u);
	if (clamp) {
		*hi = mhi << (ehi - u);
		*hi_in = 1;
	} else {
		*hi = ((mhi << 1) + 1) << (ehi - 1 - u);
		*hi_in = (mhi & 1) == 0;
	}
}

void
numfmt_float_digits(float f, struct numfmt_dec *d)
{
	uint64_t	 lo, mid, hi;
	int		 e2, lo_in, hi_in;

	if (signbit(f))
		f = -f;
	if (f == 0) {
		d->digits = 0;
		d->exp10 = 0;
		return;
	}
	numfmt_float_interval(f, &lo, &mid, &hi, &e2, &lo_in, &hi_in);
	shortest(mid, hi, lo, e2, lo_in, hi_in, d);
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

/* The 8 digits of w < 10^8 ending at e. */
static inline void
put8(char *e, uint32_t w)
{
	uint32_t	 a = w / 10000, b = w % 10000;

	memcpy(e - 2, dig2 + (b % 100) * 2, 2);
	memcpy(e - 4, dig2 + (b / 100) * 2, 2);
	memcpy(e - 6, dig2 + (a % 100) * 2, 2);
	memcpy(e - 8, dig2 + (a / 100) * 2, 2);
}

size_t
numfmt_u64(char *o, uint64_t v)
{
	int		 n = udigits(v);
	char		*p = o + n;
	uint64_t	 q;
	uint32_t	 w;

	/* Eight digits for each 64-bit division, then 32-bit ones. */
	while (v >= 100000000) {
		q = v / 100000000;
		put8(p, (uint32_t)(v - q * 100000000));
		p -= 8;
		v = q;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		p -= 2;
		memcpy(p, dig2 + (w % 100) * 2, 2);
		w /= 100;
	}
	if (w >= 10)
		memcpy(p - 2, dig2 + w * 2, 2);
	else
		p[-1] = (char)('0' + w);
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

size_t
numfmt_layout(char *o, int negative, const struct numfmt_dec *d)
{
	char	 dig[20], *p = o;
	int	 n, decpt, x;

	n = (int)numfmt_u64(dig, d->digits);
	decpt = n + d->exp10;		/* v = 0.dig * 10^decpt */
	if (negative)
		*p++ = '-';
	if (decpt >= -14 && (decpt <= 15 || n > decpt)) {
		if (decpt <= 0) {
			*p++ = '0';
			*p++ = '.';
			memset(p, '0', (size_t)-decpt);
			p += -decpt;
			memcpy(p, dig, (size_t)n);
			p += n;
		} else if (decpt < n) {
			memcpy(p, dig, (size_t)decpt);
			p += decpt;
			*p++ = '.';
			memcpy(p, dig + decpt, (size_t)(n - decpt));
			p += n - decpt;
		} else {
			memcpy(p, dig, (size_t)n);
			p += n;
			memset(p, '0', (size_t)(decpt - n));
			p += decpt - n;
		}
		return (size_t)(p - o);
	}
	*p++ = dig[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, dig + 1, (size_t)(n - 1));
		p += n - 1;
	}
	*p++ = 'e';
	x = decpt - 1;
	if (x < 0) {
		*p++ = '-';
		x = -x;
	}
	p += numfmt_u64(p, (uint64_t)x);
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
