/*
 * usedb: the database argument against the input's USE.  A dump made
 * with --databases (or any dump that says USE) puts its statements into
 * the database it names, whatever sqlexec's database argument says: the
 * mysql client does the same, but silently restoring over the source's
 * database is the surprise this warns about.
 */
#include <string.h>

#include "sqlexec.h"

void
sx_check_use(struct sx *x, const struct rp_stmt *s, int *warned)
{
	const struct sx_opts	*o = x->o;
	struct buf		 b = BUF_INIT;

	if (*warned || o->db == NULL || s->kind != STK_USE ||
	    s->db[0] == '\0' || strcmp(s->db, o->db) == 0)
		return;
	*warned = 1;
	sx_where(&b, s->no, s->line, NULL);
	sx_report(x, "warning: %s: USE %s overrides the database argument "
	    "%s: what follows goes into %s (to load it into %s, give "
	    "--rename-db %s=%s)", b.p, s->db, o->db, s->db, o->db, s->db,
	    o->db);
	buf_release(&b);
}
