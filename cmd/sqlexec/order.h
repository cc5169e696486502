/*
 * order.h: what order.c, words.c, autoinc.c and rebuild.c share (private
 * to them): the state of the one rule for what may run out of order
 * (order.c says the rule), the words a statement shows, and the tables'
 * AUTO_INCREMENT columns.
 */
#ifndef SQLEXEC_ORDER_H
#define SQLEXEC_ORDER_H

#include "sqlexec.h"
#include "sqllit.h"
#include "sqltok.h"

/* What a table's AUTO_INCREMENT column is, as far as order.c knows. */
enum ai_state {
	AI_NONE,	/* no AUTO_INCREMENT column */
	AI_COLUMN,	/* one, named name, at visible position pos */
	AI_UNKNOWN,	/* not known: every INSERT into it is ordered */
	AI_DEFAULT	/* a default computed in order (a sequence's next
			   value): every INSERT into it is ordered */
};

struct ai_table {
	char		*key;		/* "schema\0table" as "schema.table" */
	int		 state;
	char		 name[200];	/* the column */
	long		 pos;		/* among the visible columns, or -1 */
};

/* A TEMPORARY TABLE the input made, live over [from, to) (replay_*). */
struct replay_temp {
	char		*key;		/* "schema.table" */
	uint64_t	 from, to;	/* made by from, dropped by to (0: not) */
	uint64_t	 line;		/* from's */
};

struct sx_order {
	struct replay_temp *tmp;	/* what a resume cannot rebuild */
	size_t		 ntmp, captmp;
	uint64_t	 lost_no;	/* first state a resume cannot rebuild */
	char		 lost_why[200];	/* what lost_no did */
	uint64_t	 lid_before;	/* may have set LAST_INSERT_ID(), skipped */
	int		 lid_after;	/* a statement after --skip-to may have */
	struct ai_table	*t;
	size_t		 n, cap;
	struct sqllit_insert ins;
	int		 diverged;	/* other connections' user variables */
	char		**stale;	/* user variables set on connection 1 only */
	size_t		 nstale, capstale;
	int		 fk;		/* the input's foreign_key_checks (checks.c) */
	int		 rowcount_said;	/* the ROW_COUNT() warning was given */
	int		 reads_count;	/* the last statement reads ROW_COUNT() */
};

/* User variables a struct seen names, set and read, each. */
#define SEEN_VARS	8

/* What the words of a statement show (scan()). */
struct seen {
	const char	*why;		/* why it is ordered, or NULL */
	int		 select;	/* a subquery or SELECT */
	int		 assigns;	/* may set a user variable */
	int		 uservar;	/* names one */
	int		 call;		/* CALL */
	int		 rowcount;	/* ROW_COUNT() or FOUND_ROWS() */
	int		 conn;		/* a per-connection function */
	int		 setvar;	/* ":=" or INTO @: sets a user variable */
	int		 clock;		/* reads the clock (NOW()...) */
	int		 fncall;	/* calls a function not known */
	int		 fnsys;		/* fn is a per-connection @@name */
	int		 lid;		/* reads LAST_INSERT_ID() or @@IDENTITY */
	int		 connread;	/* reads a per-connection value */
	struct sqltok	 fn;		/* the first call or @@name read above */
	struct sqltok	 var;		/* the first user variable set */
	/* user variables by name, for sx_order()'s stale ones */
	int		 onlyvars;	/* SET @a = ..., @b := ...: nothing else */
	int		 odd;		/* names one that is not a plain word */
	size_t		 nset, nread;	/* set and read (more than SEEN_VARS: odd) */
	struct sqltok	 set[SEEN_VARS], read[SEEN_VARS];
};

/* words.c: the words of text (len bytes, lexer mode) into *w. */
void	 sx_order_scan(const char *text, size_t len, int mode, struct seen *w);
/* words.c: a statement that defines (and runs none of what it defines)? */
int	 sx_order_ddl(int kind);

/*
 * autoinc.c: may INSERT s into schema (w: its words), which order.c
 * found parallel, stay so?  NULL, or why it is ordered (it leaves an
 * AUTO_INCREMENT value to the server, ...); *err: the look-up failed,
 * recorded.
 */
const char *sx_order_insert(struct sx *x, const struct rp_stmt *s,
	    const char *schema, struct seen *w, int *err);

#endif
