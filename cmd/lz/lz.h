/*
 * lz core: LZ4 frame format compression and decompression over stdio input
 * and a file descriptor output, with a pool of worker threads.  No main()
 * here: the core (lz.c, pool.c, compress.c, decompress.c; core.h) is
 * built into liblz.a, which lz and its fuzzer link.
 *
 * Follows lz4's doc/lz4_Frame_format.md (frame format 1.6.x): the block
 * work is done by liblz4's block API (LZ4_compress_fast_extState,
 * LZ4_compress_HC_extStateHC, LZ4_decompress_safe[_usingDict]) and the
 * checksums by libxxhash (XXH32); this file only reads and writes the frame
 * and block headers.
 */
#ifndef LZ_H
#define LZ_H

#include <stdint.h>
#include <stdio.h>

struct lz_opts {
	int	 level;		/* 1-12: <= 2 fast (LZ4), >= 3 LZ4 HC */
	int	 accel;		/* acceleration for the fast levels, >= 1 */
	int	 block_id;	/* 4-7: 64 KiB, 256 KiB, 1 MiB, 4 MiB blocks */
	int	 threads;	/* workers; 0: all work in the calling thread */
	int	 content_size;	/* write the content size in the frame header */
	int	 content_crc;	/* XXH32 of the content after the end mark */
	int	 block_crc;	/* XXH32 of each block after it */
};

/*
 * rpcheck.c: does data that is a rowpipe stream or a rows2sql text end
 * where its producer ended it (its trailer)?  Fed the data in order by
 * rpcheck_add(); rpcheck_end() then returns NULL (complete, or neither
 * kind of data) or a static phrase ("a rowpipe stream without its
 * trailer (cut)", ...).  Zero the struct to start; nothing to free.
 */
struct rpcheck {
	int		 kind;
	uint64_t	 off;		/* bytes seen */
	unsigned char	 head[24];	/* the first bytes, to sniff: as long
					   as the longest start looked for */
	size_t		 headlen;
	/* a stream: the next frame's header, the last frame */
	uint64_t	 next, frames, last_at, last_len;
	unsigned char	 hdr[16];
	size_t		 hlen;
	int		 last_type;
	unsigned char	 pay[64];	/* the last frame's payload, if small */
	size_t		 plen;
	/* a text: the line being read, the last whole line */
	unsigned char	 line[256], last[256];
	size_t		 linelen, lastlen;
	uint64_t	 line_off, last_off;
	int		 line_long, last_long, seen_line;
};
void		 rpcheck_add(struct rpcheck *, const void *, size_t);
const char	*rpcheck_end(struct rpcheck *);

/*
 * One run of lz_compress(), lz_decompress() or lz_list().  The caller fills
 * the first fields; after a failure (-1), err holds a one-line reason
 * without a program name or context, and ierr/oerr the errno of a failed
 * read from in or write to out (0 when the data itself was at fault).
 */
struct lz {
	const struct lz_opts *o;
	FILE		*in;		/* read with fread(3); not closed */
	int		 out;		/* write(2) here; -1 discards (-t, -l) */
	FILE		*list;		/* lz_list(): one line per frame here */
	struct progress	*prog;		/* input bytes read, or NULL */
	uint64_t	 inoff;		/* bytes consumed from in */
	uint64_t	 outoff;	/* bytes produced */
	int		 ierr, oerr;
	char		 err[256];
	/* if set: fed the data (what lz_compress() reads, or the others write) */
	struct rpcheck	*check;
	int		 check_out;	/* 1: the output is the data */
};

/*
 * Compress all of z->in into one LZ4 frame on z->out: independent blocks
 * of 1 << (2 * block_id + 8) bytes, compressed by o->threads workers while
 * the calling thread reads, checksums and writes in order.  insize is the
 * input size for the header's content size field (o->content_size), or -1
 * when it is unknown (the field is then left out).  Memory: about
 * 2 * max(1, threads) * 2 * block size.  0, or -1 with z->err set.
 */
int	 lz_compress(struct lz *z, int64_t insize);

/*
 * Decompress z->in to z->out (discarded if -1): LZ4 frames, skippable
 * frames (skipped) and legacy frames, concatenated in any order.  Blocks of
 * frames with independent blocks are decoded by the workers; linked blocks
 * in the calling thread.  Every header, block and content checksum present
 * is verified; truncation, trailing garbage and non-LZ4 input are errors.
 * 0, or -1 with z->err set; output written before an error stays written.
 */
int	 lz_decompress(struct lz *z);

/*
 * Like lz_decompress() with z->out = -1 (so the whole stream is verified),
 * printing one line per frame to z->list: offset, type, block size,
 * checksums, compressed and uncompressed sizes; then a total line.
 */
int	 lz_list(struct lz *z);

/*
 * lz -o FILE (outfile.c).  lz_outfile_open() opens path for writing: a new
 * or (with force) existing regular file, also one named by a symbolic
 * link, through a file with no name (O_TMPFILE) or a temporary file
 * beside it (fd) that lz_outfile_commit() links or renames into place;
 * an existing device or FIFO directly.  force is
 * needed for any existing path but /dev/null, as in lz4(1).  Sockets,
 * directories and dangling links are refused.  On failure it prints the
 * reason and exits 1 (cmd code), having left path as it was.  SIGHUP,
 * SIGINT, SIGTERM and SIGQUIT remove the temporary file before they end
 * the process.
 */
struct lz_outfile {
	const char	*path;		/* as given; not owned */
	char		*target;	/* the file rename(2) replaces */
	char		*tmp;		/* the temporary file's name, or NULL */
	int		 fd;		/* write here */
	int		 unnamed;	/* fd is O_TMPFILE: linkat(2) names it */
	int		 replace;	/* target exists (-f) */
	char		 proc[32];	/* "/proc/self/fd/N", for linkat(2) */
};

void	 lz_outfile_open(struct lz_outfile *, const char *path, int force);
/*
 * Sync and close the temporary file and rename it into place (or close
 * the device or FIFO).  0, or -1 with errno set, the temporary file
 * removed and path left as it was.
 */
int	 lz_outfile_commit(struct lz_outfile *);
/* Close, and remove the temporary file if there is one.  Never the path. */
void	 lz_outfile_abort(struct lz_outfile *);

#endif
