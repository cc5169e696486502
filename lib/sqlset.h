/*
 * sqlset: what a SET statement changes, the one rule for every program:
 * sqlsplit writes it as the statement frame's kind, sqlexec reads it
 * there (and asks this only of a frame from an older producer).
 *
 * Sources: MariaDB KB "SET", "SET Variable", "SET PASSWORD", "SET ROLE",
 * "SET DEFAULT ROLE", "SET STATEMENT", "SET TRANSACTION", "SET NAMES",
 * "SET CHARACTER SET"; MySQL 8.0 "SET Syntax for Variable Assignment"
 * (PERSIST, PERSIST_ONLY).
 */
#ifndef ROWPIPE_SQLSET_H
#define ROWPIPE_SQLSET_H

#include <stddef.h>

/*
 * The kind of the statement text[0..len), lexed in mode (SQLTOK_NBE,
 * SQLTOK_ANSIQ):
 *
 *   STK_SET         the session's state only: a session or user
 *                   variable, SET NAMES, CHARACTER SET, TRANSACTION,
 *                   ROLE (the session's current role); a connection of
 *                   its own would need it too;
 *   STK_SET_SERVER  state beyond the session, to change once: an
 *                   assignment to a GLOBAL, PERSIST or PERSIST_ONLY
 *                   variable (or @@GLOBAL.x ...), SET GLOBAL TRANSACTION,
 *                   SET PASSWORD, SET DEFAULT ROLE (an account's);
 *   STK_OTHER       not a SET, or SET STATEMENT ... FOR, which runs the
 *                   statement after FOR.
 *
 * Only what is assigned counts: SET @a = @@GLOBAL.x reads a global
 * and sets the session's @a.
 */
int	 sqlset_kind(const char *text, size_t len, int mode);

struct sqltok_lexer;
struct sqltok;
/*
 * From t, a token of one assignment of a SET, to the first token of the
 * next (past the comma outside parentheses that ends this one): 1, or 0
 * at the end of the statement (t is then SQLTOK_END).
 */
int	 sqlset_next(struct sqltok_lexer *, struct sqltok *t);

#endif
