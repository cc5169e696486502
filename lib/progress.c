/*
 * progress: a progress line on stderr, redrawn at most PROGRESS_TTY_HZ
 * times a second on a terminal (\r, then clear to end of line) and as a
 * plain line every PROGRESS_LOG_SECS seconds otherwise, and one summary
 * line at the end.  Every write is one write(2) of a whole line, so lines
 * from other threads or processes do not tear it.
 */
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "prompt.h"
#include "util.h"

#define PROGRESS_TTY_INTERVAL	0.25	/* seconds between redraws */
#define PROGRESS_LOG_INTERVAL	5.0	/* seconds between plain lines */

struct progress {
	pthread_mutex_t	 mu;
	char		*program;
	char		*unit;
	int		 enabled;
	int		 tty;
	int		 drawn;		/* a \r line is on the terminal */
	double		 start;
	double		 last;		/* time of the last draw */
	uint64_t	 tot_units, tot_rows, tot_bytes;
	uint64_t	 units, rows, bytes;
};

struct line {
	char	 s[512];
	size_t	 len;
};

static void
addf(struct line *l, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (l->len >= sizeof(l->s) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->s + l->len, sizeof(l->s) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->s) - l->len ? (size_t)n :
		    sizeof(l->s) - l->len - 1;
}

static void
add_bytes(struct line *l, double b)
{
	char	 s[FMT_BYTES_MAX];

	addf(l, "%s", fmt_bytes(s, sizeof(s), b));
}

static void
add_duration(struct line *l, double s)
{
	uint64_t	 t = (uint64_t)(s + 0.5);

	if (t >= 3600)
		addf(l, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, t / 3600,
		    t / 60 % 60, t % 60);
	else
		addf(l, "%" PRIu64 ":%02" PRIu64, t / 60, t % 60);
}

/* "1 statement", "3 statements": the unit without its 's' for one. */
static void
add_unit(struct line *l, uint64_t n, const char *unit)
{
	size_t	 len = strlen(unit);

	if (n == 1 && len > 1 && unit[len - 1] == 's')
		addf(l, "%.*s", (int)(len - 1), unit);
	else
		addf(l, "%s", unit);
}

static void
add_count(struct line *l, uint64_t done, uint64_t total, const char *what)
{
	if (total != 0)
		addf(l, "%" PRIu64 "/%" PRIu64 " ", done, total);
	else
		addf(l, "%" PRIu64 " ", done);
	add_unit(l, total != 0 ? total : done, what);
}

/* Fraction done, by the most precise known total; -1 if none is known. */
static double
fraction(const struct progress *p)
{
	if (p->tot_bytes != 0)
		return (double)p->bytes / p->tot_bytes;
	if (p->tot_rows != 0)
		return (double)p->rows / p->tot_rows;
	if (p->tot_units != 0)
		return (double)p->units / p->tot_units;
	return -1;
}

/*
 * "prog: 42% ETA 1:05, 3/16 tables, 47000/90000 rows, 3.1/7.4 MiB,
 * 2.6 MiB/s": percent and ETA first, so that they survive a line cut
 * to the terminal's width; counts nobody counts (0 of no total) left out.
 */
static void
format_status(const struct progress *p, struct line *l, double t)
{
	double	 el = t - p->start, f;
	int	 pct;

	addf(l, "%s:", p->program);
	if ((f = fraction(p)) >= 0) {
		pct = (int)(f * 100);
		addf(l, " %d%%", pct > 99 ? 99 : pct < 0 ? 0 : pct);
		if (f > 0 && f < 1 && el > 1) {
			addf(l, " ETA ");
			add_duration(l, el * (1 - f) / f);
		}
		addf(l, ",");
	}
	if (p->unit != NULL) {
		addf(l, " ");
		add_count(l, p->units, p->tot_units, p->unit);
		addf(l, ",");
	}
	if (p->rows != 0 || p->tot_rows != 0) {
		addf(l, " ");
		add_count(l, p->rows, p->tot_rows, "rows");
		addf(l, ",");
	}
	addf(l, " ");
	add_bytes(l, (double)p->bytes);
	if (p->tot_bytes != 0) {
		addf(l, "/");
		add_bytes(l, (double)p->tot_bytes);
	}
	if (el > 0.1) {
		addf(l, ", ");
		if (p->bytes != 0) {
			add_bytes(l, p->bytes / el);
			addf(l, "/s");
		} else
			addf(l, "%.0f rows/s", p->rows / el);
	}
}

static void
put(const struct line *l)
{
	size_t	 off = 0;
	ssize_t	 n;

	while (off < l->len) {
		n = write(STDERR_FILENO, l->s + off, l->len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += n;
	}
}

/*
 * A password prompt (prompt.c) holds an exclusive flock(2) on the
 * terminal device while it is shown.  A line written here that starts by
 * clearing the terminal's line (a progress line of this or another
 * program may be on it) would erase the prompt: so each such write holds
 * the lock shared, not waiting for it.  tty_claim(): 1 with the lock held
 * (or when there is no terminal device to lock): the line may be
 * cleared; 0 while a prompt is shown: leave the line alone.
 * tty_release() after the write, whatever tty_claim() said.
 */
static pthread_mutex_t	 tty_mu = PTHREAD_MUTEX_INITIALIZER;
static int		 tty_fd = -2;	/* -2: not opened yet, -1: none */

static int
tty_claim(void)
{
	int	 r;

	pthread_mutex_lock(&tty_mu);
	if (tty_fd == -2)
		tty_fd = prompt_lock_open();
	if (tty_fd == -1)
		return 1;
	while ((r = flock(tty_fd, LOCK_SH | LOCK_NB)) == -1 && errno == EINTR)
		;
	return r == 0 || errno != EWOULDBLOCK;
}

static void
tty_release(void)
{
	if (tty_fd >= 0)
		(void)flock(tty_fd, LOCK_UN);
	pthread_mutex_unlock(&tty_mu);
}

/* Columns of the terminal on stderr, 0 if unknown. */
static size_t
columns(void)
{
	struct winsize	 ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == -1)
		return 0;
	return ws.ws_col;
}

static void
draw(struct progress *p, double t)
{
	struct line	 l = { .len = 0 };
	size_t		 cols;

	if (p->tty && !tty_claim()) {
		tty_release();		/* a prompt is shown: no redraw */
		return;
	}
	if (p->tty)
		addf(&l, "\r");
	format_status(p, &l, t);
	/* A line that wraps could not be redrawn with \r: cut it. */
	if (p->tty && (cols = columns()) > 1 && l.len > cols)
		l.len = cols;		/* \r plus cols - 1 characters */
	addf(&l, p->tty ? "\033[K" : "\n");
	if (l.len == sizeof(l.s) - 1)
		l.s[l.len - 1] = p->tty ? 'K' : '\n';
	put(&l);
	if (p->tty)
		tty_release();
	p->drawn = p->tty;
	p->last = t;
}

/* (A prompt shown since the line was drawn cleared it: prompt.c.) */
static void
clear_line(struct progress *p)
{
	static const struct line l = { "\r\033[K", 4 };

	if (p->drawn) {
		if (tty_claim())
			put(&l);
		tty_release();
		p->drawn = 0;
	}
}

/*
 * Is this program the first of a pipeline (its standard input is not a
 * pipe)?  With several programs in one pipeline on one terminal, only
 * the first shows its progress by default: it knows the input's size,
 * and the pipeline goes at its pace.
 */
static int
first_in_pipeline(void)
{
	struct stat	 st;

	return fstat(STDIN_FILENO, &st) == -1 || !S_ISFIFO(st.st_mode);
}

struct progress *
progress_new(const char *program, const char *unit, int enabled)
{
	struct progress	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->program = strdup(program != NULL ? program : "progress");
	p->unit = unit != NULL ? strdup(unit) : NULL;
	if (p->program == NULL || (unit != NULL && p->unit == NULL) ||
	    (errno = pthread_mutex_init(&p->mu, NULL)) != 0) {
		free(p->program);
		free(p->unit);
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->tty = isatty(STDERR_FILENO);
	p->enabled = enabled < 0 ? p->tty && first_in_pipeline() :
	    enabled != 0;
	p->start = p->last = mono_now();
	return p;
}

void
progress_total(struct progress *p, uint64_t units, uint64_t rows,
    uint64_t bytes)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->tot_units = units;
	p->tot_rows = rows;
	p->tot_bytes = bytes;
	pthread_mutex_unlock(&p->mu);
}

void
progress_add(struct progress *p, uint64_t units, uint64_t rows,
    uint64_t bytes)
{
	double	 t;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	p->units += units;
	p->rows += rows;
	p->bytes += bytes;
	if (p->enabled) {
		t = mono_now();
		if (t - p->last >= (p->tty ? PROGRESS_TTY_INTERVAL :
		    PROGRESS_LOG_INTERVAL))
			draw(p, t);
	}
	pthread_mutex_unlock(&p->mu);
}

void
progress_clear(struct progress *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	clear_line(p);
	pthread_mutex_unlock(&p->mu);
}

void
progress_get(struct progress *p, uint64_t *units, uint64_t *rows,
    uint64_t *bytes)
{
	pthread_mutex_lock(&p->mu);
	if (units != NULL)
		*units = p->units;
	if (rows != NULL)
		*rows = p->rows;
	if (bytes != NULL)
		*bytes = p->bytes;
	pthread_mutex_unlock(&p->mu);
}

void
progress_done(struct progress *p)
{
	struct line	 l = { .len = 0 };
	double		 el;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	if (!p->enabled)
		clear_line(p);
	else {
		el = mono_now() - p->start;
		/* ours, or another program's line; not a prompt (a line below) */
		if (p->tty)
			addf(&l, tty_claim() ? "\r\033[K" : "\n");
		p->drawn = 0;
		addf(&l, "%s: ", p->program);
		if (p->unit != NULL) {
			addf(&l, "%" PRIu64 " ", p->units);
			add_unit(&l, p->units, p->unit);
			addf(&l, ", ");
		}
		if (p->rows != 0) {
			addf(&l, "%" PRIu64 " ", p->rows);
			add_unit(&l, p->rows, "rows");
			addf(&l, ", ");
		}
		add_bytes(&l, (double)p->bytes);
		addf(&l, " in %.1f s", el);
		if (el > 0) {
			addf(&l, " (");
			add_bytes(&l, p->bytes / el);
			addf(&l, "/s)");
		}
		addf(&l, "\n");
		if (l.len == sizeof(l.s) - 1)
			l.s[l.len - 1] = '\n';
		put(&l);
		if (p->tty)
			tty_release();
		p->enabled = 0;		/* once */
	}
	pthread_mutex_unlock(&p->mu);
}

void
progress_free(struct progress *p)
{
	if (p == NULL)
		return;
	pthread_mutex_destroy(&p->mu);
	free(p->program);
	free(p->unit);
	free(p);
}

void
progress_end(struct progress *p, int ok)
{
	if (ok)
		progress_done(p);
	else
		progress_clear(p);
	progress_free(p);
}

/*
 * stderr on a terminal: every line starts by clearing the terminal's
 * line (a progress line of this or another program of the pipeline may
 * be on it) and goes out in one write(2), so that no message is glued to
 * a progress line, nor torn by another program's redraw.  While another
 * program's password prompt is shown (tty_claim()), the line starts on a
 * new line instead, below the prompt.
 */
static int	 stderr_bol = 1;	/* at the beginning of a line */

static ssize_t
stderr_write(void *cookie, const char *p, size_t n)
{
	char	 buf[4096 + 4];
	size_t	 done = 0, k, m;

	int	 rc;

	while (done < n) {
		m = 0;
		if (stderr_bol && tty_claim()) {
			memcpy(buf, "\r\033[K", 4);
			m = 4;
		} else if (stderr_bol)
			buf[m++] = '\n';
		k = n - done < 4096 ? n - done : 4096;
		memcpy(buf + m, p + done, k);
		rc = write_all(STDERR_FILENO, buf, m + k);
		if (stderr_bol)
			tty_release();
		if (rc == -1)
			return done > 0 ? (ssize_t)done : -1;
		stderr_bol = p[done + k - 1] == '\n';
		done += k;
	}
	return (ssize_t)n;
}

void
progress_stderr(void)
{
	static const cookie_io_functions_t io = { .write = stderr_write };
	static int	 done;
	FILE		*fp;

	if (done++ || !isatty(STDERR_FILENO))
		return;
	if ((fp = fopencookie(NULL, "w", io)) == NULL)
		return;
	setvbuf(fp, NULL, _IOLBF, 4096);
	stderr = fp;
}
