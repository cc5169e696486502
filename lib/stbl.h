/*
 * stbl: a snapshot stream's tables by their TABLE frame id, for the
 * programs that read one (rowpipe-stream(5), Frames: TABLE, ROWS and
 * TABLE_END).  The set checks what every reader of rows must: a table id
 * announced once, rows only for an announced table before its end, and
 * one TABLE_END, whose count is the rows received.
 *
 * A reader keeps its own state of a table in a struct whose first member
 * is a struct stbl; stbls_add() allocates it.  The set owns those structs
 * and their rp_table; stbls_free() hands each to release (may be NULL)
 * for the reader's own members first.  Errors leave one line, without
 * the frame's position (the reader adds it), in set->why.
 */
#ifndef ROWPIPE_STBL_H
#define ROWPIPE_STBL_H

#include <stddef.h>
#include <stdint.h>

#include "frame.h"
#include "hmap.h"

struct stbl {
	uint64_t	 id;
	struct rp_table	*t;		/* the TABLE frame, decoded */
	uint64_t	 rows;		/* rows received: the reader counts */
	int		 ended;		/* its TABLE_END was read */
};

struct stbls {
	struct stbl	**v;
	size_t		 n;
	struct stbl	*last;		/* rows frames come in runs */
	struct hmap	 ids;		/* the same tables by id */
	void		(*release)(struct stbl *);
	char		 why[512];
};

/*
 * Decode TABLE frame f into a new zeroed struct of size bytes (at least
 * sizeof(struct stbl)), added to the set.  NULL: corrupt, the id sent
 * twice, or out of memory.
 */
void	*stbls_add(struct stbls *, const struct frame *f, size_t size);
/* The table of id, or NULL (a hash: a dump can have thousands). */
void	*stbls_find(struct stbls *, uint64_t id);
/* Begin ROWS frame f in r: its table, or NULL (corrupt, unknown id, or
 * the table ended). */
void	*stbls_rows(struct stbls *, const struct frame *f, struct rp_rows *r);
/*
 * TABLE_END frame f: its table, now ended, or NULL (corrupt, unknown id,
 * ended before, or a count other than the table's rows: "db.t: N rows
 * announced, M received").
 */
void	*stbls_end(struct stbls *, const struct frame *f);
void	 stbls_free(struct stbls *);

#endif
