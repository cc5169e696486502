/*
 * leftout: what exists in the dumped databases but is not in the stream
 * (routines without -R, events without -E, triggers with
 * --skip-triggers, and with -A the accounts without --users and the
 * system databases mysql and sys), counted in the snapshot and named in
 * one line at the end with the option that includes it, so that a copy never leaves them
 * out silently.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "dbsnap.h"

/* " IN ('db1','db2')" for the dumped databases, into q. */
static void
in_dbs(struct snap *s, struct buf *q)
{
	size_t	 i;

	buf_adds(q, " IN (");
	for (i = 0; i < s->o->ndbs; i++) {
		if (i > 0)
			buf_addc(q, ',');
		lit(q, s->o->dbs[i]);
	}
	buf_addc(q, ')');
}

/* Rows of "kind, count" into the counters. */
static void
count(struct snap *s, const char *what, const char *select,
    const char *schema_col)
{
	struct buf	 q = BUF_INIT;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	uint64_t	 n;

	buf_addf(&q, "%s WHERE %s", select, schema_col);
	in_dbs(s, &q);
	buf_adds(&q, " GROUP BY 1");
	r = query_buf(s, what, &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		n = row[1] != NULL ? strtoull(row[1], NULL, 10) : 0;
		if (strcmp(row[0], "FUNCTION") == 0)
			s->left.functions += n;
		else if (strcmp(row[0], "PROCEDURE") == 0)
			s->left.procedures += n;
		else if (strcmp(row[0], "PACKAGE") == 0)
			s->left.packages += n;
		else if (strcmp(row[0], "PACKAGE BODY") == 0)
			s->left.package_bodies += n;
		else if (strcmp(row[0], "EVENT") == 0)
			s->left.events += n;
		else if (strcmp(row[0], "TRIGGER") == 0)
			s->left.triggers += n;
	}
	mysql_free_result(r);
	buf_release(&q);
}

/*
 * -A without --users: the accounts and roles (mysql.user), which a server
 * migration needs too.  Without the privilege to read them, no count.
 */
static void
count_accounts(struct snap *s)
{
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	static const char q[] = "SELECT SUM(is_role <> 'Y'), SUM(is_role = "
	    "'Y') FROM mysql.user";

	if (mysql_real_query(s->conns[0], q, sizeof(q) - 1) != 0 ||
	    (r = mysql_store_result(s->conns[0])) == NULL)
		return;
	if ((row = mysql_fetch_row(r)) != NULL) {
		s->left.users = row[0] != NULL ? strtoull(row[0], NULL, 10) : 0;
		s->left.roles = row[1] != NULL ? strtoull(row[1], NULL, 10) : 0;
	}
	mysql_free_result(r);
}

void
count_left_out(struct snap *s)
{
	int	 whole = s->o->ntables == 0;

	if (s->o->ndbs == 0)
		return;
	if (whole && !s->o->routines)
		count(s, "routines", "SELECT ROUTINE_TYPE, COUNT(*) FROM "
		    "information_schema.ROUTINES", "ROUTINE_SCHEMA");
	if (whole && !s->o->events)
		count(s, "events", "SELECT 'EVENT', COUNT(*) FROM "
		    "information_schema.EVENTS", "EVENT_SCHEMA");
	if (!s->o->triggers)
		count(s, "triggers", "SELECT 'TRIGGER', COUNT(*) FROM "
		    "information_schema.TRIGGERS", "TRIGGER_SCHEMA");
	if (s->o->all_databases && !s->o->users)
		count_accounts(s);
}

/* ", 2 procedures" */
static void
add(struct buf *b, uint64_t n, const char *one, const char *many)
{
	if (n == 0)
		return;
	buf_addf(b, "%s%" PRIu64 " %s", b->len > 0 ? ", " : "", n,
	    n == 1 ? one : many);
}

/*
 * ", the databases mysql, sys (-A skips them; name them to dump them:
 * -B mysql sys)" for names "mysql sys".
 */
static void
system_dbs(struct buf *b, const char *names)
{
	int		 many = strchr(names, ' ') != NULL;
	const char	*it = many ? "them" : "it", *p;

	buf_addf(b, "%sthe database%s ", b->len > 0 ? ", " : "",
	    many ? "s" : "");
	for (p = names; *p != '\0'; p++)
		if (*p == ' ')
			buf_adds(b, ", ");
		else
			buf_addc(b, *p);
	/*
	 * Not an invitation: restoring mysql's tables whole overwrites the
	 * target's accounts and replication state (global_priv,
	 * gtid_slave_pos).
	 */
	buf_addf(b, " (-A skips %s: accounts and grants are --users; "
	    "-B %s dumps %s whole, and restoring that overwrites the target's "
	    "accounts and replication state)", it, names, it);
}

void
report_left_out(struct snap *s)
{
	const struct leftout	*l = &s->left;
	struct buf		 b = BUF_INIT;

	add(&b, l->procedures, "procedure", "procedures");
	add(&b, l->functions, "function", "functions");
	add(&b, l->packages, "package", "packages");
	add(&b, l->package_bodies, "package body", "package bodies");
	if (l->procedures + l->functions + l->packages + l->package_bodies > 0)
		buf_adds(&b, " (add -R)");
	add(&b, l->events, "event", "events");
	if (l->events > 0)
		buf_adds(&b, " (add -E)");
	add(&b, l->triggers, "trigger", "triggers");
	if (l->triggers > 0)
		buf_adds(&b, " (add --triggers)");
	add(&b, l->users, "user", "users");
	add(&b, l->roles, "role", "roles");
	if (l->users + l->roles > 0)
		buf_adds(&b, " (add --users)");
	if (l->system_dbs.len > 0 && !l->system_dbs.err)
		system_dbs(&b, l->system_dbs.p);
	if (b.len > 0 && !b.err)
		fprintf(stderr, "%s: left out: %s\n", getprogname(), b.p);
	buf_release(&b);
	buf_release(&s->left.system_dbs);
}
