/*
 * opt: one table of options per program, from which come getopt_long(3)'s
 * table, --help, and the reading of the program's group in the option
 * files the mysql(1) client reads.
 *
 * Each option is one table line: its long name, short letter, argument
 * name, one line of help, and either a field of the program's options
 * struct that it sets (a flag, a number, a byte count, a string) or a
 * function that takes its argument.  --help lists every option with its
 * line and its default (read from the field before any option is
 * applied).  --defaults-file, --defaults-extra-file, --no-defaults,
 * --help and -V/--version are added to every program.
 *
 * Option files (optfile.h) are read before the command line, as mysql(1)
 * does: every long option may be given in the [<program>] group, as
 * "name" or "name=value", with '-' and '_' equal, "skip-NAME" and
 * "disable-NAME" turning a flag off, "enable-NAME" on and "loose-NAME"
 * ignored when unknown; an unknown name is an error naming the file and
 * line.  Connection options (OPT_LIBCLIENT) are read from the files by
 * the client library itself, from [client], [client-server],
 * [client-mariadb] and [<program>] (see conn.h); opt only checks that
 * they are known.
 */
#ifndef ROWPIPE_OPT_H
#define ROWPIPE_OPT_H

#include <stddef.h>
#include <stdio.h>

struct conn_opts;

enum opt_type {
	OPT_T_END = 0,
	OPT_T_FLAG,	/* no argument: store .min in the field */
	OPT_T_NUM,	/* an integer in [min, max] (strtonum(3)) */
	OPT_T_SIZE,	/* bytes, K/M/G suffixes (parse_size()), [min, max] */
	OPT_T_STR,	/* the argument itself, a const char * field */
	OPT_T_FUNC	/* fn(base, opt, arg) */
};

/* struct opt flags */
#define OPT_OPTARG	0x01	/* the argument is optional (--fast[=N]) */
#define OPT_LIBCLIENT	0x02	/* in option files, read by Connector/C */
#define OPT_CMDLINE	0x04	/* command line only, not in option files */

struct opt {
	const char	*name;		/* long name; NULL: short option only */
	int		 ch;		/* short letter, 0: long option only */
	enum opt_type	 type;
	const char	*arg;		/* argument name for --help, NULL: none */
	int		 flags;
	size_t		 off, size;	/* the field, in the set's struct */
	long long	 min, max;	/* NUM and SIZE bounds; FLAG's value */
	int		(*fn)(void *base, const struct opt *, char *arg,
			    const char **errstr);
	int		 code;		/* for fn */
	const char	*help;		/* one line; NULL: alias of the line before */
};

/*
 * The table lines.  field is OPT_FIELD(struct, member) (a program
 * defines a short macro for it).  A string given to OPT_STR or to a
 * function stays valid until exit: argv's, or a copy of an option file's
 * value.  fn returns 0, or -1 with *errstr a whole message
 * ("--rename x: expected OLD=NEW") in storage that outlives the call.
 */
#define OPT_FIELD(T, m)		offsetof(T, m), sizeof(((T *)0)->m)
#define OPT_FLAG(c, name, field, val, help) \
	{ (name), (c), OPT_T_FLAG, NULL, 0, field, (val), (val), NULL, 0, (help) }
#define OPT_NUM(c, name, arg, field, lo, hi, help) \
	{ (name), (c), OPT_T_NUM, (arg), 0, field, (lo), (hi), NULL, 0, (help) }
#define OPT_SIZE(c, name, arg, field, lo, hi, help) \
	{ (name), (c), OPT_T_SIZE, (arg), 0, field, (lo), (hi), NULL, 0, (help) }
#define OPT_STR(c, name, arg, field, help) \
	{ (name), (c), OPT_T_STR, (arg), 0, field, 0, 0, NULL, 0, (help) }
#define OPT_FUNC(c, name, arg, fn, code, help) \
	{ (name), (c), OPT_T_FUNC, (arg), 0, 0, 0, 0, 0, (fn), (code), (help) }
#define OPT_FUNC_F(c, name, arg, flags, fn, code, help) \
	{ (name), (c), OPT_T_FUNC, (arg), (flags), 0, 0, 0, 0, (fn), (code), (help) }
/*
 * --progress and --no-progress, setting the field (OPT_FIELD(), which is
 * two arguments) to 1 or 0; its default is -1, "if stderr is a terminal".
 */
#define OPT_PROGRESS(...) \
	{ "progress", 0, OPT_T_FLAG, NULL, 0, __VA_ARGS__, 1, 1, NULL, 0, \
	    "progress on stderr (default: if it is a terminal)" }, \
	{ "no-progress", 0, OPT_T_FLAG, NULL, 0, __VA_ARGS__, 0, 0, NULL, 0, \
	    "no progress" }
#define OPT_TABLE_END	{ NULL, 0, OPT_T_END, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL }

/* A table and the struct its fields are in. */
struct opt_set {
	const struct opt *opts;		/* ends with OPT_TABLE_END */
	void		*base;
	const char	*title;		/* heading in --help */
};

#define OPT_MAX_SETS	4

struct opt_prog {
	const char	*name;		/* program: the [name] group */
	const char	*usage;		/* synopsis: "usage: name ...\n..." */
	const char	*about;		/* one line for --help */
	const char	*version;	/* --version's line, "name 1.2.3" */
	int		 help_ch;	/* short letter for --help, 0: none */
	struct conn_opts *conn;		/* a program that connects; or NULL */
	/* With conn: hand it the option files to read (CONN_PROG() sets it to
	 * conn_files(); a pointer, so that opt.c needs no conn.c). */
	int		(*set_files)(struct conn_opts *, const char *file,
			    const char *extra_file, int no_defaults,
			    const char **errstr);
	struct opt_set	 sets[OPT_MAX_SETS];	/* the first with opts NULL ends */
};

/*
 * Read the program's group from the option files (unless --no-defaults),
 * then argv, applying each option to its field or function.  Returns the
 * index of the first operand in argv (getopt's optind; argv may have
 * been permuted).
 *
 * Like stdout_exit(), and unlike the rest of lib/, this is main's front
 * half and does not return on these: --help (the help on stdout, exit 0),
 * --version (exit 0), an unknown option or a missing argument (getopt's
 * message and the synopsis on stderr, exit 2), a bad value or an option
 * file that cannot be read or has an unknown option ("prog: FILE:LINE:
 * reason" on stderr, exit 2).
 */
int	 opt_parse(const struct opt_prog *, int argc, char *argv[]);

/* The synopsis on stderr and exit 2, for operand errors after opt_parse(). */
void	 opt_usage(const struct opt_prog *) __attribute__((__noreturn__));

/*
 * The one operand of a filter ("[file]"), argv[i] after opt_parse()'s
 * index i: the file's name, or NULL for none or "-" (standard input).
 * More than one operand: opt_usage().
 */
const char	*opt_operand(const struct opt_prog *, int argc, char *argv[],
		    int i);

/*
 * file (opt_operand()'s) opened read-only, or STDIN_FILENO for NULL; the
 * descriptor is the caller's.  Like opt_usage(), this is main's and does
 * not return on failure: "prog: file: reason" on stderr, exit 1.
 */
int	 opt_input(const char *file);

/*
 * The last "user" or "host" that opt_parse() read in the option files'
 * [client], [client-server], [client-mariadb] or [<program>] groups of a
 * program that connects (Connector/C applies them at connect time), or
 * NULL.  Valid until exit.
 */
const char	*opt_file_value(const char *key);

/* The help opt_parse() prints for --help, to fp. */
void	 opt_help(const struct opt_prog *, FILE *fp);

#endif
