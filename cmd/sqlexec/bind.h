/*
 * bind: the bulk prepared INSERT's parameters (bind.c), shared by the
 * snapshot stream's rows (bulk.c) and the statement stream's literal
 * INSERTs (lit.c): column-wise arrays for array binding, the bulk
 * execute, and one row's execute with its large values sent in pieces.
 * MariaDB Connector/C: mysql_stmt_attr_set(3) STMT_ATTR_ARRAY_SIZE,
 * column-wise arrays of values and lengths, STMT_INDICATOR_NULL for
 * NULL (the MariaDB KB page "Bulk Insert (Column-wise Binding)"); a
 * value at least a piece long goes by mysql_stmt_send_long_data(3).
 */
#ifndef SQLEXEC_BIND_H
#define SQLEXEC_BIND_H

#include "sqlexec.h"

/*
 * The arrays of one connection: parameter i's value of row r is at
 * i * cap + r of ptr and len (strings: the bytes, borrowed) or of num
 * (numbers), its indicator in ind.  Owned by its worker; zeroed is
 * empty.
 */
struct sx_bind {
	char		**ptr;
	unsigned long	*len;
	char		*ind;
	union sx_num {
		uint64_t u;	/* MYSQL_TYPE_LONGLONG (two's complement) */
		double	 d;	/* MYSQL_TYPE_DOUBLE */
	}		*num;
	MYSQL_BIND	*bind;		/* one per parameter */
	size_t		 cap;		/* rows */
	size_t		 ncols;		/* parameters there is room for */
};

/* Rows a bulk execute sends at most. */
#define SX_BIND_ROWS	4096
/* Bytes a value takes in the request over its own: indicator, length. */
#define SX_BIND_VAL_OVERHEAD	10
/* A request's bytes before its values (statement id, flags, types). */
#define SX_BIND_HEADER(n)	(6 + 2 * (size_t)(n) + 64)

/* Room for SX_BIND_ROWS rows of n parameters.  0, or -1 (ENOMEM, empty). */
int	 sx_bind_fit(struct sx_bind *, size_t n);
void	 sx_bind_release(struct sx_bind *);
/*
 * Parameter i's column as type (numbers: LONGLONG, DOUBLE; anything else
 * is a string of ptr/len), unsigned if uns, before sx_bind_execute().
 */
void	 sx_bind_col(struct sx_bind *, size_t i, enum enum_field_types type,
	    int uns);

/* What an execute did. */
enum sx_bind_rc {
	SXB_OK,		/* executed */
	SXB_BIND,	/* not executed: binding failed (the error on st) */
	SXB_INTR,	/* not executed: the run was interrupted */
	SXB_PIECE,	/* a piece of a large value failed (the error on st) */
	SXB_EXEC	/* executed and failed (the error on st) */
};
/*
 * Execute st on conn[c] with rows 0..n-1 of b's arrays for its
 * parameters (each set by sx_bind_col()), as one bulk execute.
 */
enum sx_bind_rc sx_bind_execute(struct sx *, int c, struct sx_bind *,
	    MYSQL_STMT *st, unsigned int n);
/*
 * Execute st on conn[c] with row 0 of b's strings as its one row, of the
 * string types sx_bind_col() gave (NULL where ind says so), a value of
 * piece bytes or more sent in pieces of piece bytes first, each of
 * which the server still bounds by max_allowed_packet.
 */
enum sx_bind_rc sx_bind_execute_row(struct sx *, int c, struct sx_bind *,
	    MYSQL_STMT *st, size_t nparams, size_t piece);

#endif
