/*
 * connect: sqlexec's -j connections (lib/conn's conn_open(), with
 * CLIENT_MULTI_STATEMENTS), each with the session the run needs, and
 * the round-trip size that fits the server's max_allowed_packet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlexec.h"

static int
setup_session(struct sx *x, MYSQL *m, char *errbuf, size_t errlen)
{
	struct buf	 b = BUF_INIT;
	int		 rc = 0;

	if (x->o->charset != NULL) {
		if (mysql_set_character_set(m, x->o->charset) != 0) {
			snprintf(errbuf, errlen, "--default-character-set %s: "
			    "%s", x->o->charset, mysql_error(m));
			return -1;
		}
	}
	/*
	 * foreign_key_checks stays the server's: a statement stream's own
	 * SETs decide it, as for the mysql client (checks.c); a snapshot
	 * stream's session turns it off (ld_session()).  unique_checks=1 is
	 * the default, set so that only bulk units run without it (worker.c).
	 */
	buf_adds(&b, "SET SESSION unique_checks=1, sql_notes=0,");
	if (x->o->no_binlog)
		buf_adds(&b, " sql_log_bin=0,");
	buf_adds(&b, " autocommit=1");
	if (b.err || mysql_real_query(m, b.p, b.len) != 0) {
		snprintf(errbuf, errlen, "%s: %s (%u, %s)", b.p, mysql_error(m),
		    mysql_errno(m), mysql_sqlstate(m));
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

int
sx_connect(struct sx *x)
{
	char		 errbuf[512];
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	unsigned long	 pkt = 16 << 20;
	int		 i;

	x->conn = calloc(x->o->jobs, sizeof(*x->conn));
	x->conn_id = calloc(x->o->jobs, sizeof(*x->conn_id));
	x->busy = calloc(x->o->jobs, sizeof(*x->busy));
	if (x->conn == NULL || x->conn_id == NULL || x->busy == NULL) {
		fprintf(stderr, "%s: %s\n", getprogname(), strerror(ENOMEM));
		return -1;
	}
	for (i = 0; i < x->o->jobs; i++) {
		x->conn[i] = conn_open(&x->o->conn, x->o->db,
		    CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS, errbuf,
		    sizeof(errbuf));
		if (x->conn[i] == NULL) {
			fprintf(stderr, "%s: connect: %s\n", getprogname(),
			    errbuf);
			return -1;
		}
		x->nconn++;
		x->conn_id[i] = mysql_thread_id(x->conn[i]);
		if (setup_session(x, x->conn[i], errbuf, sizeof(errbuf))) {
			fprintf(stderr, "%s: %s\n", getprogname(), errbuf);
			return -1;
		}
	}
	if (mysql_query(x->conn[0], "SELECT @@max_allowed_packet") == 0 &&
	    (res = mysql_store_result(x->conn[0])) != NULL) {
		if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL) {
			pkt = strtoul(row[0], NULL, 10);
			x->max_packet = pkt;
		}
		mysql_free_result(res);
	}
	x->batch_cap = x->o->batch_bytes;
	if (pkt > 4096 && x->batch_cap > pkt - 1024)
		x->batch_cap = pkt - 1024;
	return 0;
}

void
sx_disconnect(struct sx *x)
{
	int	 i;

	for (i = 0; i < x->nconn; i++)
		mysql_close(x->conn[i]);
	free(x->conn);
	free(x->conn_id);
	free(x->busy);
	x->conn = NULL;
	x->conn_id = NULL;
	x->busy = NULL;
	x->nconn = 0;
}
