/*
 * libFuzzer target for rowmap's reading and rewriting of CREATE TABLE
 * texts: the input is the DDL of a table t (columns a, b, c) in a stream
 * that rowmap maps with --drop t.a, --null t.b, --hash t.c and a move;
 * any text must map or fail cleanly, never crash, leak or overrun.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frame.h"
#include "../../cmd/rowmap/rowmap.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
stream(int fd, const uint8_t *ddl, size_t n)
{
	static char	 a[] = "a", b[] = "b", c[] = "c", ty[] = "varchar(40)";
	static char	 db[] = "d", t[] = "t";
	struct rp_column cols[3] = {
		{ a, 3, COL_NOT_NULL | COL_NUMERIC, 63, 0, ty },
		{ b, 253, COL_NOT_NULL, 45, 0, ty },
		{ c, 253, 0, 45, 0, ty }
	};
	struct rp_table	 tb = { 1, db, t, 3, cols, { 0 }, NULL };
	struct rp_object ob;
	struct frame_writer *w = frame_writer_new(fd);
	struct buf	*p;

	if (w == NULL)
		return;
	frame_write(w, FT_HEADER, 0, "\0", 1);
	memset(&ob, 0, sizeof(ob));
	ob.kind = OBJ_TABLE;
	ob.schema = db;
	ob.name = t;
	ob.ddl = (const char *)ddl;
	ob.ddl_len = n;
	enc_object(frame_begin(w), &ob);
	frame_end(w, FT_OBJECT, 0);
	enc_table(frame_begin(w), &tb);
	frame_end(w, FT_TABLE, 0);
	p = frame_begin(w);
	enc_rows_begin(p, 1, 1);
	enc_val(p, "1", 1);
	enc_val(p, "x", 1);
	enc_val(p, "yz", 2);
	frame_end(w, FT_ROWS, 0);
	enc_table_end(frame_begin(w), 1, 1);
	frame_end(w, FT_TABLE_END, 0);
	frame_writer_close(w);
	frame_writer_free(w);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rowmap_opts o;
	static int	 init;
	const char	*msg;
	int		 in, out;

	if (!init) {
		rm_add_op(&o, OP_DROP, "t.a", NULL, &msg);
		rm_add_op(&o, OP_NULL, "t.b", NULL, &msg);
		rm_add_op(&o, OP_HASH, "d.t.c", NULL, &msg);
		names_add_rename(&o.names, "t=d2.u", 1, &msg);
		rm_load_keys(&o, &msg);
		o.progress = 0;
		init = 1;
	}
	if ((in = memfd_create("in", 0)) == -1)
		return 0;
	if ((out = open("/dev/null", O_WRONLY)) == -1) {
		close(in);
		return 0;
	}
	stream(in, data, size);
	if (lseek(in, 0, SEEK_SET) == 0)
		(void)rowmap(in, out, &o, &msg);
	close(in);
	close(out);
	return 0;
}
