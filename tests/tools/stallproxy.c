/*
 * stallproxy: a TCP forwarder on loopback that can stall, for the tests
 * of a network that drops packets while the connections stay open.
 *
 *	stallproxy LISTEN_PORT TARGET_HOST TARGET_PORT
 *
 * Listens on 127.0.0.1:LISTEN_PORT (0: a free port) and prints the port
 * it listens on, one line on stdout, once it accepts connections.  Each
 * connection is forwarded to TARGET_HOST:TARGET_PORT, which must be a
 * loopback address.  SIGUSR1 stalls: from then on nothing is accepted,
 * read or written, and every socket stays open, so that the peers see
 * neither data nor an end (the kernel still acknowledges what fits in
 * its buffers, as a network that drops packets past a healthy first hop
 * would not; keepalive therefore cannot end a stalled connection here).
 * SIGHUP stalls only the connections open now, and goes on accepting
 * and forwarding new ones (a path that lost its old connections).
 * SIGUSR2 forwards everything again.  SIGTERM or SIGINT closes
 * everything and exits 0.  Exit 1 on a set-up error, 2 on a usage error.
 */
#include <sys/socket.h>
#include <sys/signalfd.h>

#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define MAXPAIRS	256
#define BUFSZ		65536

/* One direction of a forwarded connection: bytes read from src wait in
 * buf until they are written to dst. */
struct half {
	int	 src, dst;
	char	 buf[BUFSZ];
	size_t	 off, len;
	int	 eof;		/* src ended: shutdown(dst, SHUT_WR) once empty */
};

struct pair {
	struct half	 h[2];	/* client to server, server to client */
	int		 used;
	int		 stalled;	/* SIGHUP: this one forwards nothing */
};

static struct pair	 pairs[MAXPAIRS];

static void
usage(void)
{
	fprintf(stderr, "usage: stallproxy listen-port target-host "
	    "target-port\n");
	exit(2);
}

static int
is_loopback(const struct sockaddr *sa)
{
	const struct sockaddr_in	*s4 = (const void *)sa;
	const struct sockaddr_in6	*s6 = (const void *)sa;

	if (sa->sa_family == AF_INET)
		return (ntohl(s4->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr);
	return 0;
}

static struct addrinfo *
target(const char *host, const char *port)
{
	struct addrinfo	 hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int		 e;

	if ((e = getaddrinfo(host, port, &hints, &ai)) != 0)
		errx(1, "%s:%s: %s", host, port, gai_strerror(e));
	if (!is_loopback(ai->ai_addr))
		errx(1, "%s: not a loopback address", host);
	return ai;
}

static int
listen_on(const char *port, unsigned *bound)
{
	struct sockaddr_in	 sin = { .sin_family = AF_INET };
	socklen_t		 len = sizeof(sin);
	const char		*e;
	int			 s, one = 1;

	sin.sin_port = htons((unsigned short)strtonum(port, 0, 65535, &e));
	if (e != NULL)
		errx(2, "listen port %s: %s", port, e);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		err(1, "socket");
	(void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(s, 64) == -1 ||
	    getsockname(s, (struct sockaddr *)&sin, &len) == -1)
		err(1, "127.0.0.1:%s", port);
	*bound = ntohs(sin.sin_port);
	return s;
}

static void
pair_close(struct pair *p)
{
	close(p->h[0].src);
	close(p->h[0].dst);
	p->used = 0;
}

/* Accept one client and connect it to the target (blocking: loopback). */
static void
accept_one(int ls, const struct addrinfo *ai)
{
	struct pair	*p = NULL;
	int		 c, s, i;

	if ((c = accept4(ls, NULL, NULL, SOCK_CLOEXEC)) == -1)
		return;
	for (i = 0; i < MAXPAIRS && p == NULL; i++)
		if (!pairs[i].used)
			p = &pairs[i];
	if (p == NULL || (s = socket(ai->ai_family, SOCK_STREAM |
	    SOCK_CLOEXEC, 0)) == -1) {
		close(c);
		return;
	}
	if (connect(s, ai->ai_addr, ai->ai_addrlen) == -1) {
		close(s);
		close(c);
		return;
	}
	memset(p, 0, sizeof(*p));
	p->used = 1;
	p->h[0].src = p->h[1].dst = c;
	p->h[0].dst = p->h[1].src = s;
}

/* Move what poll said can move; -1 once the pair is over. */
static int
half_move(struct half *h, short rev_src, short rev_dst)
{
	ssize_t	 n;

	if (h->len == 0 && !h->eof && (rev_src & (POLLIN | POLLHUP | POLLERR))) {
		n = read(h->src, h->buf, sizeof(h->buf));
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			return 0;
		if (n <= 0) {
			h->eof = 1;
			(void)shutdown(h->dst, SHUT_WR);
			return n == 0 ? 0 : -1;
		}
		h->off = 0;
		h->len = (size_t)n;
	}
	if (h->len > 0 && (rev_dst & (POLLOUT | POLLERR | POLLHUP))) {
		n = write(h->dst, h->buf + h->off, h->len);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			return 0;
		if (n == -1)
			return -1;
		h->off += (size_t)n;
		h->len -= (size_t)n;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	static struct pollfd	 pfd[2 + 2 * MAXPAIRS];
	struct signalfd_siginfo	 si;
	struct addrinfo		*ai;
	sigset_t		 set;
	unsigned		 port;
	int			 ls, sfd, stalled = 0, i, n;

	if (argc != 4)
		usage();
	ai = target(argv[2], argv[3]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) == -1 ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) == -1)
		err(1, "signalfd");
	signal(SIGPIPE, SIG_IGN);
	ls = listen_on(argv[1], &port);
	printf("%u\n", port);
	if (fflush(stdout) == EOF)
		err(1, "stdout");

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = stalled ? -1 : ls,
		    .events = POLLIN };
		for (i = 0; i < MAXPAIRS; i++) {
			struct pair	*p = &pairs[i];
			struct pollfd	*a = &pfd[2 + 2 * i], *b = a + 1;

			*a = (struct pollfd){ .fd = -1 };
			*b = (struct pollfd){ .fd = -1 };
			if (!p->used || stalled || p->stalled)
				continue;
			a->fd = p->h[0].src;
			b->fd = p->h[1].src;
			if (p->h[0].len == 0 && !p->h[0].eof)
				a->events |= POLLIN;
			if (p->h[1].len > 0)
				a->events |= POLLOUT;
			if (p->h[1].len == 0 && !p->h[1].eof)
				b->events |= POLLIN;
			if (p->h[0].len > 0)
				b->events |= POLLOUT;
		}
		if ((n = poll(pfd, 2 + 2 * MAXPAIRS, -1)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (pfd[0].revents & POLLIN) {
			if (read(sfd, &si, sizeof(si)) != sizeof(si))
				continue;
			if (si.ssi_signo == SIGUSR1)
				stalled = 1;
			else if (si.ssi_signo == SIGHUP)
				for (i = 0; i < MAXPAIRS; i++)
					pairs[i].stalled = pairs[i].used;
			else if (si.ssi_signo == SIGUSR2)
				for (stalled = i = 0; i < MAXPAIRS; i++)
					pairs[i].stalled = 0;
			else
				break;
			continue;
		}
		if (stalled)
			continue;
		if (pfd[1].revents & POLLIN)
			accept_one(ls, ai);
		for (i = 0; i < MAXPAIRS; i++) {
			struct pair	*p = &pairs[i];
			short		 ra = pfd[2 + 2 * i].revents;
			short		 rb = pfd[3 + 2 * i].revents;

			if (!p->used || pfd[2 + 2 * i].fd == -1)
				continue;
			if (half_move(&p->h[0], ra, rb) == -1 ||
			    half_move(&p->h[1], rb, ra) == -1 ||
			    (p->h[0].eof && p->h[1].eof &&
			    p->h[0].len == 0 && p->h[1].len == 0))
				pair_close(p);
		}
	}
	for (i = 0; i < MAXPAIRS; i++)
		if (pairs[i].used)
			pair_close(&pairs[i]);
	close(ls);
	freeaddrinfo(ai);
	return 0;
}
