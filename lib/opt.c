/*
 * opt: a program's option table turned into getopt_long(3)'s table,
 * --help, and the reading of its [<program>] option file group.
 *
 * argv is read twice: first for the options that say which option files
 * to read (and for --help and --version, which then read none), then,
 * after the files, for everything, so that the command line wins over the
 * files, as with mysql(1).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "opt.h"
#include "optfile.h"
#include "progress.h"
#include "util.h"

#define HELP_COL	30	/* where the help text starts */
#define HELP_WIDTH	79

/* The options every program has, and what they set. */
static struct {
	const char	*defaults_file;
	const char	*defaults_extra_file;
	int		 no_defaults;
	int		 help;
	int		 version;
} common;

#define CF(m)	OPT_FIELD(__typeof__(common), m)
static struct opt common_opts[] = {
	{ "defaults-file", 0, OPT_T_STR, "FILE", OPT_CMDLINE, CF(defaults_file),
	    0, 0, NULL, 0, "read only this option file" },
	{ "defaults-extra-file", 0, OPT_T_STR, "FILE", OPT_CMDLINE,
	    CF(defaults_extra_file), 0, 0, NULL, 0,
	    "read this option file after the others" },
	{ "no-defaults", 0, OPT_T_FLAG, NULL, OPT_CMDLINE, CF(no_defaults), 1, 1,
	    NULL, 0, "read no option file" },
	{ "help", 0, OPT_T_FLAG, NULL, OPT_CMDLINE, CF(help), 1, 1, NULL, 0,
	    "print this help and exit" },
	{ "version", 'V', OPT_T_FLAG, NULL, OPT_CMDLINE, CF(version), 1, 1,
	    NULL, 0, "print the version and exit" },
	OPT_TABLE_END
};
#define COMMON_HELP	3	/* index of "help" in common_opts */

/*
 * Keys that Connector/C reads from the option files itself (its
 * documentation, "Configuring MariaDB Connector/C with Option Files"):
 * known in [<program>] of a program that connects.
 */
static const char *const libclient_keys[] = {
	"bind-address", "character-sets-dir", "compress", "database", "debug",
	"default-auth", "default-character-set", "disable-local-infile",
	"init-command", "interactive-timeout", "local-infile",
	"max-allowed-packet", "multi-queries", "multi-results",
	"multi-statements", "net-buffer-length", "pipe", "plugin-dir",
	"read-timeout", "reconnect", "report-data-truncation",
	"return-found-rows", "secure-auth", "server-public-key",
	"shared-memory-base-name", "ssl-crl", "ssl-crlpath", "ssl-enforce",
	"ssl-fp", "ssl-fp-list", "ssl-passphrase", "ssl-verify-server-cert",
	"timeout", "tls-version", "write-timeout", NULL
};

/* One option of the program, flattened out of the sets. */
struct ent {
	const struct opt *o;
	void		*base;
};

struct parser {
	const struct opt_prog *prog;
	struct ent	*ents;
	size_t		 n;
	struct option	*longopts;
	char		*shortopts;
	char		 msg[512];	/* for errors from files */
};

/* Values from option files: kept until exit, reachable from here. */
static char	**kept;
static size_t	  nkept;

static char *
keep(const char *s)
{
	char	**v, *c;

	if ((c = strdup(s)) == NULL ||
	    (v = reallocarray(kept, nkept + 1, sizeof(*kept))) == NULL)
		err(1, NULL);
	kept = v;
	kept[nkept++] = c;
	return c;
}

static void
store_int(void *p, size_t size, long long v)
{
	int8_t	 i8 = (int8_t)v;
	int16_t	 i16 = (int16_t)v;
	int32_t	 i32 = (int32_t)v;
	int64_t	 i64 = (int64_t)v;

	switch (size) {
	case 1:	memcpy(p, &i8, 1); break;
	case 2:	memcpy(p, &i16, 2); break;
	case 4:	memcpy(p, &i32, 4); break;
	default: memcpy(p, &i64, 8); break;
	}
}

static long long
load_int(const void *p, size_t size)
{
	int8_t	 i8;
	int16_t	 i16;
	int32_t	 i32;
	int64_t	 i64;

	switch (size) {
	case 1:	memcpy(&i8, p, 1); return i8;
	case 2:	memcpy(&i16, p, 2); return i16;
	case 4:	memcpy(&i32, p, 4); return i32;
	default: memcpy(&i64, p, 8); return i64;
	}
}

/* "-j" or "--chunk-rows": how messages name an option. */
static const char *
opt_name(const struct opt *o, char *buf, size_t len)
{
	if (o->ch != 0)
		snprintf(buf, len, "-%c", o->ch);
	else
		snprintf(buf, len, "--%s", o->name);
	return buf;
}

static const char *
value_error(const struct opt *o, const char *arg, const char *why)
{
	static char	 msg[512];
	char		 name[64];

	snprintf(msg, sizeof(msg), "%s %s: %s", opt_name(o, name,
	    sizeof(name)), arg, why);
	return msg;
}

/*
 * Give option e its argument (NULL: none); off turns a flag off instead
 * of on.  0, or -1 with *errstr set.
 */
static int
apply(const struct ent *e, char *arg, int off, const char **errstr)
{
	const struct opt	*o = e->o;
	char			*field = (char *)e->base + o->off;
	unsigned long long	 u;
	long long		 v;
	const char		*why;

	*errstr = NULL;
	switch (o->type) {
	case OPT_T_FLAG:
		store_int(field, o->size, off ? o->min == 0 : o->min);
		return 0;
	case OPT_T_NUM:
		v = strtonum(arg, o->min, o->max, &why);
		if (why != NULL) {
			*errstr = value_error(o, arg, why);
			return -1;
		}
		store_int(field, o->size, v);
		return 0;
	case OPT_T_SIZE:
		if (parse_size(arg, (unsigned long long)o->min,
		    (unsigned long long)o->max, &u, &why) == -1) {
			*errstr = value_error(o, arg, why);
			return -1;
		}
		store_int(field, o->size, (long long)u);
		return 0;
	case OPT_T_STR:
		memcpy(field, &arg, sizeof(arg));
		return 0;
	case OPT_T_FUNC:
		if (o->fn(e->base, o, arg, errstr) == -1) {
			if (*errstr == NULL)
				*errstr = value_error(o, arg ? arg : "", "invalid");
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

static void
add_set(struct parser *p, const struct opt *opts, void *base)
{
	const struct opt	*o;

	for (o = opts; o->type != OPT_T_END; o++) {
		if ((p->ents = reallocarray(p->ents, p->n + 1,
		    sizeof(*p->ents))) == NULL)
			err(1, NULL);
		p->ents[p->n].o = o;
		p->ents[p->n].base = base;
		p->n++;
	}
}

/* getopt_long's tables: a long option's val is 256 + its index. */
static void
build(struct parser *p, const struct opt_prog *prog)
{
	const struct opt	*o;
	size_t			 i, nl = 0, ns = 0;

	p->prog = prog;
	for (i = 0; i < OPT_MAX_SETS && prog->sets[i].opts != NULL; i++)
		add_set(p, prog->sets[i].opts, prog->sets[i].base);
	common_opts[COMMON_HELP].ch = prog->help_ch;
	add_set(p, common_opts, &common);
	if ((p->longopts = calloc(p->n + 1, sizeof(*p->longopts))) == NULL ||
	    (p->shortopts = malloc(p->n * 3 + 2)) == NULL)
		err(1, NULL);
	for (i = 0; i < p->n; i++) {
		o = p->ents[i].o;
		if (o->name != NULL) {
			p->longopts[nl].name = o->name;
			p->longopts[nl].has_arg = o->arg == NULL ? no_argument :
			    (o->flags & OPT_OPTARG) ? optional_argument :
			    required_argument;
			p->longopts[nl].val = 256 + (int)i;
			nl++;
		}
		if (o->ch != 0) {
			p->shortopts[ns++] = (char)o->ch;
			if (o->arg != NULL)
				p->shortopts[ns++] = ':';
			if (o->arg != NULL && (o->flags & OPT_OPTARG))
				p->shortopts[ns++] = ':';
		}
	}
	p->shortopts[ns] = '\0';
}

static void
unbuild(struct parser *p)
{
	free(p->ents);
	free(p->longopts);
	free(p->shortopts);
}

/* The option getopt_long returned, or NULL for '?'. */
static const struct ent *
lookup(const struct parser *p, int ch)
{
	size_t	 i;

	if (ch >= 256 && (size_t)(ch - 256) < p->n)
		return &p->ents[ch - 256];
	for (i = 0; i < p->n; i++)
		if (p->ents[i].o->ch == ch)
			return &p->ents[i];
	return NULL;
}

static int
is_common(const struct ent *e)
{
	return e->base == (void *)&common;
}

/* First pass: which files, and --help or --version.  1 if argv is clean. */
static int
pass_files(struct parser *p, int argc, char *argv[])
{
	const struct ent	*e;
	const char		*errstr;
	int			 ch, clean = 1;

	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, p->shortopts, p->longopts,
	    NULL)) != -1) {
		if ((e = lookup(p, ch)) == NULL)
			clean = 0;
		else if (is_common(e))
			(void)apply(e, optarg, 0, &errstr);
	}
	opterr = 1;
	return clean;
}

static const char *
file_error(struct parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static const char *
file_error(struct parser *p, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return p->msg;
}

/* The option a file's key names, with '-' for '_'; NULL if none. */
static const struct ent *
find_key(const struct parser *p, const char *key)
{
	size_t	 i;

	for (i = 0; i < p->n; i++)
		if (p->ents[i].o->name != NULL &&
		    !(p->ents[i].o->flags & OPT_CMDLINE) &&
		    strcmp(p->ents[i].o->name, key) == 0)
			return &p->ents[i];
	return NULL;
}

static int
is_libclient_key(const char *key)
{
	size_t	 i;

	for (i = 0; libclient_keys[i] != NULL; i++)
		if (strcmp(libclient_keys[i], key) == 0)
			return 1;
	return 0;
}

/* A flag's value in a file: 1, 0, or -1 if it is neither. */
static int
parse_bool(const char *v)
{
	static const char *const yes[] = { "1", "on", "true", "yes" };
	static const char *const no[] = { "0", "off", "false", "no" };
	size_t	 i;

	if (v == NULL)
		return 1;
	for (i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* Apply key=value from the program's group. */
static const char *
file_option(struct parser *p, const struct ent *e, const char *key,
    const char *value, int off)
{
	const struct opt	*o = e->o;
	const char		*errstr;
	int			 b;

	if (o->type == OPT_T_FLAG || (o->type == OPT_T_FUNC && o->arg == NULL)) {
		if ((b = parse_bool(value)) == -1)
			return file_error(p, "%s=%s: expected 1 or 0 (on, off, "
			    "true, false)", key, value);
		if (off)
			b = !b;
		if (o->type == OPT_T_FUNC && !b)
			return file_error(p, "%s=%s: cannot be turned off",
			    key, value);
		if (apply(e, NULL, !b, &errstr) == -1)
			return errstr;
		return NULL;
	}
	if (off)
		return file_error(p, "%s: not a flag", key);
	if (value == NULL && !(o->flags & OPT_OPTARG))
		return file_error(p, "%s: value required", key);
	if (apply(e, value == NULL ? NULL : keep(value), 0, &errstr) == -1)
		return errstr;
	return NULL;
}

/*
 * The connection's user and host as the option files give them (read by
 * Connector/C at connect time), for a password prompt to name them.
 */
static struct {
	const char	*key;
	char		*value;
} file_values[] = { { "user", NULL }, { "host", NULL } };

static void
note_value(const char *group, const char *key, const char *value,
    const struct parser *p)
{
	size_t	 i;

	if (p->prog->conn == NULL || value == NULL ||
	    (strcasecmp(group, p->prog->name) != 0 &&
	    strcasecmp(group, "client") != 0 &&
	    strcasecmp(group, "client-server") != 0 &&
	    strcasecmp(group, "client-mariadb") != 0))
		return;
	for (i = 0; i < sizeof(file_values) / sizeof(file_values[0]); i++)
		if (strcmp(key, file_values[i].key) == 0)
			file_values[i].value = keep(value);
}

const char *
opt_file_value(const char *key)
{
	size_t	 i;

	for (i = 0; i < sizeof(file_values) / sizeof(file_values[0]); i++)
		if (strcmp(key, file_values[i].key) == 0)
			return file_values[i].value;
	return NULL;
}

static const char *
on_key(void *arg, const char *file, unsigned line, const char *group,
    const char *key, const char *value)
{
	struct parser		*p = arg;
	const struct ent	*e;
	char			 k[128], *s;
	const char		*name;
	int			 loose = 0, off = 0;

	note_value(group, key, value, p);
	if (strcasecmp(group, p->prog->name) != 0)
		return NULL;
	if (strlen(key) >= sizeof(k))
		return file_error(p, "unknown option '%.64s...' in [%s]", key,
		    group);
	for (s = strcpy(k, key); *s != '\0'; s++)
		if (*s == '_')
			*s = '-';
	name = k;
	if (strncmp(name, "loose-", 6) == 0) {
		loose = 1;
		name += 6;
	}
	if ((e = find_key(p, name)) == NULL) {
		if (strncmp(name, "skip-", 5) == 0)
			e = find_key(p, name + 5), off = 1;
		else if (strncmp(name, "disable-", 8) == 0)
			e = find_key(p, name + 8), off = 1;
		else if (strncmp(name, "enable-", 7) == 0)
			e = find_key(p, name + 7);
		if (e != NULL && e->o->type != OPT_T_FLAG)
			e = NULL;
	}
	if (e == NULL) {
		if (loose || (p->prog->conn != NULL && is_libclient_key(name)))
			return NULL;
		return file_error(p, "unknown option '%s' in [%s]", key, group);
	}
	if (e->o->flags & OPT_LIBCLIENT)
		return NULL;		/* Connector/C reads it */
	return file_option(p, e, key, value, off);
}

static void
read_files(struct parser *p)
{
	char		 path[4096], msg[1024];
	const char	*f;
	size_t		 i;
	int		 rc = 0;

	if (common.no_defaults)
		return;
	if (common.defaults_file != NULL)
		rc = optfile_read(common.defaults_file, 1, on_key, p, msg,
		    sizeof(msg));
	else
		for (i = 0; rc == 0 && (f = optfile_default(i, path,
		    sizeof(path))) != NULL; i++)
			rc = optfile_read(f, 0, on_key, p, msg, sizeof(msg));
	if (rc == 0 && common.defaults_extra_file != NULL)
		rc = optfile_read(common.defaults_extra_file, 1, on_key, p,
		    msg, sizeof(msg));
	if (rc == -1)
		errx(2, "%s", msg);
}

/* As mysql(1): a file named on the command line must be readable. */
static void
check_file(const char *opt, const char *path)
{
	FILE	*fp;

	if (path == NULL)
		return;
	if ((fp = fopen(path, "re")) == NULL)
		errx(2, "--%s %s: %s", opt, path, strerror(errno));
	fclose(fp);
}

/* Tell conn about the option files, for Connector/C to read them too. */
static void
pass_conn(const struct opt_prog *prog)
{
	const char	*errstr;

	if (prog->conn != NULL && prog->set_files != NULL &&
	    prog->set_files(prog->conn, common.defaults_file,
	    common.defaults_extra_file, common.no_defaults, &errstr) == -1)
		errx(2, "%s", errstr);
}

static void
print_version(const struct opt_prog *prog)
{
	printf("%s\n", prog->version);
	stdout_exit(0);
}

int
opt_parse(const struct opt_prog *prog, int argc, char *argv[])
{
	struct parser		 p;
	const struct ent	*e;
	const char		*errstr;
	int			 ch;

	progress_stderr();
	memset(&p, 0, sizeof(p));
	memset(&common, 0, sizeof(common));
	build(&p, prog);
	if (pass_files(&p, argc, argv)) {
		if (common.help) {
			opt_help(prog, stdout);
			stdout_exit(0);
		}
		if (common.version)
			print_version(prog);
	}
	if (!common.no_defaults) {
		check_file("defaults-file", common.defaults_file);
		check_file("defaults-extra-file", common.defaults_extra_file);
	}
	read_files(&p);
	pass_conn(prog);

	optind = 0;
	while ((ch = getopt_long(argc, argv, p.shortopts, p.longopts,
	    NULL)) != -1) {
		if ((e = lookup(&p, ch)) == NULL)
			opt_usage(prog);
		if (is_common(e)) {
			if (e->o == &common_opts[COMMON_HELP]) {
				opt_help(prog, stdout);
				stdout_exit(0);
			}
			if (strcmp(e->o->name, "version") == 0)
				print_version(prog);
			continue;
		}
		if (apply(e, optarg, 0, &errstr) == -1)
			errx(2, "%s", errstr);
	}
	unbuild(&p);
	return optind;
}

void
opt_usage(const struct opt_prog *prog)
{
	fputs(prog->usage, stderr);
	exit(2);
}

const char *
opt_operand(const struct opt_prog *prog, int argc, char *argv[], int i)
{
	if (argc - i > 1)
		opt_usage(prog);
	if (argc - i == 0 || strcmp(argv[i], "-") == 0)
		return NULL;
	return argv[i];
}

int
opt_input(const char *file)
{
	int	 fd;

	if (file == NULL)
		return STDIN_FILENO;
	if ((fd = open(file, O_RDONLY)) == -1)
		err(1, "%s", file);
	return fd;
}

/* "1M" for 1048576: the largest suffix that divides it. */
static void
format_size(char *buf, size_t len, unsigned long long v)
{
	if (v != 0 && v % (1ULL << 30) == 0)
		snprintf(buf, len, "%lluG", v >> 30);
	else if (v != 0 && v % (1ULL << 20) == 0)
		snprintf(buf, len, "%lluM", v >> 20);
	else if (v != 0 && v % (1ULL << 10) == 0)
		snprintf(buf, len, "%lluK", v >> 10);
	else
		snprintf(buf, len, "%llu", v);
}

/* " (default: 1)" from the field's value now, or "". */
static void
format_default(const struct opt *o, const void *base, char *buf, size_t len)
{
	const char	*field = (const char *)base + o->off;
	const char	*s;
	long long	 v;
	char		 n[32];

	*buf = '\0';
	switch (o->type) {
	case OPT_T_FLAG:
		if (load_int(field, o->size) == o->min)
			snprintf(buf, len, " (default)");
		break;
	case OPT_T_NUM:
		v = load_int(field, o->size);
		if (v >= o->min && v <= o->max)
			snprintf(buf, len, " (default: %lld)", v);
		break;
	case OPT_T_SIZE:
		v = load_int(field, o->size);
		if (v >= o->min && v <= o->max) {
			format_size(n, sizeof(n), (unsigned long long)v);
			snprintf(buf, len, " (default: %s)", n);
		}
		break;
	case OPT_T_STR:
		memcpy(&s, field, sizeof(s));
		if (s != NULL)
			snprintf(buf, len, " (default: %s)", s);
		break;
	default:
		break;
	}
}

/* "-j, --jobs=N", "    --fast[=N]", "-o FILE" */
static void
format_left(const struct opt *o, char *buf, size_t len)
{
	const char	*a = o->arg;
	int		 opt = (o->flags & OPT_OPTARG) != 0;

	if (o->name == NULL)
		snprintf(buf, len, "  -%c%s%s%s", o->ch, a ? (opt ? "[" : " ") :
		    "", a ? a : "", a && opt ? "]" : "");
	else
		snprintf(buf, len, "  %c%c%c --%s%s%s%s", o->ch ? '-' : ' ',
		    o->ch ? o->ch : ' ', o->ch ? ',' : ' ', o->name,
		    a ? (opt ? "[=" : "=") : "", a ? a : "", a && opt ? "]" : "");
}

/* text from column col, wrapped at HELP_WIDTH to column indent. */
static void
print_wrapped(FILE *fp, const char *text, size_t col, size_t indent)
{
	const char	*p = text, *sp;
	size_t		 w;

	while (*p != '\0') {
		w = strlen(p);
		if (col + w > HELP_WIDTH) {
			for (sp = p + (HELP_WIDTH - col); sp > p && *sp != ' ';
			    sp--)
				;
			if (sp > p)
				w = (size_t)(sp - p);
		}
		fprintf(fp, "%.*s", (int)w, p);
		p += w;
		while (*p == ' ')
			p++;
		if (*p != '\0') {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
		}
	}
	fputc('\n', fp);
}

/* left, then text from column HELP_COL (on the next line if need be). */
static void
print_item(FILE *fp, const char *left, const char *text)
{
	size_t	 col = strlen(left);

	fputs(left, fp);
	if (col >= HELP_COL - 1) {
		fputc('\n', fp);
		col = 0;
	}
	fprintf(fp, "%*s", (int)(HELP_COL - col), "");
	print_wrapped(fp, text, HELP_COL, HELP_COL);
}

static void
print_set(FILE *fp, const char *title, const struct opt *opts,
    const void *base)
{
	const struct opt	*o, *a;
	char			 left[256], def[128], text[512];
	size_t			 n;

	fprintf(fp, "\n%s:\n", title);
	for (o = opts; o->type != OPT_T_END; o++) {
		if (o->help == NULL)
			continue;		/* printed with its option */
		format_left(o, left, sizeof(left));
		for (a = o + 1; a->type != OPT_T_END && a->help == NULL; a++) {
			n = strlen(left);
			snprintf(left + n, sizeof(left) - n, ", --%s", a->name);
		}
		if (base != (const void *)&common)
			format_default(o, base, def, sizeof(def));
		else
			*def = '\0';
		snprintf(text, sizeof(text), "%s%s", o->help, def);
		print_item(fp, left, text);
	}
}

void
opt_help(const struct opt_prog *prog, FILE *fp)
{
	const char	*a, *e;
	char		 text[512];
	size_t		 i;

	fputs(prog->usage, fp);
	if (prog->about != NULL) {
		fputc('\n', fp);
		for (a = prog->about; *a != '\0'; a = *e ? e + 1 : e) {
			e = a + strcspn(a, "\n");
			snprintf(text, sizeof(text), "%.*s", (int)(e - a), a);
			print_wrapped(fp, text, 0, 0);
		}
	}
	for (i = 0; i < OPT_MAX_SETS && prog->sets[i].opts != NULL; i++)
		print_set(fp, prog->sets[i].title != NULL ?
		    prog->sets[i].title : "Options", prog->sets[i].opts,
		    prog->sets[i].base);
	common_opts[COMMON_HELP].ch = prog->help_ch;
	print_set(fp, "Option files and help", common_opts, &common);
	snprintf(text, sizeof(text), "Every long option may also be given in "
	    "the [%s] group of the option files%s: /etc/my.cnf, "
	    "/etc/mysql/my.cnf, $MARIADB_HOME/my.cnf, ~/.my.cnf.  See %s(1) "
	    "for more.", prog->name, prog->conn != NULL ? ", and the "
	    "connection options in [client]" : "", prog->name);
	fputc('\n', fp);
	print_wrapped(fp, text, 0, 0);
}
