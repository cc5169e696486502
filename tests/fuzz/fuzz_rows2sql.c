/*
 * libFuzzer target for rows2sql's converter: any frame stream must convert
 * or fail cleanly, never crash, leak or overrun.
 *
 * An input starting with the rowpipe magic is fed as it is (mostly
 * failing its checksums early).  Any other input is a list of frames that
 * this target seals with valid checksums first, so that the payload
 * decoders and the SQL writer see arbitrary contents: a byte of options,
 * then records of [type][length, 2 bytes LE][payload].
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#include "frame.h"
#include "../../cmd/rows2sql/r2s.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
seal(int fd, const uint8_t *p, size_t n)
{
	struct frame_writer	*w;
	size_t			 len;
	int			 type, first = 1;

	if ((w = frame_writer_new(fd)) == NULL)
		return -1;
	while (n >= 3) {
		type = p[0];
		len = (size_t)p[1] | (size_t)p[2] << 8;
		p += 3;
		n -= 3;
		if (len > n)
			len = n;
		/* The writer insists on a header first. */
		if (first && type != FT_HEADER)
			(void)frame_write(w, FT_HEADER, 0, "\0", 1);
		if (type < FT_HEADER || type > FT_STMT ||
		    (!first && type == FT_HEADER))
			type = FT_ROWS;
		first = 0;
		(void)frame_write(w, type, 0, p, len);
		p += len;
		n -= len;
	}
	if (first)
		(void)frame_write(w, FT_HEADER, 0, "\0", 1);
	(void)frame_writer_close(w);
	frame_writer_free(w);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct names_rename ren = { NULL, "t1", "n`1" };
	static struct names_rename dbren = { NULL, "d1", "d\"2" };
	static struct names_table tabs = { NULL, "t2" };
	struct r2s_opts	 o;
	const char	*msg;
	int		 fd, out;
	uint8_t		 opt = size > 0 ? data[0] : 0;

	if ((fd = memfd_create("fuzz", 0)) == -1)
		return 0;
	if ((out = open("/dev/null", O_WRONLY)) == -1) {
		close(fd);
		return 0;
	}
	if (size >= FRAME_MAGIC_LEN && memcmp(data, FRAME_MAGIC,
	    FRAME_MAGIC_LEN) == 0)
		(void)write(fd, data, size);
	else if (size > 0)
		seal(fd, data + 1, size - 1);
	lseek(fd, 0, SEEK_SET);

	memset(&o, 0, sizeof(o));
	/* 0 escaped, -1 the shorter (the default); --hex-blob: see t2100 */
	o.hex_blob = opt & 1 ? 0 : -1;
	o.insert = (opt >> 1) & 3;
	o.skip_definer = (opt >> 3) & 1;
	o.max_stmt = opt & 0x10 ? 1024 : R2S_MAX_STMT_DEFAULT;
	o.max_packet = opt & 0x20 ? 4096 : R2S_MAX_PACKET_DEFAULT;
	if (opt & 0x40) {
		o.names.renames = &ren;
		o.names.nrenames = 1;
		o.names.db_renames = &dbren;
		o.names.ndb_renames = 1;
	}
	if (opt & 0x80) {
		o.names.tables = &tabs;
		o.names.ntables = 1;
	}
	(void)rows2sql(fd, out, &o, &msg);
	close(fd);
	close(out);
	return 0;
}
