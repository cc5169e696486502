/*
 * Unit tests for lib/numfmt.c and lib/timefmt.c: temporal layouts,
 * integers at their limits, and FLOAT and
 * DOUBLE against an independent reference built on glibc's exact printf
 * and correctly rounded strtod: the text must read back (for FLOAT by
 * MariaDB's rule: strtod, no more than FLT_MAX, then rounded to float),
 * no decimal with one digit fewer may read back, and among the decimals
 * with as many digits the closest is chosen.  Edge classes: zeros,
 * subnormals, min/max, every power of two, powers of ten, values needing
 * 9 or 17 digits, and NUMFMT_RANDOM (default 1500000) random bit patterns
 * of each type.  cmocka, TAP output.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "numfmt.h"
#include "timefmt.h"

/* Does the text s read back to v, as the server reads it? */
static int
reads_back_double(const char *s, double v)
{
	return strtod(s, NULL) == v;
}

static int
reads_back_float(const char *s, float f)
{
	double	 d = strtod(s, NULL);

	return fabs(d) <= FLT_MAX && (float)d == f;
}

/* xorshift64*: reproducible random bit patterns. */
static uint64_t	 rng = 0x9E3779B97F4A7C15ull;

static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

/* The decimal value digits x 10^exp10 of a text, trailing zeros dropped. */
static void
parse_dec(const char *s, struct numfmt_dec *d)
{
	uint64_t	 v = 0;
	int		 e = 0, frac = 0;
	const char	*p = s;

	if (*p == '-')
		p++;
	for (; *p != '\0' && *p != 'e'; p++) {
		if (*p == '.') {
			frac = 1;
			continue;
		}
		v = v * 10 + (uint64_t)(*p - '0');
		e -= frac;
	}
	if (*p == 'e')
		e += atoi(p + 1);
	while (v != 0 && v % 10 == 0) {
		v /= 10;
		e++;
	}
	if (v == 0)
		e = 0;
	d->digits = v;
	d->exp10 = e;
}

static int
ndigits(uint64_t v)
{
	int	 n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * Among the n-digit decimals closest to x on either side, the one that
 * reads back and is closer to x (correctly rounded first); 0 if neither.
 */
static int
ref_candidate(double x, int n, int (*rb)(const char *, double, int),
    int isfloat, struct numfmt_dec *out)
{
	char		 s[64], t[64];
	long long	 dig;
	int		 e;
	char		*p;

	snprintf(s, sizeof(s), "%.*e", n - 1, x);	/* exact, to even */
	if (rb(s, x, isfloat)) {
		parse_dec(s, out);
		return 1;
	}
	/* d.ddde+x -> digits and exponent of the last digit. */
	dig = 0;
	for (p = s; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			dig = dig * 10 + (*p - '0');
	e = atoi(p + 1) - (n - 1);
	/* The other side of x: strtod is monotonic, so this is exact. */
	dig += strtod(s, NULL) < x ? 1 : -1;
	snprintf(t, sizeof(t), "%llde%d", dig, e);
	if (dig > 0 && rb(t, x, isfloat)) {
		parse_dec(t, out);
		return 1;
	}
	return 0;
}

static int
rb_any(const char *s, double x, int isfloat)
{
	return isfloat ? reads_back_float(s, (float)x) :
	    reads_back_double(s, x);
}

/* Check one positive value's text against the reference. */
static void
check_value(double x, int isfloat)
{
	char		 o[NUMFMT_MAX + 1];
	size_t		 n;
	struct numfmt_dec got, want;
	int		 len;

	n = isfloat ? numfmt_float(o, (float)x) : numfmt_double(o, x);
	assert_true(n > 0 && n <= NUMFMT_MAX);
	o[n] = '\0';
	if (!rb_any(o, x, isfloat))
		fail_msg("%a (%s): %s does not read back", x,
		    isfloat ? "float" : "double", o);
	parse_dec(o, &got);
	if (got.digits == 0)
		return;
	len = ndigits(got.digits);
	if (len > 1 && ref_candidate(x, len - 1, rb_any, isfloat, &want))
		fail_msg("%a: %s, but %llue%d is shorter", x, o,
		    (unsigned long long)want.digits, want.exp10);
	assert_true(ref_candidate(x, len, rb_any, isfloat, &want));
	if (want.digits != got.digits || want.exp10 != got.exp10)
		fail_msg("%a: %s, but %llue%d is closer", x, o,
		    (unsigned long long)want.digits, want.exp10);
}

static void
check_both_signs(double x, int isfloat)
{
	char	 a[NUMFMT_MAX + 1], b[NUMFMT_MAX + 1];
	size_t	 na, nb;

	check_value(x, isfloat);
	na = isfloat ? numfmt_float(a, (float)x) : numfmt_double(a, x);
	nb = isfloat ? numfmt_float(b, (float)-x) : numfmt_double(b, -x);
	assert_int_equal(nb, na + 1);
	assert_int_equal(b[0], '-');
	assert_memory_equal(a, b + 1, na);
}

static void
is_text(size_t n, const char *o, const char *want)
{
	if (n != strlen(want) || memcmp(o, want, n) != 0)
		fail_msg("got %.*s, want %s", (int)n, o, want);
}

static void
test_integers(void **state)
{
	char	 o[300];

	(void)state;
	is_text(numfmt_u64(o, 0), o, "0");
	is_text(numfmt_u64(o, 9), o, "9");
	is_text(numfmt_u64(o, 10), o, "10");
	is_text(numfmt_u64(o, 4294967295u), o, "4294967295");
	is_text(numfmt_u64(o, UINT64_MAX), o, "18446744073709551615");
	is_text(numfmt_i64(o, INT64_MIN), o, "-9223372036854775808");
	is_text(numfmt_i64(o, INT64_MAX), o, "9223372036854775807");
	is_text(numfmt_i64(o, -1), o, "-1");
	is_text(numfmt_u64_pad(o, 42, 5), o, "00042");
	is_text(numfmt_u64_pad(o, 0, 4), o, "0000");
	is_text(numfmt_u64_pad(o, 123456, 4), o, "123456");
	assert_int_equal(numfmt_u64_pad(o, 7, 255), 255);
	assert_int_equal(o[253], '0');
	assert_int_equal(o[254], '7');
}

/* Every digit count's edges (10^k - 1, 10^k, 2^k - 1, 2^k) and random. */
static void
test_integer_lengths(void **state)
{
	char		 o[64], want[64];
	uint64_t	 p, v[4];
	size_t		 i, k, n;

	(void)state;
	for (k = 0; k < 64; k++) {
		for (p = 1, i = 0; i < k % 20; i++)
			p *= 10;
		v[0] = p - 1;
		v[1] = p;
		v[2] = ((uint64_t)1 << k) - 1;
		v[3] = (uint64_t)1 << k;
		for (i = 0; i < 4; i++) {
			n = numfmt_u64(o, v[i]);
			snprintf(want, sizeof(want), "%llu",
			    (unsigned long long)v[i]);
			if (n != strlen(want) || memcmp(o, want, n) != 0)
				fail_msg("%s: %.*s", want, (int)n, o);
		}
	}
	for (i = 0; i < 1000000; i++) {
		p = rnd() >> (rnd() & 63);
		n = numfmt_u64(o, p);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)p);
		if (n != strlen(want) || memcmp(o, want, n) != 0)
			fail_msg("%s: %.*s", want, (int)n, o);
		n = numfmt_u64_pad(o, p, (unsigned)(i % 25));
		snprintf(want, sizeof(want), "%0*llu", (int)(i % 25),
		    (unsigned long long)p);
		if (n != strlen(want) || memcmp(o, want, n) != 0)
			fail_msg("pad %zu: %s: %.*s", i % 25, want, (int)n, o);
	}
}

static void
test_temporal(void **state)
{
	char	 o[TIMEFMT_MAX];

	(void)state;
	is_text(timefmt_date(o, 0, 0, 0), o, "0000-00-00");
	is_text(timefmt_date(o, 2021, 2, 31), o, "2021-02-31");
	is_text(timefmt_date(o, 999, 1, 1), o, "0999-01-01");
	is_text(timefmt_datetime(o, 9999, 12, 31, 23, 59, 59, 999999, 6), o,
	    "9999-12-31 23:59:59.999999");
	is_text(timefmt_datetime(o, 0, 0, 0, 0, 0, 0, 0, 6), o,
	    "0000-00-00 00:00:00.000000");
	is_text(timefmt_datetime(o, 2024, 3, 31, 1, 2, 3, 500000, 3), o,
	    "2024-03-31 01:02:03.500");
	is_text(timefmt_datetime(o, 2024, 3, 31, 1, 2, 3, 0, 0), o,
	    "2024-03-31 01:02:03");
	is_text(timefmt_time(o, 1, 838, 59, 59, 0, 0), o, "-838:59:59");
	is_text(timefmt_time(o, 0, 838, 59, 58, 999999, 6), o,
	    "838:59:58.999999");
	is_text(timefmt_time(o, 1, 0, 0, 0, 1, 6), o, "-00:00:00.000001");
	is_text(timefmt_time(o, 0, 25, 0, 1, 120000, 2), o, "25:00:01.12");
	is_text(timefmt_time(o, 0, 0, 0, 0, 0, 1), o, "00:00:00.0");
}

/* The digits of v one division at a time: the reference of numfmt_u64. */
static size_t
ref_u64(char *o, uint64_t v)
{
	char	 t[24];
	size_t	 n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		o[i] = t[n - 1 - i];
	return n;
}

/*
 * numfmt_u64's word of eight digits (8 bytes stored at once, shifted past
 * the leading zeros) against the digit loop for every value below 10^8,
 * and both sides of every power of ten above.
 */
static void
test_integers_all(void **state)
{
	char		 o[NUMFMT_MAX + 8], w[32];
	uint64_t	 v, p;
	size_t		 n, m;
	int		 k, d;

	(void)state;
	for (v = 0; v < 100000000; v++) {
		n = numfmt_u64(o, v);
		m = ref_u64(w, v);
		if (n != m || memcmp(o, w, n) != 0)
			fail_msg("%llu: %.*s", (unsigned long long)v, (int)n, o);
	}
	for (k = 8, p = 100000000; k < 20; k++, p *= 10)
		for (d = -300; d <= 300; d++) {
			v = p + (uint64_t)(int64_t)d;
			n = numfmt_u64(o, v);
			m = ref_u64(w, v);
			if (n != m || memcmp(o, w, n) != 0)
				fail_msg("%llu: %.*s", (unsigned long long)v,
				    (int)n, o);
		}
}

/*
 * The temporal fast paths (fields below 100, words of digits) and the
 * general code for wider fields against snprintf: every month and day
 * to 255 in years at the digit boundaries, every hour, minute and second
 * to 120, fractions at each number of decimals.
 */
static void
test_temporal_all(void **state)
{
	static const unsigned years[] = { 0, 1, 9, 10, 99, 100, 101, 999,
	    1000, 1970, 2024, 9999, 10000, 65535 };
	char		 o[TIMEFMT_MAX], w[TIMEFMT_MAX + 64];
	unsigned	 y, mo, d, h, mi, s, dec;
	uint32_t	 us;
	size_t		 n, i;

	(void)state;
	for (i = 0; i < sizeof(years) / sizeof(years[0]); i++)
		for (mo = 0; mo < 256; mo++)
			for (d = 0; d < 256; d++) {
				y = years[i];
				n = timefmt_date(o, y, mo, d);
				snprintf(w, sizeof(w), "%04u-%02u-%02u", y, mo, d);
				if (n != strlen(w) || memcmp(o, w, n) != 0)
					fail_msg("%s: %.*s", w, (int)n, o);
				h = (mo * 7 + d) % 121;
				n = timefmt_datetime(o, y, mo, d, h, d % 121,
				    mo % 121, 0, 0);
				snprintf(w, sizeof(w),
				    "%04u-%02u-%02u %02u:%02u:%02u", y, mo, d, h,
				    d % 121, mo % 121);
				if (n != strlen(w) || memcmp(o, w, n) != 0)
					fail_msg("%s: %.*s", w, (int)n, o);
			}
	for (h = 0; h <= 120; h++)
		for (mi = 0; mi <= 120; mi++)
			for (s = 0; s <= 120; s++) {
				n = timefmt_datetime(o, 2024, 2, 29, h, mi, s,
				    0, 0);
				snprintf(w, sizeof(w),
				    "2024-02-29 %02u:%02u:%02u", h, mi, s);
				if (n != strlen(w) || memcmp(o, w, n) != 0)
					fail_msg("%s: %.*s", w, (int)n, o);
				n = timefmt_time(o, (h + mi + s) & 1, h * 9 % 1000,
				    mi, s, 0, 0);
				snprintf(w, sizeof(w), "%s%02u:%02u:%02u",
				    (h + mi + s) & 1 ? "-" : "", h * 9 % 1000, mi,
				    s);
				if (n != strlen(w) || memcmp(o, w, n) != 0)
					fail_msg("%s: %.*s", w, (int)n, o);
			}
	for (i = 0; i < 2000000; i++) {
		us = i < 1000000 ? (uint32_t)i : (uint32_t)(rnd() % 1000000);
		dec = (unsigned)(i % 7);
		n = timefmt_datetime(o, 1999, 12, 31, 23, 59, 59, us, dec);
		snprintf(w, sizeof(w), "1999-12-31 23:59:59.%06u", us);
		if (dec == 0)
			w[19] = '\0';
		else
			w[20 + dec] = '\0';
		if (n != strlen(w) || memcmp(o, w, n) != 0)
			fail_msg("%s: %.*s", w, (int)n, o);
		n = timefmt_time(o, 1, 838, 59, 59, us, dec);
		snprintf(w, sizeof(w), "-838:59:59.%06u", us);
		w[dec == 0 ? 10 : 11 + dec] = '\0';
		if (n != strlen(w) || memcmp(o, w, n) != 0)
			fail_msg("%s: %.*s", w, (int)n, o);
	}
}

/* numfmt_layout's rule spelled out with snprintf: the reference. */
static size_t
ref_layout(char *o, int neg, const struct numfmt_dec *d)
{
	char	 g[32], *p = o;
	int	 n, decpt, i;

	n = snprintf(g, sizeof(g), "%llu", (unsigned long long)d->digits);
	decpt = n + d->exp10;
	if (neg)
		*p++ = '-';
	if (decpt >= -14 && (decpt <= 15 || n > decpt)) {
		if (decpt <= 0) {
			*p++ = '0';
			*p++ = '.';
			for (i = 0; i < -decpt; i++)
				*p++ = '0';
			memcpy(p, g, (size_t)n);
			p += n;
		} else if (decpt < n) {
			memcpy(p, g, (size_t)decpt);
			p += decpt;
			*p++ = '.';
			memcpy(p, g + decpt, (size_t)(n - decpt));
			p += n - decpt;
		} else {
			memcpy(p, g, (size_t)n);
			p += n;
			for (i = n; i < decpt; i++)
				*p++ = '0';
		}
		return (size_t)(p - o);
	}
	*p++ = g[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, g + 1, (size_t)(n - 1));
		p += n - 1;
	}
	return (size_t)(p - o) + (size_t)sprintf(p, "e%d", decpt - 1);
}

/*
 * numfmt_layout (digits kept in words, the point merged into them)
 * against the reference: every digit count 1-17 at every exponent that
 * a double or float can have, with the counts' edge digits (1, 10^k - 1,
 * 10^k + 1, repeated and random digits), both signs.
 */
static void
test_layout_all(void **state)
{
	char			 o[NUMFMT_MAX], w[64];
	struct numfmt_dec	 d;
	uint64_t		 p, lo, v[6];
	size_t			 n, m;
	int			 k, e, i, r, neg;

	(void)state;
	for (k = 1, lo = 1; k <= 17; k++, lo *= 10) {
		p = lo * 10;		/* 10^k: digits in [lo, p) */
		v[0] = lo;
		v[1] = p - 1;
		v[2] = lo + 1;
		v[3] = (p - 1) / 9 * 7;	/* 777...7 */
		for (e = -345; e <= 330; e++)
			for (r = 0; r < 6; r++) {
				v[4] = lo + rnd() % (p - lo);
				v[5] = lo + rnd() % (p - lo);
				d.digits = v[r];
				d.exp10 = e;
				neg = (r + e) & 1;
				n = numfmt_layout(o, neg, &d);
				m = ref_layout(w, neg, &d);
				if (n != m || memcmp(o, w, n) != 0)
					fail_msg("%s: %.*s", w, (int)n, o);
			}
	}
	d.digits = 0;
	d.exp10 = 0;
	for (i = 0; i < 2; i++) {
		n = numfmt_layout(o, i, &d);
		m = ref_layout(w, i, &d);
		if (n != m || memcmp(o, w, n) != 0)
			fail_msg("%s: %.*s", w, (int)n, o);
	}
}

/* Known texts: the server's own layout for DOUBLE (my_gcvt). */
static void
test_layout(void **state)
{
	char	 o[NUMFMT_MAX];

	(void)state;
	is_text(numfmt_double(o, 0.0), o, "0");
	is_text(numfmt_double(o, -0.0), o, "-0");
	is_text(numfmt_double(o, 0.1), o, "0.1");
	is_text(numfmt_double(o, 0.1 + 0.2), o, "0.30000000000000004");
	is_text(numfmt_double(o, 100), o, "100");
	is_text(numfmt_double(o, -2.5), o, "-2.5");
	is_text(numfmt_double(o, 1e15), o, "1e15");
	is_text(numfmt_double(o, 123456789012345.0), o, "123456789012345");
	is_text(numfmt_double(o, 1e-5), o, "0.00001");
	is_text(numfmt_double(o, 1e-15), o, "0.000000000000001");
	is_text(numfmt_double(o, 1.5e-15), o, "0.0000000000000015");
	is_text(numfmt_double(o, 1e-16), o, "1e-16");
	is_text(numfmt_double(o, 1234567890123456.8), o, "1234567890123456.8");
	is_text(numfmt_double(o, 12345678901234567890.0), o,
	    "1.2345678901234567e19");
	is_text(numfmt_double(o, 5e-324), o, "5e-324");
	is_text(numfmt_double(o, DBL_MIN), o, "2.2250738585072014e-308");
	is_text(numfmt_double(o, DBL_MAX), o, "1.7976931348623157e308");
	is_text(numfmt_double(o, 1e23), o, "1e23");
	is_text(numfmt_double(o, 9007199254740993.0), o, "9.007199254740992e15");
	assert_int_equal(numfmt_double(o, INFINITY), 0);
	assert_int_equal(numfmt_double(o, -INFINITY), 0);
	assert_int_equal(numfmt_double(o, NAN), 0);
}

static float
fbits(uint32_t b)
{
	float	 f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

static void
test_float_known(void **state)
{
	char	 o[NUMFMT_MAX];
	float	 f;

	(void)state;
	is_text(numfmt_float(o, 0.0f), o, "0");
	is_text(numfmt_float(o, -0.0f), o, "-0");
	is_text(numfmt_float(o, 243.234f), o, "243.234");
	is_text(numfmt_float(o, 0.1f), o, "0.1");
	is_text(numfmt_float(o, 123.4567f), o, "123.4567");
	is_text(numfmt_float(o, 16777216.0f), o, "16777216");
	is_text(numfmt_float(o, 1.0000001f), o, "1.0000001");
	is_text(numfmt_float(o, 1e-45f), o, "1e-45");
	is_text(numfmt_float(o, FLT_MIN), o, "1.1754944e-38");
	/* 3.4028235e38, strtof's answer, is above FLT_MAX as a double. */
	is_text(numfmt_float(o, FLT_MAX), o, "3.4028234e38");
	is_text(numfmt_float(o, -FLT_MAX), o, "-3.4028234e38");
	assert_int_equal(numfmt_float(o, INFINITY), 0);
	assert_int_equal(numfmt_float(o, NAN), 0);
	/*
	 * The only float (and its negative) where the server's double
	 * rounding and strtof(3) read the text differently: 7 digits do for
	 * MariaDB, strtof would take them for the float below.
	 */
	f = fbits(0x15ae43fe);
	is_text(numfmt_float(o, f), o, "7.038531e-26");
	assert_true(reads_back_float("7.038531e-26", f));
	assert_true(strtof("7.038531e-26", NULL) != f);
}

static double
dbits(uint64_t b)
{
	double	 d;

	memcpy(&d, &b, sizeof(d));
	return d;
}


static void
test_double_edges(void **state)
{
	uint64_t	 b;
	int		 i;
	char		 s[32];

	(void)state;
	check_both_signs(dbits(1), 0);			/* min subnormal */
	check_both_signs(dbits(((uint64_t)1 << 52) - 1), 0); /* max subnormal */
	check_both_signs(DBL_MIN, 0);
	check_both_signs(DBL_MAX, 0);
	check_both_signs(dbits(0x7fefffffffffffffull - 1), 0);
	for (b = 1; b < 1000; b++) {			/* small subnormals */
		check_value(dbits(b), 0);
		check_value(dbits(((uint64_t)1 << 52) - b), 0);
	}
	for (i = 1; i < 2047; i++) {			/* every power of two */
		b = (uint64_t)i << 52;
		check_value(dbits(b), 0);
		check_value(dbits(b + 1), 0);		/* and its neighbours */
		check_value(dbits(b - 1), 0);
	}
	for (i = -323; i <= 308; i++) {			/* powers of ten */
		snprintf(s, sizeof(s), "1e%d", i);
		check_both_signs(strtod(s, NULL), 0);
		snprintf(s, sizeof(s), "9.999999999999999e%d", i - 1);
		check_value(strtod(s, NULL), 0);
	}
	/* 17 significant digits needed. */
	check_value(0.1 + 0.2, 0);
	check_value(2.2250738585072011e-308, 0);
	check_value(1.7976931348623155e308, 0);
	check_value(9007199254740993.0, 0);
	check_value(5.0000000000000009, 0);
	/*
	 * Exact ties between two shortest candidates (to even), integers
	 * (their own digits, trailing zeros dropped), the coarse and fine
	 * candidates of Schubfach near 10^k.
	 */
	check_value(1125899906842624.25, 0);
	check_value(1125899906842624.75, 0);
	check_value(4503599627370497.5, 0);
	for (i = 0; i < 53; i++) {
		check_value(ldexp(1, i) * 1000, 0);
		check_value(ldexp(1, i) + 1, 0);
	}
	for (i = -300; i <= 300; i += 7) {
		snprintf(s, sizeof(s), "9.5e%d", i);
		check_value(strtod(s, NULL), 0);
		snprintf(s, sizeof(s), "1.05e%d", i);
		check_value(strtod(s, NULL), 0);
	}
}

static void
test_float_edges(void **state)
{
	uint32_t	 b;
	int		 i;
	char		 s[32];

	(void)state;
	check_both_signs(fbits(1), 1);
	check_both_signs(fbits(0x7fffff), 1);
	check_both_signs(FLT_MIN, 1);
	check_both_signs(FLT_MAX, 1);
	for (b = 1; b < 20000; b++) {			/* subnormals */
		check_value(fbits(b), 1);
		check_value(fbits(0x7fffff - b), 1);
	}
	for (b = 0x7f7fffff - 20000; b <= 0x7f7fffff; b++)	/* the largest */
		check_value(fbits(b), 1);
	for (i = 1; i < 255; i++) {			/* every power of two */
		b = (uint32_t)i << 23;
		check_value(fbits(b), 1);
		check_value(fbits(b + 1), 1);
		check_value(fbits(b - 1), 1);
	}
	for (i = -45; i <= 38; i++) {			/* powers of ten */
		snprintf(s, sizeof(s), "1e%d", i);
		check_both_signs((float)strtod(s, NULL), 1);
	}
	/* 9 significant digits needed. */
	check_value(16777217.0f * 4, 1);
	check_value(1.00000012f, 1);
	check_value(3.40282326e38f, 1);
	/* Exact ties at 0.1 (to even), and the top of a binade. */
	check_value(2097152.25f, 1);
	check_value(2097152.75f, 1);
	check_value(8388607.5f, 1);
	check_value(16777215.0f, 1);
	/* Integers up to 2^24 are exact: their own digits. */
	for (b = 1; b < 100000; b += 7)
		check_value((float)b, 1);
}

static long
nrandom(void)
{
	const char	*e = getenv("NUMFMT_RANDOM");

	return e != NULL ? atol(e) : 1500000;
}

static void
test_double_random(void **state)
{
	double		 x;
	long		 i, n = nrandom();

	(void)state;
	for (i = 0; i < n; i++) {
		x = dbits(rnd() & 0x7fffffffffffffffull);
		if (isfinite(x))
			check_value(x, 0);
	}
	/* Short decimals, the common case in real tables. */
	for (i = 0; i < n / 4; i++)
		check_value((double)(rnd() % 100000000) / 1000, 0);
}

static void
test_float_random(void **state)
{
	float		 f;
	long		 i, n = nrandom();

	(void)state;
	for (i = 0; i < n; i++) {
		f = fbits((uint32_t)rnd() & 0x7fffffffu);
		if (isfinite(f))
			check_value(f, 1);
	}
	for (i = 0; i < n / 4; i++)
		check_value((float)((double)(rnd() % 10000000) / 1000), 1);
}

/*
 * Where MariaDB's double rounding and strtof(3) disagree, the text follows
 * MariaDB: found among neighbours of midpoints, it must not read back
 * through strtof's rule when it differs from what strtof's rule allows.
 */
static void
test_float_interval(void **state)
{
	uint64_t	 lo, mid, hi;
	int		 e2, lo_in, hi_in;
	float		 f;

	(void)state;
	/* Even mantissa: ends widened by half a double ulp, included. */
	numfmt_float_interval(1.0f, &lo, &mid, &hi, &e2, &lo_in, &hi_in);
	assert_true(lo_in && hi_in);
	assert_true(lo < mid && mid < hi);
	assert_true(e2 < -25);
	assert_true(lo < mid - ((uint64_t)1 << (-25 - e2)));
	assert_true(hi > mid + ((uint64_t)1 << (-24 - e2)));
	/* Odd mantissa: narrowed, excluded. */
	f = fbits(0x3f800001);
	numfmt_float_interval(f, &lo, &mid, &hi, &e2, &lo_in, &hi_in);
	assert_false(lo_in || hi_in);
	assert_true(lo > mid - ((uint64_t)1 << (-24 - e2)));
	assert_true(hi < mid + ((uint64_t)1 << (-24 - e2)));
	/* FLT_MAX: capped at itself. */
	numfmt_float_interval(FLT_MAX, &lo, &mid, &hi, &e2, &lo_in, &hi_in);
	assert_true(hi == mid && hi_in);
}

/*
 * lib/numfmt.c's table g(e), computed here with multiword integers
 * (Schubfach, section 9.8.3) and compared with lib/numfmt_g.inc.
 */
#define G_BITS		126
#define G_EMIN		(-292)
#define G_EMAX		324
#define M63		((((uint64_t)1) << 63) - 1)

static const uint64_t	 g_want[G_EMAX - G_EMIN + 1][2] = {
#include "numfmt_g.inc"
};

/* A little-endian multiword integer, enough for 5^324 (753 bits). */
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

/* b's bits [from, from + 126) as a 128-bit integer (zeros below bit 0). */
static unsigned __int128
big_slice(const struct big *b, int from)
{
	unsigned __int128 v = 0;
	int		 i;

	for (i = G_BITS - 1; i >= 0; i--)
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

/* floor(2^(bits(p) - 1 + 126) / p), for p = 5^m, m > 0. */
static unsigned __int128
big_inv(const struct big *p)
{
	struct big	 r;
	unsigned __int128 q = 0;
	int		 i, bits = big_bits(p);

	memset(&r, 0, sizeof(r));
	r.w[(bits - 1) / 32] = 1u << ((bits - 1) % 32);
	r.n = (bits - 1) / 32 + 1;	/* 2^(bits - 1) < p */
	for (i = 0; i < G_BITS; i++) {
		big_shl1(&r);
		q <<= 1;
		if (big_cmp(&r, p) >= 0) {
			big_sub(&r, p);
			q |= 1;
		}
	}
	return q;
}

/*
 * 10^e = 5^e 2^e, so g(e) for e >= 0 is 5^e's top 126 bits (or 5^e
 * shifted up to 126 bits) plus one; for e = -m < 0 it is
 * floor(2^(125 + bits(5^m)) / 5^m) + 1.
 */
static void
g_compute(uint64_t g[G_EMAX - G_EMIN + 1][2])
{
	struct big	 p;
	unsigned __int128 v;
	int		 m;

	memset(&p, 0, sizeof(p));
	p.w[0] = 1;
	p.n = 1;
	for (m = 0; m <= G_EMAX; m++) {
		v = big_slice(&p, big_bits(&p) - G_BITS) + 1;
		g[m - G_EMIN][0] = (uint64_t)v & M63;
		g[m - G_EMIN][1] = (uint64_t)(v >> 63);
		if (m > 0 && -m >= G_EMIN) {
			v = big_inv(&p) + 1;
			g[-m - G_EMIN][0] = (uint64_t)v & M63;
			g[-m - G_EMIN][1] = (uint64_t)(v >> 63);
		}
		big_mul5(&p);
	}
}

/* Every entry of the table numfmt.c was built with. */
static void
test_g_table(void **state)
{
	static uint64_t	 g[G_EMAX - G_EMIN + 1][2];
	int		 e;

	(void)state;
	g_compute(g);
	for (e = G_EMIN; e <= G_EMAX; e++)
		if (g[e - G_EMIN][0] != g_want[e - G_EMIN][0] ||
		    g[e - G_EMIN][1] != g_want[e - G_EMIN][1])
			fail_msg("g(%d) differs from lib/numfmt_g.inc", e);
}

/* The table as lib/numfmt_g.inc holds it. */
static void
print_g_table(void)
{
	static uint64_t	 g[G_EMAX - G_EMIN + 1][2];
	int		 e;

	g_compute(g);
	printf("/* g(e) of lib/numfmt.c for e = %d .. %d, printed by "
	    "tests/unit/numfmt.c\n * (NUMFMT_PRINT_G=1 "
	    "build/tests/unit/numfmt.t), which checks it. */\n", G_EMIN,
	    G_EMAX);
	for (e = G_EMIN; e <= G_EMAX; e++)
		printf("\t{ 0x%016llxULL, 0x%016llxULL },\t/* %d */\n",
		    (unsigned long long)g[e - G_EMIN][0],
		    (unsigned long long)g[e - G_EMIN][1], e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_integer_lengths),
		cmocka_unit_test(test_integers_all),
		cmocka_unit_test(test_temporal),
		cmocka_unit_test(test_temporal_all),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_layout_all),
		cmocka_unit_test(test_float_known),
		cmocka_unit_test(test_float_interval),
		cmocka_unit_test(test_double_edges),
		cmocka_unit_test(test_float_edges),
		cmocka_unit_test(test_double_random),
		cmocka_unit_test(test_float_random),
		cmocka_unit_test(test_g_table),
	};

	if (getenv("NUMFMT_PRINT_G") != NULL) {
		print_g_table();
		return 0;
	}

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
