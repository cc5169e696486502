/*
 * bench/floatcheck [-s] [-j threads]: run every one of the 2^32 FLOAT bit
 * patterns through numfmt_float() and read each text back by MariaDB's
 * rule (Field_float::store: my_strtod, a correctly rounded strtod; above
 * FLT_MAX in magnitude is out of range; then rounded to float), and print
 * the number of mismatches, which must be 0.  Also counted: texts that
 * strtof(3) would read as another float (where the server's double
 * rounding decides), and with -s, texts for which a decimal with one
 * digit fewer also reads back (not shortest; must be 0).  NaN and the
 * infinities are skipped: no column holds them.  Offline, no server.
 */
#include <err.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numfmt.h"

struct part {
	pthread_t	 th;
	uint64_t	 from, to;
	uint64_t	 checked, mismatch, strtof_differs, longer;
	uint32_t	 first_bad, first_sd;
	int		 shortness;
};

static int
reads_back(const char *s, float f)
{
	double	 d = strtod(s, NULL);

	return fabs(d) <= FLT_MAX && (float)d == f &&
	    (signbit(d) != 0) == (signbit(f) != 0);
}

/* Does a decimal of n - 1 digits next to f read back?  s has n digits. */
static int
shorter_exists(float f, int n)
{
	char	 s[64];
	long long dig = 0;
	char	*p;
	int	 e;

	if (n < 2)
		return 0;
	snprintf(s, sizeof(s), "%.*e", n - 2, (double)f);
	if (reads_back(s, f))
		return 1;
	for (p = s; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			dig = dig * 10 + (*p - '0');
	e = atoi(p + 1) - (n - 2);
	dig += strtod(s, NULL) < (double)f ? 1 : -1;
	snprintf(s, sizeof(s), "%llde%d", dig, e);
	return dig > 0 && reads_back(s, f);
}

static void *
run(void *arg)
{
	struct part	*p = arg;
	char		 o[NUMFMT_MAX + 1];
	struct numfmt_dec d;
	uint64_t	 b;
	uint32_t	 u;
	float		 f;
	size_t		 n;
	int		 digits;

	for (b = p->from; b < p->to; b++) {
		u = (uint32_t)b;
		memcpy(&f, &u, sizeof(f));
		if (!isfinite(f))
			continue;
		p->checked++;
		n = numfmt_float(o, f);
		o[n] = '\0';
		if (n == 0 || !reads_back(o, f)) {
			if (p->mismatch++ == 0)
				p->first_bad = u;
			continue;
		}
		if (strtof(o, NULL) != f && p->strtof_differs++ == 0)
			p->first_sd = u;
		if (p->shortness) {
			numfmt_float_digits(f, &d);
			for (digits = 1; d.digits >= 10; d.digits /= 10)
				digits++;
			if (d.digits != 0 && shorter_exists(fabsf(f), digits))
				p->longer++;
		}
	}
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct part	*p;
	uint64_t	 total = (uint64_t)1 << 32, checked = 0, bad = 0, sd = 0,
			 longer = 0;
	long		 jobs = sysconf(_SC_NPROCESSORS_ONLN);
	int		 ch, i, shortness = 0;
	char		 o[NUMFMT_MAX + 1];
	float		 f;

	while ((ch = getopt(argc, argv, "j:s")) != -1) {
		switch (ch) {
		case 'j':
			jobs = atol(optarg);
			break;
		case 's':
			shortness = 1;
			break;
		default:
			fprintf(stderr, "usage: floatcheck [-s] [-j threads]\n");
			return 2;
		}
	}
	if (jobs < 1 || jobs > 64)
		jobs = 1;
	if ((p = calloc((size_t)jobs, sizeof(*p))) == NULL)
		err(1, NULL);
	for (i = 0; i < jobs; i++) {
		p[i].from = total / (uint64_t)jobs * (uint64_t)i;
		p[i].to = i + 1 == jobs ? total :
		    total / (uint64_t)jobs * (uint64_t)(i + 1);
		p[i].shortness = shortness;
		if (pthread_create(&p[i].th, NULL, run, &p[i]) != 0)
			errx(1, "pthread_create");
	}
	for (i = 0; i < jobs; i++) {
		pthread_join(p[i].th, NULL);
		checked += p[i].checked;
		if (p[i].mismatch > 0 && bad == 0) {
			memcpy(&f, &p[i].first_bad, sizeof(f));
			o[numfmt_float(o, f)] = '\0';
			fprintf(stderr, "first mismatch: 0x%08x %a -> %s\n",
			    p[i].first_bad, (double)f, o);
		}
		if (p[i].strtof_differs > 0) {
			memcpy(&f, &p[i].first_sd, sizeof(f));
			o[numfmt_float(o, f)] = '\0';
			printf("strtof(3) reads %s (0x%08x) as %a, MariaDB as "
			    "%a\n", o, p[i].first_sd, (double)strtof(o, NULL),
			    (double)f);
		}
		bad += p[i].mismatch;
		sd += p[i].strtof_differs;
		longer += p[i].longer;
	}
	printf("floats checked: %llu (every finite bit pattern)\n",
	    (unsigned long long)checked);
	printf("mismatches (text not read back as the same float): %llu\n",
	    (unsigned long long)bad);
	printf("texts strtof(3) would read as another float: %llu\n",
	    (unsigned long long)sd);
	if (shortness)
		printf("texts with a shorter decimal that reads back: %llu\n",
		    (unsigned long long)longer);
	return bad != 0 || longer != 0;
}
