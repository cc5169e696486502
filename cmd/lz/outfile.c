/*
 * lz -o FILE: where the output goes.  A regular file (new, or replaced
 * with -f) is written as a file with no name yet (open(2) O_TMPFILE in
 * its directory) that gets its name with linkat(2) only after everything
 * was written and synced, so that a failed, interrupted or killed run
 * (kill -9 included) leaves FILE as it was, never a partial FILE and no
 * temporary file.  Replacing a file takes a hidden name beside it for the
 * moment between linkat(2) and rename(2).  Where the file system has no
 * O_TMPFILE (or /proc/self/fd, which linkat(2) links from, is missing),
 * the file is written under that hidden name from the start, which
 * SIGKILL leaves behind.  A device or FIFO is written to directly, as
 * lz4(1) does (lz -o /dev/null, lz -o /dev/st0, lz -o fifo), and never
 * removed.  A symbolic link stays: the regular file it names is replaced
 * the same way, a device or FIFO it names is written to.  Sockets,
 * directories and dangling links are refused.  A hard link elsewhere to
 * a replaced file keeps the old content.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lz.h"

static const int	 sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGQUIT };

/* The temporary file, for on_signal(); NULL when there is none. */
static const char *volatile cleanup_path;
/* "lz: FILE: not written (", for on_signal(); "" until create_temp(). */
static char	 sig_msg[PATH_MAX + 64];

/*
 * Remove the temporary file, say that FILE was not written (a Ctrl-C of
 * the pipeline on a terminal showed nothing), then die of the signal as
 * if not caught.  Only async-signal-safe calls.
 */
static void
on_signal(int sig)
{
	const char	*why = sig == SIGINT ? "interrupted" : sig == SIGTERM ?
	    "terminated" : sig == SIGHUP ? "hangup" : "quit";
	int		 e = errno;

	if (cleanup_path != NULL)
		unlink(cleanup_path);
	if (sig_msg[0] != '\0' && write(STDERR_FILENO, sig_msg,
	    strlen(sig_msg)) > 0 && write(STDERR_FILENO, why,
	    strlen(why)) > 0)
		(void)write(STDERR_FILENO, ")\n", 2);
	errno = e;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
block_signals(int how)
{
	sigset_t	 set;
	size_t		 i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(how, &set, NULL);
}

/* ".NAME.XXXXXX" beside target, into of->tmp. */
static void
temp_name(struct lz_outfile *of)
{
	char	*d, *b, *dcopy, *bcopy;

	if ((dcopy = strdup(of->target)) == NULL ||
	    (bcopy = strdup(of->target)) == NULL)
		err(1, NULL);
	d = dirname(dcopy);
	b = basename(bcopy);
	if (strlen(b) > NAME_MAX - 10)
		b[NAME_MAX - 10] = '\0';
	if (asprintf(&of->tmp, "%s/.%s.XXXXXX", d, b) == -1)
		err(1, NULL);
	free(dcopy);
	free(bcopy);
}

/*
 * An O_TMPFILE file in target's directory, if the file system has them
 * and /proc/self/fd names it for linkat(2): 0, or -1 (then use a name).
 */
static int
open_unnamed(struct lz_outfile *of)
{
	struct stat	 sb;
	char		*dcopy;

	if ((dcopy = strdup(of->target)) == NULL)
		err(1, NULL);
	of->fd = open(dirname(dcopy), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	free(dcopy);
	if (of->fd == -1)
		return -1;
	snprintf(of->proc, sizeof(of->proc), "/proc/self/fd/%d", of->fd);
	if (stat(of->proc, &sb) == -1) {
		close(of->fd);
		of->fd = -1;
		return -1;
	}
	of->unnamed = 1;
	return 0;
}

/*
 * The output file: unnamed (open_unnamed()), else ".NAME.XXXXXX" beside
 * target, with the mode (and, where allowed, the owner) of the file it
 * replaces, or 0666 less the umask for a new one.
 */
static void
create_temp(struct lz_outfile *of, const struct stat *old)
{
	mode_t	 mask;
	size_t	 i;

	of->replace = old != NULL;
	snprintf(sig_msg, sizeof(sig_msg), "%s: %s: not written (",
	    getprogname(), of->path);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (signal(sigs[i], on_signal) == SIG_IGN)
			signal(sigs[i], SIG_IGN);	/* nohup stays nohup */
	if (open_unnamed(of) == -1) {
		temp_name(of);
		block_signals(SIG_BLOCK);
		if ((of->fd = mkstemp(of->tmp)) == -1)
			err(1, "%s", of->path);
		cleanup_path = of->tmp;
		block_signals(SIG_UNBLOCK);
	}
	if (old != NULL) {
		(void)fchown(of->fd, old->st_uid, old->st_gid);
		if (fchmod(of->fd, old->st_mode & 07777) == -1)
			goto fail;
	} else {
		mask = umask(0);
		umask(mask);
		if (fchmod(of->fd, 0666 & ~mask) == -1)
			goto fail;
	}
	return;
fail:
	lz_outfile_abort(of);
	err(1, "%s", of->path);
}

/*
 * Give the unnamed file its name: a new file's at once (EEXIST if one
 * appeared meanwhile: never replaced without -f); a replacing one's
 * through a hidden name and rename(2).  0, or -1 with errno set.
 */
static int
link_unnamed(struct lz_outfile *of)
{
	char	*x;
	int	 rc = -1, i, e;

	if (!of->replace)
		return linkat(AT_FDCWD, of->proc, AT_FDCWD, of->target,
		    AT_SYMLINK_FOLLOW);
	temp_name(of);
	x = of->tmp + strlen(of->tmp) - 6;
	for (i = 0; i < 100 && rc == -1; i++) {
		snprintf(x, 7, "%06" PRIx32, arc4random() & 0xffffff);
		if ((rc = linkat(AT_FDCWD, of->proc, AT_FDCWD, of->tmp,
		    AT_SYMLINK_FOLLOW)) == -1 && errno != EEXIST)
			break;
	}
	if (rc == 0) {
		cleanup_path = of->tmp;
		if ((rc = rename(of->tmp, of->target)) == -1) {
			e = errno;
			unlink(of->tmp);
			errno = e;
		}
		cleanup_path = NULL;
	}
	free(of->tmp);
	of->tmp = NULL;
	return rc;
}

void
lz_outfile_open(struct lz_outfile *of, const char *path, int force)
{
	struct stat	 st;
	int		 link = 0;

	memset(of, 0, sizeof(*of));
	of->path = path;
	of->fd = -1;
	if (lstat(path, &st) == -1) {
		if (errno != ENOENT)
			err(1, "%s", path);
		if ((of->target = strdup(path)) == NULL)
			err(1, NULL);
		create_temp(of, NULL);
		return;
	}
	if (!force && strcmp(path, "/dev/null") != 0)
		errx(1, "%s: already exists (use -f to overwrite)", path);
	if (S_ISLNK(st.st_mode)) {
		link = 1;
		if (stat(path, &st) == -1)
			errx(1, "%s: symbolic link to a missing file (not "
			    "followed)", path);
	}
	if (S_ISREG(st.st_mode)) {
		if ((of->target = link ? realpath(path, NULL) :
		    strdup(path)) == NULL)
			err(1, "%s", path);
		create_temp(of, &st);
		return;
	}
	if (S_ISDIR(st.st_mode))
		errx(1, "%s: is a directory", path);
	if (S_ISSOCK(st.st_mode))
		errx(1, "%s: is a socket (not replaced)", path);
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode) &&
	    !S_ISFIFO(st.st_mode))
		errx(1, "%s: not a regular file, device or FIFO", path);
	if ((of->fd = open(path, O_WRONLY | O_NOCTTY)) == -1)
		err(1, "%s", path);
	/* Replaced by a regular file since lstat()?  Do not write into it. */
	if (fstat(of->fd, &st) == -1 || S_ISREG(st.st_mode))
		errx(1, "%s: changed while being opened", path);
}

int
lz_outfile_commit(struct lz_outfile *of)
{
	int	 rc, e;

	if (of->tmp == NULL && !of->unnamed) {
		rc = close(of->fd);
		of->fd = -1;
		return rc;
	}
	if (fsync(of->fd) == -1)
		goto fail;
	/* named and no longer "not written" at once, for on_signal() */
	block_signals(SIG_BLOCK);
	if (of->unnamed) {
		/* linked while open: /proc/self/fd names it until close */
		if (link_unnamed(of) == -1)
			goto fail;
		rc = close(of->fd);
		of->fd = -1;
		of->unnamed = 0;
		if (rc == -1)
			goto fail;
	} else {
		rc = close(of->fd);
		of->fd = -1;
		if (rc == -1 || rename(of->tmp, of->target) == -1)
			goto fail;
	}
	cleanup_path = NULL;
	sig_msg[0] = '\0';
	block_signals(SIG_UNBLOCK);
	free(of->tmp);
	free(of->target);
	of->tmp = of->target = NULL;
	return 0;
fail:
	e = errno;
	lz_outfile_abort(of);
	block_signals(SIG_UNBLOCK);
	errno = e;
	return -1;
}

void
lz_outfile_abort(struct lz_outfile *of)
{
	if (of->fd != -1)
		close(of->fd);		/* an unnamed file is then gone */
	of->fd = -1;
	of->unnamed = 0;
	if (of->tmp != NULL) {
		unlink(of->tmp);
		cleanup_path = NULL;
		free(of->tmp);
		of->tmp = NULL;
	}
	free(of->target);
	of->target = NULL;
}
