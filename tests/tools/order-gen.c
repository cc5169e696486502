/*
 * order-gen: random SQL scripts whose result depends on the order of
 * their statements and on one connection's state, for sqlexec's ordering
 * differential test (issue #24): INSERTs whose AUTO_INCREMENT values the
 * server assigns (column left out, NULL, 0), LAST_INSERT_ID() and user
 * variables read and assigned in INSERTs and SETs, SET INSERT_ID,
 * SELECT ... INTO @var, REPLACE and INSERT
 * IGNORE of the same keys, UPDATEs and DELETEs, the input's own
 * multi-table transactions, DDL between them (ALTER TABLE, CREATE
 * TABLE), stored procedures (with DELIMITER) and their CALLs, rows that
 * warn, and many ordinary INSERTs of explicit keys between them.  The
 * same text runs through the mysql client and through sqlsplit | sqlexec
 * at any -j; the databases must be equal value by value.
 *
 *	order-gen [-s seed] [-n steps] [-T] db
 *
 * Writes SQL on stdout, deterministic for a seed; -T ends with a
 * temporary table (which makes sqlexec serial from there).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static uint64_t	 rng = 0x2545F4914F6CDD1DULL;

/* xorshift64*: reproducible everywhere. */
static unsigned
pick(unsigned n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned)((rng * 2685821657736338717ULL) >> 33) % n;
}

/* explicit AUTO_INCREMENT ids far apart: the server's follow each */
static unsigned long	 ckey = 1, bkey = 1, xid = 1000000;
static unsigned		 ncols, nproc, ntables;

/* Ordinary INSERTs of explicit keys, several tuples: the parallel path. */
static void
plain(void)
{
	unsigned	 i, n = 1 + pick(20);

	printf("INSERT INTO c (k, v) VALUES ");
	for (i = 0; i < n; i++)
		printf("%s(%lu, %u)", i ? "," : "", ckey++, pick(1000));
	printf(";\n");
	if (pick(2)) {
		printf("INSERT INTO b VALUES ");
		for (i = 0, n = 1 + pick(10); i < n; i++)
			printf("%s(%lu, %u, %u)", i ? "," : "", bkey++,
			    pick(50), pick(1000));
		printf(";\n");
	}
}

static void
step(int late)
{
	unsigned	 r = pick(100);

	if (r < 30) {
		plain();
	} else if (r < 38) {
		/* the server assigns: column left out, NULL, 0 */
		switch (pick(3)) {
		case 0:
			printf("INSERT INTO a (v, s) VALUES (%u, 's%u');\n",
			    pick(1000), pick(100));
			break;
		case 1:
			printf("INSERT INTO a VALUES (NULL, %u, 'n'), "
			    "(NULL, %u, 'n');\n", pick(1000), pick(1000));
			break;
		default:
			printf("INSERT INTO a VALUES (0, %u, 'z');\n",
			    pick(1000));
		}
	} else if (r < 42) {
		/* explicit ids above the others: the counter moves */
		printf("INSERT INTO a VALUES (%lu, %u, 'x');\n", xid,
		    pick(1000));
		xid += 10000;
	} else if (r < 48) {
		printf("INSERT INTO a (v) VALUES (%u);\n", pick(100));
		printf("INSERT INTO b VALUES (%lu, LAST_INSERT_ID(), %u);\n",
		    bkey++, pick(1000));
	} else if (r < 53) {
		printf("SET @n := %u;\n", pick(10));
		printf("INSERT INTO log (what, n) VALUES ('n', @n := @n + 1), "
		    "('n', @n := @n * 2);\n");
		printf("INSERT INTO log (what, n) VALUES ('n', @n);\n");
	} else if (r < 57) {
		printf("UPDATE c SET v = v + 1 WHERE k %% 5 = %u;\n", pick(5));
	} else if (r < 60) {
		printf("DELETE FROM b WHERE id %% 7 = %u;\n", pick(7));
	} else if (r < 65) {
		/* the input's own transaction, over several tables */
		printf("BEGIN;\nINSERT INTO a (v, s) VALUES (%u, 't');\n"
		    "INSERT INTO b VALUES (%lu, LAST_INSERT_ID(), 1);\n"
		    "UPDATE c SET v = v - 1 WHERE k = %lu;\n%s;\n",
		    pick(1000), bkey++, 1 + (unsigned long)pick((unsigned)ckey),
		    pick(4) ? "COMMIT" : "ROLLBACK");
	} else if (r < 67 && ncols < 6) {
		printf("ALTER TABLE c ADD COLUMN x%u INT DEFAULT %u;\n", ncols,
		    ncols);
		ncols++;
	} else if (r < 69 && ntables < 6) {
		printf("CREATE TABLE d%u (id INT AUTO_INCREMENT PRIMARY KEY, "
		    "v INT);\nINSERT INTO d%u (v) VALUES (1), (2);\n"
		    "INSERT INTO log (what, n) VALUES ('d', "
		    "LAST_INSERT_ID());\n",
		    ntables, ntables);
		ntables++;
	} else if (r < 72 && nproc < 5 && late) {
		printf("DELIMITER //\nCREATE PROCEDURE p%u(x INT)\nBEGIN\n"
		    "  INSERT INTO a (v, s) VALUES (x, 'p');\n"
		    "  SET @p = LAST_INSERT_ID();\n"
		    "  INSERT INTO log (what, n) VALUES ('p', @p);\n"
		    "END//\nDELIMITER ;\nCALL p%u(%u);\n", nproc, nproc,
		    pick(100));
		nproc++;
	} else if (r < 75) {
		printf("SET INSERT_ID = %lu;\nINSERT INTO a (v) VALUES (%u);\n",
		    xid, pick(100));
		xid += 10000;
	} else if (r < 79) {
		printf("SET @x = LAST_INSERT_ID();\n"
		    "INSERT INTO log (what, n) VALUES ('x', @x);\n");
	} else if (r < 83) {
		printf("REPLACE INTO r VALUES (%u, %u);\n", pick(20),
		    pick(1000));
		printf("INSERT INTO r VALUES (%u, 1) ON DUPLICATE KEY UPDATE "
		    "v = v + 1;\n", pick(20));
	} else if (r < 86) {
		printf("INSERT IGNORE INTO b VALUES (%u, 0, %u);\n",
		    1 + pick((unsigned)bkey), pick(1000));
	} else if (r < 89) {
		printf("SELECT MAX(v) INTO @m FROM c;\n"
		    "INSERT INTO log (what, n) VALUES ('m', @m);\n");
	} else if (r < 91) {
		printf("INSERT INTO log (what, n) SELECT 'sum', SUM(v) FROM "
		    "a;\n");
	} else if (r < 94) {
		/* a warning (sql_mode is not strict) */
		printf("INSERT INTO c (k, v) VALUES (%lu, '%ux');\n", ckey++,
		    pick(100));
	} else {
		printf("INSERT INTO a VALUES (NULL, %u, 'q'), (%lu, 1, 'q');\n",
		    pick(100), xid);
		xid += 10000;
	}
}

int
main(int argc, char *argv[])
{
	unsigned long	 n = 500, i;
	int		 ch, tmp = 0;

	while ((ch = getopt(argc, argv, "n:s:T")) != -1) {
		switch (ch) {
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 's':
			rng ^= strtoull(optarg, NULL, 10) *
			    0x9E3779B97F4A7C15ULL;
			break;
		case 'T': tmp = 1; break;
		default:
			errx(2, "usage: order-gen [-s seed] [-n steps] "
			    "[-T] db");
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		errx(2, "usage: order-gen [-s seed] [-n steps] [-T] db");
	if (rng == 0)
		rng = 1;
	printf("USE `%s`;\nSET sql_mode = '';\nSET sql_notes = 0;\n"
	    "CREATE TABLE a (id INT AUTO_INCREMENT PRIMARY KEY, v INT, "
	    "s VARCHAR(20));\n"
	    "CREATE TABLE b (id INT PRIMARY KEY, aid BIGINT, v INT);\n"
	    "CREATE TABLE c (k INT PRIMARY KEY, v INT);\n"
	    "CREATE TABLE r (k INT PRIMARY KEY, v INT);\n"
	    "CREATE TABLE log (id INT AUTO_INCREMENT PRIMARY KEY, "
	    "what VARCHAR(10), n BIGINT);\n", argv[0]);
	/* procedures only in the second half: CALL makes sqlexec serial */
	for (i = 0; i < n; i++)
		step(i >= n / 2);
	if (tmp)
		printf("CREATE TEMPORARY TABLE tt (v INT);\n"
		    "INSERT INTO tt SELECT v FROM a;\n"
		    "INSERT INTO log (what, n) SELECT 'tt', COUNT(*) "
		    "FROM tt;\n");
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
