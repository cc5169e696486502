/*
 * leftout: what exists in the dumped databases but is not in the stream
 * (routines without -R, events without -E, triggers with
 * --skip-triggers, and with -A the accounts without --users and the
 * system databases mysql and sys), counted in the snapshot and named in
 * one line at the end with the option that includes it, so that a copy never leaves them
 * out silently.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"

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
	    "'Y') FROM mysql.user WHERE NOT (is_role = 'Y' AND User = "
	    "'PUBLIC')";

	if (mysql_real_query(s->conns[0], q, sizeof(q) - 1) != 0 ||
	    (r = mysql_store_result(s->conns[0])) == NULL)
		return;
	if ((row = mysql_fetch_row(r)) != NULL) {
		s->left.users = row[0] != NULL ? strtoull(row[0], NULL, 10) : 0;
		s->left.roles = row[1] != NULL ? strtoull(row[1], NULL, 10) : 0;
	}
	mysql_free_result(r);
}

/* ", name" into b: the first five, then "and N more". */
static void
add_name(struct buf *b, size_t *n, const char *name)
{
	if (*n < 5)
		buf_addf(b, "%s%s", *n > 0 ? ", " : "", name);
	else if (*n == 5)
		buf_adds(b, " and more");
	(*n)++;
}

/*
 * The tables (views: 1) of the dump whose privilege priv is missing,
 * named into b; how many.
 */
static size_t
tables_without(struct snap *s, unsigned priv, int views, struct buf *b)
{
	const struct table *t;
	size_t		 i, n = 0;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (t->is_view == views && !t->is_sequence &&
		    !privs_have(priv, t->schema, t->name))
			add_name(b, &n, ctx2(t->schema, t->name));
	}
	return n;
}

/* The dumped databases where neither test holds, named into b; how many. */
static size_t
dbs_without(struct snap *s, unsigned priv, unsigned priv2, struct buf *b)
{
	size_t	 i, n = 0;

	for (i = 0; i < s->o->ndbs; i++)
		if (!privs_have(priv, s->o->dbs[i], NULL) &&
		    (priv2 == 0 || !privs_have(priv2, s->o->dbs[i], NULL)))
			add_name(b, &n, s->o->dbs[i]);
	return n;
}

/* One "left out" line of a kind asked for; 1 if there was one. */
static int
say_unreadable(struct snap *s, struct buf *b, size_t n, const char *what,
    const char *needs)
{
	if (n == 0)
		return 0;
	must(b);
	warnx("cannot read %s %s: needs %s", what, b->p, needs);
	return 1;
}

void
check_readable(struct snap *s)
{
	struct buf	 b = BUF_INIT;
	int		 bad = 0, whole = s->o->ntables == 0, proc;
	size_t		 n;

	privs_read(s);
	proc = privs_have(PRIV_SELECT, "mysql", "proc");
	/* the databases and tables it holds no privilege on are not listed */
	if (s->o->all_databases && !privs_have(PRIV_SELECT, NULL, NULL)) {
		buf_adds(&b, "this account holds no privilege on");
		bad |= say_unreadable(s, &b, 1, "the databases", "SELECT on *.* "
		    "for -A (or name the databases: -B db ...)");
		buf_reset(&b);
	}
	bad |= say_unreadable(s, &b, whole ? dbs_without(s, PRIV_SELECT, 0,
	    &b) : 0, "the tables of", "SELECT on each database (the "
	    "account's table grants show only those tables; or name the "
	    "tables to dump)");
	buf_reset(&b);
	n = tables_without(s, PRIV_TRIGGER, 0, &b);
	if (s->o->triggers)
		bad |= say_unreadable(s, &b, n, "the triggers of",
		    "the TRIGGER privilege on each (or --skip-triggers)");
	else
		s->left.no_triggers = n;
	buf_reset(&b);
	bad |= say_unreadable(s, &b, tables_without(s, PRIV_SHOW_VIEW, 1, &b),
	    "the definition of the views", "SHOW VIEW on each (or "
	    "--ignore-table each)");
	buf_reset(&b);
	n = whole ? dbs_without(s, PRIV_EVENT, 0, &b) : 0;
	if (s->o->events)
		bad |= say_unreadable(s, &b, n, "the events of",
		    "EVENT on each database (or no -E)");
	else if (n > 0)
		s->left.no_events = "EVENT";
	buf_reset(&b);
	n = whole && !proc ? dbs_without(s, PRIV_SHOW_ROUTINE, 0, &b) : 0;
	if (s->o->routines)
		bad |= say_unreadable(s, &b, n, "the routines of",
		    "SELECT on mysql.proc for those this account did not "
		    "define (MariaDB 11.3: SHOW CREATE ROUTINE) (or no -R)");
	else if (n > 0)
		s->left.no_routines = "SELECT on mysql.proc";
	buf_reset(&b);
	/* (-A needs SELECT on *.*, which holds mysql.*) */
	if (s->o->users && !privs_have(PRIV_SELECT, "mysql", NULL)) {
		buf_adds(&b, "and grants");
		bad |= say_unreadable(s, &b, 1, "the accounts, roles",
		    "SELECT on mysql.* (or no --users)");
	}
	buf_release(&b);
	if (bad)
		die(s, "the account cannot read all that the options ask for "
		    "(named above): grant the privileges, or leave those "
		    "objects out");
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
		    "information_schema.TRIGGERS", "EVENT_OBJECT_SCHEMA");
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
	if (l->no_routines != NULL)
		buf_addf(&b, "%sroutines this account did not define (not "
		    "counted: this account lacks %s)", b.len > 0 ? ", " : "",
		    l->no_routines);
	add(&b, l->functions, "function", "functions");
	add(&b, l->packages, "package", "packages");
	add(&b, l->package_bodies, "package body", "package bodies");
	if (l->procedures + l->functions + l->packages + l->package_bodies > 0 ||
	    l->no_routines != NULL)
		buf_adds(&b, " (add -R)");
	add(&b, l->events, "event", "events");
	if (l->no_events != NULL)
		buf_addf(&b, "%sevents (not counted: this account lacks %s)",
		    b.len > 0 ? ", " : "", l->no_events);
	if (l->events > 0 || l->no_events != NULL)
		buf_adds(&b, " (add -E)");
	add(&b, l->triggers, "trigger", "triggers");
	if (l->no_triggers > 0)
		buf_addf(&b, "%sthe triggers of %" PRIu64 " table%s (not "
		    "counted: this account lacks TRIGGER)", b.len > 0 ? ", " :
		    "", l->no_triggers, l->no_triggers == 1 ? "" : "s");
	if (l->triggers > 0 || l->no_triggers > 0)
		buf_adds(&b, " (add --triggers)");
	add(&b, l->users, "user", "users");
	add(&b, l->roles, "role", "roles");
	if (l->users + l->roles > 0)
		buf_adds(&b, " (add --users)");
	add(&b, l->proxies, "PROXY grant", "PROXY grants");
	if (l->proxies > 0)
		buf_adds(&b, " (--skip-proxy-grants)");
	if (l->system_dbs.len > 0 && !l->system_dbs.err)
		system_dbs(&b, l->system_dbs.p);
	if (b.len > 0 && !b.err)
		fprintf(stderr, "%s: left out: %s\n", getprogname(), b.p);
	buf_release(&b);
	buf_release(&s->left.system_dbs);
}
