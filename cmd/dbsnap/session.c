/*
 * session: connections, their session settings, and the consistent
 * snapshot shared by every worker.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

/*
 * Every connection gets these.  SET NAMES binary makes the server send each
 * column's stored bytes unconverted, whatever its charset (sjis, gbk, big5
 * second bytes of 0x5C stay as they are); DDL comes in the server's utf8.
 * time_zone +00:00 renders TIMESTAMP as UTC.  sql_mode '' keeps
 * PAD_CHAR_TO_FULL_LENGTH and ANSI_QUOTES away from what we read and write.
 */
static const char *const session_sql[] = {
	"SET NAMES binary",
	"SET SESSION time_zone = '+00:00'",
	"SET SESSION sql_mode = ''",
	"SET SESSION sql_quote_show_create = 1",
	"SET SESSION net_read_timeout = 86400",
	"SET SESSION net_write_timeout = 86400",
	"SET SESSION wait_timeout = 86400",
	"SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
	/* every warning kept: a table information_schema skipped is one
	 * (query.c), after 64 others it was not (the default) */
	"SET SESSION max_error_count = 65535",
};

/*
 * use_stat_tables NEVER: else every statement that opens a table not yet
 * opened reads its engine-independent statistics, opening
 * mysql.table_stats, column_stats and index_stats, and each open searches
 * the connection's metadata locks one by one; the snapshot transaction
 * holds one for every table it has opened (ROLLBACK TO SAVEPOINT does not
 * release them while the binary log is on), so the catalogue's cost per
 * table grew with the tables before it (0.07 ms for a LIMIT 0 at 400
 * tables, 0.49 ms at 4,000).  The rows read are the same: every SELECT
 * orders by a unique key or reads a whole table.
 */
static const char *const session_sql_mariadb[] = {
	"SET SESSION max_statement_time = 0",
	"SET SESSION use_stat_tables = NEVER",
};

int
is_mariadb(MYSQL *m)
{
	const char	*v = mysql_get_server_info(m);

	return v != NULL && strstr(v, "MariaDB") != NULL;
}

MYSQL *
session_open(struct snap *s)
{
	MYSQL	*m;
	char	 e[512], q[64];
	size_t	 i;

	if ((m = conn_open(&s->o->conn, NULL, 0, e, sizeof(e))) == NULL)
		die(s, "connect: %s", e);
	for (i = 0; i < sizeof(session_sql) / sizeof(session_sql[0]); i++)
		sql_exec(m, "session set-up", session_sql[i],
		    strlen(session_sql[i]));
	if (is_mariadb(m))
		for (i = 0; i < sizeof(session_sql_mariadb) /
		    sizeof(session_sql_mariadb[0]); i++)
			sql_exec(m, "session set-up", session_sql_mariadb[i],
			    strlen(session_sql_mariadb[i]));
	/*
	 * Every connection, not only the one that takes the global read
	 * lock: a worker's first read of a table can queue behind an ALTER
	 * that itself waits for the metadata lock conns[0] holds to the end,
	 * a wait the server does not see as a deadlock; with the server's
	 * default (a day) the dump, the ALTER and every application query on
	 * that table behind it would wait that long.
	 */
	snprintf(q, sizeof(q), "SET SESSION lock_wait_timeout = %u",
	    s->o->lock_wait_timeout);
	sql_exec(m, "session set-up", q, strlen(q));
	return m;
}

/* The first row's first columns as owned strings; NULL if no row. */
static char *
query_value(MYSQL *m, const char *what, const char *q, int col)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	unsigned long	*len;
	char		*v = NULL;

	r = sql_query(m, what, q, strlen(q));
	if (r != NULL && (row = mysql_fetch_row(r)) != NULL &&
	    (int)mysql_num_fields(r) > col && row[col] != NULL) {
		len = mysql_fetch_lengths(r);
		v = xstrndup(row[col], len[col]);
	}
	if (r != NULL)
		mysql_free_result(r);
	return v;
}

/*
 * 1 if the binary log ends at file and pos (SHOW MASTER STATUS), 0 if it
 * does not or the statement is refused (it needs BINLOG MONITOR).
 */
static int
binlog_ends_at(MYSQL *m, const char *file, const char *pos)
{
	static const char q[] = "SHOW MASTER STATUS";
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	int		 at = 0;

	if (mysql_real_query(m, q, sizeof(q) - 1) != 0)
		return 0;
	if ((r = mysql_store_result(m)) == NULL)
		return 0;
	if ((row = mysql_fetch_row(r)) != NULL && mysql_num_fields(r) >= 2 &&
	    row[0] != NULL && row[1] != NULL && strcmp(row[0], file) == 0 &&
	    strcmp(row[1], pos) == 0)
		at = 1;
	mysql_free_result(r);
	return at;
}

/*
 * The GTID position of a snapshot at file and pos taken without a lock.
 * If the binary log still ends there after @@gtid_binlog_pos was read,
 * nothing was logged since the snapshot (a commit updates the GTID state
 * under the log's lock, which SHOW MASTER STATUS waits for, and then
 * writes its events), so that is the snapshot's position; else
 * BINLOG_GTID_POS(), which reads the log from its start to pos (16 KiB
 * reads: 20 ms of server CPU per 72 MB of binary log).  Owned string or
 * NULL.
 */
static char *
unlocked_gtid(struct snap *s, MYSQL *m, const char *file, const char *pos)
{
	struct buf	 q = BUF_INIT;
	char		*gtid;

	gtid = query_value(m, "gtid position",
	    "SELECT @@GLOBAL.gtid_binlog_pos", 0);
	if (gtid != NULL && binlog_ends_at(m, file, pos))
		return gtid;
	free(gtid);
	buf_adds(&q, "SELECT BINLOG_GTID_POS(");
	quote_string(&q, file, strlen(file));
	buf_addf(&q, ", %s)", pos);
	if (q.err)
		die(s, "out of memory");
	gtid = query_value(m, "gtid position", q.p, 0);
	buf_release(&q);
	return gtid;
}

/*
 * MariaDB's binlog_snapshot_file and binlog_snapshot_position as owned
 * strings (NULL if absent): one SHOW STATUS, as each fills every status
 * variable before it filters (8M instructions of the server).
 */
static void
snapshot_status(MYSQL *m, char **file, char **pos)
{
	static const char q[] = "SHOW STATUS WHERE Variable_name IN "
	    "('binlog_snapshot_file', 'binlog_snapshot_position')";
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	unsigned long	*len;

	r = sql_query(m, "binlog position", q, sizeof(q) - 1);
	while (r != NULL && (row = mysql_fetch_row(r)) != NULL) {
		if (mysql_num_fields(r) < 2 || row[0] == NULL ||
		    row[1] == NULL)
			continue;
		len = mysql_fetch_lengths(r);
		if (strcasecmp(row[0], "binlog_snapshot_file") == 0 &&
		    *file == NULL)
			*file = xstrndup(row[1], len[1]);
		else if (strcasecmp(row[0], "binlog_snapshot_position") == 0 &&
		    *pos == NULL)
			*pos = xstrndup(row[1], len[1]);
	}
	if (r != NULL)
		mysql_free_result(r);
}

/* Binlog file and position consistent with conns[0]'s snapshot. */
static void
record_position(struct snap *s, int locked)
{
	MYSQL	*m = s->conns[0];
	char	*file = NULL, *pos = NULL, *gtid = NULL, *t;

	/* MariaDB: consistent with the snapshot even without a lock. */
	if (is_mariadb(m))
		snapshot_status(m, &file, &pos);
	else if (locked) {
		file = query_value(m, "binlog position",
		    "SHOW MASTER STATUS", 0);
		pos = query_value(m, "binlog position",
		    "SHOW MASTER STATUS", 1);
	}
	if (file != NULL && *file != '\0' && pos != NULL) {
		attrs_add(&s->header, "binlog_file", file);
		attrs_add(&s->header, "binlog_pos", pos);
		/*
		 * Under the global read lock nothing is committed, so the
		 * snapshot's position is the binary log's end and its GTID
		 * position the server's own.
		 */
		if (is_mariadb(m) && locked)
			gtid = query_value(m, "gtid position",
			    "SELECT @@GLOBAL.gtid_binlog_pos", 0);
		else if (is_mariadb(m))
			gtid = unlocked_gtid(s, m, file, pos);
		else if (locked)
			gtid = query_value(m, "gtid position",
			    "SELECT @@GLOBAL.gtid_executed", 0);
		if (gtid != NULL && *gtid != '\0')
			attrs_add(&s->header, "gtid_binlog_pos", gtid);
	}
	t = query_value(m, "snapshot time",
	    "SELECT DATE_FORMAT(UTC_TIMESTAMP(), '%Y-%m-%d %H:%i:%s')", 0);
	attrs_add(&s->header, "snapshot_time", t != NULL ? t : "");
	free(file);
	free(pos);
	free(gtid);
	free(t);
}

static const char start_snapshot[] =
    "START TRANSACTION WITH CONSISTENT SNAPSHOT";

void
session_snapshot(struct snap *s)
{
	const char	*unlock = NULL;
	unsigned	 i;

	if (s->o->jobs > 1 && !s->o->no_lock)
		unlock = take_read_lock(s);
	for (i = 0; i < s->o->jobs; i++)
		sql_exec(s->conns[i], "start snapshot", start_snapshot,
		    sizeof(start_snapshot) - 1);
	record_position(s, unlock != NULL);
	if (unlock != NULL)
		sql_exec(s->conns[0], "unlock", unlock, strlen(unlock));
	if (s->o->jobs > 1 && s->o->no_lock) {
		s->consistency = "none";
		warnx("warning: --no-lock with %u jobs: the connections do "
		    "not share one snapshot", s->o->jobs);
	} else
		s->consistency = "snapshot";
}
