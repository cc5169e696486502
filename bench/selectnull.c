/*
 * bench/selectnull [-b] SOCKET QUERY...: run each query on one connection
 * to the server at SOCKET (user root, no password), read its rows and drop
 * them.  The client does nothing else, so the time is what the server
 * needs to send the rows: the streaming limit that bench/dump measures
 * dump tools against (the mysql client, by contrast, spends CPU formatting
 * what it prints).  Default: the text protocol (mysql_use_result()).  -b:
 * the binary protocol, as dbsnap reads (a prepared statement executed
 * without a cursor, fetched row by row, each value handed to a callback
 * that steps over it).  Prints the rows read on stderr.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

/*
 * Step over one value (Connector/C checks each length against the packet
 * as the callback moves on, so even a client that drops it must).
 */
static void
drop_value(void *data, unsigned int col, unsigned char **row)
{
	const MYSQL_FIELD	*f = data;
	unsigned char		*p;
	unsigned long long	 n;

	if (row == NULL)
		return;		/* NULL */
	p = *row;
	switch (f[col].type) {
	case MYSQL_TYPE_TINY:
		*row = p + 1;
		return;
	case MYSQL_TYPE_SHORT:
	case MYSQL_TYPE_YEAR:
		*row = p + 2;
		return;
	case MYSQL_TYPE_LONG:
	case MYSQL_TYPE_INT24:
	case MYSQL_TYPE_FLOAT:
		*row = p + 4;
		return;
	case MYSQL_TYPE_LONGLONG:
	case MYSQL_TYPE_DOUBLE:
		*row = p + 8;
		return;
	default:
		break;
	}
	if (*p < 0xfb)
		n = *p++;
	else if (*p == 0xfc)
		n = p[1] | (unsigned)p[2] << 8, p += 3;
	else if (*p == 0xfd)
		n = p[1] | (unsigned)p[2] << 8 | (unsigned long)p[3] << 16, p += 4;
	else {
		memcpy(&n, p + 1, 8);
		p += 9;
	}
	*row = p + n;
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
	MYSQL_RES		*md;
	unsigned long long	 rows = 0;
	int			 rc;

	if ((st = mysql_stmt_init(m)) == NULL ||
	    mysql_stmt_prepare(st, q, strlen(q)) != 0 ||
	    (md = mysql_stmt_result_metadata(st)) == NULL ||
	    mysql_stmt_attr_set(st, STMT_ATTR_CB_USER_DATA,
	    mysql_fetch_fields(md)) != 0 ||
	    mysql_stmt_attr_set(st, STMT_ATTR_CB_RESULT,
	    (const void *)drop_value) != 0 ||
	    mysql_stmt_execute(st) != 0)
		errx(1, "%s: %s", q, st ? mysql_stmt_error(st) : "no memory");
	while ((rc = mysql_stmt_fetch(st)) == 0)
		rows++;
	if (rc != MYSQL_NO_DATA)
		errx(1, "%s: %s", q, mysql_stmt_error(st));
	mysql_free_result(md);
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
