/*
 * sqlexec-gen: turn simple SQL text into a rowpipe-stream(5) statement stream,
 * for sqlexec's tests (a stand-in for sqlsplit, not a replacement: no
 * DELIMITER, and a statement ends only at ";" at the end of a line).
 *
 * Kinds come from the first keyword (inside executable comments too);
 * the target table is the name after INSERT INTO / REPLACE INTO / CREATE
 * TABLE / UPDATE; db follows USE.
 */
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "frame.h"

static const char *
skip_sp(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (strncmp(p, "/*!", 3) == 0) {
			p += 3;
			while (isdigit((unsigned char)*p))
				p++;
			continue;
		}
		return p;
	}
}

static int
word_is(const char **pp, const char *w)
{
	const char	*p = skip_sp(*pp);
	size_t		 n = strlen(w);

	if (strncasecmp(p, w, n) == 0 && !isalnum((unsigned char)p[n]) &&
	    p[n] != '_') {
		*pp = p + n;
		return 1;
	}
	return 0;
}

/* A possibly qualified name into schema/table. */
static void
name(const char *p, char *schema, char *table, size_t len)
{
	char	 part[2][256];
	int	 n = 0;
	size_t	 i;

	p = skip_sp(p);
	schema[0] = table[0] = '\0';
	for (n = 0; n < 2; n++) {
		i = 0;
		if (*p == '`') {
			for (p++; *p && *p != '`' && i < 255; p++)
				part[n][i++] = *p;
			if (*p == '`')
				p++;
		} else
			for (; (isalnum((unsigned char)*p) || *p == '_') &&
			    i < 255; p++)
				part[n][i++] = *p;
		part[n][i] = '\0';
		if (*p != '.')
			break;
		p++;
	}
	if (n == 1) {
		strlcpy(schema, part[0], len);
		strlcpy(table, part[1], len);
	} else
		strlcpy(table, part[0], len);
}

static int
kind_of(const char *text, char *schema, char *table, char *db)
{
	const char	*p = text;

	schema[0] = table[0] = '\0';
	if (word_is(&p, "INSERT") || word_is(&p, "REPLACE")) {
		word_is(&p, "IGNORE");
		word_is(&p, "INTO");
		name(p, schema, table, 256);
		return STK_INSERT;
	}
	if (word_is(&p, "CREATE")) {
		if (word_is(&p, "TABLE")) {
			word_is(&p, "IF");
			word_is(&p, "NOT");
			word_is(&p, "EXISTS");
			name(p, schema, table, 256);
			return STK_CREATE_TABLE;
		}
		if (word_is(&p, "DATABASE"))
			return STK_CREATE_DATABASE;
		return STK_OTHER;
	}
	if (word_is(&p, "ALTER"))
		return STK_ALTER;
	if (word_is(&p, "DROP"))
		return STK_DROP;
	if (word_is(&p, "SET"))
		return STK_SET;
	if (word_is(&p, "USE")) {
		name(p, schema, db, 256);
		schema[0] = '\0';
		return STK_USE;
	}
	if (word_is(&p, "LOCK"))
		return STK_LOCK;
	if (word_is(&p, "UNLOCK"))
		return STK_UNLOCK;
	if (word_is(&p, "BEGIN") || word_is(&p, "START") ||
	    word_is(&p, "COMMIT") || word_is(&p, "ROLLBACK"))
		return STK_TRANSACTION;
	if (word_is(&p, "UPDATE")) {
		name(p, schema, table, 256);
		return STK_UPDATE;
	}
	if (word_is(&p, "DELETE"))
		return STK_DELETE;
	return STK_OTHER;
}

int
main(int argc, char *argv[])
{
	struct frame_writer	*w;
	struct buf		 in = BUF_INIT, *b;
	struct rp_stmt		 s;
	char			 chunk[65536], schema[256], table[256];
	char			 db[256] = "";
	const char		*hk[] = { "producer" }, *hv[] = { "sqlexec-gen" };
	ssize_t			 n;
	size_t			 start = 0, i, line = 1, sline;
	uint64_t		 no = 0;

	while ((n = read(STDIN_FILENO, chunk, sizeof(chunk))) > 0)
		buf_add(&in, chunk, n);
	if (n == -1 || in.err)
		err(1, "stdin");
	if ((w = frame_writer_new(STDOUT_FILENO)) == NULL)
		err(1, "frame_writer_new");
	b = frame_begin(w);
	enc_kv(b, hk, hv, 1);
	frame_end(w, FT_HEADER, 0);
	i = 0;
	while (i < in.len) {
		/* skip blank lines and whole-line -- comments between statements */
		while (start < in.len && isspace((unsigned char)in.p[start])) {
			if (in.p[start] == '\n')
				line++;
			start++;
		}
		if (start + 2 < in.len && strncmp(in.p + start, "-- ", 3) == 0) {
			while (start < in.len && in.p[start] != '\n')
				start++;
			continue;
		}
		if (start >= in.len)
			break;
		sline = line;
		for (i = start; i < in.len; i++) {
			if (in.p[i] == ';' && (i + 1 == in.len ||
			    in.p[i + 1] == '\n'))
				break;
			if (in.p[i] == '\n')
				line++;
		}
		memset(&s, 0, sizeof(s));
		s.no = ++no;
		s.line = sline;
		s.offset = start;
		in.p[i < in.len ? i : in.len] = '\0';
		s.kind = kind_of(in.p + start, schema, table, db);
		s.db = db;
		s.schema = schema;
		s.table = table;
		s.text = in.p + start;
		s.len = (i < in.len ? i : in.len) - start;
		b = frame_begin(w);
		enc_stmt(b, &s);
		if (frame_end(w, FT_STMT, 0) == -1)
			err(1, "write");
		start = i + 1;
	}
	if (frame_writer_close(w) == -1)
		err(1, "write");
	frame_writer_free(w);
	buf_release(&in);
	return 0;
}
