/*
 * privs: what the account may read, from its SHOW GRANTS (the user's own
 * grants, those of its current role and the roles that role holds, and
 * PUBLIC's: MariaDB prints them all; information_schema's *_PRIVILEGES
 * tables leave the roles out).  The server hides from information_schema
 * what the account may not see (triggers without TRIGGER on their table,
 * events without EVENT, routines it neither defined nor may read in
 * mysql.proc), so an object it cannot read is not an error but an absence:
 * dbsnap asks the grants instead, before it reads anything, and names each
 * kind it was asked for and cannot read with the privilege it needs
 * (leftout.c).  Column privileges grant nothing here; routine-level grants
 * (EXECUTE ON PROCEDURE) do not show a body.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "dbsnap.h"
#include "report.h"

struct grant {
	char		*db;		/* NULL: *.* */
	char		*table;		/* NULL: db.* */
	unsigned	 privs;		/* PRIV_* */
};

static struct grant *grants;
static size_t	 ngrants;
static int	 known;		/* SHOW GRANTS was read */

static const struct {
	const char	*name;
	unsigned	 bit;
} names[] = {
	{ "ALL PRIVILEGES", PRIV_ALL },
	{ "ALL", PRIV_ALL },
	{ "SELECT", PRIV_SELECT },
	{ "TRIGGER", PRIV_TRIGGER },
	{ "EVENT", PRIV_EVENT },
	{ "SHOW VIEW", PRIV_SHOW_VIEW },
	{ "SHOW CREATE ROUTINE", PRIV_SHOW_ROUTINE },
};

/* Past a `quoted` identifier at p (its text, unquoted, into out). */
static const char *
ident(const char *p, struct buf *out)
{
	buf_reset(out);
	if (*p != '`') {
		while (*p != '\0' && *p != '.' && *p != ' ')
			buf_addc(out, *p++);
		return p;
	}
	for (p++; *p != '\0'; p++) {
		if (*p == '`' && p[1] == '`')
			p++;
		else if (*p == '`')
			return p + 1;
		buf_addc(out, *p);
	}
	return p;
}

/* The privileges of "SELECT, SHOW VIEW, INSERT (`c`)" up to end. */
static unsigned
priv_list(const char *p, const char *end)
{
	unsigned	 bits = 0;
	const char	*q;
	size_t		 i, len;

	while (p < end) {
		while (p < end && (*p == ' ' || *p == ','))
			p++;
		for (q = p; q < end && *q != ',' && *q != '('; q++)
			;
		len = (size_t)(q - p);
		while (len > 0 && p[len - 1] == ' ')
			len--;
		if (q < end && *q == '(') {	/* a column privilege */
			while (q < end && *q != ')')
				q++;
			len = 0;
		}
		for (i = 0; len > 0 && i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    strncasecmp(p, names[i].name, len) == 0)
				bits |= names[i].bit;
		p = q < end ? q + 1 : end;
	}
	return bits;
}

/* " ON " of a GRANT line, outside column lists and quotes, or NULL. */
static const char *
find_on(const char *p)
{
	int	 depth = 0, quoted = 0;

	for (; *p != '\0'; p++) {
		if (*p == '`')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (depth == 0 && strncmp(p, " ON ", 4) == 0)
			return p;
	}
	return NULL;
}

/*
 * One line of SHOW GRANTS: "GRANT privs ON db.table TO ...".  Role
 * grants ("GRANT `r` TO ...") and routine grants add nothing.
 */
static void
grant_line(const char *line)
{
	struct buf	 db = BUF_INIT, t = BUF_INIT;
	const char	*on, *p;
	struct grant	*g;
	unsigned	 bits;
	int		 anydb;

	if (strncmp(line, "GRANT ", 6) != 0 || line[6] == '`' ||
	    (on = find_on(line + 6)) == NULL ||
	    (bits = priv_list(line + 6, on)) == 0)
		return;
	p = on + 4;
	if (strncmp(p, "PROCEDURE ", 10) == 0 ||
	    strncmp(p, "FUNCTION ", 9) == 0 || strncmp(p, "PACKAGE ", 8) == 0)
		return;
	anydb = *p == '*';
	p = ident(p, &db);
	if (*p++ != '.')
		return;
	(void)ident(p, &t);
	must(&db);
	must(&t);
	if ((grants = reallocarray(grants, ngrants + 1, sizeof(*grants))) ==
	    NULL)
		die(the_snap, "out of memory");
	g = &grants[ngrants++];
	g->db = anydb ? NULL : xstrdup(db.p);
	g->table = *p == '*' ? NULL : xstrdup(t.p);
	g->privs = bits;
	buf_release(&db);
	buf_release(&t);
}

/*
 * A database-level grant's name is a LIKE pattern (% and _, \ escaping
 * them), as the server matches it (sql_acl.cc, wild_case_compare).
 */
static int
db_match(const char *pat, const char *db)
{
	for (; *pat != '\0'; pat++, db++) {
		if (*pat == '%') {
			for (;; db++) {
				if (db_match(pat + 1, db))
					return 1;
				if (*db == '\0')
					return 0;
			}
		}
		if (*pat == '\\' && pat[1] != '\0')
			pat++;
		else if (*pat == '_' && *db != '\0')
			continue;
		if (*pat != *db)
			return 0;
	}
	return *db == '\0';
}

void
privs_read(struct snap *s)
{
	MYSQL		*m = s->conns[0];
	MYSQL_RES	*r;
	MYSQL_ROW	 row;

	if (mysql_query(m, "SHOW GRANTS") != 0 ||
	    (r = mysql_store_result(m)) == NULL)
		return;		/* then nothing is checked */
	while ((row = mysql_fetch_row(r)) != NULL)
		if (row[0] != NULL)
			grant_line(row[0]);
	mysql_free_result(r);
	known = 1;
}

int
privs_have(unsigned priv, const char *db, const char *table)
{
	size_t	 i;
	const struct grant *g;

	if (!known)
		return 1;
	for (i = 0; i < ngrants; i++) {
		g = &grants[i];
		if ((g->privs & (priv | PRIV_ALL)) == 0)
			continue;
		if (g->db == NULL)
			return 1;
		if (db == NULL)
			continue;
		if (g->table == NULL && db_match(g->db, db))
			return 1;
		if (g->table != NULL && table != NULL &&
		    strcmp(g->db, db) == 0 && strcmp(g->table, table) == 0)
			return 1;
	}
	return 0;
}
