/*
 * numcheck SOCKET DB N: check lib/numfmt against a real server.
 *
 * DOUBLE: N random bit patterns plus edge values (powers of two and ten,
 * subnormals, extremes, short decimals) are stored exactly through a
 * prepared INSERT with double parameters; the server's text protocol must
 * send each as numfmt_double() writes it, byte for byte.
 * FLOAT: N random bit patterns, edge values and floats where the server's
 * double rounding and strtof(3) disagree (found by scanning) are written
 * with numfmt_float() and loaded as SQL literals (multi-row INSERT, as
 * rows2sql writes them) and as string parameters (as a bulk loader binds
 * them), in a strict sql_mode; read back over the binary protocol, every
 * value must have the original bits.
 * Prints the counts; exit 0 only if nothing differs.
 */
#include <err.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "buf.h"
#include "numfmt.h"

static MYSQL	*m;

static void
qlen(const char *s, size_t len)
{
	if (mysql_real_query(m, s, len) != 0)
		errx(1, "%.60s: %s", s, mysql_error(m));
}

static void
q(const char *s)
{
	qlen(s, strlen(s));
}

static uint64_t	 rng = 88172645463325252ull;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double	*dv;
static size_t	 nd;
static float	*fv;
static size_t	 nf;

static void
add_double(double d)
{
	if (isfinite(d) && d != 0 && nd < 4000000)
		dv[nd++] = d;
}

static void
add_float(float f)
{
	if (isfinite(f) && f != 0 && nf < 4000000)
		fv[nf++] = f;
}

static void
gen(long n)
{
	uint64_t	 b;
	uint32_t	 u;
	double		 d;
	float		 f;
	long		 i, found = 0;
	char		 s[64];

	for (i = 0; i < n; i++) {
		b = rnd();
		memcpy(&d, &b, sizeof(d));
		add_double(d);
		add_double((double)(rnd() % 10000000) / 100);
		u = (uint32_t)rnd();
		memcpy(&f, &u, sizeof(f));
		add_float(f);
	}
	for (i = -1074; i < 1024; i++)
		add_double(ldexp(1, (int)i));
	for (i = -323; i <= 308; i++) {
		snprintf(s, sizeof(s), "1e%ld", i);
		add_double(strtod(s, NULL));
		add_double(-strtod(s, NULL) * 3);
	}
	add_double(DBL_MAX);
	add_double(-DBL_MIN);
	add_double(0.1 + 0.2);
	for (i = -149; i < 128; i++)
		add_float(ldexpf(1, (int)i));
	add_float(FLT_MAX);
	add_float(-FLT_MAX);
	add_float(FLT_MIN);
	add_float(243.234f);
	/*
	 * 0x15ae43fe: the one float (with its negative) whose text strtof
	 * reads as a neighbour (bench/floatcheck): 7.038531e-26.
	 */
	u = 0x15ae43fe;
	memcpy(&f, &u, sizeof(f));
	add_float(f);
	add_float(-f);
	/* Where MariaDB's double rounding and strtof disagree. */
	for (u = 0x00800000; u < 0x7f800000 && found < 20000; u += 0x101) {
		memcpy(&f, &u, sizeof(f));
		s[numfmt_float(s, f)] = '\0';
		if (strtof(s, NULL) != f) {
			add_float(f);
			add_float(-f);
			found++;
		}
	}
	printf("floats where strtof would disagree: %ld in the sample\n",
	    found);
}

static void
check_doubles(void)
{
	MYSQL_STMT	*st;
	MYSQL_BIND	 p[2];
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	unsigned long	*len;
	char		 o[NUMFMT_MAX];
	size_t		 i, n, bad = 0;
	int		 id;
	double		 d;

	q("DROP TABLE IF EXISTS numcheck_d");
	q("CREATE TABLE numcheck_d (id int PRIMARY KEY, d double)");
	st = mysql_stmt_init(m);
	if (mysql_stmt_prepare(st, "INSERT INTO numcheck_d VALUES (?, ?)",
	    36) != 0)
		errx(1, "prepare: %s", mysql_stmt_error(st));
	memset(p, 0, sizeof(p));
	p[0].buffer_type = MYSQL_TYPE_LONG;
	p[0].buffer = &id;
	p[1].buffer_type = MYSQL_TYPE_DOUBLE;
	p[1].buffer = &d;
	mysql_stmt_bind_param(st, p);
	q("BEGIN");
	for (i = 0; i < nd; i++) {
		id = (int)i;
		d = dv[i];
		if (mysql_stmt_execute(st) != 0)
			errx(1, "insert %a: %s", d, mysql_stmt_error(st));
	}
	q("COMMIT");
	mysql_stmt_close(st);
	q("SELECT id, d FROM numcheck_d ORDER BY id");
	r = mysql_use_result(m);
	while ((row = mysql_fetch_row(r)) != NULL) {
		len = mysql_fetch_lengths(r);
		i = strtoul(row[0], NULL, 10);
		n = numfmt_double(o, dv[i]);
		if (n != len[1] || memcmp(o, row[1], n) != 0) {
			if (bad++ < 10)
				printf("double %a: server %.*s, numfmt %.*s\n",
				    dv[i], (int)len[1], row[1], (int)n, o);
		}
	}
	mysql_free_result(r);
	printf("doubles: %zu, text differs from the server's: %zu\n", nd, bad);
	if (bad)
		exit(1);
}

/* Read numcheck_f back over the binary protocol; count wrong bits. */
static size_t
read_floats(const char *how)
{
	MYSQL_STMT	*st = mysql_stmt_init(m);
	MYSQL_BIND	 b[2];
	int		 id;
	float		 f;
	size_t		 bad = 0, got = 0;
	const char	*sel = "SELECT id, f FROM numcheck_f ORDER BY id";

	if (mysql_stmt_prepare(st, sel, strlen(sel)) != 0 ||
	    mysql_stmt_execute(st) != 0)
		errx(1, "select: %s", mysql_stmt_error(st));
	memset(b, 0, sizeof(b));
	b[0].buffer_type = MYSQL_TYPE_LONG;
	b[0].buffer = &id;
	b[1].buffer_type = MYSQL_TYPE_FLOAT;
	b[1].buffer = &f;
	mysql_stmt_bind_result(st, b);
	while (mysql_stmt_fetch(st) == 0) {
		got++;
		if (memcmp(&f, &fv[id], sizeof(f)) != 0 && bad++ < 10)
			printf("float %a (%s): read back as %a\n",
			    (double)fv[id], how, (double)f);
	}
	mysql_stmt_close(st);
	if (got != nf)
		errx(1, "%s: %zu rows read back of %zu", how, got, nf);
	return bad;
}

static void
check_floats(void)
{
	struct buf	 b = BUF_INIT;
	MYSQL_STMT	*st;
	MYSQL_BIND	 p[2];
	char		 o[NUMFMT_MAX];
	unsigned long	 olen;
	size_t		 i, bad;
	int		 id;

	q("SET SESSION sql_mode = 'STRICT_ALL_TABLES'");
	q("DROP TABLE IF EXISTS numcheck_f");
	q("CREATE TABLE numcheck_f (id int PRIMARY KEY, f float)");
	for (i = 0; i < nf; i++) {
		if (b.len == 0)
			buf_adds(&b, "INSERT INTO numcheck_f VALUES ");
		else
			buf_addc(&b, ',');
		buf_addf(&b, "(%zu,", i);
		buf_add(&b, o, numfmt_float(o, fv[i]));
		buf_addc(&b, ')');
		if (b.len > 500000 || i + 1 == nf) {
			qlen(b.p, b.len);
			buf_reset(&b);
		}
	}
	buf_release(&b);
	bad = read_floats("SQL literal");
	printf("floats: %zu, read back differently from SQL literals: %zu\n",
	    nf, bad);
	q("TRUNCATE numcheck_f");
	st = mysql_stmt_init(m);
	if (mysql_stmt_prepare(st, "INSERT INTO numcheck_f VALUES (?, ?)",
	    36) != 0)
		errx(1, "prepare: %s", mysql_stmt_error(st));
	memset(p, 0, sizeof(p));
	p[0].buffer_type = MYSQL_TYPE_LONG;
	p[0].buffer = &id;
	p[1].buffer_type = MYSQL_TYPE_STRING;
	p[1].buffer = o;
	p[1].length = &olen;
	mysql_stmt_bind_param(st, p);
	q("BEGIN");
	for (i = 0; i < nf; i++) {
		id = (int)i;
		olen = numfmt_float(o, fv[i]);
		if (mysql_stmt_execute(st) != 0)
			errx(1, "insert %.*s: %s", (int)olen, o,
			    mysql_stmt_error(st));
	}
	q("COMMIT");
	mysql_stmt_close(st);
	i = read_floats("string parameter");
	printf("floats: %zu, read back differently from string parameters: "
	    "%zu\n", nf, i);
	if (bad || i)
		exit(1);
}

int
main(int argc, char *argv[])
{
	long	 n;

	if (argc != 4)
		errx(2, "usage: numcheck socket db n");
	n = atol(argv[3]);
	if ((dv = calloc(4000000, sizeof(*dv))) == NULL ||
	    (fv = calloc(4000000, sizeof(*fv))) == NULL)
		err(1, NULL);
	if ((m = mysql_init(NULL)) == NULL ||
	    mysql_real_connect(m, NULL, "root", NULL, argv[2], 0, argv[1],
	    0) == NULL)
		errx(1, "connect: %s", mysql_error(m));
	q("SET NAMES binary");
	gen(n);
	check_doubles();
	check_floats();
	mysql_close(m);
	return 0;
}
