/*
 * r2s-gen: write a rowpipe-stream(5) frame stream from a text description, for
 * rows2sql's tests and benchmark.  The input is framecat's output format,
 * one frame (or row, or column) a line, tab-separated, strings C-escaped
 * (\t \n \r \0 \\ \xHH):
 *
 *   HEADER	key=value ...
 *   OBJECT	kind	schema	name	ddl	key=value ...
 *   TABLE	id	schema	name	ncols	key=value ...
 *   COLUMN	id	index	name	type	flags	charsetnr	decimals	coltype
 *   ROW	id	value ...	(hex; \N is NULL; 'text is escaped text;
 *				 @N:HH is N bytes of 0xHH)
 *   TABLE_END	id	rows
 *   GEN	id	rows	(the benchmark table's rows, deterministic)
 *   STMT	text
 *   TRAILER
 *
 * Consecutive ROW lines of one table make one FT_ROWS frame (at most 1000
 * rows).  Without a TRAILER line the stream ends cut, as a killed producer
 * leaves it.  usage: r2s-gen < description > stream
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"

#define MAXF	4096

static struct frame_writer *w;
static struct buf rows = BUF_INIT;	/* pending ROW values */
static uint64_t rows_id, rows_n;

/* Unescape s in place; returns its length. */
static size_t
unesc(char *s)
{
	char	*o = s, *p = s;
	unsigned v;

	while (*p) {
		if (*p != '\\' || p[1] == '\0') {
			*o++ = *p++;
			continue;
		}
		p++;
		switch (*p) {
		case 't': *o++ = '\t'; p++; break;
		case 'n': *o++ = '\n'; p++; break;
		case 'r': *o++ = '\r'; p++; break;
		case '0': *o++ = '\0'; p++; break;
		case 'x':
			if (sscanf(p + 1, "%2x", &v) != 1)
				errx(1, "bad \\x escape");
			*o++ = (char)v;
			p += 3;
			break;
		default: *o++ = *p++; break;
		}
	}
	*o = '\0';
	return (size_t)(o - s);
}

static void
ck(int r)
{
	if (r == -1)
		errx(1, "write: %s", frame_writer_errstr(w));
}

static void
flush_rows(void)
{
	struct buf	*b;

	if (rows_n == 0)
		return;
	b = frame_begin(w);
	enc_rows_begin(b, rows_id, rows_n);
	buf_add(b, rows.p, rows.len);
	ck(frame_end(w, FT_ROWS, 0));
	buf_reset(&rows);
	rows_n = 0;
}

/* key=value fields f[0..n) (each may hold several, space-separated). */
static void
add_kv(struct buf *b, char **f, int n)
{
	const char	*k[RP_KV_MAX], *v[RP_KV_MAX];
	char		*tok, *eq;
	size_t		 m = 0;
	int		 i;

	for (i = 0; i < n; i++)
		while ((tok = strsep(&f[i], " ")) != NULL) {
			if (*tok == '\0' || (eq = strchr(tok, '=')) == NULL)
				continue;
			*eq = '\0';
			unesc(eq + 1);
			if (m < RP_KV_MAX) {
				k[m] = tok;
				v[m++] = eq + 1;
			}
		}
	enc_kv(b, k, v, m);
}

static void
add_value(struct buf *b, char *s)
{
	unsigned	 v, n;
	size_t		 len, i;
	char		*x;

	if (strcmp(s, "\\N") == 0) {
		enc_val(b, NULL, 0);
	} else if (*s == '\'') {
		len = unesc(s + 1);
		enc_val(b, s + 1, len);
	} else if (*s == '@') {
		if (sscanf(s + 1, "%u:%2x", &n, &v) != 2)
			errx(1, "bad @N:HH value %s", s);
		if ((x = malloc(n ? n : 1)) == NULL)
			err(1, NULL);
		memset(x, (int)v, n);
		enc_val(b, x, n);
		free(x);
	} else {
		len = strlen(s) / 2;
		if ((x = malloc(len + 1)) == NULL)
			err(1, NULL);
		for (i = 0; i < len; i++) {
			if (sscanf(s + 2 * i, "%2x", &v) != 1)
				errx(1, "bad hex value %s", s);
			x[i] = (char)v;
		}
		enc_val(b, x, len);
		free(x);
	}
}

/*
 * The benchmark table (MySqlBackup.NET's): id, varchar(45), text,
 * datetime, date, time, decimal(10,5), tinyint unsigned, timestamp,
 * char(36), binary(16), float, double, blob, bool.
 */
static void
gen_rows(uint64_t id, uint64_t n)
{
	static const char *const words[] = { "alpha", "bravo", "charlie",
	    "delta", "echo's", "foxtrot", "golf\\", "hotel", "india",
	    "juliett", "kilo", "lima", "mike\n", "november", "oscar" };
	uint64_t	 i, x = 88172645463325252ULL;
	char		 s[1024], bin[256];
	size_t		 l, j;
	struct buf	*b;
	uint64_t	 batch = 0;

	for (i = 1; i <= n; i++) {
		if (batch == 0) {
			b = frame_begin(w);
			batch = n - i + 1 < 1000 ? n - i + 1 : 1000;
			enc_rows_begin(b, id, batch);
		}
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		l = (size_t)snprintf(s, sizeof(s), "%" PRIu64, i);
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "%s %s %" PRIu64,
		    words[x % 15], words[(x >> 8) % 15], x % 100000);
		enc_val(b, s, l);
		for (l = 0, j = 0; j < 3 + (x >> 20) % 12; j++)
			l += (size_t)snprintf(s + l, sizeof(s) - l, "%s ",
			    words[(x >> (j * 3)) % 15]);
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "20%02u-%02u-%02u "
		    "%02u:%02u:%02u", (unsigned)(x % 30), (unsigned)(x >> 5) %
		    12 + 1, (unsigned)(x >> 9) % 28 + 1, (unsigned)(x >> 14) %
		    24, (unsigned)(x >> 19) % 60, (unsigned)(x >> 25) % 60);
		enc_val(b, s, l);
		enc_val(b, s, 10);
		enc_val(b, s + 11, 8);
		l = (size_t)snprintf(s, sizeof(s), "%u.%05u",
		    (unsigned)(x % 99999), (unsigned)(x >> 30) % 100000);
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "%u", (unsigned)(x >> 40) &
		    255);
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "2021-%02u-%02u "
		    "%02u:%02u:%02u", (unsigned)(x >> 5) % 12 + 1,
		    (unsigned)(x >> 9) % 28 + 1, (unsigned)(x >> 14) % 24,
		    (unsigned)(x >> 19) % 60, (unsigned)(x >> 25) % 60);
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "%08x-%04x-%04x-%04x-"
		    "%012" PRIx64, (unsigned)x, (unsigned)(x >> 32) & 0xffff,
		    (unsigned)(x >> 16) & 0xffff, (unsigned)(x >> 48),
		    (uint64_t)((x * 31) & 0xffffffffffffULL));
		enc_val(b, s, l);
		for (j = 0; j < 16; j++)
			bin[j] = (char)(x >> (j * 4));
		enc_val(b, bin, 16);
		l = (size_t)snprintf(s, sizeof(s), "%.9g",
		    (double)(float)((double)(x % 1000000) / 7.0));
		enc_val(b, s, l);
		l = (size_t)snprintf(s, sizeof(s), "%.17g",
		    (double)(x % 100000000) / 13.0);
		enc_val(b, s, l);
		for (j = 0; j < 64 + x % 128; j++)
			bin[j] = (char)(x >> (j % 56) ^ j);
		enc_val(b, bin, j);
		enc_val(b, x & 1 ? "1" : "0", 1);
		if (--batch == 0)
			ck(frame_end(w, FT_ROWS, 0));
	}
}

static void
free_cols(struct rp_column *cols, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(cols[i].name);
		free(cols[i].coltype);
	}
}

int
main(void)
{
	char		*line = NULL, *f[MAXF];
	size_t		 cap = 0;
	ssize_t		 len;
	int		 n, i, k;
	struct buf	*b;
	struct rp_object o;
	struct rp_table	 t;
	struct rp_column *cols = NULL;
	size_t		 ncols = 0;
	uint64_t	 tid = 0;
	char		*tschema = NULL, *tname = NULL, **tkv = NULL;
	int		 ntkv = 0;

	if ((w = frame_writer_new(STDOUT_FILENO)) == NULL)
		err(1, NULL);
	while ((len = getline(&line, &cap, stdin)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		for (n = 0, f[0] = line; n < MAXF &&
		    (f[n] = strsep(&line, "\t")) != NULL; n++)
			;
		line = f[0];
		if (n == 0 || *f[0] == '\0' || *f[0] == '#')
			continue;
		if (strcmp(f[0], "ROW") != 0 || (n > 1 &&
		    strtoull(f[1], NULL, 10) != rows_id) || rows_n >= 1000)
			flush_rows();
		if (tid != 0 && strcmp(f[0], "COLUMN") != 0) {
			t.id = tid;
			t.schema = tschema;
			t.name = tname;
			t.ncols = ncols;
			t.cols = cols;
			b = frame_begin(w);
			memset(&t.attrs, 0, sizeof(t.attrs));
			enc_table(b, &t);
			(void)tkv;
			(void)ntkv;
			ck(frame_end(w, FT_TABLE, 0));
			tid = 0;
			free_cols(cols, ncols);
			ncols = 0;
		}
		if (strcmp(f[0], "HEADER") == 0) {
			b = frame_begin(w);
			add_kv(b, f + 1, n - 1);
			ck(frame_end(w, FT_HEADER, 0));
		} else if (strcmp(f[0], "OBJECT") == 0 && n >= 5) {
			memset(&o, 0, sizeof(o));
			if ((k = rp_object_kind_parse(f[1])) > 0)
				o.kind = k;
			unesc(f[2]);
			unesc(f[3]);
			o.schema = f[2];
			o.name = f[3];
			o.ddl_len = unesc(f[4]);
			o.ddl = f[4];
			b = frame_begin(w);
			/* enc_object encodes attrs from o.attrs. */
			for (i = 5; i < n; i++) {
				char *tok, *eq, *s = f[i];
				while ((tok = strsep(&s, " ")) != NULL) {
					if ((eq = strchr(tok, '=')) == NULL ||
					    o.attrs.n >= RP_KV_MAX)
						continue;
					*eq = '\0';
					o.attrs.key[o.attrs.n] = tok;
					o.attrs.vlen[o.attrs.n] = unesc(eq + 1);
					o.attrs.val[o.attrs.n++] = eq + 1;
				}
			}
			enc_object(b, &o);
			ck(frame_end(w, FT_OBJECT, 0));
		} else if (strcmp(f[0], "TABLE") == 0 && n >= 4) {
			tid = strtoull(f[1], NULL, 10);
			unesc(f[2]);
			unesc(f[3]);
			free(tschema);
			free(tname);
			tschema = strdup(f[2]);
			tname = strdup(f[3]);
		} else if (strcmp(f[0], "COLUMN") == 0 && n >= 9) {
			if ((cols = reallocarray(cols, ncols + 1,
			    sizeof(*cols))) == NULL)
				err(1, NULL);
			unesc(f[3]);
			cols[ncols].name = strdup(f[3]);
			cols[ncols].type = (unsigned)strtoul(f[4], NULL, 0);
			cols[ncols].flags = (unsigned)strtoul(f[5], NULL, 0);
			cols[ncols].charsetnr = (unsigned)strtoul(f[6], NULL,
			    0);
			cols[ncols].decimals = (unsigned)strtoul(f[7], NULL, 0);
			cols[ncols].coltype = strdup(f[8]);
			ncols++;
		} else if (strcmp(f[0], "ROW") == 0 && n >= 2) {
			rows_id = strtoull(f[1], NULL, 10);
			for (i = 2; i < n; i++)
				add_value(&rows, f[i]);
			rows_n++;
		} else if (strcmp(f[0], "TABLE_END") == 0 && n >= 3) {
			b = frame_begin(w);
			enc_table_end(b, strtoull(f[1], NULL, 10),
			    strtoull(f[2], NULL, 10));
			ck(frame_end(w, FT_TABLE_END, 0));
		} else if (strcmp(f[0], "GEN") == 0 && n >= 3) {
			gen_rows(strtoull(f[1], NULL, 10),
			    strtoull(f[2], NULL, 10));
		} else if (strcmp(f[0], "STMT") == 0) {
			struct rp_stmt s;
			memset(&s, 0, sizeof(s));
			s.no = 1;
			s.line = 1;
			s.db = s.schema = s.table = "";
			s.text = n > 1 ? f[1] : "SELECT 1";
			s.len = strlen(s.text);
			b = frame_begin(w);
			enc_stmt(b, &s);
			ck(frame_end(w, FT_STMT, 0));
		} else if (strcmp(f[0], "TRAILER") == 0) {
			ck(frame_writer_close(w));
			break;
		} else
			errx(1, "bad line: %s", f[0]);
	}
	if (len == -1) {
		flush_rows();
		ck(frame_writer_flush(w));
	}
	frame_writer_free(w);
	free(line);
	free_cols(cols, ncols);
	free(cols);
	free(tschema);
	free(tname);
	buf_release(&rows);
	return 0;
}
