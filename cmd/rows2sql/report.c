/*
 * report: fail(), where every file of the converter records its error;
 * it calls none of them, so that none of them needs convert.c to fail.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "util.h"
#include "state.h"

int
fail(struct r2s *st, const char *fmt, ...)
{
	va_list	 ap;
	int	 n = 0;

	if (st->f != NULL)
		n = snprintf(st->errbuf, sizeof(st->errbuf),
		    "frame %" PRIu64 " at offset %" PRIu64 ": ", st->f->seq,
		    st->f->offset);
	if (n < 0 || (size_t)n >= sizeof(st->errbuf))
		n = 0;
	va_start(ap, fmt);
	verrf(st->errbuf + n, sizeof(st->errbuf) - n, fmt, ap);
	va_end(ap);
	return -1;
}
