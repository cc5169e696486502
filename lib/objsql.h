/*
 * objsql: the SQL statements that recreate a schema object of a frame
 * stream (an FT_OBJECT frame, rowpipe-stream(5)) in its session context, for a
 * program that writes them as text (rows2sql(1)) or runs them on a
 * server.
 *
 * For each object, in order: USE of its target database; DROP ... IF
 * EXISTS (unless skip_drop); for views, routines (packages and package
 * bodies too), triggers and events, the session context it was created
 * in, saved first (character set client/results, collation_connection,
 * sql_mode, time_zone, and for routines the database collation, as SHOW
 * CREATE reports them), a package's DROP only then (DROP PACKAGE parses
 * only in sql_mode=ORACLE before MariaDB 11.4); the definition (renamed,
 * definer dropped on request); the context put back;
 * for a sequence its position (DO SETVAL).  A CREATE DATABASE object
 * yields its one statement (CREATE DATABASE IF NOT EXISTS) and is
 * remembered for the collation context of its routines.  This is what
 * mysqldump writes around each object (client/mysqldump.c,
 * switch_cs_variables(), switch_db_collation()), with rowpipe's own
 * user variables (@rp_saved_*) for the saved values.
 */
#ifndef ROWPIPE_OBJSQL_H
#define ROWPIPE_OBJSQL_H

#include <stddef.h>

#include "buf.h"
#include "frame.h"
#include "names.h"

enum objsql_role {
	OBJSQL_USE = 1,	/* USE `db`: db names the target database */
	OBJSQL_DROP,	/* DROP kind IF EXISTS `name` */
	OBJSQL_CONTEXT,	/* session context saved, set or restored */
	OBJSQL_CREATE,	/* the definition */
	OBJSQL_STATE	/* a sequence's position */
};

/* One statement, handed to the callback. */
struct objsql_stmt {
	const char	*text;		/* borrowed, NUL-terminated, no ';' */
	size_t		 len;
	int		 role;		/* enum objsql_role */
	/*
	 * The text is a compound statement (a routine, trigger or event
	 * body) that may hold ';': as SQL text it needs a DELIMITER block.
	 */
	int		 compound;
	const char	*db;		/* target database (unquoted) */
	const struct rp_object *obj;	/* the object being recreated */
};

/*
 * Return 0 to go on, -1 to stop: objsql_object() then returns -1 with
 * objsql_errstr() "" (the callback says why itself).  Valid only during
 * the call: text, db and obj.
 */
typedef int	(*objsql_cb)(void *arg, const struct objsql_stmt *);
/* A note on an object left out (a warning; the run goes on). */
typedef void	(*objsql_warn_cb)(void *arg, const char *msg);

struct objsql_opts {
	const struct names *names;	/* --tables, renames; NULL: none */
	int		 no_create;	/* only CREATE DATABASE, no other object */
	int		 no_create_db;	/* no CREATE DATABASE */
	int		 skip_drop;	/* no DROP ... IF EXISTS */
	int		 skip_definer;	/* drop DEFINER= from views, routines */
};

struct objsql;

/*
 * A converter for one stream.  opts is copied (the names it points to
 * must outlive the converter).  NULL with errno ENOMEM.
 */
struct objsql	*objsql_new(const struct objsql_opts *);
void		 objsql_free(struct objsql *);	/* NULL: no-op */
void		 objsql_set_warn(struct objsql *, objsql_warn_cb, void *arg);

/*
 * Hand the statements that recreate ob to cb, in order; none if the
 * options leave ob out.  0, or -1: a malformed object (no name in its
 * DDL, a bad sequence value, an unknown kind), out of memory, or the
 * callback stopped; objsql_errstr() says which.  Statements already
 * handed out stay handed out.
 */
int		 objsql_object(struct objsql *, const struct rp_object *ob,
		    objsql_cb cb, void *arg);
/*
 * The session a dump sets before its objects and rows, as mysqldump's
 * header does: sql_mode NO_AUTO_VALUE_ON_ZERO (and ALLOW_INVALID_DATES,
 * so that a date stored under it, 2021-02-31, loads as it was), SET NAMES
 * utf8mb4, the
 * time zone tz (the stream header's time_zone, the zone TIMESTAMP values
 * were read in; NULL or "": +00:00), unique and foreign key checks off,
 * SQL notes off, and MariaDB's CHECK constraint checks and statement
 * time limit off; each saves the old value in @OLD_* (for the dump's
 * footer).  Each statement goes to cb with role OBJSQL_CONTEXT, db and
 * obj NULL.  0, or -1: a tz that is not a zone name or offset
 * (objsql_errstr() says so), or the callback stopped.
 */
int		 objsql_session(struct objsql *, const char *tz, objsql_cb cb,
		    void *arg);
/*
 * ob's DDL without the clause "DEFINER=`user`@`host` " that SHOW CREATE
 * writes into a view's, routine's, trigger's or event's (the
 * skip_definer option; the object is then created with the account that
 * creates it as its definer), appended to b; as it is when it has none.
 * Errors: b's sticky error (out of memory).
 */
void		 objsql_strip_definer(struct buf *b, const struct rp_object *ob);
/*
 * The helper role dbsnap --users' accounts are made with, which
 * administers the dump's roles while they are made (as mariadb-dump's
 * does): its name (unquoted) while it is there as far as cb said, its
 * CREATE ROLE taken (cb returned 0) and its DROP ROLE (after the object
 * marked last=1) not; else NULL.  A run that stops then leaves it on the
 * target: a resume makes it again (CREATE ROLE IF NOT EXISTS) and drops
 * it at its end; the roles made before the stop have it as their admin.
 */
const char	*objsql_helper_role(const struct objsql *);
/* Why the last call failed: "schema.name: reason", or "". */
const char	*objsql_errstr(const struct objsql *);

#endif
