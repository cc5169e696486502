/*
 * stmtexec: run the FT_STMT frames of a rowpipe-stream(5) stream on a server,
 * one mysql_real_query() each, in order.  A test stand-in for sqlexec(1)
 * used by the sqlsplit tests (tests/cmd/t3*-sqlsplit-*.t).
 *
 *	stmtexec [-f] -S socket [-D db] < frames
 *
 * Connects as root without a password over the unix socket.  Results are
 * read and discarded.  Without -f the first failing statement stops it.
 * Exit 0 if every statement ran and the stream ended with its trailer,
 * 1 otherwise, 2 on a usage error.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

#include "frame.h"

static void
drain(MYSQL *my)
{
	MYSQL_RES	*res;

	do {
		if ((res = mysql_store_result(my)) != NULL)
			mysql_free_result(res);
	} while (mysql_next_result(my) == 0);
}

int
main(int argc, char *argv[])
{
	struct frame_reader	*fr;
	struct frame		 f;
	struct rp_stmt		 st;
	enum frame_status	 fs;
	MYSQL			*my;
	const char		*sock = NULL, *db = NULL;
	int			 ch, force = 0, failed = 0;

	while ((ch = getopt(argc, argv, "D:fS:")) != -1) {
		switch (ch) {
		case 'D':
			db = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 'S':
			sock = optarg;
			break;
		default:
			fprintf(stderr, "usage: stmtexec [-f] -S socket "
			    "[-D db]\n");
			return 2;
		}
	}
	if (sock == NULL)
		errx(2, "-S socket is required");
	if ((my = mysql_init(NULL)) == NULL)
		errx(1, "mysql_init");
	/* the mysql client's default in a UTF-8 locale */
	mysql_options(my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	if (mysql_real_connect(my, NULL, "root", NULL, db, 0, sock,
	    CLIENT_MULTI_RESULTS) == NULL)
		errx(1, "connect: %s", mysql_error(my));
	if ((fr = frame_reader_new(STDIN_FILENO, 0)) == NULL)
		err(1, "frame_reader_new");
	while ((fs = frame_read(fr, &f)) == FRAME_OK) {
		if (f.type != FT_STMT)
			continue;
		if (dec_stmt(&f, &st) == -1)
			errx(1, "corrupt statement frame");
		if (mysql_real_query(my, st.text, st.len) != 0) {
			warnx("statement %llu (line %llu): %s (%u)",
			    (unsigned long long)st.no,
			    (unsigned long long)st.line, mysql_error(my),
			    mysql_errno(my));
			failed = 1;
			if (!force)
				return 1;
			continue;
		}
		drain(my);
	}
	if (fs == FRAME_ERR)
		errx(1, "%s", frame_reader_errstr(fr));
	frame_reader_free(fr);
	mysql_close(my);
	return failed;
}
