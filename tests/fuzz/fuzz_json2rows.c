/*
 * libFuzzer target for json2rows: any text must convert or fail cleanly
 * with one message, never crash, leak or overrun.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"
#include "../../cmd/json2rows/json2rows.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct j2r_opts	 o = { NULL, 0, 1 };
	const char	*msg;
	int		 in, out;

	if ((in = memfd_create("in", 0)) == -1)
		return 0;
	if ((out = open("/dev/null", O_WRONLY)) == -1) {
		close(in);
		return 0;
	}
	if (write_all(in, data, size) == 0 && lseek(in, 0, SEEK_SET) == 0)
		(void)json2rows(in, out, &o, &msg);
	close(in);
	close(out);
	return 0;
}
