/*
 * r2s-check: verify the rowpipe-trailer line that ends rows2sql's output,
 * independently of sqlsplit: the byte count, XXH3_64bits of the text
 * before the line, and the statement count, counted the way the mysql
 * client cuts statements (quotes, backticks, comments, DELIMITER lines;
 * empty statements do not count).  Prints "ok statements=N bytes=B" and
 * exits 0, or says what differs and exits 1.  usage: r2s-check < dump.sql
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "sqltrailer.h"

static uint64_t
count_statements(const char *s, size_t n)
{
	char		 delim[32] = ";";
	size_t		 dl = 1, i = 0, ls;
	uint64_t	 count = 0;
	int		 content = 0, bol = 1;
	char		 q;

	while (i < n) {
		if (bol) {
			bol = 0;
			ls = i;
			while (ls < n && (s[ls] == ' ' || s[ls] == '\t'))
				ls++;
			if (!content && n - ls >= 10 &&
			    strncasecmp(s + ls, "delimiter ", 10) == 0) {
				const char *e = memchr(s + ls, '\n', n - ls);
				size_t l = (e ? (size_t)(e - s) : n) - ls - 10;
				if (l >= sizeof(delim))
					errx(1, "delimiter too long");
				memcpy(delim, s + ls + 10, l);
				delim[l] = '\0';
				while (l > 0 && (delim[l - 1] == ' ' ||
				    delim[l - 1] == '\r'))
					delim[--l] = '\0';
				dl = l;
				i = e ? (size_t)(e - s) + 1 : n;
				bol = 1;
				continue;
			}
		}
		if (dl > 0 && n - i >= dl && memcmp(s + i, delim, dl) == 0) {
			if (content)
				count++;
			content = 0;
			i += dl;
			continue;
		}
		switch (s[i]) {
		case '\n':
			bol = 1;
			i++;
			break;
		case '\'': case '"': case '`':
			q = s[i++];
			content = 1;
			while (i < n && s[i] != q) {
				if (s[i] == '\\' && q != '`')
					i++;
				i++;
			}
			i++;
			break;
		case '#':
			while (i < n && s[i] != '\n')
				i++;
			break;
		case '-':
			if (i + 2 < n && s[i + 1] == '-' && (s[i + 2] == ' ' ||
			    s[i + 2] == '\t' || s[i + 2] == '\n')) {
				while (i < n && s[i] != '\n')
					i++;
			} else {
				content = 1;
				i++;
			}
			break;
		case '/':
			if (i + 1 < n && s[i + 1] == '*') {
				if (i + 2 < n && s[i + 2] == '!')
					content = 1;
				i += 2;
				while (i + 1 < n && !(s[i] == '*' &&
				    s[i + 1] == '/'))
					i++;
				i += 2;
			} else {
				content = 1;
				i++;
			}
			break;
		case ' ': case '\t': case '\r':
			i++;
			break;
		default:
			content = 1;
			i++;
		}
	}
	return count + (content ? 1 : 0);
}

int
main(void)
{
	char		*s = NULL, *last;
	size_t		 n = 0, cap = 0, body;
	ssize_t		 r;
	struct sqltrailer t;
	uint64_t	 c, h;

	for (;;) {
		if (n + 65536 > cap && (s = realloc(s, cap = 2 * cap + 65536))
		    == NULL)
			err(1, NULL);
		if ((r = read(STDIN_FILENO, s + n, cap - n)) == -1)
			err(1, "read");
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n == 0 || s[n - 1] != '\n')
		errx(1, "no trailer: text does not end with a newline");
	for (last = s + n - 1; last > s && last[-1] != '\n'; last--)
		;
	if (sqltrailer_parse(last, (size_t)(s + n - 1 - last), &t) == -1)
		errx(1, "no trailer line");
	body = (size_t)(last - s);
	h = XXH3_64bits(s, body);
	c = count_statements(s, body);
	if (t.bytes != body)
		errx(1, "bytes=%" PRIu64 ", text has %zu", t.bytes, body);
	if (t.xxh3 != h)
		errx(1, "xxh3 mismatch");
	if (t.statements != c)
		errx(1, "statements=%" PRIu64 ", counted %" PRIu64,
		    t.statements, c);
	printf("ok statements=%" PRIu64 " bytes=%" PRIu64 "\n", c, t.bytes);
	free(s);
	return 0;
}
