/*
 * bench/valfloor [-n] SOCKET MODE FIRST COUNT BYTES: insert rows FIRST ..
 * FIRST+COUNT-1 of BYTES-byte values into vb.b (id int PRIMARY KEY, v
 * LONGBLOB) on one connection to the server at SOCKET (user root, no
 * password), one statement a row, each in its own transaction
 * (autocommit), by one of the write paths the server offers:
 *
 *	text	INSERT INTO b VALUES (id, _binary'...'), the value escaped by
 *		mysql_real_escape_string(3)
 *	hex	INSERT INTO b VALUES (id, 0x...)
 *	prep	a prepared INSERT, the value bound whole (one COM_STMT_EXECUTE)
 *	long	the same, the value sent by mysql_stmt_send_long_data(3) in
 *		pieces of 16 MiB (VALFLOOR_PIECE bytes)
 *	bulk	the same as prep by the bulk execute (STMT_ATTR_ARRAY_SIZE 1)
 *	bulklong the bulk execute, the value sent as by long (MariaDB 10.11
 *		refuses it: "Incorrect arguments to mysqld_stmt_bulk_execute")
 *
 * The value is made once, before the clock the caller reads starts to
 * matter (it is a few ms), as bench/scale makes its values: MD5-like
 * 16-byte blocks repeated, here from a counter.  -n: sql_log_bin=0 (no
 * binary log).  The floor of the write paths, for bench/scale's values
 * (issue 26): the client does nothing else.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mysql.h>

static void
fill(unsigned char *p, size_t n, unsigned seed)
{
	unsigned long long	 x = 0x9e3779b97f4a7c15ULL * (seed + 1);
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (i % 8 == 0) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		p[i] = (unsigned char)(x >> (8 * (i % 8)));
	}
}

int
main(int argc, char *argv[])
{
	MYSQL		*my;
	MYSQL_STMT	*st;
	MYSQL_BIND	 b[2];
	unsigned char	*v;
	char		*vp;
	char		*q, *mode;
	unsigned long	 len;
	size_t		 bytes, off, k, ql, piece = 16777216;
	unsigned int	 one = 1;
	int		 id, first, count, nolog = 0;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		nolog = 1;
		argc--, argv++;
	}
	if (argc != 6)
		errx(2, "usage: valfloor [-n] socket text|hex|prep|long|bulk|bulklong "
		    "first count bytes");
	mode = argv[2];
	first = atoi(argv[3]);
	count = atoi(argv[4]);
	bytes = strtoull(argv[5], NULL, 10);
	if (getenv("VALFLOOR_PIECE") != NULL)
		piece = strtoull(getenv("VALFLOOR_PIECE"), NULL, 10);
	if ((v = malloc(bytes)) == NULL || (q = malloc(2 * bytes + 64)) == NULL)
		err(1, "malloc");
	fill(v, bytes, first);
	vp = (char *)v;
	if ((my = mysql_init(NULL)) == NULL)
		errx(1, "mysql_init");
	len = 1UL << 30;
	mysql_options(my, MYSQL_OPT_MAX_ALLOWED_PACKET, &len);
	if (mysql_real_connect(my, NULL, "root", NULL, "vb", 0, argv[1], 0) ==
	    NULL)
		errx(1, "connect: %s", mysql_error(my));
	if (nolog && mysql_query(my, "SET sql_log_bin = 0") != 0)
		errx(1, "%s", mysql_error(my));
	if (getenv("VALFLOOR_INIT") != NULL &&
	    mysql_query(my, getenv("VALFLOOR_INIT")) != 0)
		errx(1, "%s", mysql_error(my));
	st = mysql_stmt_init(my);
	if (strcmp(mode, "text") != 0 && strcmp(mode, "hex") != 0 &&
	    mysql_stmt_prepare(st, "INSERT INTO b VALUES (?, ?)", 27) != 0)
		errx(1, "prepare: %s", mysql_stmt_error(st));
	for (id = first; id < first + count; id++) {
		v[0] = (unsigned char)id;
		if (strcmp(mode, "text") == 0 || strcmp(mode, "hex") == 0) {
			ql = (size_t)sprintf(q, "INSERT INTO b VALUES (%d, %s",
			    id, mode[0] == 't' ? "_binary'" : "0x");
			if (mode[0] == 't') {
				ql += mysql_real_escape_string(my, q + ql,
				    (char *)v, bytes);
				q[ql++] = '\'';
			} else
				ql += mysql_hex_string(q + ql, (char *)v, bytes);
			q[ql++] = ')';
			if (mysql_real_query(my, q, ql) != 0)
				errx(1, "insert: %s", mysql_error(my));
			continue;
		}
		memset(b, 0, sizeof(b));
		b[0].buffer_type = MYSQL_TYPE_LONG;
		b[0].buffer = &id;
		b[1].buffer_type = MYSQL_TYPE_BLOB;
		/* (the bulk execute's buffer: an array of pointers) */
		b[1].buffer = strncmp(mode, "bulk", 4) == 0 ? (void *)&vp :
		    (void *)v;
		b[1].buffer_length = bytes;
		len = bytes;
		b[1].length = &len;
		if (strncmp(mode, "bulk", 4) == 0 &&
		    mysql_stmt_attr_set(st, STMT_ATTR_ARRAY_SIZE, &one) != 0)
			errx(1, "attr: %s", mysql_stmt_error(st));
		if (mysql_stmt_bind_param(st, b) != 0)
			errx(1, "bind: %s", mysql_stmt_error(st));
		if (strcmp(mode, "long") == 0 || strcmp(mode, "bulklong") == 0)
			for (off = 0; off < bytes; off += k) {
				k = bytes - off < piece ? bytes - off : piece;
				if (mysql_stmt_send_long_data(st, 1,
				    (char *)v + off, k) != 0)
					errx(1, "long data: %s",
					    mysql_stmt_error(st));
			}
		if (mysql_stmt_execute(st) != 0)
			errx(1, "execute: %s", mysql_stmt_error(st));
	}
	mysql_stmt_close(st);
	mysql_close(my);
	free(q);
	free(v);
	return 0;
}
