/*
 * bench/selectnull SOCKET QUERY...: run each query on one connection to
 * the server at SOCKET (user root, no password), read its rows with
 * mysql_use_result() and drop them.  The client does nothing else, so the
 * time is what the server needs to send the rows: the streaming limit that
 * bench/dump measures dump tools against (the mysql client, by contrast,
 * spends CPU formatting what it prints).  Prints the rows read on stderr.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

int
main(int argc, char *argv[])
{
	MYSQL		*m;
	MYSQL_RES	*r;
	unsigned long long rows = 0;
	int		 i;

	if (argc < 3)
		errx(2, "usage: selectnull socket query ...");
	if ((m = mysql_init(NULL)) == NULL)
		errx(1, "mysql_init");
	if (mysql_real_connect(m, NULL, "root", NULL, NULL, 0, argv[1],
	    0) == NULL)
		errx(1, "connect: %s", mysql_error(m));
	/* As dbsnap: the bytes as stored, TIMESTAMPs in UTC. */
	if (mysql_query(m, "SET NAMES binary") != 0 ||
	    mysql_query(m, "SET time_zone = '+00:00'") != 0)
		errx(1, "session: %s", mysql_error(m));
	for (i = 2; i < argc; i++) {
		if (mysql_query(m, argv[i]) != 0 ||
		    (r = mysql_use_result(m)) == NULL)
			errx(1, "%s: %s", argv[i], mysql_error(m));
		while (mysql_fetch_row(r) != NULL)
			rows++;
		if (mysql_errno(m) != 0)
			errx(1, "%s: %s", argv[i], mysql_error(m));
		mysql_free_result(r);
	}
	fprintf(stderr, "selectnull: %llu rows\n", rows);
	mysql_close(m);
	return 0;
}
