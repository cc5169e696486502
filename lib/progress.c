/*
 * progress: a progress line on stderr, redrawn at most PROGRESS_TTY_HZ
 * times a second on a terminal (\r, then clear to end of line) and as a
 * plain line every PROGRESS_LOG_SECS seconds otherwise, and one summary
 * line at the end.  Every write is one write(2) of a whole line, so lines
 * from other threads or processes do not tear it.
 */
#include <sys/ioctl.h>

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

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

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

/* "512 B", "3.1 KiB", "47.0 MiB", "2.3 GiB" */
static void
add_bytes(struct line *l, double b)
{
	if (b < 1024)
		addf(l, "%.0f B", b);
	else if (b < 1024.0 * 1024)
		addf(l, "%.1f KiB", b / 1024);
	else if (b < 1024.0 * 1024 * 1024)
		addf(l, "%.1f MiB", b / (1024.0 * 1024));
	else
		addf(l, "%.1f GiB", b / (1024.0 * 1024 * 1024));
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

static void
add_count(struct line *l, uint64_t done, uint64_t total, const char *what)
{
	if (total != 0)
		addf(l, "%" PRIu64 "/%" PRIu64 " %s", done, total, what);
	else
		addf(l, "%" PRIu64 " %s", done, what);
}

/* Fraction done, by the most precise known total; -1 if none is known. */
static double
fraction(const struct progress *p)
{
	if (p->tot_bytes != 0 && p->bytes != 0)
		return (double)p->bytes / p->tot_bytes;
	if (p->tot_rows != 0 && p->rows != 0)
		return (double)p->rows / p->tot_rows;
	if (p->tot_units != 0 && p->units != 0)
		return (double)p->units / p->tot_units;
	return -1;
}

static void
format_status(const struct progress *p, struct line *l, double t)
{
	double	 el = t - p->start, f;

	addf(l, "%s: ", p->program);
	add_count(l, p->units, p->tot_units, p->unit);
	addf(l, ", ");
	add_count(l, p->rows, p->tot_rows, "rows");
	addf(l, ", ");
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
	if ((f = fraction(p)) > 0 && f < 1 && el > 1) {
		addf(l, ", ETA ");
		add_duration(l, el * (1 - f) / f);
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
	p->drawn = p->tty;
	p->last = t;
}

static void
clear_line(struct progress *p)
{
	static const struct line l = { "\r\033[K", 4 };

	if (p->drawn) {
		put(&l);
		p->drawn = 0;
	}
}

struct progress *
progress_new(const char *program, const char *unit, int enabled)
{
	struct progress	*p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->program = strdup(program != NULL ? program : "progress");
	p->unit = strdup(unit != NULL ? unit : "units");
	if (p->program == NULL || p->unit == NULL ||
	    (errno = pthread_mutex_init(&p->mu, NULL)) != 0) {
		free(p->program);
		free(p->unit);
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->tty = isatty(STDERR_FILENO);
	p->enabled = enabled < 0 ? p->tty : enabled != 0;
	p->start = p->last = now();
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
		t = now();
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
	clear_line(p);
	if (p->enabled) {
		el = now() - p->start;
		addf(&l, "%s: %" PRIu64 " %s, %" PRIu64 " rows, ", p->program,
		    p->units, p->unit, p->rows);
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
