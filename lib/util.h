/*
 * util: small helpers every program shares: I/O, the error path, time,
 * byte counts, little-endian integers, the terminal check.
 *
 * Like the rest of lib/, these never print or exit: they return -1 with
 * errno set and let cmd/ code report.  The exceptions end a program
 * with the documented status: stdout_exit(), the last call of --help
 * and --version, and refuse_terminal(), a usage check (exit 2).
 */
#ifndef ROWPIPE_UTIL_H
#define ROWPIPE_UTIL_H

#include <stdarg.h>
#include <stdint.h>
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


/*
 * The error path of code that reports through its handle: format the
 * reason into err[0..size) (truncated to fit, NUL-terminated) and return
 * -1, so that "return errf(...)" ends a failing call.  The handle's
 * owner decides whether a first error is kept (sticky) or replaced.
 */
int	 errf(char *err, size_t size, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	 verrf(char *err, size_t size, const char *fmt, va_list);

/*
 * Make buffers of 4 MiB and more (a large value, Connector/C's packet or
 * request) go back to the system when freed: glibc would otherwise raise
 * its mmap threshold past them after the first free and keep the next
 * ones in a thread's arena after they are freed.  Not 1 MiB: sqlexec's
 * units of --commit-every 1M are buffers of 1-2 MiB, and each mapped
 * anew cost its page faults (frames restore of 200k rows: client CPU
 * 0.19-0.30 s at 4 MiB against 0.31-0.38 s at 1 MiB, bench/restore).
 * For programs that hold huge values one at a time; call before the
 * threads start.
 */
void	 return_large_buffers(void);

/* Seconds on CLOCK_MONOTONIC, for durations and rates. */
double	 mono_now(void);

/*
 * A byte count as people read it: "512 B", "3.1 KiB", "47.0 MiB",
 * "2.3 GiB" (powers of 1024), into out[0..outsz) (FMT_BYTES_MAX is
 * enough).  Returns out.
 */
#define FMT_BYTES_MAX	24
char	*fmt_bytes(char *out, size_t outsz, double bytes);

/*
 * Little-endian 32-bit integers, as rowpipe-stream(5) and the LZ4 frame
 * format store them.
 */
static inline uint32_t
le32_get(const void *vp)
{
	const unsigned char *p = vp;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline void
le32_put(void *vp, uint32_t v)
{
	unsigned char	*p = vp;

	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/*
 * A program whose output (or input, for fd 0) must not be a terminal
 * (STYLE: a binary producer refuses one unless forced): if fd is a
 * terminal, print "prog: stdout is a terminal: refusing to <doing>
 * (<hint>)" and exit 2, the usage-error status of every rowpipe
 * program, before any side effect.  Returns if fd is no terminal.
 */
void	 refuse_terminal(int fd, const char *doing, const char *hint);

#endif
