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
	struct ld_table	**tbl;
	size_t		 ntbl;
	struct ld_table	*last;		/* the last one looked up */
	uint64_t	 frame;		/* sequence number of the frame at hand */
	uint64_t	 skipped;	/* frames skipped by --skip-to */
	uint64_t	 objects;	/* objects created */
	uint64_t	 tables;	/* tables whose rows ended */
	int		 plan;		/* a plan's parts: tables in pieces */
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

/* snapunit.c */
/* "frame N at offset O: " and the message, as the run's error: -1. */
int	 ld_frame_error(struct loader *, const struct frame *, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));
/*
 * Queue the unit table t is filling (none while l->hold), with its end
 * point and its mark.
 */
void	 ld_unit_push(struct loader *, struct ld_table *t);
void	 ld_push_all(struct loader *);
/*
 * Wait for everything queued; frames before this one are done (nothing
 * while l->hold).  0, or -1 (recorded).
 */
int	 ld_barrier(struct loader *);

/* snapobj.c */
/* One of lib/objsql's statements (its callback); 0, or -1 (recorded). */
int	 ld_run_stmt(void *l, const struct objsql_stmt *);
/* The session of rows2sql's SQL on every connection.  0, or -1. */
int	 ld_session(struct loader *);
/* --defer-indexes: the ALTERs kept so far, in parallel.  0, or -1. */
int	 ld_run_deferred(struct loader *);
/* An OBJECT frame.  0, or -1 (recorded). */
int	 ld_object(struct loader *, const struct frame *);
/*
 * The table objects queued as units that are done (all of them after a
 * drain): their engines into nontx.c's cache, their count into
 * l->objects; freed.  all: every one, done or not (the run is over).
 */
void	 ld_ddl_fold(struct loader *, int all);

#endif
