/*
 * lit-gen: random SQL for sqlexec's literal-INSERT differential test
 * (issue #14): tables over every column type, then INSERT, INSERT IGNORE
 * and REPLACE statements of random literal tuples (edge numbers, strings
 * with every escape and byte, character set introducers and COLLATE,
 * hex and bit literals, NULL, TRUE/FALSE) into every column type, under
 * strict and non-strict sql_modes, with and without NO_BACKSLASH_ESCAPES.
 * The same text is loaded once by the mysql client and once by sqlsplit |
 * sqlexec, and the two databases compared value by value.
 *
 *	lit-gen [-s seed] [-r rows] [-t tables] db
 *	lit-gen -p mode,... [-k tuples] [-n reps] [-s seed] db
 *
 * Writes SQL on stdout: rows (default 10000) tuples in all, deterministic
 * for a seed.  Every statement is on its own lines, ';' terminated.
 * With -p, the pairs of literal kinds under each sql_mode named ("empty"
 * for ''), reps times over with other values (pairs_main()).
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t	 rng = 88172645463325252ULL;
/*
 * NO_BACKSLASH_ESCAPES is on: no backslashes in strings then (the mysql
 * client would take one outside a string for one of its commands).
 */
static int	 nbe;
/* The statement at hand has only literals sqlexec can bind (issue #14). */
static int	 clean;

/* xorshift64*: reproducible everywhere, unlike random(3). */
static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned
pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

struct coltype {
	const char	*decl;
	int		 cls;	/* literal family most natural for it */
};

enum { C_INT, C_NUM, C_STR, C_BIN, C_TIME, C_BIT, C_ENUM };

static const struct coltype types[] = {
	{ "TINYINT", C_INT }, { "TINYINT UNSIGNED", C_INT },
	{ "SMALLINT", C_INT }, { "MEDIUMINT UNSIGNED", C_INT },
	{ "INT", C_INT }, { "INT UNSIGNED", C_INT },
	{ "BIGINT", C_INT }, { "BIGINT UNSIGNED", C_INT },
	{ "DECIMAL(10,3)", C_NUM }, { "DECIMAL(65,30)", C_NUM },
	{ "DECIMAL(5,0) UNSIGNED", C_NUM },
	{ "FLOAT", C_NUM }, { "DOUBLE", C_NUM }, { "FLOAT(7,2)", C_NUM },
	{ "BIT(1)", C_BIT }, { "BIT(12)", C_BIT }, { "BIT(64)", C_BIT },
	{ "DATE", C_TIME }, { "DATETIME", C_TIME }, { "DATETIME(6)", C_TIME },
	{ "TIMESTAMP(3) NULL", C_TIME }, { "TIME", C_TIME },
	{ "TIME(4)", C_TIME }, { "YEAR", C_TIME },
	{ "CHAR(5)", C_STR }, { "VARCHAR(20)", C_STR }, { "TEXT", C_STR },
	{ "VARCHAR(20) CHARACTER SET latin1", C_STR },
	{ "VARCHAR(20) CHARACTER SET binary", C_BIN },
	{ "CHAR(4) CHARACTER SET ascii", C_STR },
	{ "VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", C_STR },
	{ "BINARY(4)", C_BIN }, { "VARBINARY(16)", C_BIN }, { "BLOB", C_BIN },
	{ "ENUM('a','b','ü')", C_ENUM }, { "SET('x','y','z')", C_ENUM },
};
#define NTYPES	(sizeof(types) / sizeof(types[0]))

static const char *const ints[] = {
	"0", "1", "-1", "127", "-128", "128", "255", "256", "-129", "32767",
	"-32768", "65535", "8388607", "16777215", "2147483647", "-2147483648",
	"4294967295", "4294967296", "9223372036854775807",
	"-9223372036854775808", "18446744073709551615",
	"18446744073709551616", "99999999999999999999", "007", "-0", "+5",
};
static const char *const decs[] = {
	"0.0", "1.5", "-1.5", ".5", "5.", "123.4567", "-999.9995",
	"0.0000000000000000000000000000001", "99999.5", "1.005",
	"12345678901234567890.123456789", "-0.000",
};
static const char *const floats[] = {
	"1e0", "1.5e3", "-2.5E-3", "1e308", "1e309", "-1e-320", "3.4e38",
	"3.5e38", "1.17549435e-38", "0.1e1", "5e-324", "1E+2",
};
static const char *const strs[] = {
	"", "a", "abc", "0", "12", "-3", "1.5", "1e2", "12abc", " 7 ",
	"2020-02-29", "2021-02-29", "0000-00-00", "2020-01-01 12:34:56.789",
	"12:34:56", "-838:59:59", "839:00:00", "1999", "99", "a,b", "x,y",
	"b", "ü", "é", "日本", "😀", "x,z,y", "toolongforthecolumn",
};
static const char *const escapes[] = {
	"\\\\", "\\'", "''", "\\\"", "\\n", "\\0", "\\Z", "\\t", "\\b",
	"\\r", "\\%", "\\_", "\\x", "\"", "\\\\n",
};
static const char *const intros[] = {
	"_utf8mb4", "_latin1", "_binary", "_ascii", "_utf8mb3", "N",
};

/* A string literal's body: pieces, escapes, raw bytes. */
static void
str_body(void)
{
	unsigned	 n = pick(4), i;
	int		 b;

	for (i = 0; i < n; i++) {
		switch (pick(4)) {
		case 0:
			if (nbe)
				fputs(pick(2) ? "''" : "\"", stdout);
			else
				fputs(escapes[pick(sizeof(escapes) /
				    sizeof(*escapes))], stdout);
			break;
		case 1:
			/* a printable byte other than a quote or backslash */
			b = 0x20 + (int)pick(0x5f);
			putchar(b == '\'' || b == '\\' ? 'q' : b);
			break;
		default:
			fputs(strs[pick(sizeof(strs) / sizeof(*strs))],
			    stdout);
		}
	}
}

static void
hex(unsigned nbytes, int style)
{
	unsigned	 i;

	printf(style ? "X'" : "0x");
	for (i = 0; i < nbytes; i++)
		printf("%02X", (unsigned)pick(256));
	if (style)
		putchar('\'');
}

static void
bits(int style)
{
	unsigned	 n = 1 + pick(70), i;

	printf(style ? "b'" : "0b");
	for (i = 0; i < n; i++)
		putchar('0' + (int)pick(2));
	if (style)
		putchar('\'');
}

/* One literal, biased towards the column's own family. */
static void
literal(int cls)
{
	const char	*in;
	unsigned	 k = pick(20);

	if (k == 0) {
		fputs("NULL", stdout);
		return;
	}
	if (k == 1) {
		fputs(pick(2) ? "TRUE" : "FALSE", stdout);
		return;
	}
	/* a clean statement: literals that sqlexec binds, or is to */
	if (clean && (k == 13 || k == 16 || ((k == 12 || k == 14) &&
	    cls != C_STR && cls != C_BIN && cls != C_BIT)))
		k = 9;
	if (clean && k == 13)
		k = 9;
	if (k < 6)		/* the column's own kind of value */
		k = cls == C_INT ? 6 : cls == C_NUM ? 6 + pick(3) :
		    cls == C_BIN ? 12 + pick(2) : cls == C_BIT ? 14 : 9;
	switch (k) {
	case 6: case 7:
		fputs(ints[pick(sizeof(ints) / sizeof(*ints))], stdout);
		break;
	case 8:
		fputs(decs[pick(sizeof(decs) / sizeof(*decs))], stdout);
		break;
	case 9: case 10: case 11:
		putchar('\'');
		str_body();
		putchar('\'');
		break;
	case 12:
		hex(1 + pick(9), pick(2));
		break;
	case 13:
		in = intros[pick(sizeof(intros) / sizeof(*intros))];
		printf("%s%s", in, pick(2) ? " " : "");
		if (pick(3) == 0 && in[0] == '_')
			hex(1 + pick(6), pick(2));
		else {
			putchar('\'');
			str_body();
			putchar('\'');
		}
		break;
	case 14:
		bits(pick(2));
		break;
	case 15:
		fputs(floats[pick(sizeof(floats) / sizeof(*floats))], stdout);
		break;
	case 16:
		putchar('\'');
		str_body();
		printf("' COLLATE %s", pick(2) ? "utf8mb4_bin" :
		    "utf8mb4_general_ci");
		break;
	case 17:
		printf("'%s'", strs[pick(sizeof(strs) / sizeof(*strs))]);
		break;
	default:
		fputs(decs[pick(sizeof(decs) / sizeof(*decs))], stdout);
	}
}

/* Non-strict modes more often: in a strict one most tuples fail. */
static const char *const modes[] = {
	"''", "'STRICT_TRANS_TABLES'", "'NO_BACKSLASH_ESCAPES'",
	"'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE'",
	"'NO_AUTO_VALUE_ON_ZERO'", "'STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES'",
	"'PAD_CHAR_TO_FULL_LENGTH'", "'TRADITIONAL'", "''",
	"'NO_BACKSLASH_ESCAPES'", "'ALLOW_INVALID_DATES'", "''",
};

/*
 * -p: every pair of literal kinds in one column of one INSERT, into
 * every column type, under each sql_mode given (issue #24).  Each
 * statement holds four tuples, a b a b, of two kinds; a table per type.
 * So that the statements reach the bulk path of sqlexec --commit-every
 * 1, every table gets one INSERT of its own first (the first unit into
 * a table after a barrier goes as text), and the first statements with
 * warnings (shown as text) go into a table of their own.
 */
static const char *const pk_null[] = { "NULL" };
static const char *const pk_bool[] = { "TRUE", "FALSE" };
static const char *const pk_int[] = {
	"0", "1", "-1", "7", "127", "-128", "255", "256", "-129", "65535",
	"2147483647", "-2147483648", "4294967295", "9223372036854775807",
	"-9223372036854775808", "20200101", "123456", "1999", "99", "3",
	"+5", "-0", "007", "2",
};
static const char *const pk_uint[] = {
	"9223372036854775808", "18446744073709551615", "12345678901234567890",
};
static const char *const pk_big[] = {
	"18446744073709551616", "99999999999999999999",
	"-9223372036854775809",
};
static const char *const pk_dec[] = {
	"1.5", "-1.5", ".5", "5.", "0.0", "123.4567", "20200101.5",
	"99999.5", "1.005", "12345678901234567890.123456789", "-0.000",
	"2.0", "1.", "0.0000000000000000000000000000001",
};
static const char *const pk_dbl[] = {
	"1e0", "1.5e3", "-2.5E-3", "1e308", "3.4e38", "3.5e38", "5e-324",
	"2.02e7", "1E+2", "0.1e1", "-1e-320", "2e0",
};
static const char *const pk_str[] = {
	"''", "'a'", "'0'", "'12'", "'-3'", "'1.5'", "'1e2'", "'12abc'",
	"' 7 '", "'2020-02-29'", "'0000-00-00'", "'2020-01-01 12:34:56.789'",
	"'12:34:56'", "'a,b'", "'x,y'", "'b'", "'\xc3\xbc'", "'\xe6\x97\xa5'",
	"'\xf0\x9f\x98\x80'", "'x,z,y'", "'toolongforthecolumn'",
	"'a\\nb'", "'it''s'", "'\\\\'", "'\\0x'", "'x'", "'z,x'",
};
static const char *const pk_hex[] = {
	"0x41", "0xFFF", "0x01FF", "0x00", "0x7878", "0x0102030405060708",
	"0x010203040506070809", "0x32", "0xE9",
};
static const char *const pk_hexq[] = {
	"X'41'", "X'0FFF'", "X''", "X'7A'", "X'FFFFFFFFFFFFFFFF'", "x'31'",
};
static const char *const pk_bit[] = {
	"0b1", "0b111111111111", "0b1000000000001", "0b0", "0b110001",
};
static const char *const pk_bitq[] = { "b'1'", "b'101'", "B''", "b'00110010'" };
static const char *const pk_binary[] = {
	"_binary 'abc'", "_binary ''", "_binary 0x41", "_binary'7'",
	"_binary X'FF00'", "_binary '\xc3\xbc'",
};
static const char *const pk_latin1[] = {
	"_latin1 'abc'", "_latin1 '\xc3\xa9'", "_latin1 0xE9", "_latin1'x'",
	"_latin1 '12'", "_latin1 ''", "_latin1 '\x80\x81'",
};
static const char *const pk_utf8[] = {
	"_utf8mb4 '\xc3\xbc'", "_utf8mb4'x'", "_utf8mb4 0xC3BC", "_ascii 'b'",
	"_utf8mb3 'a,b'",
};

static const struct {
	const char		*name;
	const char *const	*v;
	unsigned		 n;
} pkinds[] = {
#define PK(x)	{ #x, pk_##x, sizeof(pk_##x) / sizeof(*pk_##x) }
	PK(null), PK(bool), PK(int), PK(uint), PK(big), PK(dec), PK(dbl),
	PK(str), PK(hex), PK(hexq), PK(bit), PK(bitq), PK(binary),
	PK(latin1), PK(utf8),
#undef PK
};
/* more types, for -p only */
static const char *const ptypes[] = {
	"JSON", "INET6", "UUID", "DECIMAL(5,2) UNSIGNED", "TINYINT(1)",
	"CHAR(3) CHARACTER SET latin1", "SET('1','2','3')", "ENUM('1','2')",
	"DOUBLE(10,3)", "TIMESTAMP NULL", "MEDIUMBLOB",
};
#define NPTYPES	(NTYPES + sizeof(ptypes) / sizeof(*ptypes))
#define NPKINDS	(sizeof(pkinds) / sizeof(pkinds[0]))

static void
pk_value(unsigned k)
{
	fputs(pkinds[k].v[pick(pkinds[k].n)], stdout);
}

static int
pairs_main(const char *db, const char *modelist, unsigned reps,
    unsigned ntup)
{
	char		 modes_buf[256], *m, *save;
	unsigned	 t, a, b, r, i;
	unsigned long	 id = 0;

	printf("SET NAMES utf8mb4;\nSET time_zone = '+00:00';\n"
	    "SET sql_notes = 0;\nUSE `%s`;\n", db);
	printf("CREATE TABLE w (i TINYINT);\n");
	for (t = 0; t < NPTYPES; t++)
		printf("CREATE TABLE t%u (id INT PRIMARY KEY, c %s) "
		    "DEFAULT CHARSET=utf8mb4;\n", t, t < NTYPES ?
		    types[t].decl : ptypes[t - NTYPES]);
	snprintf(modes_buf, sizeof(modes_buf), "%s", modelist);
	for (m = strtok_r(modes_buf, ",", &save); m != NULL;
	    m = strtok_r(NULL, ",", &save)) {
		printf("SET SESSION sql_mode = '%s';\n", strcmp(m, "empty") ?
		    m : "");
		/* the statements whose warnings are shown */
		printf("INSERT INTO w VALUES (1000);\n");
		for (i = 0; i < 6; i++)
			printf("INSERT INTO w VALUES (%u);\n", 1000 + i);
		for (t = 0; t < NPTYPES; t++) {
			printf("INSERT INTO t%u VALUES (%lu, NULL);\n", t,
			    ++id);
			for (r = 0; r < reps; r++)
				for (a = 0; a < NPKINDS; a++)
					for (b = a; b < NPKINDS; b++) {
						printf("INSERT INTO t%u VALUES",
						    t);
						for (i = 0; i < ntup; i++) {
							printf("%s(%lu,", i ?
							    "," : " ", ++id);
							pk_value(i % 2 ? b : a);
							putchar(')');
						}
						printf(";\n");
					}
		}
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

int
main(int argc, char *argv[])
{
	struct { unsigned ncols; unsigned type[12]; } tb[64];
	unsigned long	 rows = 10000, done = 0, ntables = 8, i, c, n, t, id;
	unsigned long	 ids = 0;
	unsigned	 verb, reps = 1, ntup = 4;
	const char	*pmodes = NULL;
	int		 ch, list;

	while ((ch = getopt(argc, argv, "k:n:p:r:s:t:")) != -1) {
		switch (ch) {
		case 'k': ntup = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'n': reps = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'p': pmodes = optarg; break;
		case 'r': rows = strtoul(optarg, NULL, 10); break;
		case 's': rng ^= strtoull(optarg, NULL, 10) * 0x9E3779B97F4A7C15ULL; break;
		case 't': ntables = strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: lit-gen [-p modes [-k tuples] [-n reps]] [-s seed] [-r rows] [-t tables] db\n");
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || ntables < 1 || ntables > 64)
		errx(2, "usage: lit-gen [-s seed] [-r rows] [-t tables] db");
	if (rng == 0)
		rng = 1;
	if (pmodes != NULL)
		return pairs_main(argv[0], pmodes, reps, ntup < 2 ? 2 : ntup);
	/* no notes: sqlexec counts none unless the input asks for them */
	printf("SET NAMES utf8mb4;\nSET time_zone = '+00:00';\n"
	    "SET sql_notes = 0;\nUSE `%s`;\n", argv[0]);
	for (t = 0; t < ntables; t++) {
		tb[t].ncols = 1 + pick(12);
		printf("CREATE TABLE t%lu (id INT PRIMARY KEY", t);
		for (c = 0; c < tb[t].ncols; c++) {
			tb[t].type[c] = pick(NTYPES);
			printf(", c%lu %s", c, types[tb[t].type[c]].decl);
		}
		printf(") DEFAULT CHARSET=utf8mb4;\n");
	}
	while (done < rows) {
		if (pick(8) == 0) {
			const char *m = modes[pick(sizeof(modes) /
			    sizeof(*modes))];

			printf("SET SESSION sql_mode = %s;\n", m);
			nbe = strstr(m, "NO_BACKSLASH_ESCAPES") != NULL;
		}
		t = pick(ntables);
		n = 1 + pick(40);
		clean = pick(4) != 0;
		switch ((verb = pick(10))) {
		case 0: printf("INSERT IGNORE INTO t%lu", t); break;
		case 1: printf("REPLACE INTO t%lu", t); break;
		default: printf("INSERT INTO t%lu", t);
		}
		/*
		 * With a column list or without; always an id, one that may
		 * be taken (for IGNORE and REPLACE to do something, and a
		 * duplicate to fail): no AUTO_INCREMENT, whose values after
		 * a failed statement are the server's business.
		 */
		list = pick(3) != 0;
		if (list) {
			printf(" (id");
			for (c = 0; c < tb[t].ncols; c++)
				printf(",c%lu", c);
			printf(")");
		}
		printf(" VALUES ");
		for (i = 0; i < n; i++) {
			/* new ids for INSERT; for IGNORE and REPLACE old ones */
			if (verb > 1 && pick(20) != 0)
				id = ++ids;
			else
				id = 1 + pick(ids + 10);
			printf("%s(%lu", i ? "," : "", id);
			for (c = 0; c < tb[t].ncols; c++) {
				putchar(',');
				literal(types[tb[t].type[c]].cls);
			}
			printf(")");
		}
		printf(";\n");
		done += n;
	}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
