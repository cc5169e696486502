/*
 * sql: a statement on a connection, ending dbsnap (sql_die()) when the
 * server refuses it; below the session and the catalogue, which both
 * run their statements through it.
 */
#include <mysql.h>

#include "dbsnap.h"
#include "report.h"

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
	return r;
}
