/*
 * load: sqlexec's snapshot-stream path (dbsnap's output: objects, tables
 * and rows), shared by load.c (the dispatcher: reads the frames, creates
 * the objects, cuts each table's rows into units) and bulk.c (the
 * workers' side: loads a unit through the server's bulk prepared INSERT
 * with array binding, or as INSERT text where the server has none).
 *
 * Positions are frame sequence numbers (rowpipe-stream(5)): a unit holds
 * whole, consecutive ROWS frames of one table.  Frames of several tables
 * interleave (dbsnap -j), so units of different tables overlap in frame
 * numbers, and a prefix alone cannot say what is committed: the resume
 * point (resume.c, struct sx_point) is a prefix N (every frame up to N
 * done) and, for each table with committed frames after N, its mark
 * (its frames up to the mark committed, none after).  That is exact with
 * any -j because a table's units commit in its frame order (the ordered
 * commits of worker.c) and objects are barriers.
 */
#ifndef SQLEXEC_LOAD_H
#define SQLEXEC_LOAD_H

#include "sqlexec.h"
#include "sqlvalue.h"
#include "stbl.h"

/* How a column's value is bound (bulk.c). */
enum ld_bind {
	LB_BINARY,	/* the bytes, as a binary string (MYSQL_TYPE_BLOB) */
	LB_TEXT,	/* text in the connection's utf8mb4 (INET6, UUID) */
	LB_INT,		/* integer columns: MYSQL_TYPE_LONGLONG */
	LB_UINT,	/* the same, unsigned */
	LB_DOUBLE	/* FLOAT and DOUBLE: MYSQL_TYPE_DOUBLE */
};

/*
 * A table of the stream, owned by the dispatcher's lib/stbl set until
 * the run ends.
 */
struct ld_table {
	struct stbl	 s;		/* first: id, its TABLE frame, rows
					   received, ended */
	struct rp_table	*t;		/* s.t */
	size_t		 index;		/* its place in the set, from 0 */
	char		*name;		/* "schema.table", for messages */
	struct buf	 insert;	/* INSERT INTO `s`.`t` (`a`,...) VALUES (?,...) */
	struct buf	 prefix;	/* INSERT INTO `s`.`t` (`a`,...) VALUES  */
	size_t		*emit;		/* columns in the INSERT, by index */
	enum ld_bind	*bind;		/* per emitted column */
	struct sqlval_col *cols;	/* per column: literals for INSERT text */
	size_t		 nemit;
	uint64_t	 nunits;	/* units queued */
	struct sx_unit	*open;		/* unit being filled, or NULL */
	struct ld_table	*onext, *oprev;	/* the tables with an open unit,
					   by its first frame (snapunit.c) */
	char		*engine;	/* not transactional: its engine (nontx.c) */
	uint64_t	 skip_mark;	/* resumed: its frames up to it are in */
};

/* The rows of a unit: whole ROWS payloads of one table. */
struct sx_rows {
	struct ld_table	*t;		/* borrowed from the dispatcher */
	struct buf	 data;		/* the payloads, one after another */
	size_t		*end;		/* end of payload i in data */
	size_t		 n, cap;
	uint64_t	 first_frame, last_frame;
	uint64_t	 first_prev_hash; /* identity up to first_frame - 1 */
	uint64_t	 last_hash;	/* identity up to last_frame */
	uint64_t	 first_row;	/* 1-based row number in the table */
	uint64_t	 nrows;
	int		 text;		/* load as INSERT text (no bulk execute) */
};

/* The indexes deferred of one table (defer.c). */
struct sx_deferred {
	char		*table;		/* "schema.table", for messages */
	char		*sql;		/* ALTER TABLE ... ADD ..., ADD ... */
	size_t		 len;
	uint64_t	 frame;		/* the table's OBJECT frame */
	int		 done;		/* its ALTER ran (sx_defer_run()) */
};

/* defer.c */
/*
 * Split a SHOW CREATE TABLE text (len bytes) for --defer-indexes: the
 * CREATE without its non-unique secondary keys to create, the keys as
 * "ADD KEY ..., ADD FULLTEXT KEY ..." to adds.  1: split; 0: nothing to
 * defer or a table that keeps its indexes (a foreign key, text it cannot
 * read): the buffers are then meaningless; -1: out of memory.
 */
int	 sx_defer_split(const char *ddl, size_t len, struct buf *create,
	    struct buf *adds);
/*
 * Does deferring the indexes of table ob pay, by its size (the OBJECT
 * frame's rows_estimate)?  Without an estimate: yes.
 */
int	 sx_defer_pays(const struct rp_object *ob);
/*
 * Run the n ALTERs, in parallel over x's connections (the workers must
 * be idle); each that ran gets done set.  0, or -1 with the first error
 * recorded (or interrupted).
 */
int	 sx_defer_run(struct sx *, struct sx_deferred *, size_t n);

/* report.c */
/*
 * After a failed load: name the n tables of d that were created without
 * their deferred indexes and are left so, and say what adds them (the
 * resume point printed, if there is one).  Nothing if n is 0.
 */
void	 sx_report_deferred(struct sx *, const struct sx_deferred *d,
	    size_t n);

/* bulk.c */
/*
 * Load unit u's rows on conn[c] (bulk execute, or INSERT text where the
 * server has none), in the transaction open there (or in autocommit:
 * a table that is not transactional); *rows inserted, *warns: server
 * warnings, for the caller to count once it has committed.  0, or -1
 * with the error recorded.
 */
int	 sx_rows_load(struct sx *, int c, struct sx_unit *u, uint64_t *rows,
	    uint64_t *warns);
/* "s.t: rows a-b (frames x-y): what: ERROR n (s): msg" of m, recorded. */
void	 sx_rows_conn_error(struct sx *, struct sx_unit *u, const char *what,
	    MYSQL *m);
/* Does the server on m take COM_STMT_BULK_EXECUTE?  1 or 0. */
int	 sx_bulk_supported(MYSQL *);
/* Per-connection state for x's connections.  0, or -1 with errno. */
int	 sx_bulk_new(struct sx *);
/* Close every prepared statement; workers must be idle.  */
void	 sx_bulk_free(struct sx *);
void	 sx_rows_free(struct sx_rows *);
/* "s.t: rows 1-1000 (frames 5-8)" for messages about unit u, into b. */
void	 sx_rows_where(struct buf *, const struct sx_unit *);

#endif
