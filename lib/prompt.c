/*
 * prompt: a password prompt on /dev/tty, one at a time per terminal
 * (flock(2) on the terminal device), with echo off for certain.  After
 * OpenBSD's readpassphrase(3), which does not lock and does not check.
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "prompt.h"
#include "util.h"

static const int	 sigs[] = {
	SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU
};
#define NSIGS	(sizeof(sigs) / sizeof(sigs[0]))

static volatile sig_atomic_t	 caught;

static void
on_signal(int sig)
{
	caught = sig;
}

/* Catch the signals that would leave the terminal without echo. */
static void
catch(struct sigaction *saved)
{
	struct sigaction	 sa;
	size_t			 i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: read(2) returns */
	sigemptyset(&sa.sa_mask);
	caught = 0;
	for (i = 0; i < NSIGS; i++)
		sigaction(sigs[i], &sa, &saved[i]);
}

static void
uncatch(const struct sigaction *saved)
{
	size_t	 i;

	for (i = 0; i < NSIGS; i++)
		sigaction(sigs[i], &saved[i], NULL);
}

/* One line from fd into buf; 0 at a newline or EOF, -1 on error. */
static int
read_line(int fd, char *buf, size_t len)
{
	size_t	 n = 0;
	ssize_t	 r;
	char	 c;

	for (;;) {
		if ((r = read(fd, &c, 1)) == -1) {
			if (errno == EINTR && !caught)
				continue;
			buf[n] = '\0';
			return -1;
		}
		if (r == 0 || c == '\n' || c == '\r')
			break;
		if (n + 1 < len)
			buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

/* The terminal's device by its name, to lock; -1 if it has none. */
static int
lock_file(int fd)
{
	const char	*name;

	if ((name = ttyname(fd)) == NULL)
		return -1;
	return open(name, O_RDONLY | O_NOCTTY | O_CLOEXEC);
}

/* Lock the terminal of fd: its device, or fd itself if it has no name. */
static int
lock_tty(int fd)
{
	int	 lfd = lock_file(fd);

	while (flock(lfd != -1 ? lfd : fd, LOCK_EX) == -1 && errno == EINTR)
		;
	return lfd;
}

int
prompt_lock_open(void)
{
	int	 fd, lfd;

	if ((fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return -1;
	if ((lfd = lock_file(fd)) == -1)
		return fd;
	close(fd);
	return lfd;
}

int
prompt_password(const char *prompt, char *buf, size_t len,
    const char **errstr)
{
	struct sigaction	 saved[NSIGS];
	struct termios		 old, quiet, now;
	int			 fd, lfd, rc = -1, serrno = 0;

	*buf = '\0';
	if ((fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1) {
		*errstr = "no terminal to ask for the password on";
		errno = ENOTTY;
		return -1;
	}
	lfd = lock_tty(fd);
	catch(saved);
	if (tcgetattr(fd, &old) == -1) {
		*errstr = "no terminal to ask for the password on";
		serrno = ENOTTY;
		goto out;
	}
	quiet = old;
	quiet.c_lflag &= ~(ECHO | ECHOE | ECHOK | ECHONL);
	quiet.c_lflag |= ICANON;
	if (tcsetattr(fd, TCSAFLUSH, &quiet) == -1 ||
	    tcgetattr(fd, &now) == -1 || (now.c_lflag & ECHO) != 0) {
		*errstr = "cannot turn off echo on the terminal";
		serrno = errno != 0 ? errno : EIO;
		goto restore;
	}
	/* on a line of its own: a progress line there is cleared (progress.c) */
	if (write_all(fd, "\r\033[K", 4) == -1 ||
	    write_all(fd, prompt, strlen(prompt)) == -1 ||
	    read_line(fd, buf, len) == -1) {
		serrno = caught ? EINTR : errno;
		*errstr = strerror(serrno);
		explicit_bzero(buf, len);
		goto restore;
	}
	(void)write_all(fd, "\n", 1);
	rc = 0;
restore:
	while (tcsetattr(fd, TCSAFLUSH, &old) == -1 && errno == EINTR)
		;
out:
	uncatch(saved);
	if (lfd != -1)
		close(lfd);
	close(fd);			/* and with it the lock */
	if (caught) {
		explicit_bzero(buf, len);
		raise(caught);		/* the program's own reaction */
	}
	if (rc == -1)
		errno = serrno;
	return rc;
}
