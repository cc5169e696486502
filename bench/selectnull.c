/*
 * bench/selectnull [-b] SOCKET QUERY...: run each query on one connection
 * to the server at SOCKET (user root, no password), read its rows and drop
 * them.  The client does nothing else, so the time is what the server
 * needs to send the rows: the streaming limit that bench/dump measures
 * dump tools against (the mysql client, by contrast, spends CPU formatting
 * what it prints).  Default: the text protocol (mysql_use_result()).  -b:
 * the binary protocol, as dbsnap reads (a prepared statement executed
 * without a cursor, fetched row by row, each value handed to a callback
 * that ignores it).  Prints the rows read on stderr.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

static void
drop_value(void *data, unsigned int col, unsigned char **row)
{
	(void)data;
	(void)col;
	(void)row;
}

static unsigned long long
text_rows(MYSQL *m, const char *q)
{
	MYSQL_RES		*r;
	unsigned long long	 rows = 0;

	if (mysql_query(m, q) != 0 || (r = mysql_use_result(m)) == NULL)
		errx(1, "%s: %s", q, mysql_error(m));
	while (mysql_fetch_row(r) != NULL)
		rows++;
	if (mysql_errno(m) != 0)
		errx(1, "%s: %s", q, mysql_error(m));
	mysql_free_result(r);
	return rows;
}

static unsigned long long
binary_rows(MYSQL *m, const char *q)
{
	MYSQL_STMT		*st;
	unsigned long long	 rows = 0;
	int			 rc;

	if ((st = mysql_stmt_init(m)) == NULL ||
	    mysql_stmt_prepare(st, q, strlen(q)) != 0 ||
	    mysql_stmt_attr_set(st, STMT_ATTR_CB_RESULT,
	    (const void *)drop_value) != 0 ||
	    mysql_stmt_execute(st) != 0)
		errx(1, "%s: %s", q, st ? mysql_stmt_error(st) : "no memory");
	while ((rc = mysql_stmt_fetch(st)) == 0)
		rows++;
	if (rc != MYSQL_NO_DATA)
		errx(1, "%s: %s", q, mysql_stmt_error(st));
	mysql_stmt_close(st);
	return rows;
}

int
main(int argc, char *argv[])
{
	MYSQL			*m;
	unsigned long long	 rows = 0;
	int			 ch, i, binary = 0;

	while ((ch = getopt(argc, argv, "b")) != -1) {
		if (ch != 'b')
			errx(2, "usage: selectnull [-b] socket query ...");
		binary = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		errx(2, "usage: selectnull [-b] socket query ...");
	if ((m = mysql_init(NULL)) == NULL)
		errx(1, "mysql_init");
	if (mysql_real_connect(m, NULL, "root", NULL, NULL, 0, argv[0],
	    0) == NULL)
		errx(1, "connect: %s", mysql_error(m));
	/* As dbsnap: the bytes as stored, TIMESTAMPs in UTC. */
	if (mysql_query(m, "SET NAMES binary") != 0 ||
	    mysql_query(m, "SET time_zone = '+00:00'") != 0)
		errx(1, "session: %s", mysql_error(m));
	for (i = 1; i < argc; i++)
		rows += binary ? binary_rows(m, argv[i]) : text_rows(m, argv[i]);
	fprintf(stderr, "selectnull: %llu rows\n", rows);
	mysql_close(m);
	return 0;
}
