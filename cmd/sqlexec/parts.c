/*
 * parts: sqlexec --input FILE ...: the parts of one dbsnap --plan (#19),
 * checked as a set and loaded as one snapshot stream.
 *
 * Every header is read before anything connects: the parts must carry
 * the same plan hash, the same part count N and the same position (the
 * header's gtid_pos, from dbsnap --at-gtid, or else the snapshot's
 * gtid_binlog_pos), a consistent snapshot each, and each part 1..N
 * exactly once; anything else is refused, naming the files.  Then a
 * thread copies their frames, part 1 first, into one stream on a pipe
 * that the snapshot loader (load.c) reads as it reads stdin: a header
 * (part 1's, without its part key: the whole plan), the frames of every
 * part in part order, and a trailer.  dbsnap gives each (table, part) its
 * own table id, and puts the tables' DDL in part 1 and the triggers and
 * other later objects in part N, so the one stream is an ordinary
 * snapshot stream: resume points and --checkpoint work on it as on any.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlexec.h"
#include "util.h"

struct part_in {
	const char	*path;
	int		 fd;
	struct frame_reader *r;
	struct buf	 hdr;		/* the header payload */
	struct rp_kv	 kv;		/* decoded from hdr */
	unsigned long	 part, parts;
	const char	*plan, *pos;
};

struct sx_parts {
	struct part_in	*in;		/* in part order once checked */
	size_t		 n;
	int		 wfd;
	pthread_t	 th;
	int		 started;
	int		 failed;
};

static __dead void
refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static __dead void
refuse(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	exit(1);
}

static unsigned long
num(const struct part_in *p, const char *key)
{
	const char	*v = rp_kv_get(&p->kv, key);
	char		*end;
	unsigned long	 n;

	if (v == NULL)
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0')
		refuse("%s: bad %s in the header: %s", p->path, key, v);
	return n;
}

/* Open one input and read its header. */
static void
open_input(struct part_in *p, const char *path)
{
	struct frame	 f;
	struct dec	 d;
	const char	*v;

	p->path = path;
	if (strcmp(path, "-") == 0)
		p->fd = STDIN_FILENO;
	else if ((p->fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	if ((p->r = frame_reader_new(p->fd, 0)) == NULL)
		err(1, NULL);
	if (frame_read(p->r, &f) != FRAME_OK || f.type != FT_HEADER)
		refuse("%s: %s", path, frame_reader_errstr(p->r));
	buf_add(&p->hdr, f.p, f.len);
	if (p->hdr.err)
		err(1, NULL);
	dec_init(&d, p->hdr.p, p->hdr.len);
	if (dec_kv(&d, &p->kv) == -1)
		refuse("%s: corrupt header frame", path);
	p->plan = rp_kv_get(&p->kv, "plan");
	p->part = num(p, "part");
	p->parts = num(p, "parts");
	if ((p->pos = rp_kv_get(&p->kv, "gtid_pos")) == NULL)
		p->pos = rp_kv_get(&p->kv, "gtid_binlog_pos");
	if (p->plan != NULL && (p->part < 1 || p->part > p->parts))
		refuse("%s: a part of plan %s without a valid part and parts "
		    "in its header", path, p->plan);
	if ((v = rp_kv_get(&p->kv, "consistency")) != NULL &&
	    strcmp(v, "snapshot") != 0 && p->plan != NULL)
		refuse("%s: part %lu of %lu was not one consistent snapshot "
		    "(consistency=%s)", path, p->part, p->parts, v);
}

/*
 * A stream its producer ended with an ABORT frame (dbsnap that failed,
 * before its header too: an empty header, then the abort): that, not
 * what its header lacks, is what to say of it.  Reads its next frame:
 * only before a refusal.
 */
static void
aborted(struct part_in *p)
{
	struct frame	 f;
	const char	*why;
	int		 reason;

	if (frame_read(p->r, &f) == FRAME_ERR &&
	    (reason = frame_reader_aborted(p->r, &why)) != 0)
		refuse("%s: %s: %s", p->path, frame_abort_phrase(reason), why);
}

/* The checks of the set, in the order a user would fix them. */
static void
check_set(struct sx_parts *ps)
{
	struct part_in	*a = &ps->in[0], *b, *twice, **by;
	size_t		 i;
	unsigned long	 k;

	if (ps->n == 1 && (a->plan == NULL || a->parts == 1))
		return;		/* one whole stream */
	/* a failed dump first: it is what to fix, wherever it is given */
	for (i = 0; i < ps->n; i++)
		if (ps->in[i].plan == NULL)
			aborted(&ps->in[i]);
	for (i = 0; i < ps->n; i++)
		if (ps->in[i].plan == NULL)
			refuse("%s: not a part of a plan (no plan in its "
			    "header): more than one --input must be the parts "
			    "of one dbsnap --plan", ps->in[i].path);
	for (i = 1; i < ps->n; i++) {
		b = &ps->in[i];
		if (strcmp(a->plan, b->plan) != 0)
			refuse("%s: part %lu of plan %s, but %s is part %lu of "
			    "plan %s: parts of different plans do not make one "
			    "dump", b->path, b->part, b->plan, a->path, a->part,
			    a->plan);
		if (a->parts != b->parts)
			refuse("%s: part %lu of %lu, but %s is part %lu of %lu",
			    b->path, b->part, b->parts, a->path, a->part,
			    a->parts);
	}
	for (i = 0; i < ps->n; i++) {
		b = &ps->in[i];
		if (b->pos == NULL || *b->pos == '\0')
			refuse("%s: part %lu of %lu has no GTID position in its "
			    "header: dump the parts with dbsnap --at-gtid, or "
			    "from servers with binary logging", b->path,
			    b->part, b->parts);
		if (strcmp(a->pos, b->pos) != 0)
			refuse("%s: part %lu of %lu is at GTID position %s, but "
			    "%s (part %lu) is at %s: parts of different positions "
			    "do not make one consistent dump", b->path, b->part,
			    b->parts, b->pos, a->path, a->part, a->pos);
	}
	if ((by = calloc(a->parts + 1, sizeof(*by))) == NULL)
		err(1, NULL);
	for (i = 0; i < ps->n; i++) {
		b = &ps->in[i];
		if ((twice = by[b->part]) != NULL) {
			free(by);	/* refuse() exits: nothing left behind */
			refuse("%s and %s are both part %lu of %lu: a part given "
			    "twice", twice->path, b->path, b->part, b->parts);
		}
		by[b->part] = b;
	}
	for (k = 1; k <= a->parts; k++)
		if (by[k] == NULL) {
			free(by);
			refuse("part %lu of %lu (plan %s) is missing: give every "
			    "part, each once", k, a->parts, a->plan);
		}
	free(by);
}

static int
cmp_part(const void *x, const void *y)
{
	const struct part_in *a = x, *b = y;

	return a->part < b->part ? -1 : a->part > b->part;
}

struct sx_parts *
sx_parts_open(char **paths, size_t n)
{
	struct sx_parts	*ps;
	size_t		 i, stdin_seen = 0;

	if ((ps = calloc(1, sizeof(*ps))) == NULL ||
	    (ps->in = calloc(n, sizeof(*ps->in))) == NULL)
		err(1, NULL);
	ps->n = n;
	ps->wfd = -1;
	for (i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") == 0 && stdin_seen++)
			errx(2, "--input -: standard input given twice");
		open_input(&ps->in[i], paths[i]);
	}
	check_set(ps);
	qsort(ps->in, n, sizeof(*ps->in), cmp_part);
	return ps;
}

/* The merged header: part 1's, without its part key. */
static int
write_header(struct frame_writer *w, const struct part_in *p)
{
	const char	*keys[RP_KV_MAX], *vals[RP_KV_MAX];
	size_t		 i, n = 0;

	for (i = 0; i < p->kv.n; i++)
		if (strcmp(p->kv.key[i], "part") != 0) {
			keys[n] = p->kv.key[i];
			vals[n++] = p->kv.val[i];
		}
	enc_kv(frame_begin(w), keys, vals, n);
	return frame_end(w, FT_HEADER, 0);
}

static void *
merge(void *arg)
{
	struct sx_parts	*ps = arg;
	struct frame_writer *w;
	struct frame	 f;
	enum frame_status st;
	struct part_in	*p;
	const char	*why;
	char		*msg;
	size_t		 i;
	int		 reason;

	if ((w = frame_writer_new(ps->wfd)) == NULL) {
		warn("merging the parts");
		ps->failed = 1;
		goto out;
	}
	if (write_header(w, &ps->in[0]) == -1)
		goto werr;
	for (i = 0; i < ps->n; i++) {
		p = &ps->in[i];
		while ((st = frame_read(p->r, &f)) == FRAME_OK)
			if (frame_write(w, f.type, f.flags, f.p, f.len) == -1)
				goto werr;
		if (st == FRAME_ERR) {
			/*
			 * What came before goes out, without a trailer: the
			 * loader commits what is whole, then reports the
			 * stream truncated, with its resume point; or, if
			 * the part ends with an ABORT frame (passed on), it
			 * names the abort, once, with the part in its message
			 * (a single input is the loader's input name).
			 */
			if ((reason = frame_reader_aborted(p->r, &why)) != 0) {
				if (ps->n > 1 && asprintf(&msg, "%s (part %lu "
				    "of %lu): %s", p->path, p->part, p->parts,
				    why) != -1) {
					(void)frame_writer_abort(w, reason, msg);
					free(msg);
				} else
					(void)frame_writer_abort(w, reason, why);
			} else if (strncmp(frame_reader_errstr(p->r),
			    "corrupt: ", 9) == 0) {
				/*
				 * A frame that failed its checks: damage,
				 * which the loader names as such (not the
				 * cut that an end without a trailer is).
				 */
				why = frame_reader_errstr(p->r) + 9;
				if ((ps->n > 1 ? asprintf(&msg, "%s (part %lu "
				    "of %lu): %s", p->path, p->part, p->parts,
				    why) : asprintf(&msg, "%s: %s", p->path,
				    why)) != -1) {
					(void)frame_writer_abort(w,
					    FRAME_ABORT_DAMAGED, msg);
					free(msg);
				} else
					(void)frame_writer_abort(w,
					    FRAME_ABORT_DAMAGED, why);
			} else {
				(void)frame_writer_flush(w);
				if (ps->n > 1)
					warnx("%s (part %lu of %lu): %s",
					    p->path, p->part, p->parts,
					    frame_reader_errstr(p->r));
				else
					warnx("%s: %s", p->path,
					    frame_reader_errstr(p->r));
			}
			ps->failed = 1;
			goto out;
		}
	}
	if (frame_writer_close(w) == 0)
		goto out;
werr:
	/* EPIPE: the loader stopped reading; it says why. */
	if (errno != EPIPE) {
		warnx("merging the parts: %s", frame_writer_errstr(w));
		ps->failed = 1;
	}
out:
	frame_writer_free(w);
	close(ps->wfd);
	ps->wfd = -1;
	return NULL;
}

int
sx_parts_start(struct sx_parts *ps)
{
	sigset_t	 all, old;
	int		 fds[2];

	if (pipe(fds) == -1)
		err(1, "pipe");
	(void)fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
	ps->wfd = fds[1];
	/*
	 * The thread takes no signal: SIGINT is intr.c's business, and a
	 * write to a pipe the loader has closed is EPIPE here, not SIGPIPE.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&ps->th, NULL, merge, ps) != 0)
		errx(1, "pthread_create: %s", strerror(errno));
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ps->started = 1;
	return fds[0];
}

int
sx_parts_finish(struct sx_parts *ps, int rfd)
{
	size_t	 i;
	int	 failed;

	close(rfd);		/* a thread still writing gets EPIPE */
	if (ps->started)
		pthread_join(ps->th, NULL);
	failed = ps->failed;
	for (i = 0; i < ps->n; i++) {
		frame_reader_free(ps->in[i].r);
		buf_release(&ps->in[i].hdr);
		if (ps->in[i].fd != STDIN_FILENO)
			close(ps->in[i].fd);
	}
	free(ps->in);
	free(ps);
	return failed ? -1 : 0;
}
