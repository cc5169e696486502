/*
 * dbsnap: private interfaces between the option parser (main.c), the
 * catalogue (catalog.c: databases and tables; schema.c: columns, keys
 * and SELECT lists; objects.c: definitions; chunks.c: chunk planning;
 * query.c: their helpers), the session and snapshot set-up (session.c)
 * and the row workers (workers.c).
 *
 * Ownership: everything hangs off one struct snap, built by main() and
 * schema discovery, read by the workers, freed at exit by the OS (dbsnap
 * is a one-shot program; it does not free its catalogue).
 */
#ifndef DBSNAP_H
#define DBSNAP_H

#include <sys/cdefs.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <mysql.h>

#include "buf.h"
#include "conn.h"
#include "frame.h"
#include "numfmt.h"
#include "progress.h"
#include "timefmt.h"
#include "util.h"

#include "version.h"
#define DBSNAP_VERSION	ROWPIPE_VERSION
#define BATCH_BYTES	((size_t)256 << 10)	/* FT_ROWS payload target */
#define SPOOL_MEM_MAX	((size_t)8 << 20)	/* then a temporary file */
/*
 * With more than one job, range chunks of at most about this much table
 * data (data_length): a chunk read ahead of its turn then waits in the
 * spool's memory, not in a temporary file.
 */
#define CHUNK_BYTES_MAX	(SPOOL_MEM_MAX / 2)
/* --read-timeout's default, seconds: no healthy dump waits that long for
 * a byte (a chunk's rows stream in key order as they are found); a
 * --where that matches nothing for a long stretch of a huge table can. */
#define DBSNAP_READ_TIMEOUT	3600

/* Key/value attributes of an object or table, owned strings. */
struct attrs {
	size_t		 n;
	char		*key[RP_KV_MAX];
	char		*val[RP_KV_MAX];
};

struct col {
	char		*name;
	char		*data_type;	/* information_schema DATA_TYPE */
	char		*coltype;	/* COLUMN_TYPE */
	char		*charset;	/* CHARACTER_SET_NAME or NULL */
	char		*collation;	/* COLLATION_NAME or NULL */
	unsigned	 type;		/* enum enum_field_types */
	unsigned	 flags;		/* COL_* */
	unsigned	 charsetnr;
	unsigned	 decimals;
	int		 pseudo;	/* implicit ROW_START/ROW_END */
	const char	*expr;		/* --select: read this instead */
};

enum chunk_state { CH_PENDING, CH_DONE };	/* CH_DONE: read, maybe spooled */

/* Rows of a chunk that ran ahead of its table's write position. */
struct spool {
	struct buf	*mem;		/* FT_ROWS payloads, the batches as built */
	size_t		 nmem, capmem;
	size_t		 memsize;	/* their memory, taken from the spool's */
	FILE		*f;		/* overflow, unlinked temporary file */
	uint64_t	 rows;
};

struct chunk {
	enum chunk_state state;
	char		*cond;		/* range condition, NULL for none */
	struct spool	 spool;
	uint64_t	 rows;		/* rows read by this chunk */
};

enum table_mode {
	TM_WHOLE,	/* one query, no chunks */
	TM_RANGE,	/* integer first key column: MIN/MAX ranges */
	TM_KEYSET	/* sequential keyset pagination */
};

struct table {
	char		*schema;
	char		*name;
	char		*kind;		/* TABLE_TYPE */
	char		*engine;	/* may be NULL (views) */
	uint64_t	 rows_est;
	uint64_t	 bytes_est;
	int		 is_view, is_sequence, versioned;
	int		 rows_elsewhere;	/* MERGE, FEDERATED, ...: no rows */
	int		 named;		/* named on the command line */
	char		*ddl;		/* SHOW CREATE TABLE / SEQUENCE */
	size_t		 ddl_len;
	char		*next_value;	/* sequences: next_not_cached_value */
	unsigned long long round;	/* sequences: cycle_count */
	char		*srid;		/* "SRID\t`col`" lines, or NULL */
	size_t		 ntriggers;	/* its triggers in the stream */
	struct col	*cols;
	size_t		 ncols;
	/* The fields (name, type, decimals) of the SELECT * ... LIMIT 0
	 * that took its metadata lock (lock_tables), in table order. */
	struct col	*lk;
	size_t		 nlk;
	size_t		*key;		/* indices into cols */
	size_t		 nkey;
	const char	*where;		/* user condition or NULL */
	char		**left_out;	/* columns --columns does not read */
	size_t		 nleft_out;
	char		*select;	/* SELECT list FROM name [FOR SYSTEM_TIME ALL] */
	char		*order;		/* " ORDER BY ..." or "" */
	uint64_t	 id;
	enum table_mode	 mode;
	struct chunk	*chunks;
	size_t		 nchunks;
	/* Output state, under mu. */
	pthread_mutex_t	 mu;
	size_t		 next_write;	/* first chunk not yet written */
	uint64_t	 rows_written;
};

struct object {
	int		 kind;		/* OBJ_* */
	char		*schema;
	char		*name;
	char		*ddl;
	size_t		 ddl_len;
	struct attrs	 attrs;
};

struct objlist {
	struct object	*v;
	size_t		 n, cap;
};

struct where_opt {
	char		*table;		/* NULL: every table */
	char		*cond;
};

/* --columns TABLE:C1,C2,... */
struct columns_opt {
	const char	*arg;
	char		*table;		/* "t" or "db.t" */
	char		**cols;
	size_t		 ncols;
	int		 hit;
};

/* --select TABLE.COLUMN=EXPR */
struct select_opt {
	const char	*arg;
	char		*table;
	char		*col;
	const char	*expr;
	int		 hit;
};

struct snap_opts {
	struct conn_opts conn;
	char		**dbs;
	size_t		 ndbs;
	char		**tables;	/* TABLE args (with one DB) */
	size_t		 ntables;
	char		**ignore;	/* "db.table" */
	size_t		 nignore;
	struct where_opt *wheres;
	size_t		 nwheres;
	struct columns_opt *columns;
	size_t		 ncolumns;
	struct select_opt *selects;
	size_t		 nselects;
	int		 all_databases;
	int		 by_list;	/* -B: every argument is a database */
	int		 no_data, no_create;
	int		 routines, triggers, events;
	int		 keep_replica_events;	/* --keep-replica-event-status */
	int		 users;		/* --users */
	int		 skip_proxies;	/* --skip-proxy-grants */
	int		 no_lock;
	int		 list;
	int		 force;
	int		 progress;	/* 1, or -1: when stderr is a terminal */
	int		 verbose;	/* -v: say each step on stderr */
	int		 print_position; /* --print-position */
	unsigned	 lock_wait_timeout; /* seconds, for the global read lock */
	unsigned	 jobs;
	unsigned long long chunk_rows;
	/* #19: plans, parts, a replica stopped at a GTID position */
	unsigned	 plan_parts;	/* --plan N */
	char		*part_spec;	/* --part I/N */
	unsigned	 part, parts;
	char		*plan_file;	/* --plan-file */
	char		*at_gtid;	/* --at-gtid POS */
	unsigned	 gtid_wait_timeout;	/* seconds */
	int		 keep_stopped;	/* --keep-stopped: the replica stays at POS */
};

struct snap {
	struct snap_opts *o;
	MYSQL		**conns;	/* jobs connections; conns[0] controls */
	struct table	**tables;	/* tables and views, in dump order */
	size_t		 ntables;
	size_t		*db_end;	/* o->dbs[i]'s: tables[db_end[i - 1]..db_end[i]) */
	unsigned char	*ignore_hit;	/* o->ignore[i] named a table */
	int		 listing;	/* a table list is read (query.c) */
	struct objlist	 dbobjs;	/* OBJ_DATABASE */
	struct objlist	 routines;
	struct objlist	 views;
	struct objlist	 triggers;
	struct objlist	 events;
	struct objlist	 users;		/* --users: OBJ_USER, then OBJ_ROLE */
	struct objlist	 rolegrants;	/* --users: OBJ_GRANT of roles */
	struct objlist	 grants;	/* --users: OBJ_GRANT of privileges */
	struct objlist	 proxies;	/* --users: OBJ_GRANT PROXY */
	struct attrs	 header;
	const char	*consistency;
	struct frame_writer *fw;
	pthread_mutex_t	 out_mu;	/* the frame writer */
	struct progress	*prog;
	struct plan	*plan;		/* --part: the plan (plan.c) */
	struct replica	*replica;	/* --at-gtid: what to restore (replica.c) */
	uint64_t	 next_id;
	struct leftout {		/* in the databases, not in the stream */
		uint64_t	 procedures, functions, packages, package_bodies;
		uint64_t	 events, triggers, users, roles;
		uint64_t	 proxies;	/* --skip-proxy-grants */
		/* kinds left out that the account cannot count: "EVENT" */
		const char	*no_routines, *no_events;
		uint64_t	 no_triggers;	/* tables without TRIGGER */
		/* -A: the system databases there, "mysql, sys" */
		struct buf	 system_dbs;
	}		 left;
};

/* A binary-protocol row decoder (binrow.c); zeroed is empty. */
/* A value this long is written from Connector/C's buffer (binrow.hole). */
#define BINROW_HOLE_MIN	((size_t)256 << 10)
#define BINROW_HOLES	16	/* per batch; more are copied */

struct bincol {
	unsigned char	 kind;		/* how the value is sent */
	unsigned char	 dec;		/* fraction digits of temporals */
	unsigned short	 pad;		/* ZEROFILL width, or 0 */
};

struct binrow {
	struct buf	*out;		/* the batch values are appended to */
	struct bincol	*cols;
	size_t		*off, *len;	/* each column's text in out (off -1: NULL) */
	unsigned	 ncols, cap;
	size_t		 room;		/* batch room a row needs */
	/*
	 * Large string values of the rows in the batch that were not
	 * copied: each belongs at byte at of the batch (after its varint)
	 * and is at p, in Connector/C's packet buffer, valid until the
	 * next fetch: the batch must be written before it (emit_holes).
	 * Their columns' off is -2 (a key is never this long).
	 */
	struct {
		size_t		 at;
		const unsigned char *p;
		size_t		 len;
	}		 hole[BINROW_HOLES];
	unsigned	 nholes;
	size_t		 hole_bytes;
	const char	*err;		/* the row's first problem, or NULL */
	unsigned	 errcol;
	const void	*magic;		/* binrow_attach() was here */
	/* A value's text when it is not formatted in place (binrow.c). */
	char		 tmp[TIMEFMT_MAX + NUMFMT_MAX + 256];
};

/*
 * binrow.c: binrow_setup() prepares br for a result with these fields;
 * -1 (br->err, br->errcol set) for a type it cannot read.
 * binrow_install(m) has m's statements decode their rows here, for the
 * statements that binrow_attach() gave a binrow (before their execute;
 * -1 on failure, see mysql_stmt_error): each mysql_stmt_fetch() then
 * appends the row's values to br->out (nothing is bound), and br->err
 * says whether the row was malformed (br->errcol: where).  Call
 * binrow_install() before threads use m; binrow_uninstall(m) restores
 * Connector/C's decoding.
 */
int	 binrow_setup(struct binrow *, const MYSQL_FIELD *, unsigned);
void	 binrow_install(MYSQL *);
void	 binrow_uninstall(MYSQL *);
int	 binrow_attach(MYSQL_STMT *, struct binrow *);

/*
 * netread.c: netread_install(m) has m's reads from the server take what
 * the socket holds, up to 256 KiB, in one recv(2) (not for TLS); before
 * threads use m.  netread_uninstall(m) restores Connector/C's reads once
 * no reply is partly read.
 */
void	 netread_install(MYSQL *);
void	 netread_uninstall(MYSQL *);

/* catalog.c */
void	 discover_tables(struct snap *);
void	 discover_details(struct snap *);
/*
 * 1 if db.t is a table or view of the dump: one listed, or while a list
 * is read (s->listing), one the arguments select.  Names compare without
 * case: under lower_case_table_names the server's messages have them in
 * lower case (a false 1 only fails a dump).
 */
int	 dumped_table(struct snap *, const char *db, const char *t);
/* o->dbs[i]'s tables are s->tables[*lo..*hi) (one walk, not N x N) */
static inline void
db_span(const struct snap *s, size_t i, size_t *lo, size_t *hi)
{
	*lo = i > 0 ? s->db_end[i - 1] : 0;
	*hi = s->db_end[i];
}
void	 list_tables(struct snap *);

/* schema.c */
/* A table of the catalogue (s->tables) by name, NULL if not there. */
struct table *find_table(struct snap *, const char *db, const char *name);
/* name is "table" or "db.table" */
struct table *find_table_any(struct snap *, const char *name);
void	 discover_columns(struct snap *, const char *db);
/* Has t a column of a spatial type (GEOMETRY, POINT, ...)? */
int	 table_is_spatial(const struct table *t);
void	 discover_keys(struct snap *, const char *db);
void	 versioning_cols(struct table *);
void	 lock_tables(struct snap *, size_t lo, size_t hi);
void	 check_locked(struct snap *, const struct table *);
void	 build_select(struct snap *, struct table *);
/* The index of column name (any case, not a pseudo column), or -1. */
ssize_t	 col_index(const struct table *, const char *name);

/* columns.c: --columns and --select */
void	 select_columns(struct snap *, struct table *);
void	 select_columns_used(struct snap *);

/* objects.c */
void	 database_object(struct snap *, const char *db, const char *dbcoll);
void	 table_details(struct snap *, struct table *, const char *dbcoll);
void	 warn_nontransactional(struct snap *);
void	 discover_routines(struct snap *, const char *db, const char *dbcoll);
void	 order_views(struct objlist *);

/* users.c: --users, the accounts, roles and grants */
void	 discover_users(struct snap *);

/*
 * privs.c: the account's privileges, from SHOW GRANTS (privs_read(), on
 * conns[0]).  privs_have(): does it hold priv (PRIV_*) on db.table
 * (table NULL: on db.*; db NULL: on *.*)?  1 too when SHOW GRANTS could
 * not be read: then nothing is refused on a guess.
 */
#define PRIV_ALL		0x01
#define PRIV_SELECT		0x02
#define PRIV_TRIGGER		0x04
#define PRIV_EVENT		0x08
#define PRIV_SHOW_VIEW		0x10
#define PRIV_SHOW_ROUTINE	0x20	/* MariaDB 11.3 SHOW CREATE ROUTINE */
void	 privs_read(struct snap *);
int	 privs_have(unsigned priv, const char *db, const char *table);

/*
 * leftout.c: check_readable(), before the definitions are read: each
 * kind of object asked for that the account cannot read is named with
 * the privilege it needs, and dbsnap ends (exit 1) before it writes
 * anything.  count_left_out() counts in the snapshot what is not asked
 * for, report_left_out() names it at the end.
 */
void	 check_readable(struct snap *);
void	 count_left_out(struct snap *);
void	 report_left_out(struct snap *);

/* chunks.c */
/* How t's rows are read (t->mode, t->chunks): --where, ranges, keyset, whole. */
void	 chunk_table(struct snap *, struct table *);
int	 key_is_integer(const struct table *);
int	 key_bounds(struct snap *, struct table *, __int128 *lo, __int128 *hi);
/* "k >= lo", "k < hi" or "k BETWEEN lo AND hi - 1"; owned by the caller */
char	*range_cond(const struct col *, int has_lo, __int128 lo, int has_hi,
	    __int128 hi);
void	 add_int128(struct buf *, __int128);

/*
 * plan.c: --plan N and --part I/N (#19).  plan_read() reads a plan file
 * before connecting (exits 1 naming the line on a bad one) and sets the
 * databases and tables to dump; plan_print() computes the plan from the
 * catalogue and prints it; part_begin() computes the plan (no plan file),
 * checks the catalogue against it and adds the part's header keys;
 * part_table() gives table t this part's chunks and id (1), or leaves it
 * out (0).  plan_chunks() gives every table this run reads its id and
 * its chunks: part_table()'s, or chunk_table()'s without a plan.
 * part_pre() and part_post(): does this stream carry the
 * objects made before the rows (databases, tables, sequences: part 1),
 * or after them (routines, views, triggers, events: part N)?
 */
void	 plan_read(struct snap_opts *);
void	 plan_print(struct snap *);
void	 part_begin(struct snap *);
int	 part_table(struct snap *, struct table *);
void	 plan_chunks(struct snap *);
int	 part_pre(const struct snap *);
int	 part_post(const struct snap *);

/*
 * replica.c: --at-gtid POS (#19).  replica_stop_at() stops the replica's
 * SQL thread exactly at POS (or finds it there) and checks its executed
 * position; replica_restart() starts replication again as it was found
 * and adds gtid_pos to the header.  Between the two, replica_restore()
 * (die()'s undo, report.h) puts replication back before dbsnap exits, and
 * SIGINT, SIGTERM and SIGHUP wait until it has.
 */
void	 replica_stop_at(struct snap *);
void	 replica_restart(struct snap *);
void	 replica_restore(struct snap *);

/*
 * lockwait.c: FLUSH TABLES WITH READ LOCK on conns[0], saying what it
 * waits for after a second and giving up after --lock-wait-timeout
 * (conns[1] must be open).  Returns the statement that releases it; ends
 * dbsnap on failure.
 */
const char *take_read_lock(struct snap *);

/* session.c */
MYSQL	*session_open(struct snap *);
void	 session_snapshot(struct snap *);
int	 is_mariadb(MYSQL *);

/*
 * sql.c: run q (len bytes) on m; on any error sql_die(m, what) (report.h).
 * sql_exec() drains a result if there is one; sql_query() returns the
 * stored result (the caller frees it), NULL only for a statement that
 * has none.
 */
void	 sql_exec(MYSQL *, const char *what, const char *q, size_t len);
MYSQL_RES *sql_query(MYSQL *, const char *what, const char *q, size_t len);

/* workers.c */
void	 write_header(struct snap *);
void	 write_object(struct snap *, const struct object *);
void	 write_objects(struct snap *, const struct objlist *);
void	 write_table_objects(struct snap *, size_t dbi, int sequences);
void	 discover_srids(struct snap *, size_t dbi);
void	 run_workers(struct snap *);

/* query.c: helpers that end dbsnap on failure */
void	 attrs_add(struct attrs *, const char *key, const char *val);
void	 attrs_free(struct attrs *);
char	*xstrndup(const char *, size_t);
char	*xstrdup(const char *);
void	*xcalloc(size_t, size_t);
void	 obj_push(struct objlist *, const struct object *);
void	 must(struct buf *);		/* fail on b->err */
void	 lit(struct buf *, const char *);	/* 'bytes' */
MYSQL_RES *query_buf(struct snap *, const char *what, struct buf *q);
/* The same for a statement that holds no lock past its end: see query.c */
MYSQL_RES *query_cat(struct snap *, const char *what, struct buf *q);
/* A column of a result row by its name, NULL if absent or SQL NULL. */
char	*row_col(MYSQL_RES *, MYSQL_ROW, const char *name, size_t *lenp);
char	*dup_col(MYSQL_RES *, MYSQL_ROW, int i);	/* owned, or NULL */
const char *ctx2(const char *a, const char *b);	/* "a.b", static */
int	 in_list(const char *, const char *const *list);

#endif
