/*
 * bench/frames: write and read N rows of about 100 bytes through lib/frame
 * and report MB/s each way (one core).  Rows: an integer key, a 36-byte
 * UUID string, a 40-byte text, a decimal and a NULL, in ROWS frames of
 * about 256 KiB, as dbsnap writes them.  Writes to the file named (in page
 * cache), then reads it back decoding every value.
 */
#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "util.h"

/* Write n rows to fd; seconds taken. */
static double
write_stream(int fd, uint64_t n)
{
	static char		 ids[1024][24], uuids[1024][48];
	static size_t		 idlens[1024];
	struct frame_writer	*w;
	struct buf		*b = NULL;
	const char		*k[] = { "producer" }, *val[] = { "bench" };
	const char		*text = "the quick brown fox jumps over the lazy";
	uint64_t		 i;
	uint32_t		 inframe = 0;
	size_t			 at = 0;
	double			 t0;

	/* Values are made up front: the timing is of the library alone. */
	for (i = 0; i < 1024; i++) {
		idlens[i] = (size_t)snprintf(ids[i], sizeof(ids[i]), "%" PRIu64,
		    i * 7919 + 1000000);
		snprintf(uuids[i], sizeof(uuids[i]),
		    "%08" PRIx64 "-1234-5678-9abc-def012345678", i * 7919);
	}
	t0 = mono_now();
	w = frame_writer_new(fd);
	enc_kv(frame_begin(w), k, val, 1);
	frame_end(w, FT_HEADER, 0);
	for (i = 0; i < n; i++) {
		if (b == NULL) {
			b = frame_begin(w);
			enc_rows_begin(b, 1, 0);
			at = b->len;
		}
		enc_val(b, ids[i & 1023], idlens[i & 1023]);
		enc_val(b, uuids[i & 1023], 36);
		enc_val(b, text, 40);
		enc_val(b, "12345.67890", 11);
		enc_val(b, NULL, 0);
		if (++inframe == 2500 || i + 1 == n) {
			enc_rows_patch(b, at, inframe);
			if (frame_end(w, FT_ROWS, 0) == -1)
				errx(1, "%s", frame_writer_errstr(w));
			b = NULL;
			inframe = 0;
		}
	}
	if (frame_writer_close(w) == -1)
		errx(1, "%s", frame_writer_errstr(w));
	frame_writer_free(w);
	return mono_now() - t0;
}

int
main(int argc, char *argv[])
{
	struct frame_reader	*r;
	struct frame		 f;
	struct rp_rows		 rows;
	struct rp_val		 v[5];
	uint64_t		 n = 10000000, got = 0, sum = 0;
	double			 tnull, tfile, t1, t2;
	off_t			 bytes;
	int			 fd, devnull;

	if (argc < 2)
		errx(2, "usage: frames file [rows]");
	if (argc > 2)
		n = strtoull(argv[2], NULL, 10);
	if ((devnull = open("/dev/null", O_WRONLY)) == -1)
		err(1, "/dev/null");
	if ((fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600)) == -1)
		err(1, "%s", argv[1]);
	tnull = write_stream(devnull, n);
	tfile = write_stream(fd, n);
	bytes = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	t1 = mono_now();
	r = frame_reader_new(fd, 0);
	while (frame_read(r, &f) == FRAME_OK) {
		if (f.type != FT_ROWS)
			continue;
		dec_rows_begin(&f, &rows);
		while (dec_rows_next(&rows, v, 5) == 1) {
			sum += v[0].len + v[1].len + v[2].len + v[3].len;
			got++;
		}
	}
	t2 = mono_now();
	if (got != n)
		errx(1, "read %" PRIu64 " rows of %" PRIu64 ": %s", got, n,
		    frame_reader_errstr(r));
	printf("rows %" PRIu64 ", stream %.1f MB (%.1f bytes/row, value bytes %" PRIu64 ")\n",
	    n, bytes / 1e6, (double)bytes / n, sum);
	printf("write to /dev/null   %5.0f MB/s (%.2f s)\n", bytes / 1e6 / tnull, tnull);
	printf("write to file        %5.0f MB/s (%.2f s)\n", bytes / 1e6 / tfile, tfile);
	printf("read from page cache %5.0f MB/s (%.2f s)\n", bytes / 1e6 / (t2 - t1), t2 - t1);
	frame_reader_free(r);
	close(fd);
	close(devnull);
	return 0;
}
