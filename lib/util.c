/*
 * util: small helpers every program shares; see util.h.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int
write_all(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t
read_full(int fd, void *p, size_t n)
{
	char	*s = p;
	size_t	 got = 0;
	ssize_t	 r;

	while (got < n) {
		if ((r = read(fd, s + got, n - got)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int
stdout_finish(void)
{
	if (fflush(stdout) == EOF)
		return -1;
	if (ferror(stdout)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

void
stdout_exit(int status)
{
	if (stdout_finish() == -1)
		err(1, "stdout");
	exit(status);
}

int
parse_size(const char *s, unsigned long long min, unsigned long long max,
    unsigned long long *out, const char **errstr)
{
	unsigned long long	 v, mul = 1;
	char			*end;

	*errstr = "invalid";
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE) {
		*errstr = "too large";
		return -1;
	}
	switch (*end) {
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	}
	if (*end != '\0')
		return -1;
	if (v > max / mul) {
		*errstr = "too large";
		return -1;
	}
	v *= mul;
	if (v < min) {
		*errstr = "too small";
		return -1;
	}
	if (v > max) {
		*errstr = "too large";
		return -1;
	}
	*errstr = NULL;
	*out = v;
	return 0;
}

int
verrf(char *err, size_t size, const char *fmt, va_list ap)
{
	if (size > 0)
		vsnprintf(err, size, fmt, ap);
	return -1;
}

int
errf(char *err, size_t size, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	verrf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

double
mono_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *
fmt_bytes(char *out, size_t outsz, double b)
{
	if (b < 1024)
		snprintf(out, outsz, "%.0f B", b);
	else if (b < 1024.0 * 1024)
		snprintf(out, outsz, "%.1f KiB", b / 1024);
	else if (b < 1024.0 * 1024 * 1024)
		snprintf(out, outsz, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(out, outsz, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	return out;
}

void
refuse_terminal(int fd, const char *doing, const char *hint)
{
	if (isatty(fd))
		errx(2, "%s is a terminal: refusing to %s (%s)",
		    fd == STDIN_FILENO ? "stdin" : fd == STDOUT_FILENO ?
		    "stdout" : "output", doing, hint);
}

void
return_large_buffers(void)
{
	(void)mallopt(M_MMAP_THRESHOLD, 4 << 20);
}
