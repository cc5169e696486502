/*
 * optfile: the option file syntax of the mysql(1) client, read line by
 * line (MariaDB 10.11 mysys/my_default.c, search_default_file_with_ext()
 * and remove_end_comment()).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optfile.h"

#define OPTFILE_DEPTH	10	/* mysys's max_recursion_level */

struct reader {
	optfile_cb	 cb;
	void		*arg;
	char		*errbuf;
	size_t		 errlen;
};

static int	 read_file(struct reader *, const char *, int must_exist,
		    int depth);

static char *
skip_space(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Trim trailing space of [p, end); returns the new end. */
static char *
trim_end(char *p, char *end)
{
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

/* A '#' outside quotes ends the line (remove_end_comment()). */
static char *
end_comment(char *p)
{
	char	 quote = 0;
	int	 escape = 0;

	for (; *p != '\0'; p++) {
		if ((*p == '\'' || *p == '"') && !escape) {
			if (quote == 0)
				quote = *p;
			else if (quote == *p)
				quote = 0;
		}
		if (quote == 0 && *p == '#') {
			*p = '\0';
			return p;
		}
		escape = quote != 0 && *p == '\\' && !escape;
	}
	return p;
}

/* Unquote and unescape the value [v, end) in place; NUL-terminates it. */
static void
unescape(char *v, char *end)
{
	char	*o = v;

	if ((*v == '"' || *v == '\'') && v + 1 < end && end[-1] == *v) {
		v++;
		end--;
	}
	for (; v < end; v++) {
		if (*v != '\\' || v + 1 == end) {
			*o++ = *v;
			continue;
		}
		switch (*++v) {
		case 'n':	*o++ = '\n'; break;
		case 't':	*o++ = '\t'; break;
		case 'r':	*o++ = '\r'; break;
		case 'b':	*o++ = '\b'; break;
		case 's':	*o++ = ' '; break;
		case '"':	*o++ = '"'; break;
		case '\'':	*o++ = '\''; break;
		case '\\':	*o++ = '\\'; break;
		default:	*o++ = '\\'; *o++ = *v; break;
		}
	}
	*o = '\0';
}

static int
fail(struct reader *r, const char *file, unsigned line, const char *why)
{
	if (line != 0)
		snprintf(r->errbuf, r->errlen, "%s:%u: %s", file, line, why);
	else
		snprintf(r->errbuf, r->errlen, "%s: %s", file, why);
	return -1;
}

static int
dot_cnf(const struct dirent *d)
{
	size_t	 n = strlen(d->d_name);

	return n > 4 && strcmp(d->d_name + n - 4, ".cnf") == 0;
}

static int
read_dir(struct reader *r, const char *dir, int depth)
{
	struct dirent	**v;
	char		 path[4096];
	int		 i, n, rc = 0;

	if ((n = scandir(dir, &v, dot_cnf, alphasort)) == -1)
		return 0;		/* as mysys: a missing directory is no error */
	for (i = 0; i < n; i++) {
		if (rc == 0 && (size_t)snprintf(path, sizeof(path), "%s/%s",
		    dir, v[i]->d_name) < sizeof(path))
			rc = read_file(r, path, 0, depth);
		free(v[i]);
	}
	free(v);
	return rc;
}

/* "!include FILE" and "!includedir DIR"; p is after the '!'. */
static int
directive(struct reader *r, const char *file, unsigned line, char *p,
    int depth)
{
	size_t	 n;
	int	 dir;

	p = skip_space(p);
	if (strncmp(p, "includedir", 10) == 0 && isspace((unsigned char)p[10]))
		n = 10, dir = 1;
	else if (strncmp(p, "include", 7) == 0 && isspace((unsigned char)p[7]))
		n = 7, dir = 0;
	else
		return 0;		/* mysys ignores other directives */
	p = skip_space(p + n);
	*trim_end(p, p + strlen(p)) = '\0';
	if (*p == '\0')
		return fail(r, file, line, dir ? "!includedir: no directory" :
		    "!include: no file");
	if (depth + 1 > OPTFILE_DEPTH)
		return 0;
	return dir ? read_dir(r, p, depth + 1) : read_file(r, p, 0, depth + 1);
}

/* One line; group holds the current group ("" before the first). */
static int
parse_line(struct reader *r, const char *file, unsigned line, char *p,
    char *group, size_t grouplen, int depth)
{
	const char	*why;
	char		*end, *eq, *val = NULL;

	p = skip_space(p);
	if (*p == '\0' || *p == '#' || *p == ';')
		return 0;
	if (*p == '!')
		return directive(r, file, line, p + 1, depth);
	if (*p == '[') {
		if ((end = strchr(++p, ']')) == NULL)
			return fail(r, file, line, "group without ']'");
		p = skip_space(p);
		end = trim_end(p, end);
		snprintf(group, grouplen, "%.*s", (int)(end - p), p);
		return 0;
	}
	if (*group == '\0')
		return fail(r, file, line, "option before the first [group]");
	end = end_comment(p);
	if ((eq = strchr(p, '=')) != NULL) {
		val = skip_space(eq + 1);
		unescape(val, trim_end(val, end));
		end = eq;
	}
	*trim_end(p, end) = '\0';
	if (*p == '\0')
		return fail(r, file, line, "option without a name");
	if ((why = r->cb(r->arg, file, line, group, p, val)) != NULL)
		return fail(r, file, line, why);
	return 0;
}

static int
read_file(struct reader *r, const char *path, int must_exist, int depth)
{
	FILE		*fp;
	char		*line = NULL, group[256] = "";
	size_t		 cap = 0;
	unsigned	 no = 0;
	int		 rc = 0;

	if ((fp = fopen(path, "re")) == NULL) {
		if (errno == ENOENT && !must_exist)
			return 0;
		return fail(r, path, 0, strerror(errno));
	}
	while (rc == 0 && getline(&line, &cap, fp) != -1)
		rc = parse_line(r, path, ++no, line, group, sizeof(group),
		    depth);
	if (rc == 0 && ferror(fp))
		rc = fail(r, path, 0, strerror(errno));
	free(line);
	fclose(fp);
	return rc;
}

int
optfile_read(const char *path, int must_exist, optfile_cb cb, void *arg,
    char *errbuf, size_t errlen)
{
	struct reader	 r = { cb, arg, errbuf, errlen };

	return read_file(&r, path, must_exist, 0);
}

const char *
optfile_default(size_t i, char *buf, size_t len)
{
	const char	*env;

	switch (i) {
	case 0:
		snprintf(buf, len, "/etc/my.cnf");
		return buf;
	case 1:
		snprintf(buf, len, "/etc/mysql/my.cnf");
		return buf;
	case 2:
		if ((env = getenv("MARIADB_HOME")) == NULL)
			env = getenv("MYSQL_HOME");
		break;
	case 3:
		env = getenv("HOME");
		break;
	default:
		return NULL;
	}
	if (env == NULL || *env == '\0' || strchr(env, '\n') != NULL ||
	    (size_t)snprintf(buf, len, i == 2 ? "%s/my.cnf" : "%s/.my.cnf",
	    env) >= len)
		return optfile_default(i + 1, buf, len);
	return buf;
}
