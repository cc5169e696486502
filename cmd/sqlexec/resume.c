/*
 * resume: where a run that stopped early may be continued.  The committed
 * statements are always a prefix of the input (sqlexec.h); this file says
 * which, with one number that cannot be misread: the last committed
 * statement is the number --skip-to takes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sqlexec.h"

void
sx_print_resume(struct sx *x)
{
	uint64_t	 n;

	pthread_mutex_lock(&x->mu);
	n = x->done_no;
	pthread_mutex_unlock(&x->mu);
	/* a snapshot stream's positions are its frames (load.c) */
	if (n == 0)
		sx_report(x, "no %s is committed; run the same input "
		    "again to restore it", x->by_frame ? "frame" : "statement");
	else if (n == 1)
		sx_report(x, "%s 1 is committed; resume with --skip-to 1",
		    x->by_frame ? "frame" : "statement");
	else
		sx_report(x, "%s 1-%" PRIu64 " are committed; resume with "
		    "--skip-to %" PRIu64, x->by_frame ? "frames" :
		    "statements", n, n);
}
