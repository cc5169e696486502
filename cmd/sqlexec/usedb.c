/*
 * usedb: the database argument against the input's USE.  A dump made
 * with --databases (or any dump that says USE) puts its statements into
 * the database it names, whatever sqlexec's database argument says: the
 * mysql client does the same, but silently restoring over the source's
 * database is the surprise this warns about.
 */
#include <errno.h>
#include <string.h>

#include "sqlexec.h"
#include "sqlrename.h"

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

int
sx_rename_stmt(const struct sx_opts *o, struct rp_stmt *s)
{
	static struct buf	 text = BUF_INIT;

	if (o->names.ndb_renames == 0)
		return 0;
	buf_reset(&text);
	if (sqlrename_db(&o->names, &text, s->text, s->len, 0) > 0) {
		if (text.err) {
			errno = text.err;
			return -1;
		}
		s->text = text.p;
		s->len = text.len;
	}
	s->db = names_db(&o->names, s->db);
	s->schema = names_db(&o->names, s->schema);
	return 0;
}
