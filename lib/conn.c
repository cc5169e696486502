/*
 * conn: connection options as the mysql(1) client has them, on top of
 * MariaDB Connector/C.
 *
 * Option files are read by Connector/C itself (MYSQL_READ_DEFAULT_FILE and
 * MYSQL_READ_DEFAULT_GROUP: groups [client], [client-server],
 * [client-mariadb] and [<program>]).  Connector/C only knows "the default
 * files" or "this one file", and it applies what it reads at connect time,
 * over whatever was set with mysql_options().  To get the mysql client's
 * rules (--defaults-extra-file read after the default files; command-line
 * options win over every file) conn_open() hands Connector/C one small
 * generated option file, in memory (memfd), that !includes the files to
 * read in order and then sets the command-line values in a [client] group
 * of its own.  Host, user, password, port and socket are passed to
 * mysql_real_connect() directly, which also makes them win over the files.
 * The password never goes into the generated file.
 *
 * MYSQL_PWD is read by Connector/C when neither the command line nor an
 * option file gave a password, which is the mysql client's order.
 */
#include <sys/mman.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "conn.h"
#include "opt.h"
#include "prompt.h"
#include "util.h"

#include <errmsg.h>		/* after mysql.h, which they need */
#include <ma_pvio.h>

#define PASS_MAX	1024

/* TCP keepalive and TCP_USER_TIMEOUT: a peer that is gone ends a wait in
 * about two minutes; a healthy server answers the probes (conn.h). */
#define KEEP_IDLE	30	/* seconds of silence before the first probe */
#define KEEP_INTVL	10	/* seconds between probes */
#define KEEP_CNT	9	/* probes unanswered before the end */
#define USER_TIMEOUT_MS	120000	/* unacknowledged data, at most */

/* For option errors: a whole message with the option and its value. */
static char	 conn_errmsg[256];

static const char *
opt_error(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(conn_errmsg, sizeof(conn_errmsg), fmt, ap);
	va_end(ap);
	return conn_errmsg;
}

static void
wipe_free(char **p)
{
	if (*p != NULL) {
		explicit_bzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

static int
set_str(char **dst, const char *val, const char *name, const char **errstr)
{
	char	*s;

	if (val == NULL) {
		*errstr = opt_error("--%s: value required", name);
		return -1;
	}
	if (strpbrk(val, "\n\r") != NULL) {
		*errstr = opt_error("--%s: value contains a line break", name);
		return -1;
	}
	if ((s = strdup(val)) == NULL) {
		*errstr = opt_error("--%s: %s", name, strerror(errno));
		return -1;
	}
	free(*dst);
	*dst = s;
	return 1;
}

static int
set_password(struct conn_opts *o, char *arg, const char **errstr)
{
	char	*s;

	wipe_free(&o->password);
	if (arg == NULL) {		/* -p alone: ask later */
		o->prompt_password = 1;
		return 1;
	}
	o->prompt_password = 0;
	if ((s = strdup(arg)) == NULL) {
		*errstr = opt_error("--password: %s", strerror(errno));
		return -1;
	}
	o->password = s;
	/* Hide it from ps(1) and /proc/<pid>/cmdline, as mysql(1) does. */
	if (*arg != '\0') {
		memset(arg, 'x', strlen(arg));
		arg[1] = '\0';
	}
	return 1;
}

static const char *const protocols[] = {
	[MYSQL_PROTOCOL_TCP] = "tcp",
	[MYSQL_PROTOCOL_SOCKET] = "socket",
	[MYSQL_PROTOCOL_PIPE] = "pipe",
	[MYSQL_PROTOCOL_MEMORY] = "memory",
};

static const char *const ssl_modes[] = {
	"DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY",
	NULL
};

static int
set_protocol(struct conn_opts *o, const char *arg, const char **errstr)
{
	size_t	 i;

	for (i = 1; i < sizeof(protocols) / sizeof(protocols[0]); i++)
		if (strcasecmp(arg, protocols[i]) == 0) {
			o->protocol = (int)i;
			return 1;
		}
	*errstr = opt_error("--protocol %s: unknown protocol "
	    "(tcp, socket, pipe, memory)", arg);
	return -1;
}

static int
set_ssl_mode(struct conn_opts *o, const char *arg, const char **errstr)
{
	size_t	 i;

	for (i = 0; ssl_modes[i] != NULL; i++)
		if (strcasecmp(arg, ssl_modes[i]) == 0)
			return set_str(&o->ssl_mode, ssl_modes[i], "ssl-mode",
			    errstr);
	*errstr = opt_error("--ssl-mode %s: unknown mode (DISABLED, "
	    "PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY)", arg);
	return -1;
}

static int
set_uint(unsigned *dst, const char *arg, long long min, long long max,
    const char *name, const char **errstr)
{
	const char	*e;
	long long	 v;

	v = strtonum(arg, min, max, &e);
	if (e != NULL) {
		*errstr = opt_error("--%s %s: %s", name, arg, e);
		return -1;
	}
	*dst = (unsigned)v;
	return 1;
}

int
conn_getopt(struct conn_opts *o, int ch, char *arg, const char **errstr)
{
	*errstr = NULL;
	switch (ch) {
	case 'h':
		return set_str(&o->host, arg, "host", errstr);
	case 'P':
		return set_uint(&o->port, arg, 1, 65535, "port", errstr);
	case 'u':
		return set_str(&o->user, arg, "user", errstr);
	case 'p':
		return set_password(o, arg, errstr);
	case 'S':
		return set_str(&o->socket, arg, "socket", errstr);
	case CONN_OPT_PROTOCOL:
		return set_protocol(o, arg, errstr);
	case CONN_OPT_DEFAULTS_FILE:
		return set_str(&o->defaults_file, arg, "defaults-file", errstr);
	case CONN_OPT_DEFAULTS_EXTRA_FILE:
		return set_str(&o->defaults_extra_file, arg,
		    "defaults-extra-file", errstr);
	case CONN_OPT_NO_DEFAULTS:
		o->no_defaults = 1;
		return 1;
	case CONN_OPT_SSL:
		o->ssl = 1;
		return 1;
	case CONN_OPT_SSL_MODE:
		return set_ssl_mode(o, arg, errstr);
	case CONN_OPT_SSL_CA:
		return set_str(&o->ssl_ca, arg, "ssl-ca", errstr);
	case CONN_OPT_SSL_CAPATH:
		return set_str(&o->ssl_capath, arg, "ssl-capath", errstr);
	case CONN_OPT_SSL_CERT:
		return set_str(&o->ssl_cert, arg, "ssl-cert", errstr);
	case CONN_OPT_SSL_KEY:
		return set_str(&o->ssl_key, arg, "ssl-key", errstr);
	case CONN_OPT_SSL_CIPHER:
		return set_str(&o->ssl_cipher, arg, "ssl-cipher", errstr);
	case CONN_OPT_COMPRESS:
		o->compress = 1;
		return 1;
	case CONN_OPT_CONNECT_TIMEOUT:
		return set_uint(&o->connect_timeout, arg, 1, 31536000,
		    "connect-timeout", errstr);
	case CONN_OPT_READ_TIMEOUT:
		return set_uint(&o->read_timeout, arg, 0, 31536000,
		    "read-timeout", errstr);
	case CONN_OPT_WRITE_TIMEOUT:
		return set_uint(&o->write_timeout, arg, 0, 31536000,
		    "write-timeout", errstr);
	default:
		return 0;
	}
}

static int
conn_opt(void *base, const struct opt *o, char *arg, const char **errstr)
{
	return conn_getopt(base, o->code, arg, errstr) == -1 ? -1 : 0;
}

#define CONN_OPT(c, name, arg, code, help) \
	OPT_FUNC_F(c, name, arg, OPT_LIBCLIENT, conn_opt, code, help)
const struct opt conn_options[] = {
	CONN_OPT('h', "host", "HOST", 'h', "connect to the server on HOST"),
	CONN_OPT('P', "port", "PORT", 'P', "connect to TCP port PORT"),
	CONN_OPT('u', "user", "USER", 'u', "log in as USER (default: the "
	    "login name)"),
	OPT_FUNC_F('p', "password", "PASSWORD", OPT_LIBCLIENT | OPT_OPTARG,
	    conn_opt, 'p', "use PASSWORD; without one, ask on the terminal"),
	CONN_OPT('S', "socket", "SOCKET", 'S', "connect through the unix "
	    "socket SOCKET"),
	CONN_OPT(0, "protocol", "PROTO", CONN_OPT_PROTOCOL, "tcp or socket"),
	CONN_OPT(0, "ssl", NULL, CONN_OPT_SSL, "require TLS "
	    "(--ssl-mode=REQUIRED)"),
	CONN_OPT(0, "ssl-mode", "MODE", CONN_OPT_SSL_MODE, "DISABLED, "
	    "PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY"),
	CONN_OPT(0, "ssl-ca", "FILE", CONN_OPT_SSL_CA, "CA certificates "
	    "(PEM) to verify the server with"),
	CONN_OPT(0, "ssl-capath", "DIR", CONN_OPT_SSL_CAPATH, "a directory "
	    "of CA certificates"),
	CONN_OPT(0, "ssl-cert", "FILE", CONN_OPT_SSL_CERT, "the client "
	    "certificate (PEM)"),
	CONN_OPT(0, "ssl-key", "FILE", CONN_OPT_SSL_KEY, "the client "
	    "private key (PEM)"),
	CONN_OPT(0, "ssl-cipher", "LIST", CONN_OPT_SSL_CIPHER, "the "
	    "permitted ciphers"),
	CONN_OPT(0, "connect-timeout", "SECONDS", CONN_OPT_CONNECT_TIMEOUT,
	    "give up connecting after SECONDS"),
	/* opt's own in the files ([PROG]): Connector/C ignores these keys */
	OPT_FUNC(0, "read-timeout", "SECONDS", conn_opt, CONN_OPT_READ_TIMEOUT,
	    "fail a read that waits SECONDS for the server (0: never)"),
	OPT_FUNC(0, "write-timeout", "SECONDS", conn_opt,
	    CONN_OPT_WRITE_TIMEOUT, "fail a write that waits SECONDS for the "
	    "server (0: never)"),
	CONN_OPT('C', "compress", NULL, CONN_OPT_COMPRESS,
	    "compress the protocol (for slow networks)"),
	OPT_TABLE_END
};

int
conn_files(struct conn_opts *o, const char *file, const char *extra,
    int no_defaults, const char **errstr)
{
	*errstr = NULL;
	if (file != NULL && set_str(&o->defaults_file, file, "defaults-file",
	    errstr) == -1)
		return -1;
	if (extra != NULL && set_str(&o->defaults_extra_file, extra,
	    "defaults-extra-file", errstr) == -1)
		return -1;
	if (no_defaults)
		o->no_defaults = 1;
	return 0;
}

/*
 * "dbsnap: password for backup@db1: ", with ":port" when the connection
 * is TCP (a host other than localhost) to a port other than 3306: two
 * servers of one host are told apart.
 */
static void
prompt_text(const struct conn_opts *o, char *buf, size_t len)
{
	const char	*user = o->user, *host = o->host, *v;
	struct passwd	*pw;
	char		 port[24] = "";
	unsigned long	 n = o->port;

	if (user == NULL)
		user = opt_file_value("user");
	if (user == NULL && (pw = getpwuid(getuid())) != NULL)
		user = pw->pw_name;
	if (host == NULL)
		host = opt_file_value("host");
	if (n == 0 && (v = opt_file_value("port")) != NULL)
		n = strtoul(v, NULL, 10);
	if (host != NULL && strcmp(host, "localhost") != 0 && n != 0 &&
	    n != 3306)
		snprintf(port, sizeof(port), ":%lu", n);
	snprintf(buf, len, "%s: password for %s@%s%s: ",
	    o->program != NULL ? o->program : getprogname(),
	    user != NULL ? user : "?", host != NULL ? host : "localhost",
	    port);
}

int
conn_opts_finish(struct conn_opts *o, const char **errstr)
{
	char		 buf[PASS_MAX], prompt[512], *s;
	const char	*why;

	*errstr = NULL;
	if (!o->prompt_password)
		return 0;
	prompt_text(o, prompt, sizeof(prompt));
	if (prompt_password(prompt, buf, sizeof(buf), &why) == -1) {
		if (errno == ENOTTY)
			*errstr = opt_error("-p: no terminal to ask for the "
			    "password on: put it in an option file ([client] "
			    "password=...) or in MYSQL_PWD");
		else
			*errstr = opt_error("-p: %s", why);
		return -1;
	}
	s = strdup(buf);
	explicit_bzero(buf, sizeof(buf));
	if (s == NULL) {
		*errstr = opt_error("-p: %s", strerror(errno));
		return -1;
	}
	wipe_free(&o->password);
	o->password = s;
	o->prompt_password = 0;
	return 0;
}

/* A value for the generated option file, quoted and escaped. */
static void
put_value(struct buf *b, const char *key, const char *val)
{
	const char	*p;

	buf_addf(b, "%s=\"", key);
	for (p = val; *p != '\0'; p++) {
		switch (*p) {
		case '\\':
			buf_addf(b, "\\\\");
			break;
		case '"':
			buf_addf(b, "\\\"");
			break;
		case '\t':
			buf_addf(b, "\\t");
			break;
		default:
			buf_addc(b, *p);
		}
	}
	buf_addf(b, "\"\n");
}

static void
put_include(struct buf *b, const char *path)
{
	buf_addf(b, "!include %s\n", path);
}

/*
 * The option files mysql(1) reads by default, in Connector/C's order:
 * /etc/my.cnf, /etc/mysql/my.cnf, $MARIADB_HOME (or $MYSQL_HOME)/my.cnf,
 * ~/.my.cnf.
 */
static void
put_default_files(struct buf *b)
{
	char		 path[PATH_MAX];
	const char	*env;

	put_include(b, "/etc/my.cnf");
	put_include(b, "/etc/mysql/my.cnf");
	if ((env = getenv("MARIADB_HOME")) == NULL)
		env = getenv("MYSQL_HOME");
	if (env != NULL && *env != '\0' && strchr(env, '\n') == NULL &&
	    (size_t)snprintf(path, sizeof(path), "%s/my.cnf", env) <
	    sizeof(path))
		put_include(b, path);
	if ((env = getenv("HOME")) != NULL && *env != '\0' &&
	    strchr(env, '\n') == NULL &&
	    (size_t)snprintf(path, sizeof(path), "%s/.my.cnf", env) <
	    sizeof(path))
		put_include(b, path);
}

/*
 * Write the generated option file: the files to read, then the
 * command-line values that Connector/C would otherwise let them override.
 */
static void
put_options(struct buf *b, const struct conn_opts *o, int protocol)
{
	const char	*mode = o->ssl_mode;
	int		 use_ssl_opts = 1;

	if (!o->no_defaults) {
		if (o->defaults_file != NULL)
			put_include(b, o->defaults_file);
		else
			put_default_files(b);
		if (o->defaults_extra_file != NULL)
			put_include(b, o->defaults_extra_file);
	}
	buf_addf(b, "[client]\n");
	if (protocol != 0)
		buf_addf(b, "protocol=%d\n", protocol);
	if (o->connect_timeout != 0)
		buf_addf(b, "connect-timeout=%u\n", o->connect_timeout);
	if (mode == NULL && o->ssl)
		mode = "REQUIRED";
	if (mode != NULL && strcmp(mode, "DISABLED") == 0) {
		buf_addf(b, "ssl-enforce=0\nssl-verify-server-cert=0\n");
		use_ssl_opts = 0;
	} else if (mode != NULL && (strcmp(mode, "PREFERRED") == 0 ||
	    strcmp(mode, "REQUIRED") == 0))
		buf_addf(b, "ssl-enforce=1\nssl-verify-server-cert=0\n");
	else if (mode != NULL && strncmp(mode, "VERIFY_", 7) == 0)
		buf_addf(b, "ssl-enforce=1\nssl-verify-server-cert=1\n");
	if (use_ssl_opts) {
		if (o->ssl_ca != NULL)
			put_value(b, "ssl-ca", o->ssl_ca);
		if (o->ssl_capath != NULL)
			put_value(b, "ssl-capath", o->ssl_capath);
		if (o->ssl_cert != NULL)
			put_value(b, "ssl-cert", o->ssl_cert);
		if (o->ssl_key != NULL)
			put_value(b, "ssl-key", o->ssl_key);
		if (o->ssl_cipher != NULL)
			put_value(b, "ssl-cipher", o->ssl_cipher);
	}
}

/*
 * The protocol to use.  As the MariaDB 10.6+ client does: a port given on
 * the command line without a socket means TCP, even to "localhost" (which
 * Connector/C would otherwise take as the unix socket); a socket given on
 * the command line means the socket.
 */
static int
pick_protocol(const struct conn_opts *o)
{
	if (o->protocol != 0)
		return o->protocol;
	if (o->port != 0 && o->socket == NULL)
		return MYSQL_PROTOCOL_TCP;
	if (o->socket != NULL && (o->host == NULL ||
	    strcmp(o->host, "localhost") == 0))
		return MYSQL_PROTOCOL_SOCKET;
	return 0;
}

/*
 * --ssl-mode=REQUIRED (and --ssl): Connector/C 3.3 falls back to an
 * unencrypted connection when the server has no TLS unless the certificate
 * is verified, so check.  A unix socket counts as secure, as in mysql(1).
 */
static int
check_tls(const struct conn_opts *o, MYSQL *m, char *errbuf, size_t errlen)
{
	const char	*mode = o->ssl_mode;
	unsigned int	 type = PVIO_TYPE_SOCKET;

	if (mode == NULL && o->ssl)
		mode = "REQUIRED";
	if (mode == NULL || strcmp(mode, "REQUIRED") != 0)
		return 0;
	if (mariadb_get_infov(m, MARIADB_CONNECTION_PVIO_TYPE, &type) == 0 &&
	    type == PVIO_TYPE_UNIXSOCKET)
		return 0;
	if (mysql_get_ssl_cipher(m) != NULL)
		return 0;
	snprintf(errbuf, errlen, "TLS/SSL error: SSL is required, but the "
	    "server does not support it (%d, HY000)", CR_SSL_CONNECTION_ERROR);
	return -1;
}

static int
file_readable(const char *what, const char *path, char *errbuf,
    size_t errlen)
{
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(errbuf, errlen, "%s %s: %s", what, path,
		    strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* The option files named on the command line can be read (as mysql(1)). */
static int
check_files(const struct conn_opts *o, char *errbuf, size_t errlen)
{
	if (o->no_defaults)
		return 0;
	if (o->defaults_file != NULL && file_readable("--defaults-file",
	    o->defaults_file, errbuf, errlen) == -1)
		return -1;
	if (o->defaults_extra_file != NULL && file_readable(
	    "--defaults-extra-file", o->defaults_extra_file, errbuf,
	    errlen) == -1)
		return -1;
	return 0;
}

int
conn_opts_check(const struct conn_opts *o, const char **errstr)
{
	*errstr = NULL;
	if (check_files(o, conn_errmsg, sizeof(conn_errmsg)) == -1) {
		*errstr = conn_errmsg;
		return -1;
	}
	return 0;
}

/*
 * Write the generated option file and return an fd on it, with its path
 * in path: a memfd read back through /proc/self/fd, or else (no /proc) a
 * temporary file, whose name *tmp is then set to (unlink it).  It holds
 * file names and settings, never the password.  -1 with errbuf set.
 */
static int
open_optfile(const struct conn_opts *o, char *path, size_t pathlen,
    int *tmp, char *errbuf, size_t errlen)
{
	struct buf	 b = BUF_INIT;
	const char	*dir;
	int		 fd = -1;

	*tmp = 0;
	put_options(&b, o, pick_protocol(o));
	if (b.err != 0) {
		snprintf(errbuf, errlen, "option file: %s", strerror(b.err));
		buf_release(&b);
		return -1;
	}
	if ((fd = memfd_create("rowpipe-conn.cnf", MFD_CLOEXEC)) != -1) {
		snprintf(path, pathlen, "/proc/self/fd/%d", fd);
		if (access(path, R_OK) == -1) {
			close(fd);
			fd = -1;
		}
	}
	if (fd == -1) {
		if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
			dir = "/tmp";
		snprintf(path, pathlen, "%s/rowpipe-conn.XXXXXX", dir);
		if ((fd = mkostemp(path, O_CLOEXEC)) == -1) {
			snprintf(errbuf, errlen, "option file %s: %s", path,
			    strerror(errno));
			buf_release(&b);
			return -1;
		}
		*tmp = 1;
	}
	if (write_all(fd, b.p, b.len) == -1) {
		snprintf(errbuf, errlen, "option file %s: %s", path,
		    strerror(errno));
		if (*tmp)
			unlink(path);
		close(fd);
		fd = -1;
	}
	buf_release(&b);
	return fd;
}

/*
 * Keepalive on a TCP connection (conn.h).  Best effort: a system without
 * one of these options keeps its defaults.
 */
static void
set_keepalive(MYSQL *m)
{
	unsigned int	 type = PVIO_TYPE_SOCKET;
	int		 fd, on = 1, idle = KEEP_IDLE, intvl = KEEP_INTVL;
	int		 cnt = KEEP_CNT;
	unsigned int	 user = USER_TIMEOUT_MS;

	if (mariadb_get_infov(m, MARIADB_CONNECTION_PVIO_TYPE, &type) != 0 ||
	    type != PVIO_TYPE_SOCKET || (fd = conn_socket(m)) == -1)
		return;
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
#ifdef TCP_KEEPIDLE
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	    sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
#endif
#ifdef TCP_USER_TIMEOUT
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user,
	    sizeof(user));
#endif
}

int
conn_socket(MYSQL *m)
{
	my_socket	 s;

	if (m == NULL || (s = mysql_get_socket(m)) < 0)
		return -1;
	return (int)s;
}

static pthread_once_t	 library_once = PTHREAD_ONCE_INIT;
static int		 library_rc;

static void
library_init(void)
{
	library_rc = mysql_library_init(0, NULL, NULL);
}

MYSQL *
conn_open(const struct conn_opts *o, const char *db, unsigned long flags,
    char *errbuf, size_t errlen)
{
	MYSQL	*m = NULL, *ok = NULL;
	char	 path[PATH_MAX];
	int	 fd, tmp;

	/* Checked again: a file can go away after conn_opts_check(). */
	if (check_files(o, errbuf, errlen) == -1)
		return NULL;
	/* mysql_init() is not thread-safe until the library is set up. */
	pthread_once(&library_once, library_init);
	if (library_rc != 0 || (m = mysql_init(NULL)) == NULL) {
		snprintf(errbuf, errlen, "mysql_init: cannot initialize the "
		    "client library");
		return NULL;
	}
	if ((fd = open_optfile(o, path, sizeof(path), &tmp, errbuf,
	    errlen)) == -1) {
		mysql_close(m);
		return NULL;
	}
	/*
	 * Before the option files, which mysql_real_connect() reads and
	 * which win over it: their connect-timeout, then ours (the
	 * command line's, in the [client] group written last).
	 */
	if (mysql_optionsv(m, MYSQL_OPT_CONNECT_TIMEOUT,
	    &(unsigned){ CONN_CONNECT_TIMEOUT }) != 0 ||
	    mysql_optionsv(m, MYSQL_READ_DEFAULT_FILE, path) != 0 ||
	    mysql_optionsv(m, MYSQL_READ_DEFAULT_GROUP,
	    o->program != NULL ? o->program : "client") != 0 ||
	    (o->compress && mysql_optionsv(m, MYSQL_OPT_COMPRESS, NULL) != 0) ||
	    (o->read_timeout != 0 && mysql_optionsv(m, MYSQL_OPT_READ_TIMEOUT,
	    &o->read_timeout) != 0) ||
	    (o->write_timeout != 0 && mysql_optionsv(m,
	    MYSQL_OPT_WRITE_TIMEOUT, &o->write_timeout) != 0))
		snprintf(errbuf, errlen, "mysql_options: %s", mysql_error(m));
	else if (mysql_real_connect(m, o->host, o->user, o->password, db,
	    o->port, o->socket, flags) == NULL)
		conn_strerror(m, errbuf, errlen);
	else if (check_tls(o, m, errbuf, errlen) == 0) {
		set_keepalive(m);
		ok = m;
	}
	if (tmp)
		unlink(path);
	close(fd);
	if (ok == NULL)
		mysql_close(m);
	return ok;
}

const char *
conn_strerror(MYSQL *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%u, %s)", mysql_error(m), mysql_errno(m),
	    mysql_sqlstate(m));
	return buf;
}

void
conn_opts_clear(struct conn_opts *o)
{
	wipe_free(&o->password);
	free(o->host);
	free(o->user);
	free(o->socket);
	free(o->defaults_file);
	free(o->defaults_extra_file);
	free(o->ssl_mode);
	free(o->ssl_ca);
	free(o->ssl_capath);
	free(o->ssl_cert);
	free(o->ssl_key);
	free(o->ssl_cipher);
	o->host = o->user = o->socket = NULL;
	o->defaults_file = o->defaults_extra_file = NULL;
	o->ssl_mode = o->ssl_ca = o->ssl_capath = o->ssl_cert = NULL;
	o->ssl_key = o->ssl_cipher = NULL;
	o->prompt_password = 0;
}
