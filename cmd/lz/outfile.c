/*
 * lz -o FILE: where the output goes.  A regular file (new, or replaced
 * with -f) is written as a temporary file beside it and renamed into place
 * only after everything was written and synced, so that a failed or
 * interrupted run leaves FILE as it was and never a partial FILE.  A
 * device or FIFO is written to directly, as lz4(1) does (lz -o /dev/null,
 * lz -o /dev/st0, lz -o fifo), and never removed.  A symbolic link stays:
 * the regular file it names is replaced the same way, a device or FIFO it
 * names is written to.  Sockets, directories and dangling links are
 * refused.  A hard link elsewhere to a replaced file keeps the old content.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
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

/* Remove the temporary file, then die of the signal as if not caught. */
static void
on_signal(int sig)
{
	if (cleanup_path != NULL)
		unlink(cleanup_path);
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

/*
 * Create ".NAME.XXXXXX" beside target, with the mode (and, where allowed,
 * the owner) of the file it replaces, or 0666 less the umask for a new one.
 */
static void
create_temp(struct lz_outfile *of, const struct stat *old)
{
	char	*d, *b, *dcopy, *bcopy;
	mode_t	 mask;
	size_t	 i;

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
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (signal(sigs[i], on_signal) == SIG_IGN)
			signal(sigs[i], SIG_IGN);	/* nohup stays nohup */
	block_signals(SIG_BLOCK);
	if ((of->fd = mkstemp(of->tmp)) == -1)
		err(1, "%s", of->path);
	cleanup_path = of->tmp;
	block_signals(SIG_UNBLOCK);
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

	if (of->tmp == NULL) {
		rc = close(of->fd);
		of->fd = -1;
		return rc;
	}
	if (fsync(of->fd) == -1)
		goto fail;
	rc = close(of->fd);
	of->fd = -1;
	if (rc == -1 || rename(of->tmp, of->target) == -1)
		goto fail;
	cleanup_path = NULL;
	free(of->tmp);
	free(of->target);
	of->tmp = of->target = NULL;
	return 0;
fail:
	e = errno;
	lz_outfile_abort(of);
	errno = e;
	return -1;
}

void
lz_outfile_abort(struct lz_outfile *of)
{
	if (of->fd != -1)
		close(of->fd);
	of->fd = -1;
	if (of->tmp != NULL) {
		unlink(of->tmp);
		cleanup_path = NULL;
		free(of->tmp);
		of->tmp = NULL;
	}
	free(of->target);
	of->target = NULL;
}
