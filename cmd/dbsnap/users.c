/*
 * users: dbsnap --users, the server's accounts as objects, read as
 * mariadb-dump --system=users reads them (client/mysqldump.c,
 * dump_all_users_roles_and_grants()): each user's SHOW CREATE USER
 * (OBJ_USER), each role as CREATE ROLE (OBJ_ROLE), and every line of
 * SHOW GRANTS of each user and role (OBJ_GRANT: privileges, roles
 * granted, with ADMIN OPTION for a role's admins, SET DEFAULT ROLE).
 * The stream carries users and roles right after its header, with the
 * grants of roles (GRANT `role` TO ...), the only ones that need
 * lib/objsql's helper role: the last of those has last=1, where a
 * restore drops it, before any row.  The grants of privileges and SET
 * DEFAULT ROLE (which needs UPDATE on mysql, not the helper: an
 * administrator without it stopped there, the helper role still on the
 * target) come at the stream's end, after the objects they may name, and the
 * PROXY grants last of all: only an account with PROXY ... WITH GRANT
 * OPTION on the proxied account (root's PROXY ON ''@'%') can restore
 * them, so an administrator that is not root has everything else when
 * its restore stops there, and no helper role; they carry helper=0
 * (lib/objsql: run without the helper role), and --skip-proxy-grants
 * leaves them out.  mysql.user and mysql.roles_mapping are not
 * transactional: they are read as they are when dbsnap reads them,
 * before the rows.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

struct account {
	char	*user, *host;		/* host NULL for a role */
	int	 done;
};

/* `user`@`host`, or `role`, into b. */
static void
account_name(struct buf *b, const char *user, const char *host)
{
	quote_ident(b, user, strlen(user));
	if (host != NULL) {
		buf_addc(b, '@');
		quote_ident(b, host, strlen(host));
	}
}

static void
push_object(struct snap *s, struct objlist *l, int kind, const char *name,
    const char *ddl, size_t len, const char *key, const char *val)
{
	struct object	 ob;

	memset(&ob, 0, sizeof(ob));
	ob.kind = kind;
	ob.schema = xstrdup("");
	ob.name = xstrdup(name);
	ob.ddl = xstrndup(ddl, len);
	ob.ddl_len = len;
	attrs_add(&ob.attrs, key, val);
	obj_push(l, &ob);
}

/*
 * Where a line of SHOW GRANTS goes: the grants of roles (a role's name
 * is quoted: "GRANT `r` TO") after the accounts, the PROXY grants last
 * (NULL with --skip-proxy-grants), the others (SET DEFAULT ROLE too) at
 * the end.
 */
static struct objlist *
grant_list(struct snap *s, const char *line)
{
	if (strncmp(line, "GRANT `", 7) == 0)
		return &s->rolegrants;
	if (strncmp(line, "GRANT PROXY ON ", 15) == 0)
		return s->o->skip_proxies ? NULL : &s->proxies;
	return &s->grants;
}

/*
 * One OBJ_GRANT per line of SHOW GRANTS FOR name.  An account dropped
 * since it was listed (error 1141) is named in a warning.
 */
static void
grants_of(struct snap *s, const char *name)
{
	struct buf	 q = BUF_INIT;
	MYSQL		*m = s->conns[0];
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	unsigned long	*len;
	struct objlist	*l;
	char		 e[512];

	buf_addf(&q, "SHOW GRANTS FOR %s", name);
	must(&q);
	if (mysql_real_query(m, q.p, q.len) != 0 ||
	    (r = mysql_store_result(m)) == NULL) {
		if (mysql_errno(m) != ER_NONEXISTING_GRANT)
			sql_die(m, name);
		progress_clear(s->prog);
		warnx("warning: %s: grants left out: %s", name,
		    conn_strerror(m, e, sizeof(e)));
		buf_release(&q);
		return;
	}
	while ((row = mysql_fetch_row(r)) != NULL)
		if (row[0] != NULL) {
			len = mysql_fetch_lengths(r);
			l = grant_list(s, row[0]);
			if (l == NULL) {
				s->left.proxies++;
				continue;
			}
			push_object(s, l, OBJ_GRANT, name, row[0], len[0],
			    "grantee", name);
			if (l != &s->rolegrants)
				attrs_add(&l->v[l->n - 1].attrs, "helper",
				    "0");
		}
	mysql_free_result(r);
	buf_release(&q);
}

/*
 * The user's SHOW CREATE USER as an object.  0, or -1 for an account the
 * server does not use (a host name under --skip-name-resolve: it is in
 * mysql.user but not loaded, error 1133), which is left out, with a
 * warning.
 */
static int
user_object(struct snap *s, const struct account *a)
{
	struct buf	 name = BUF_INIT, q = BUF_INIT;
	MYSQL		*m = s->conns[0];
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	unsigned long	*len;
	char		 e[512];
	int		 rc = 0;

	account_name(&name, a->user, a->host);
	buf_addf(&q, "SHOW CREATE USER %s", name.p);
	must(&name);
	must(&q);
	r = NULL;
	row = NULL;
	if (mysql_real_query(m, q.p, q.len) == 0 &&
	    (r = mysql_store_result(m)) != NULL)
		row = mysql_fetch_row(r);
	if (row != NULL && row[0] != NULL) {
		len = mysql_fetch_lengths(r);
		push_object(s, &s->users, OBJ_USER, name.p, row[0], len[0],
		    "user", a->user);
	} else if (mysql_errno(m) != 0 && mysql_errno(m) !=
	    ER_PASSWORD_NO_MATCH)
		sql_die(m, name.p);
	else {
		progress_clear(s->prog);
		warnx("warning: %s: left out: %s", name.p, mysql_errno(m) ?
		    conn_strerror(m, e, sizeof(e)) : "the server does not "
		    "load it (a host name under --skip-name-resolve?)");
		rc = -1;
	}
	if (r != NULL)
		mysql_free_result(r);
	buf_release(&q);
	buf_release(&name);
	return rc;
}

static void
role_object(struct snap *s, const struct account *a)
{
	struct buf	 name = BUF_INIT, ddl = BUF_INIT;

	account_name(&name, a->user, NULL);
	buf_addf(&ddl, "CREATE ROLE %s", name.p);
	must(&name);
	must(&ddl);
	push_object(s, &s->users, OBJ_ROLE, name.p, ddl.p, ddl.len, "role",
	    a->user);
	buf_release(&name);
	buf_release(&ddl);
}

/*
 * The PROXY grants, named: an administrator that is not root cannot
 * restore them (ERROR 1698).
 */
static void
note_proxies(struct snap *s)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	for (i = 0; i < s->proxies.n; i++)
		buf_addf(&b, "%s%.*s", i > 0 ? "; " : "",
		    (int)s->proxies.v[i].ddl_len, s->proxies.v[i].ddl);
	must(&b);
	if (s->proxies.n > 0)
		warnx("note: %zu PROXY grant%s, which only an account with "
		    "PROXY WITH GRANT OPTION on the proxied account (root) can "
		    "restore, come last (--skip-proxy-grants leaves them "
		    "out): %s", s->proxies.n, s->proxies.n == 1 ? "" : "s",
		    b.p);
	buf_release(&b);
}

void
discover_users(struct snap *s)
{
	struct buf	 q = BUF_INIT, name = BUF_INIT;
	struct account	*v = NULL;
	MYSQL_RES	*r;
	MYSQL_ROW	 row;
	size_t		 i, n = 0;

	buf_adds(&q, "SELECT User, Host, is_role FROM mysql.user "
	    "ORDER BY is_role, User, Host");
	r = query_buf(s, "users (mysql.user)", &q);
	while ((row = mysql_fetch_row(r)) != NULL) {
		/* a failed restore's helper role (lib/objsql) is not the source's */
		if (row[0] != NULL && row[2] != NULL &&
		    strcmp(row[2], "Y") == 0 &&
		    strcmp(row[0], "rowpipe_import_role") == 0)
			continue;
		if ((v = reallocarray(v, n + 1, sizeof(*v))) == NULL)
			die(s, "out of memory");
		memset(&v[n], 0, sizeof(v[n]));
		v[n].user = xstrdup(row[0] != NULL ? row[0] : "");
		if (row[2] == NULL || strcmp(row[2], "Y") != 0)
			v[n].host = xstrdup(row[1] != NULL ? row[1] : "");
		n++;
	}
	mysql_free_result(r);
	for (i = 0; i < n; i++)
		if (v[i].host == NULL && strcmp(v[i].user, "PUBLIC") == 0)
			;	/* MariaDB 10.11's PUBLIC: grants, no CREATE ROLE */
		else if (v[i].host == NULL)
			role_object(s, &v[i]);
		else if (user_object(s, &v[i]) == -1)
			v[i].done = -1;		/* not loaded: no grants */
	for (i = 0; i < n; i++) {
		buf_reset(&name);
		account_name(&name, v[i].user, v[i].host);
		must(&name);
		if (v[i].done != -1)
			grants_of(s, name.p);
		free(v[i].user);
		free(v[i].host);
	}
	free(v);
	buf_release(&q);
	buf_release(&name);
	/* the restore's end of the helper role (lib/objsql) */
	if (s->rolegrants.n > 0)
		attrs_add(&s->rolegrants.v[s->rolegrants.n - 1].attrs, "last",
		    "1");
	else if (s->users.n > 0)
		attrs_add(&s->users.v[s->users.n - 1].attrs, "last", "1");
	note_proxies(s);
}
