/*
 * names: the table filter and the renames of --tables, --rename and
 * --rename-db (rows2sql(1); any program that filters or renames a frame
 * stream's tables), and the rewriting of the names that DDL and object
 * bodies hold, as SHOW CREATE writes them (MariaDB KB "Identifier
 * Names", "Identifier Qualifiers").
 *
 * A struct names owns copies of the option arguments; names_release()
 * frees them.  Lookups return borrowed strings: the argument itself, or
 * a string of the struct names, valid until names_release().
 */
#ifndef ROWPIPE_NAMES_H
#define ROWPIPE_NAMES_H

#include <stddef.h>

#include "buf.h"
#include "sqltok.h"

/*
 * OLD=NEW of --rename (old_db set for db.old=new; new_db for old=db2.new,
 * which moves the table into db2) and --rename-db.
 */
struct names_rename {
	char	*old_db;	/* NULL: any database */
	char	*old;
	char	*new;
	char	*new_db;	/* NULL: the table's (renamed) database */
	int	 hit;		/* set once a lookup found it */
};

/*
 * One --tables or --exclude entry: "t" (any database) or "db.t", each
 * part an fnmatch(3) pattern (* ? [...]); hit is set once it matched.
 */
struct names_table {
	char	*db;		/* NULL: any */
	char	*name;
	int	 hit;
};

struct names {
	struct names_rename	*renames;	/* --rename, tables */
	size_t			 nrenames;
	struct names_rename	*db_renames;	/* --rename-db */
	size_t			 ndb_renames;
	struct names_table	*tables;	/* --tables; none: all */
	size_t			 ntables;
	struct names_table	*excludes;	/* --exclude */
	size_t			 nexcludes;
};

#define NAMES_INIT	{ NULL, 0, NULL, 0, NULL, 0, NULL, 0 }

/*
 * Add an option argument: "[db.]old=[db2.]new" for --rename (dotted 1;
 * db2 moves the table) or "old=new" for --rename-db (dotted 0);
 * "t,db.t,..." for --tables, or --exclude with exclude set.  The text is
 * copied.  0, or -1 with errno EINVAL and *errstr set to a
 * static reason ("expected OLD=NEW", "empty name", "empty table name"),
 * or errno ENOMEM ("out of memory").  Entries added before the failing
 * one of a --tables list stay.
 */
int	 names_add_rename(struct names *, const char *arg, int dotted,
	    const char **errstr);
int	 names_add_tables(struct names *, const char *arg, const char **errstr);
int	 names_add_filter(struct names *, const char *arg, int exclude,
	    const char **errstr);
/* Free what the names_add_*() calls made; n is NAMES_INIT after. */
void	 names_release(struct names *);

/* The target name of database db (--rename-db), or db itself. */
const char *names_db(const struct names *, const char *db);
/* The target name of table db.name (--rename), or name itself. */
const char *names_table(const struct names *, const char *db,
	    const char *name);
/*
 * The target database of table db.name: the one --rename moves it into,
 * else names_db(db).
 */
const char *names_table_db(const struct names *, const char *db,
	    const char *name);
/*
 * Is db.name selected: matched by a --tables pattern (or there is none)
 * and by no --exclude pattern?  Marks the patterns that match as hit.
 */
int	 names_keep(const struct names *, const char *db, const char *name);
/*
 * The first --tables or --exclude pattern that matched nothing so far,
 * into b as given ("db.t" or "t"); 0 if there is none, 1 if there is.
 */
int	 names_unmatched(const struct names *, struct buf *b);
/*
 * The first --rename or --rename-db that no lookup (names_table(),
 * names_table_db(), names_db()) found so far, into b: "--rename db.t: no
 * such table", "--rename-db d: no such database"; 0 if none, 1 if one.
 */
int	 names_unmatched_rename(const struct names *, struct buf *b);

/*
 * Append ddl (len bytes) to b with its first quoted identifier replaced
 * by to, quoted, if that identifier names from, and with ine ("IF NOT
 * EXISTS ", or NULL) inserted before it.  -1 if ddl holds no quoted
 * identifier (nothing appended); else 0, errors in b->err.
 */
int	 names_ddl_name(struct buf *b, const char *ddl, size_t len,
	    const char *from, const char *to, const char *ine);
/*
 * Append ddl (len bytes, a CREATE TABLE as SHOW CREATE TABLE writes it)
 * to b with the names of its FOREIGN KEY constraints made those of table
 * new, renamed from old in the same database (where constraint names are
 * the database's, not the table's: the old ones would collide, ERROR
 * 1005 errno 121): a name that starts with old (InnoDB's `old_ibfk_1`)
 * gets new in its place, any other "new_" before it.  (Its references
 * are names_fk_qualify()'s and names_ddl_refs()'s.)  0; or -1 with
 * nothing appended and why set, when a name would be longer than
 * NAMES_IDENT_MAX characters, or out of memory (why "").
 */
#define NAMES_IDENT_MAX	64
int	 names_fk_names(struct buf *b, const char *ddl, size_t len,
	    const char *old, const char *new, char *why, size_t whysz);
/*
 * Append ddl (len bytes, table db.name's CREATE TABLE, already renamed
 * by names_ddl_name()) to b, with names_fk_names() applied when n renames
 * the table within the database it goes to anyway; a table moved to
 * another database, or not renamed, keeps its names (they are free
 * there).  The one rule of rows2sql's and sqlexec's objsql and of
 * rowmap.  0, or -1 as names_fk_names().
 */
int	 names_rename_fks(const struct names *n, struct buf *b,
	    const char *ddl, size_t len, const char *db, const char *name,
	    char *why, size_t whysz);
/*
 * Append ddl (len bytes, a CREATE TABLE of database db as SHOW CREATE
 * TABLE writes it) to b with each unqualified foreign key reference
 * (REFERENCES `t`) qualified as `db`.`t`, so that names_ddl_refs() then
 * maps it as any other: a referenced table renamed or moved by --rename
 * is referenced by its new name (a table that references itself: the
 * copy's own), and one left where it is stays referenced where it is,
 * also from a table moved to another database.  Errors in b->err.
 */
void	 names_fk_qualify(struct buf *b, const char *ddl, size_t len,
	    const char *db);
/*
 * Append s (len bytes, a view, routine, trigger or event text of
 * database db) to b with its qualified references `db`. and
 * `db`.`table` renamed by --rename-db and --rename (a moved table's
 * qualifier becomes its new database); string literals and comments are
 * left alone.  A qualifier is taken for a database only if it is db, a
 * database --rename-db renames or one a --rename names, so that a table
 * alias (`a`.`col`) is left alone.  Errors in b->err.
 */
void	 names_ddl_refs(const struct names *, struct buf *b, const char *s,
	    size_t len, const char *db);
/*
 * Append a CREATE TRIGGER text s to b with the table after ON renamed
 * from old to new (quoted), or as it is when it names another table.
 * Errors in b->err.
 */
void	 names_trigger_table(struct buf *b, const char *s, size_t len,
	    const char *old, const char *new);

/*
 * Is t a quoted name as SHOW CREATE writes it: `x`, or "x" (under
 * ANSI_QUOTES, which a lexer in mode 0 reads as a string), closed?
 */
int	 names_quoted(const struct sqltok *t);
/*
 * Can name be written bare where a bare word stood: a plain word of
 * identifier bytes that is not a number?  (A reserved word is not
 * checked: a database renamed to one is a user's choice to quote.)
 */
int	 names_bare_ok(const char *name);
/* Does the quoted identifier q (qlen bytes, quotes included) name s? */
int	 names_ident_eq(const char *q, size_t qlen, const char *s);

#endif
