/*
 * bind: the bulk prepared INSERT's parameters (bind.h), one
 * implementation for the snapshot rows (bulk.c) and the literal INSERTs
 * (lit.c): the column-wise arrays, the bulk execute, the large row.
 */
#include <stdlib.h>
#include <string.h>

#include "bind.h"

int
sx_bind_fit(struct sx_bind *b, size_t n)
{
	size_t	 k;

	if (n <= b->ncols)
		return 0;
	sx_bind_release(b);
	b->cap = SX_BIND_ROWS;
	k = b->cap * n;
	b->ptr = calloc(k, sizeof(*b->ptr));
	b->len = calloc(k, sizeof(*b->len));
	b->ind = calloc(k, sizeof(*b->ind));
	b->num = calloc(k, sizeof(*b->num));
	b->bind = calloc(n, sizeof(*b->bind));
	if (b->ptr == NULL || b->len == NULL || b->ind == NULL ||
	    b->num == NULL || b->bind == NULL) {
		sx_bind_release(b);
		return -1;
	}
	b->ncols = n;
	return 0;
}

void
sx_bind_release(struct sx_bind *b)
{
	free(b->ptr);
	free(b->len);
	free(b->ind);
	free(b->num);
	free(b->bind);
	memset(b, 0, sizeof(*b));
}

void
sx_bind_col(struct sx_bind *b, size_t i, enum enum_field_types type, int uns)
{
	MYSQL_BIND	*p = &b->bind[i];

	memset(p, 0, sizeof(*p));
	p->buffer_type = type;
	p->is_unsigned = uns;
	p->u.indicator = &b->ind[i * b->cap];
	if (type == MYSQL_TYPE_LONGLONG || type == MYSQL_TYPE_DOUBLE)
		p->buffer = &b->num[i * b->cap];
	else {
		p->buffer = &b->ptr[i * b->cap];
		p->length = &b->len[i * b->cap];
	}
}

/* Execute st, bound, on conn[c], marked busy (sx_conn_begin()). */
static enum sx_bind_rc
execute(struct sx *x, int c, MYSQL_STMT *st)
{
	int	 rc;

	rc = mysql_stmt_execute(st);
	sx_conn_end(x, c);
	return rc == 0 ? SXB_OK : SXB_EXEC;
}

enum sx_bind_rc
sx_bind_execute(struct sx *x, int c, struct sx_bind *b, MYSQL_STMT *st,
    unsigned int n)
{
	if (mysql_stmt_attr_set(st, STMT_ATTR_ARRAY_SIZE, &n) != 0 ||
	    mysql_stmt_bind_param(st, b->bind) != 0)
		return SXB_BIND;
	if (sx_conn_begin(x, c) == -1)
		return SXB_INTR;
	return execute(x, c, st);
}

enum sx_bind_rc
sx_bind_execute_row(struct sx *x, int c, struct sx_bind *b, MYSQL_STMT *st,
    size_t nparams, size_t piece)
{
	MYSQL_BIND	*p;
	unsigned int	 zero = 0;
	size_t		 i, off, at, k;

	if (piece == 0)
		piece = 1;	/* (a piece of 0 bytes sends nothing, forever) */

	for (i = 0; i < nparams; i++) {
		p = &b->bind[i];
		at = i * b->cap;
		if (b->ind[at] == STMT_INDICATOR_NULL)
			p->buffer_type = MYSQL_TYPE_NULL;
		p->u.indicator = NULL;
		p->buffer = b->ind[at] == STMT_INDICATOR_NULL ? (char *)"" :
		    b->ptr[at];
		p->length = &b->len[at];
		p->buffer_length = b->len[at];
	}
	if (mysql_stmt_attr_set(st, STMT_ATTR_ARRAY_SIZE, &zero) != 0 ||
	    mysql_stmt_bind_param(st, b->bind) != 0)
		return SXB_BIND;
	if (sx_conn_begin(x, c) == -1)
		return SXB_INTR;
	for (i = 0; i < nparams; i++) {
		at = i * b->cap;
		if (b->ind[at] == STMT_INDICATOR_NULL || b->len[at] < piece)
			continue;
		for (off = 0; off < b->len[at]; off += k) {
			k = b->len[at] - off < piece ? b->len[at] - off : piece;
			if (mysql_stmt_send_long_data(st, i, b->ptr[at] + off,
			    k) != 0) {
				sx_conn_end(x, c);
				return SXB_PIECE;
			}
		}
	}
	return execute(x, c, st);
}
