/*
 * state: what rowmap's files share while one stream is mapped.
 */
#ifndef ROWMAP_STATE_H
#define ROWMAP_STATE_H

#include "frame.h"
#include "progress.h"
#include "rowmap.h"
#include "stbl.h"

/* A table of the stream by its source name: its DDL and its transforms. */
struct rtab {
	char		*db, *name;	/* source names */
	char		*ddl;		/* its OBJECT frame's DDL, or NULL */
	size_t		 ddl_len;
	struct ddl_table dt;		/* ddl cut into elements, if parsed */
	int		 parsed;
	int		 keep;
	const struct rm_colop **ops;	/* the transforms of its columns */
	size_t		 nops;
};

/* How one column of the output rows is made. */
struct cplan {
	size_t		 src;		/* its column in the input */
	const struct rm_colop *op;	/* NULL: copied */
	int		 hex;		/* OP_HASH: hex digits, else bytes */
	size_t		 hlen;		/* OP_HASH: pseudonym length */
	char		 hbuf[64];
};

/* A table of the stream by its TABLE frame id. */
struct rstream {
	struct stbl	 s;		/* first: its id, TABLE frame, rows */
	int		 keep;
	int		 copy;		/* no column transform: frames as they are */
	struct rtab	*tab;
	struct cplan	*plan;
	size_t		 nin, nout;
	struct rp_val	*in, *out;
};

/* A frame held back until the schema is known. */
struct held {
	int		 type;
	unsigned	 flags;
	uint8_t		*p;
	size_t		 len;
};

struct rm {
	const struct rowmap_opts *o;
	struct frame_writer *fw;
	struct rtab	**tabs;
	size_t		 ntabs;
	struct stbls	 strs;		/* struct rstream by TABLE frame id */
	struct held	*held;
	size_t		 nheld;
	int		 holding;	/* before the first rows: hold objects */
	int		 table_objects;	/* the stream announced its tables */
	char		**dbs;		/* target databases written */
	size_t		 ndbs;
	char		*dbobj_ddl;	/* a database's DDL, to clone */
	char		*dbobj_name;
	const struct frame *f;
	struct progress	*prog;
	char		 errbuf[1024];
};

/* state.c: the error line, at the current frame's position.  -1. */
int	 rm_fail(struct rm *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* rm_fail() for the output: "stdout: why", no input position.  -1. */
int	 rm_wfail(struct rm *);
/* The table db.name (added if add and new), with its transforms; NULL
 * if absent (or out of memory with add). */
struct rtab *rm_tab(struct rm *, const char *db, const char *name, int add);
void	 rm_tab_free(struct rtab *);
/* Does op name table db.name? */
int	 rm_op_on(const struct rm_colop *, const char *db, const char *name);

/* check.c: the transforms against the CREATE TABLE texts. */
int	 rm_check_tables(struct rm *);
/* The DDL of a table with its transforms and renames applied, into b. */
int	 rm_table_ddl(struct rm *, struct rtab *, const struct rp_object *,
	    struct buf *b);
/* Is an object body (view, routine, trigger, event) broken? */
int	 rm_check_body(struct rm *, const struct rp_object *, int words);

/* plan.c: TABLE, ROWS and TABLE_END frames. */
int	 rm_do_table(struct rm *, const struct frame *);
int	 rm_do_rows(struct rm *, const struct frame *);
int	 rm_do_table_end(struct rm *, const struct frame *);
void	 rm_stream_release(struct stbl *);	/* strs.release */

#endif
