/*
 * util: small I/O helpers every program shares.
 *
 * Like the rest of lib/, these never print or exit: they return -1 with
 * errno set and let cmd/ code report.  The one exception is
 * stdout_exit(), the last call of --help and --version.
 */
#ifndef ROWPIPE_UTIL_H
#define ROWPIPE_UTIL_H

#include <stdio.h>
#include <sys/types.h>

/* OpenBSD's spelling of noreturn; libbsd's overlay only has __dead2. */
#ifndef __dead
#define __dead	__attribute__((__noreturn__))
#endif

/* write(2) all n bytes, retrying on EINTR and short writes.  0 or -1. */
int	 write_all(int fd, const void *, size_t n);
/*
 * read(2) until n bytes or EOF, retrying on EINTR.  Returns the bytes read
 * (less than n only at EOF), or -1.
 */
ssize_t	 read_full(int fd, void *, size_t n);
/*
 * Flush stdout and check that every earlier write to it succeeded (a full
 * disk or a closed pipe shows here).  0 or -1 with errno set.
 */
int	 stdout_finish(void);
/*
 * End the program after --help or --version text went to stdout: flush it
 * with stdout_finish() and exit(status).  If that fails, print one line,
 * "prog: stdout: reason", on stderr and exit 1 instead.  Does not return.
 */
__dead void	 stdout_exit(int status);
/*
 * Parse a byte count with an optional K, M or G suffix (powers of 1024)
 * into *out, within [min, max].  0, or -1 with *errstr set ("invalid",
 * "too small", "too large").
 */
int	 parse_size(const char *, unsigned long long min, unsigned long long max,
	    unsigned long long *out, const char **errstr);

#endif
