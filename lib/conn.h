/*
 * conn: connection options and set-up shared by dbsnap and sqlexec, as the
 * mysql(1) client has them: -h -P -u -p -S --protocol, --defaults-file,
 * --defaults-extra-file, --no-defaults, option groups [client] and
 * [<program>], MYSQL_PWD, --ssl-mode/--ssl-ca/--ssl-cert/--ssl-key.
 * Source: MariaDB Connector/C mysql_options(3) and mysql_real_connect(3).
 *
 * Programs put conn_options in their option table (opt.h), which hands
 * each option to conn_getopt().  The password is kept in memory owned by the
 * conn_opts, never printed, and wiped by conn_opts_clear().
 */
#ifndef ROWPIPE_CONN_H
#define ROWPIPE_CONN_H

#include <getopt.h>
#include <mysql.h>

#include "opt.h"

enum {
	CONN_OPT_BASE = 0x1000,
	CONN_OPT_PROTOCOL = CONN_OPT_BASE,
	CONN_OPT_DEFAULTS_FILE,
	CONN_OPT_DEFAULTS_EXTRA_FILE,
	CONN_OPT_NO_DEFAULTS,
	CONN_OPT_SSL,
	CONN_OPT_SSL_MODE,
	CONN_OPT_SSL_CA,
	CONN_OPT_SSL_CAPATH,
	CONN_OPT_SSL_CERT,
	CONN_OPT_SSL_KEY,
	CONN_OPT_SSL_CIPHER,
	CONN_OPT_CONNECT_TIMEOUT,
	CONN_OPT_COMPRESS,
	CONN_OPT_READ_TIMEOUT,
	CONN_OPT_WRITE_TIMEOUT,
	CONN_OPT_MAX			/* programs number their own from here */
};

/*
 * The connection options as opt(3) table lines (opt.h), for a program's
 * struct opt_prog: { conn_options, &opts.conn, "Connection options" }.
 * In option files they are read by Connector/C (OPT_LIBCLIENT).
 * --defaults-file, --defaults-extra-file and --no-defaults are opt's own,
 * which hands them to conn_getopt() through opt_prog.conn.
 */
extern const struct opt conn_options[];
/* In a struct opt_prog initializer: the program connects with c. */
#define CONN_PROG(c)	.conn = (c), .set_files = conn_files

/*
 * The option files opt_parse() found on the command line (NULL: none),
 * for conn_open() to have Connector/C read the same.  0, or -1 with
 * *errstr as conn_getopt()'s.
 */
int	 conn_files(struct conn_opts *, const char *file,
	    const char *extra_file, int no_defaults, const char **errstr);

/* Usage text for the connection options, for usage() and --help. */
#define CONN_USAGE \
	"[-h host] [-P port] [-u user] [-p[password]] [-S socket]"

struct conn_opts {
	const char	*program;	/* option group [program]; required */
	char		*host;		/* owned copies, NULL if unset */
	char		*user;
	char		*password;	/* owned; wiped by conn_opts_clear() */
	char		*socket;
	char		*defaults_file;
	char		*defaults_extra_file;
	char		*ssl_mode;	/* DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY */
	char		*ssl_ca, *ssl_capath, *ssl_cert, *ssl_key, *ssl_cipher;
	unsigned	 port;		/* 0: default */
	int		 protocol;	/* enum mysql_protocol_type, 0: default */
	int		 no_defaults;
	int		 ssl;
	int		 compress;	/* -C: protocol compression */
	int		 prompt_password; /* -p with no value: ask once */
	unsigned	 connect_timeout; /* seconds, 0: CONN_CONNECT_TIMEOUT */
	/*
	 * Seconds one read or write on the connection may wait for the
	 * server (--read-timeout, --write-timeout), then the call fails
	 * with "Lost connection" (2013); 0: no limit.  A program sets its
	 * default before opt_parse(); [PROG] in a file and the command line
	 * override it (opt.h).
	 */
	unsigned	 read_timeout, write_timeout;
};

/*
 * Seconds to connect and finish the handshake when neither the command
 * line nor an option file says (--connect-timeout): a peer that accepts
 * and then sends nothing (a stalled proxy) would hold the client forever,
 * and a healthy server answers within its own connect_timeout (10 s by
 * default, MariaDB KB "Server System Variables") or closes.
 */
#define CONN_CONNECT_TIMEOUT	30

/*
 * Handle one getopt_long() result.  Returns 1 if ch was a connection
 * option and was stored, 0 if ch is not a connection option, -1 if its
 * value is invalid (*errstr says why).  A password given as -pSECRET is
 * copied and the argv bytes overwritten, as mysql(1) does.
 */
int	 conn_getopt(struct conn_opts *, int ch, char *optarg,
	    const char **errstr);

/*
 * After option parsing, before anything else: check that the files named
 * by --defaults-file and --defaults-extra-file can be read (unless
 * --no-defaults), as mysql(1) refuses to start otherwise.  0, or -1 with
 * *errstr a whole message, "--defaults-file PATH: reason", for
 * errx(2, "%s", errstr); it points to static storage, valid until the
 * next conn_getopt() or conn_opts_check() call.
 */
int	 conn_opts_check(const struct conn_opts *, const char **errstr);

/*
 * After option parsing: if -p had no value, ask for the password on the
 * terminal (prompt.h: /dev/tty, one prompt at a time per terminal, echo
 * off), naming the program, the user and the host.  0, or -1 with
 * *errstr a whole message for errx(3): without a terminal, "-p: no
 * terminal to ask for the password on: put it in an option file ...".
 * *errstr points to static storage.
 */
int	 conn_opts_finish(struct conn_opts *, const char **errstr);

/*
 * Connect, reading [client] and [<program>] from the option files unless
 * --no-defaults.  db may be NULL.  flags are mysql_real_connect() client
 * flags (e.g. CLIENT_MULTI_STATEMENTS).  Returns a connected handle owned
 * by the caller (mysql_close() it), or NULL with a one-line reason
 * ("Access denied for user ... (1045, 28000)") in errbuf.
 */
MYSQL	*conn_open(const struct conn_opts *, const char *db,
	    unsigned long flags, char *errbuf, size_t errlen);

/*
 * The socket of a connection made by conn_open(), for shutdown(2) from
 * another thread when the server no longer answers (a statement blocked
 * in read(2) then fails at once with "Lost connection", 2013); -1 if m
 * has none.  The fd stays m's: never close it.
 */
int	 conn_socket(MYSQL *m);

/*
 * "message (errno, SQLSTATE)" for the last error on m, in buf.  Returns
 * buf.  For server errors the mysql client's wording is kept.
 */
const char	*conn_strerror(MYSQL *m, char *buf, size_t len);

/* Wipe the password and free every owned string. */
void	 conn_opts_clear(struct conn_opts *);

/*
 * Notes on the calls above (additions, nothing changed):
 * - conn_getopt(): *errstr is a whole message naming the option and its
 *   value ("--port 99999: too large"), for errx(2, "%s", errstr).  It
 *   points to static storage, valid until the next conn_getopt() call.
 * - Precedence, as mysql(1): command line, then --defaults-extra-file,
 *   then the default option files (or only --defaults-file), then
 *   MYSQL_PWD for the password (Connector/C reads MYSQL_PWD at connect
 *   time when neither the command line nor an option file gave one;
 *   conn_opts_finish() therefore does not copy it).  A port given
 *   without a socket means TCP, also to "localhost"; a socket given
 *   (and no host but localhost) means the socket.
 * - conn_open() with --defaults-file or --defaults-extra-file naming a
 *   file that cannot be read fails with "--defaults-file PATH: reason";
 *   programs call conn_opts_check() first to make that a usage error.
 * - conn_open() over TCP turns TCP keepalive on (first probe after 30 s
 *   of silence, then every 10 s) and sets TCP_USER_TIMEOUT to 120 s, so
 *   that a peer that is gone (host down, packets dropped) ends a wait in
 *   about two minutes, while a healthy server that sends nothing for
 *   hours (an ALTER TABLE ... ADD KEY) still answers the probes: no
 *   read timeout is needed for that, and none is set by default.
 */

#endif
