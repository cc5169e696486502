/*
 * sqlrename: --rename-db in SQL statement text, as the server reads it
 * (lib/sqltok): the database name of USE, of CREATE, ALTER and DROP
 * DATABASE (or SCHEMA, with IF [NOT] EXISTS), and the first part of
 * every qualified name (`db`.`t`, db.t, `db`.`t`.`c`, `db`.`f`(...)),
 * also inside executable comments (mysqldump's slash-star-bang 50001
 * VIEW bodies); strings, comments and every other byte stay as they
 * are.  A renamed name is written as it was: in backticks, or bare if
 * it was bare and the new name is a plain word.
 *
 * As with any rename by name, a table or alias that has the database's
 * name and qualifies a column (shop.id where shop is a table) is renamed
 * too; dumps qualify with the database only where they mean it.
 */
#ifndef ROWPIPE_SQLRENAME_H
#define ROWPIPE_SQLRENAME_H

#include <stddef.h>

#include "buf.h"
#include "names.h"

/*
 * Append text[0..len) to out with the database renames of n applied
 * (n's --rename-db entries; its other entries are not used).  mode is
 * sqltok_init()'s (SQLTOK_NBE, SQLTOK_ANSIQ).  Returns the number of
 * names renamed (0: out holds the text as it was); errors in out->err.
 */
size_t	 sqlrename_db(const struct names *n, struct buf *out,
	    const char *text, size_t len, int mode);

#endif
