/*
 * lit: INSERT statements of literals through the bulk prepared INSERT
 * (lit.c), for the statement path's workers (worker.c).
 */
#ifndef SQLEXEC_LIT_H
#define SQLEXEC_LIT_H

#include "sqlexec.h"
#include "sqlvalue.h"

/* Per-connection state for x's connections.  0, or -1 with errno. */
int	 sx_lit_new(struct sx *);
void	 sx_lit_free(struct sx *);
/*
 * Run unit u, inside the transaction open on conn[c], through bulk
 * executes if every statement is an INSERT or REPLACE of literals that
 * can be bound exactly.  0: done (*rows affected, *warns counted, *stmts
 * run so); 1: run it as text, the transaction is as it was when called
 * (rolled back and begun again if something had run), the counts 0; -1:
 * a fatal error, recorded (or interrupted).
 */
int	 sx_lit_unit(struct sx *, int c, struct sx_unit *, uint64_t *rows,
	    uint64_t *warns, uint64_t *stmts);

#endif
