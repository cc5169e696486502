/*
 * fuzz_lz: libFuzzer target for lz's decoder (cmd/lz/lz.h).  Every input
 * is decompressed in test mode (output discarded); it must end in success
 * or a reported error, never a crash, a leak or a hang.  Small inputs are
 * also compressed and decompressed back, and must round-trip exactly.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cmd/lz/lz.h"

static FILE *
open_mem(const uint8_t *data, size_t size)
{
	if (size == 0)
		return fopen("/dev/null", "r");
	return fmemopen((void *)data, size, "r");
}

static void
round_trip(const uint8_t *data, size_t size)
{
	struct lz_opts	 o = { .level = 1 + size % 12, .accel = 1,
			    .block_id = 4, .threads = size % 3 == 0 ? 2 : 0,
			    .content_crc = 1, .block_crc = size & 1,
			    .content_size = (size & 2) != 0 };
	struct lz	 z;
	FILE		*in, *cin;
	char		*c, *back;
	off_t		 clen, blen;
	int		 cfd, bfd;

	if ((cfd = memfd_create("c", 0)) == -1 ||
	    (bfd = memfd_create("b", 0)) == -1)
		abort();
	memset(&z, 0, sizeof(z));
	z.o = &o;
	z.in = in = open_mem(data, size);
	z.out = cfd;
	if (in == NULL || lz_compress(&z, (int64_t)size) != 0)
		abort();
	fclose(in);
	clen = lseek(cfd, 0, SEEK_CUR);
	if ((c = malloc(clen)) == NULL || pread(cfd, c, clen, 0) != clen)
		abort();
	memset(&z, 0, sizeof(z));
	z.o = &o;
	z.in = cin = fmemopen(c, clen, "r");
	z.out = bfd;
	if (cin == NULL || lz_decompress(&z) != 0)
		abort();
	fclose(cin);
	blen = lseek(bfd, 0, SEEK_CUR);
	if (blen != (off_t)size)
		abort();
	if ((back = malloc(size + 1)) == NULL ||
	    pread(bfd, back, size, 0) != (ssize_t)size ||
	    memcmp(back, data, size) != 0)
		abort();
	free(back);
	free(c);
	close(cfd);
	close(bfd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_opts	 o = { .threads = size % 5 == 0 ? 2 : 0 };
	struct lz	 z;

	memset(&z, 0, sizeof(z));
	z.o = &o;
	z.out = -1;
	if ((z.in = open_mem(data, size)) == NULL)
		return 0;
	(void)lz_decompress(&z);
	fclose(z.in);
	if (size <= 4096)
		round_trip(data, size);
	return 0;
}
