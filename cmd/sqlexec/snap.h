/*
 * snap: what load.c (the snapshot stream's dispatcher), snapobj.c (its
 * objects) and snapunit.c (its units and barriers) share.  Calls go
 * load.c -> snapobj.c -> snapunit.c, never back.
 */
#ifndef SQLEXEC_SNAP_H
#define SQLEXEC_SNAP_H

#include "load.h"
#include "objsql.h"

/* The dispatcher's state, one per run. */
struct loader {
	struct sx	*x;
	const struct sx_opts *o;
	struct stbls	 tbls;		/* the tables (struct ld_table) */
	struct ld_table	*open, *open_tail; /* those with an open unit, by
					   its first frame (snapunit.c) */
	uint64_t	 frame;		/* sequence number of the frame at hand */
	uint64_t	 skipped;	/* frames skipped by --skip-to */
	uint64_t	 objects;	/* objects created */
	uint64_t	 tables;	/* tables whose rows ended */
	int		 plan;		/* a plan's parts: tables in pieces */
	struct hmap	 ended;		/* ... the names of those ended */
	uint64_t	 tot_rows;	/* the stream's estimate so far */
	uint64_t	 dry_seq;
	const char	*time_zone;	/* the header's */
	const struct frame *f;		/* the frame at hand */
	struct objsql	*objs;		/* objects as rows2sql's SQL has them */
	char		**cdb;		/* each connection's database (USE):
					   its owner's (engine.h's lock rule) */
	size_t		 ncdb;
	struct sx_ddl	*ddl, *ddl_tail; /* table objects queued as units,
					   not yet folded (ld_ddl_fold()) */
	int		 ddl_run;	/* the frames since the last barrier:
					   table objects queued as units */
	int		 nconn;		/* connections a statement runs on */
	int		 history;	/* system_versioning_insert_history set */
	struct sx_deferred *defer;	/* --defer-indexes: ALTERs to run */
	size_t		 ndefer;
	int		 text;		/* no bulk execute: INSERT text */
	struct sx_id	 id;		/* the input's identity, running */
	uint64_t	 hash;		/* ... up to the frame at hand */
	uint64_t	 prev_hash;	/* ... up to the one before it */
	int		 checked;	/* --skip-to's identity was checked */
	uint64_t	 top;		/* the resume point's last frame */
	int		 hold;		/* before it: queue nothing */
	char		*held_err;	/* an error found while held, said */
	uint64_t	 held_no;	/* ... once the identity is checked */
	struct buf	 newdbs;	/* databases this run created, NUL-ended */
};

/*
 * A table object queued as a unit (snapobj.c's ddl_queue(); sx_ddl_run(),
 * commit.c's unit_ddl()): its statements, rendered by the dispatcher
 * (lib/objsql is its own), run by the worker that takes the unit, on that
 * worker's connection; folded back once done (ld_ddl_fold()).
 */
struct ddl_stmt {
	int		 role;
	int		 of_obj;	/* names the object (not NULL obj) */
	char		*db;
	char		*text;
	size_t		 len;
};

struct sx_ddl {
	struct loader	*l;
	uint64_t	 frame, offset;
	struct rp_object ob;		/* kind, schema and name: messages */
	char		*target;	/* its database on the target */
	struct ddl_stmt	*st;
	size_t		 n;
	/* the worker's, then (done set under x->mu) the dispatcher's */
	int		 done;		/* 1 ran, 2 failed */
	unsigned	 created;	/* CREATEs that ran */
	char		*engine;	/* sx_nontx_query()'s */
	struct sx_ddl	*next;
};

/* snapunit.c */
/* "frame N at offset O: " and the message, as the run's error: -1. */
int	 ld_frame_error(struct loader *, const struct frame *, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));
/*
 * Queue the unit table t is filling (none while l->hold), with its end
 * point and its mark.
 */
void	 ld_unit_push(struct loader *, struct ld_table *t);
/* Table t's new open unit (t->open) into the open ones. */
void	 ld_unit_open(struct loader *, struct ld_table *t);
/* Every open unit, in the tables' order; ld_drop_all(): dropped. */
void	 ld_push_all(struct loader *);
void	 ld_drop_all(struct loader *);
/*
 * Wait for everything queued; frames before this one are done (nothing
 * while l->hold).  0, or -1 (recorded).
 */
int	 ld_barrier(struct loader *);
/*
 * The table objects queued as units that are done (all of them after a
 * drain): their engines into nontx.c's cache, their count into
 * l->objects; freed.  all: every one, done or not (the run is over).
 */
void	 ld_ddl_fold(struct loader *, int all);
void	 ld_ddl_free(struct sx_ddl *);

/* snapobj.c */
/* One of lib/objsql's statements (its callback); 0, or -1 (recorded). */
int	 ld_run_stmt(void *l, const struct objsql_stmt *);
/* The session of rows2sql's SQL on every connection.  0, or -1. */
int	 ld_session(struct loader *);
/* --defer-indexes: the ALTERs kept so far, in parallel.  0, or -1. */
int	 ld_run_deferred(struct loader *);
/* An OBJECT frame.  0, or -1 (recorded). */
int	 ld_object(struct loader *, const struct frame *);

#endif
