/*
 * bench/numfmtdiff's driver: lib/numfmt's FLOAT and DOUBLE text against
 * a reference numfmt (an older revision's, its symbols renamed ref_*),
 * byte for byte: every finite float (two threads), n doubles (random bit
 * patterns, short decimals over every binary exponent, decimals of 11
 * digits over every decimal exponent), and every double within 3 of a
 * power of two, and the first 10^6 subnormals.  Prints the first
 * differences and the counts; exits 1 if any differ.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "ref_numfmt.h"

struct part {
	pthread_t	 th;
	uint64_t	 from, to, checked, differ;
};

static uint64_t	 rng = 0x9E3779B97F4A7C15ull;

static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static void *
floats(void *arg)
{
	struct part	*p = arg;
	char		 a[NUMFMT_MAX], b[REF_NUMFMT_MAX];
	size_t		 na, nb;
	uint64_t	 i;
	uint32_t	 u;
	float		 f;

	for (i = p->from; i < p->to; i++) {
		u = (uint32_t)i;
		memcpy(&f, &u, sizeof(f));
		if (!isfinite(f))
			continue;
		p->checked++;
		na = numfmt_float(a, f);
		nb = ref_numfmt_float(b, f);
		if ((na != nb || memcmp(a, b, na) != 0) && p->differ++ < 10)
			printf("float 0x%08x: %.*s, reference %.*s\n", u,
			    (int)na, a, (int)nb, b);
	}
	return NULL;
}

static uint64_t	 dchecked, ddiffer;

static void
one_double(double d)
{
	char	 a[NUMFMT_MAX], b[REF_NUMFMT_MAX];
	size_t	 na, nb;

	if (!isfinite(d))
		return;
	dchecked++;
	na = numfmt_double(a, d);
	nb = ref_numfmt_double(b, d);
	if ((na != nb || memcmp(a, b, na) != 0) && ddiffer++ < 10)
		printf("double %a: %.*s, reference %.*s\n", d, (int)na, a,
		    (int)nb, b);
}

int
main(int argc, char *argv[])
{
	struct part	 p[2];
	long		 i, n = argc > 1 ? atol(argv[1]) : 100000000;
	uint64_t	 r, b, fchecked = 0, fdiffer = 0;
	char		 s[64];
	double		 d;
	int		 t, e;

	for (t = 0; t < 2; t++) {
		memset(&p[t], 0, sizeof(p[t]));
		p[t].from = t == 0 ? 0 : (uint64_t)1 << 31;
		p[t].to = t == 0 ? (uint64_t)1 << 31 : (uint64_t)1 << 32;
		if (pthread_create(&p[t].th, NULL, floats, &p[t]) != 0)
			return 2;
	}
	for (i = 0; i < n; i++) {
		r = rnd();
		switch (i % 4) {
		case 0:
		case 1:
			memcpy(&d, &r, sizeof(d));
			break;
		case 2:
			d = ldexp((double)(r % 100000000000ull),
			    (int)(r >> 53) % 2100 - 1100);
			break;
		default:
			snprintf(s, sizeof(s), "%llue%d",
			    (unsigned long long)(r % 100000000000ull),
			    (int)((r >> 40) % 660) - 330);
			d = strtod(s, NULL);
		}
		one_double(fabs(d));
		one_double(-fabs(d));
	}
	for (e = 0; e < 2047; e++)
		for (t = -3; t <= 3; t++) {
			b = ((uint64_t)e << 52) + (uint64_t)(int64_t)t;
			if (b >> 63 == 0) {
				memcpy(&d, &b, sizeof(d));
				one_double(d);
			}
		}
	for (b = 0; b < 1000000; b++) {
		memcpy(&d, &b, sizeof(d));
		one_double(d);
	}
	for (t = 0; t < 2; t++) {
		pthread_join(p[t].th, NULL);
		fchecked += p[t].checked;
		fdiffer += p[t].differ;
	}
	printf("floats: %llu checked (every finite bit pattern), %llu differ\n",
	    (unsigned long long)fchecked, (unsigned long long)fdiffer);
	printf("doubles: %llu checked, %llu differ\n",
	    (unsigned long long)dchecked, (unsigned long long)ddiffer);
	return fdiffer != 0 || ddiffer != 0;
}
