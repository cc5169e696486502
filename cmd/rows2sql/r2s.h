/*
 * rows2sql: the frame stream to SQL text converter, the interface between
 * main.c and the converter (librows2sql.a, which the fuzzer links too).
 *
 * The converter's files: convert.c (the frame loop), output.c (the output
 * buffer and statement ends), session.c (the dump's session header,
 * footer and trailer line), objects.c (schema objects, through
 * lib/objsql), inserts.c (tables and rows as INSERT statements),
 * report.c (fail(), the error every file records); the trailer's XXH3
 * is lib/xxh's; state.h is their shared state.
 */
#ifndef ROWS2SQL_R2S_H
#define ROWS2SQL_R2S_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "names.h"

enum r2s_insert {
	INS_INSERT,
	INS_IGNORE,
	INS_REPLACE,
	INS_UPSERT
};

struct r2s_opts {
	int			 insert;	/* enum r2s_insert */
	int			 hex_blob;	/* 1 hex, 0 escaped, -1 shorter (default) */
	int			 no_data;
	int			 no_create;
	int			 no_create_db;
	int			 skip_drop;
	int			 skip_definer;
	int			 no_trailer;	/* for debugging only */
	int			 part_ok;	/* --part-ok: one part of a plan */
	int			 progress;	/* 1, 0, -1: if stderr is a tty */
	size_t			 max_stmt;	/* --max-statement-size */
	size_t			 max_packet;	/* --max-allowed-packet */
	struct names		 names;		/* --tables, --rename, --rename-db */
};

#define R2S_MAX_STMT_DEFAULT	((size_t)1 << 20)
#define R2S_MAX_PACKET_DEFAULT	((size_t)16 << 20)
/* Room kept below max_allowed_packet for the packet header and slack. */
#define R2S_PACKET_SLACK	1024

/*
 * Read a frame stream from fd and write SQL text to out_fd.  Returns 0 on
 * success, or -1 after writing one line to *errmsg (static or owned by
 * the converter; valid until exit).  On error, the output ends with the
 * last complete statement and has no trailer.
 */
int	rows2sql(int fd, int out_fd, const struct r2s_opts *, const char **errmsg);

#endif
