/*
 * sql: a statement on a connection, ending dbsnap (sql_die()) when the
 * server refuses it; below the session and the catalogue, which both
 * run their statements through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"

/*
 * information_schema leaves out, with warning 1684 and no error, a table
 * whose metadata lock another session holds for DDL when the reading
 * connection holds locks of its own (waiting could deadlock): a RENAME
 * swap queued behind the dump's lock on one of its tables made a table
 * list without the swap's other table (t1180).  A result read so is not
 * the catalogue: the dump ends, naming the table.
 */
static void
check_skipped(MYSQL *m, const char *what)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	char		 msg[512];

	if (mysql_query(m, "SHOW WARNINGS") != 0 ||
	    (r = mysql_store_result(m)) == NULL)
		sql_die(m, what);
	msg[0] = '\0';
	while ((row = mysql_fetch_row(r)) != NULL)
		if (msg[0] == '\0' && row[1] != NULL && row[2] != NULL &&
		    strtoul(row[1], NULL, 10) == ER_WARN_I_S_SKIPPED_TABLE)
			snprintf(msg, sizeof(msg), "%s", row[2]);
	mysql_free_result(r);
	if (msg[0] != '\0')
		die_changed(the_snap, what, msg);
}

void
sql_exec(MYSQL *m, const char *what, const char *q, size_t len)
{
	MYSQL_RES	*r;

	if (mysql_real_query(m, q, len) != 0)
		sql_die(m, what);
	/* Statements like SHOW return a result; drain it. */
	if ((r = mysql_store_result(m)) != NULL)
		mysql_free_result(r);
	else if (mysql_errno(m) != 0)
		sql_die(m, what);
}

/* A stored (small) result; NULL only for a statement without one. */
MYSQL_RES *
sql_query(MYSQL *m, const char *what, const char *q, size_t len)
{
	MYSQL_RES	*r;

	if (mysql_real_query(m, q, len) != 0)
		sql_die(m, what);
	if ((r = mysql_store_result(m)) == NULL && mysql_errno(m) != 0)
		sql_die(m, what);
	if (mysql_warning_count(m) > 0)
		check_skipped(m, what);
	return r;
}
