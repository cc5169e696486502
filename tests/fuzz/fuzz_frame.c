/*
 * libFuzzer target for the frame reader and payload decoders: any input
 * must end in FRAME_DONE or FRAME_ERR, never a crash, leak or overrun.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frame.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
decode(const struct frame *f, struct rp_table **tab)
{
	struct rp_object	 o;
	struct rp_stmt		 s;
	struct rp_rows		 r;
	struct rp_val		 v[64];
	struct rp_kv		 kv;
	struct dec		 d;
	uint64_t		 a, b;
	size_t			 n;

	switch (f->type) {
	case FT_HEADER:
		dec_init(&d, f->p, f->len);
		(void)dec_kv(&d, &kv);
		break;
	case FT_OBJECT:
		(void)dec_object(f, &o);
		break;
	case FT_TABLE:
		rp_table_free(*tab);
		*tab = dec_table(f);
		break;
	case FT_ROWS:
		if (dec_rows_begin(f, &r) == -1)
			break;
		n = *tab != NULL && (*tab)->ncols <= 64 ? (*tab)->ncols : 3;
		while (dec_rows_next(&r, v, n) == 1)
			;
		break;
	case FT_TABLE_END:
		(void)dec_table_end(f, &a, &b);
		break;
	case FT_STMT:
		(void)dec_stmt(f, &s);
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_reader	*r;
	struct rp_table		*tab = NULL;
	struct frame		 f;
	int			 fd;

	if ((fd = memfd_create("fuzz", 0)) == -1)
		return 0;
	if (size > 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);
	if ((r = frame_reader_new(fd, 1 << 20)) != NULL) {
		while (frame_read(r, &f) == FRAME_OK)
			decode(&f, &tab);
		frame_reader_free(r);
	}
	rp_table_free(tab);
	close(fd);
	return 0;
}
