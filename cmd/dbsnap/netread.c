/*
 * netread: fewer, larger reads from the server's socket on the worker
 * connections.
 *
 * Connector/C reads a packet through its read-ahead cache
 * (ma_pvio_cache_read): a read shorter than 2 KiB refills the 16 KiB
 * cache with one recv(2), a longer one reads straight into the packet
 * buffer.  Rows of a few hundred bytes thus cost a recv(2) per 16 KiB
 * (18000 for 297 MiB), and a poll(2) each time the socket was empty.
 * Here the connection's read method (its own copy of the pvio method
 * table, ma_pvio.h) serves those refills from a buffer of NETREAD_BUF
 * bytes that one call of the original method fills with what the socket
 * holds, so the read timeout and its errors stay Connector/C's.  A read
 * of half the buffer or more, with the buffer empty, goes straight
 * through.  Not for TLS connections: their reads do not use the method.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>
#include <ma_pvio.h>

#include "dbsnap.h"

#define NETREAD_BUF	((size_t)256 << 10)

struct netread {
	PVIO_METHODS	 methods;	/* the pvio's, read replaced */
	PVIO_METHODS	*orig;
	unsigned char	*buf;
	size_t		 pos, end;
};

static ssize_t
nr_read(MARIADB_PVIO *pvio, uchar *p, size_t len)
{
	struct netread	*nr = (struct netread *)(void *)((char *)pvio->methods -
	    offsetof(struct netread, methods));
	ssize_t		 r;
	size_t		 n;

	if (nr->pos == nr->end) {
		if (len >= NETREAD_BUF / 2)
			return nr->orig->read(pvio, p, len);
		if ((r = nr->orig->read(pvio, nr->buf, NETREAD_BUF)) <= 0)
			return r;
		nr->pos = 0;
		nr->end = (size_t)r;
	}
	n = nr->end - nr->pos < len ? nr->end - nr->pos : len;
	memcpy(p, nr->buf + nr->pos, n);
	nr->pos += n;
	return (ssize_t)n;
}

void
netread_install(MYSQL *m)
{
	MARIADB_PVIO	*pvio = m->net.pvio;
	struct netread	*nr;

	if (pvio == NULL || pvio->ctls != NULL || pvio->methods == NULL ||
	    pvio->methods->read == NULL || pvio->methods->read == nr_read)
		return;
	if ((nr = calloc(1, sizeof(*nr))) == NULL ||
	    (nr->buf = malloc(NETREAD_BUF)) == NULL) {
		free(nr);
		return;		/* Connector/C's reads, as they were */
	}
	nr->orig = pvio->methods;
	nr->methods = *pvio->methods;
	nr->methods.read = nr_read;
	pvio->methods = &nr->methods;
}

void
netread_uninstall(MYSQL *m)
{
	MARIADB_PVIO	*pvio = m->net.pvio;
	struct netread	*nr;

	if (pvio == NULL || pvio->methods == NULL ||
	    pvio->methods->read != nr_read)
		return;
	nr = (struct netread *)(void *)((char *)pvio->methods -
	    offsetof(struct netread, methods));
	if (nr->pos != nr->end)
		return;		/* bytes of a reply not read yet: keep them */
	pvio->methods = nr->orig;
	free(nr->buf);
	free(nr);
}
