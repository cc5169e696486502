/*
 * Unit tests for lib/progress.c: counts under concurrent adds, the summary
 * line, silence when disabled, and the redrawn line on a terminal (a
 * pseudo-terminal stands in for stderr).  cmocka, TAP output.
 * The clock is the test's: the Makefile links this test with
 * -Wl,--wrap=mono_now, so that progress.c reads fake_now and no result
 * depends on how fast a loaded machine runs the test.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "progress.h"
#include "tmpfd.h"

static int	 saved_stderr = -1;
static double	 fake_now = 1000.0;	/* seconds, as mono_now() counts */

double	__wrap_mono_now(void);

double
__wrap_mono_now(void)
{
	return fake_now;
}

/* Point stderr at fd until unredirect(). */
static void
redirect(int fd)
{
	assert_true((saved_stderr = dup(STDERR_FILENO)) >= 0);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
}

static void
unredirect(void)
{
	assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
	close(saved_stderr);
	saved_stderr = -1;
}

/* Everything written to a file fd, NUL-terminated, in a static buffer. */
static const char *
contents(int fd)
{
	static char	 s[4096];
	ssize_t		 n;

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	n = read(fd, s, sizeof(s) - 1);
	assert_true(n >= 0);
	s[n] = '\0';
	return s;
}

static void
test_disabled_is_silent(void **state)
{
	struct progress	*p;
	int		 fd = tmpfd();

	redirect(fd);
	assert_non_null(p = progress_new("prog", "tables", 0));
	progress_total(p, 10, 100, 1000);
	progress_add(p, 1, 10, 100);
	progress_done(p);
	progress_free(p);
	unredirect();
	assert_string_equal(contents(fd), "");
	close(fd);
}

static void
test_summary(void **state)
{
	struct progress	*p;
	const char	*s;
	int		 fd = tmpfd();

	redirect(fd);
	assert_non_null(p = progress_new("prog", "tables", 1));
	progress_total(p, 16, 47000, 0);
	progress_add(p, 15, 40000, 3 * 1024 * 1024);
	progress_add(p, 1, 7000, 104858);
	fake_now += 2.0;
	progress_done(p);
	progress_done(p);		/* only one summary */
	progress_free(p);
	unredirect();
	s = contents(fd);
	assert_memory_equal(s, "prog: 16 tables, 47000 rows, 3.1 MiB in ",
	    strlen("prog: 16 tables, 47000 rows, 3.1 MiB in "));
	assert_non_null(strstr(s, "MiB in 2.0 s (1.6 MiB/s)\n"));
	assert_null(strchr(s, '\r'));
	assert_int_equal(strchr(s, '\n') - s + 1, (ptrdiff_t)strlen(s));
	close(fd);
}

struct worker {
	struct progress	*p;
	int		 n;
};

static void *
work(void *arg)
{
	struct worker	*w = arg;
	int		 i;

	for (i = 0; i < w->n; i++)
		progress_add(w->p, 1, 2, 3);
	return NULL;
}

static void
test_concurrent_adds(void **state)
{
	struct progress	*p;
	struct worker	 w;
	pthread_t	 t[4];
	uint64_t	 u, r, b;
	int		 i, fd = tmpfd();

	redirect(fd);
	assert_non_null(p = progress_new("prog", "statements", 1));
	w.p = p;
	w.n = 50000;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, work, &w), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	progress_get(p, &u, &r, &b);
	progress_done(p);
	progress_free(p);
	unredirect();
	assert_int_equal(u, 200000);
	assert_int_equal(r, 400000);
	assert_int_equal(b, 600000);
	assert_non_null(strstr(contents(fd),
	    "prog: 200000 statements, 400000 rows, 585.9 KiB in "));
	close(fd);
}

static void
test_free_null(void **state)
{
	progress_free(NULL);
	progress_add(NULL, 1, 1, 1);
	progress_done(NULL);
}

/* On a terminal: \r, the status with totals and ETA, clear to EOL. */
static void
test_tty_line(void **state)
{
	struct progress	*p;
	char		 buf[4096];
	ssize_t		 n;
	size_t		 len = 0;
	int		 m, s;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) == -1 || grantpt(m) == -1 ||
	    unlockpt(m) == -1 ||
	    (s = open(ptsname(m), O_RDWR | O_NOCTTY)) == -1)
		skip();
	redirect(s);
	assert_non_null(p = progress_new("prog", "tables", 1));
	progress_total(p, 4, 40, 4 * 1024 * 1024);
	fake_now += 1.1;		/* past the first second: ETA */
	progress_add(p, 1, 10, 1024 * 1024);
	fake_now += 0.2;
	progress_add(p, 0, 0, 0);	/* too soon: no second draw */
	fake_now += 0.1;
	progress_done(p);
	progress_free(p);
	unredirect();
	close(s);
	while (len < sizeof(buf) - 1 &&
	    (n = read(m, buf + len, sizeof(buf) - 1 - len)) > 0) {
		len += n;
		if (memchr(buf, '\n', len) != NULL)
			break;
	}
	close(m);
	buf[len] = '\0';
	/* percent and ETA first, then the counts */
	/* 1.1 s for a quarter: 3.3 s to go */
	assert_memory_equal(buf, "\rprog: 25% ETA 0:03, ", 21);
	assert_non_null(strstr(buf, ", 1/4 tables, 10/40 rows, "
	    "1.0 MiB/4.0 MiB, "));
	/* the summary clears the line first, in the same write; one table */
	assert_non_null(strstr(buf, "\033[K\r\033[Kprog: 1 table, 10 rows, "
	    "1.0 MiB in 1.4 s (731.4 KiB/s)\r\n"));
	/* drawn once: the second add came too soon */
	assert_null(strstr(strstr(buf, "10/40 rows") + 1, "10/40 rows"));
}

/* On a narrow terminal the line is cut so that \r can redraw it. */
static void
test_tty_narrow(void **state)
{
	struct progress	*p;
	struct winsize	 ws = { .ws_row = 24, .ws_col = 30 };
	char		 buf[4096], *e;
	ssize_t		 n;
	size_t		 len = 0;
	int		 m, s;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) == -1 || grantpt(m) == -1 ||
	    unlockpt(m) == -1 ||
	    (s = open(ptsname(m), O_RDWR | O_NOCTTY)) == -1)
		skip();
	assert_int_equal(ioctl(s, TIOCSWINSZ, &ws), 0);
	redirect(s);
	assert_non_null(p = progress_new("prog", "tables", 1));
	progress_total(p, 4, 40, 4 * 1024 * 1024);
	fake_now += 0.3;		/* a redraw is due */
	progress_add(p, 1, 10, 1024 * 1024);
	progress_free(p);		/* no done: the line stays */
	unredirect();
	close(s);
	while (len < sizeof(buf) - 1 &&
	    (n = read(m, buf + len, sizeof(buf) - 1 - len)) > 0) {
		len += n;
		if (memmem(buf, len, "\033[K", 3) != NULL)
			break;
	}
	close(m);
	buf[len] = '\0';
	assert_non_null(e = strstr(buf, "\033[K"));
	assert_int_equal(e - buf, 30);	/* \r and 29 characters */
	assert_memory_equal(buf, "\rprog: 25%, 1/4 tables, 10/40 ", 30);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disabled_is_silent),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_concurrent_adds),
		cmocka_unit_test(test_free_null),
		cmocka_unit_test(test_tty_line),
		cmocka_unit_test(test_tty_narrow),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
