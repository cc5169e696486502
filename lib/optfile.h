/*
 * optfile: read MySQL/MariaDB option files (my.cnf) with the syntax the
 * mysql(1) client reads: MariaDB 10.11 mysys/my_default.c,
 * search_default_file_with_ext(), which Connector/C's ma_default.c
 * follows.
 *
 * "[group]" lines; "key" or "key = value" lines under a group; blank lines
 * and lines starting with '#' or ';' skipped; a '#' outside quotes ends the
 * line; a value in matching single or double quotes loses them; \n \t \r
 * \b \s \" \' and \\ in a value are escapes (any other backslash stays);
 * "!include FILE" reads FILE there, "!includedir DIR" every file of DIR
 * whose name ends in .cnf, in name order; at most 10 levels deep.
 */
#ifndef ROWPIPE_OPTFILE_H
#define ROWPIPE_OPTFILE_H

#include <stddef.h>

/*
 * Called for every key, in file order: file as named (an included file's
 * own name), its line (from 1), the group (without brackets, spaces
 * trimmed), the key and its value (NULL when the line has no '=').  The
 * strings are valid only during the call.  Returns NULL, or a reason
 * that stops the reading ("unknown option 'x' in [dbsnap]"), valid until
 * optfile_read() returns.
 */
typedef const char *(*optfile_cb)(void *arg, const char *file,
    unsigned line, const char *group, const char *key, const char *value);

/*
 * Read path.  A file that does not exist is skipped (as mysql(1) skips a
 * missing default file or !include) unless must_exist.  0, or -1 with a
 * whole message in errbuf: "FILE:LINE: reason" for a syntax error or
 * what the callback returned, "FILE: reason" for a file that exists but
 * cannot be read.
 */
int	 optfile_read(const char *path, int must_exist, optfile_cb cb,
	    void *arg, char *errbuf, size_t errlen);

/*
 * The i-th default option file (i from 0) as the mysql client reads them,
 * in order: /etc/my.cnf, /etc/mysql/my.cnf, $MARIADB_HOME/my.cnf (or
 * $MYSQL_HOME/my.cnf), ~/.my.cnf, into buf; NULL after the last (an
 * entry whose variable is unset is left out).
 */
const char	*optfile_default(size_t i, char *buf, size_t len);

#endif
