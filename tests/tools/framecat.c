/*
 * framecat: print a rowpipe-stream(5) frame stream as text, one line a frame (and
 * one a row or column), for tests and debugging.  Fields are tab-separated;
 * strings are C-escaped (\t \n \\ \xHH); row values are hex (-t: escaped
 * text) and SQL NULL is \N.  Exit 0 only if the stream ends with a valid
 * trailer; otherwise "framecat: <reason>" on stderr and exit 1.
 *
 *   HEADER	key=value ...
 *   OBJECT	kind	schema	name	ddl	key=value ...
 *   TABLE	id	schema	name	ncols	key=value ...
 *   COLUMN	id	index	name	type	flags	charsetnr	decimals	coltype
 *   ROW	id	value ...
 *   TABLE_END	id	rows
 *   STMT	no	line	offset	kind	db	schema	table	text
 *   TRAILER	frames=N rows=N stmts=N objects=N bytes=N
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frame.h"

static int	 text_values;


static void
esc(const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case '\t': fputs("\\t", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		default:
			if (p[i] < 0x20 || p[i] == 0x7f)
				printf("\\x%02x", p[i]);
			else
				putchar(p[i]);
		}
	}
}

static void
kv(const struct rp_kv *k)
{
	size_t	 i;

	for (i = 0; i < k->n; i++) {
		putchar(i ? ' ' : '\t');
		printf("%s=", k->key[i]);
		esc(k->val[i], k->vlen[i]);
	}
}

static void
print_rows(const struct frame *f, struct rp_table **tabs, size_t ntabs)
{
	struct rp_rows	 r;
	struct rp_val	*v;
	struct rp_table	*t = NULL;
	size_t		 i, j;
	int		 rc;

	if (dec_rows_begin(f, &r) == -1)
		errx(1, "frame %" PRIu64 ": malformed rows", f->seq + 1);
	for (i = 0; i < ntabs; i++)
		if (tabs[i]->id == r.table_id)
			t = tabs[i];
	if (t == NULL)
		errx(1, "frame %" PRIu64 ": rows for unknown table %" PRIu64,
		    f->seq + 1, r.table_id);
	if ((v = calloc(t->ncols + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	while ((rc = dec_rows_next(&r, v, t->ncols)) == 1) {
		printf("ROW\t%" PRIu64, r.table_id);
		for (j = 0; j < t->ncols; j++) {
			putchar('\t');
			if (v[j].p == NULL)
				fputs("\\N", stdout);
			else if (text_values)
				esc(v[j].p, v[j].len);
			else
				for (i = 0; i < v[j].len; i++)
					printf("%02X", (unsigned char)v[j].p[i]);
		}
		putchar('\n');
	}
	if (rc == -1)
		errx(1, "frame %" PRIu64 ": malformed row", f->seq + 1);
	free(v);
}

int
main(int argc, char *argv[])
{
	struct frame_reader		*r;
	struct frame			 f;
	struct rp_object		 o;
	struct rp_stmt			 s;
	struct rp_table			**tabs = NULL, *t;
	struct rp_kv			 k;
	struct dec			 d;
	const struct frame_totals	*tot;
	enum frame_status		 st;
	size_t				 ntabs = 0, i;
	uint64_t			 id, n;
	int				 ch;

	while ((ch = getopt(argc, argv, "t")) != -1) {
		if (ch != 't') {
			fprintf(stderr, "usage: framecat [-t] < stream\n");
			return 2;
		}
		text_values = 1;
	}
	if ((r = frame_reader_new(STDIN_FILENO, 0)) == NULL)
		err(1, NULL);
	while ((st = frame_read(r, &f)) == FRAME_OK) {
		switch (f.type) {
		case FT_HEADER:
			dec_init(&d, f.p, f.len);
			if (dec_kv(&d, &k) == -1)
				errx(1, "malformed header");
			fputs("HEADER", stdout);
			kv(&k);
			putchar('\n');
			break;
		case FT_OBJECT:
			if (dec_object(&f, &o) == -1)
				errx(1, "frame %" PRIu64 ": malformed object",
				    f.seq + 1);
			printf("OBJECT\t%s\t", rp_object_kind_name(o.kind) !=
			    NULL ? rp_object_kind_name(o.kind) : "?");
			esc(o.schema, strlen(o.schema));
			putchar('\t');
			esc(o.name, strlen(o.name));
			putchar('\t');
			esc(o.ddl, o.ddl_len);
			kv(&o.attrs);
			putchar('\n');
			break;
		case FT_TABLE:
			if ((t = dec_table(&f)) == NULL)
				errx(1, "frame %" PRIu64 ": malformed table",
				    f.seq + 1);
			if ((tabs = reallocarray(tabs, ntabs + 1,
			    sizeof(*tabs))) == NULL)
				err(1, NULL);
			tabs[ntabs++] = t;
			printf("TABLE\t%" PRIu64 "\t", t->id);
			esc(t->schema, strlen(t->schema));
			putchar('\t');
			esc(t->name, strlen(t->name));
			printf("\t%zu", t->ncols);
			kv(&t->attrs);
			putchar('\n');
			for (i = 0; i < t->ncols; i++) {
				printf("COLUMN\t%" PRIu64 "\t%zu\t", t->id, i);
				esc(t->cols[i].name, strlen(t->cols[i].name));
				printf("\t%u\t0x%x\t%u\t%u\t%s\n",
				    t->cols[i].type, t->cols[i].flags,
				    t->cols[i].charsetnr, t->cols[i].decimals,
				    t->cols[i].coltype);
			}
			break;
		case FT_ROWS:
			print_rows(&f, tabs, ntabs);
			break;
		case FT_TABLE_END:
			if (dec_table_end(&f, &id, &n) == -1)
				errx(1, "malformed table end");
			printf("TABLE_END\t%" PRIu64 "\t%" PRIu64 "\n", id, n);
			break;
		case FT_STMT:
			if (dec_stmt(&f, &s) == -1)
				errx(1, "frame %" PRIu64 ": malformed statement",
				    f.seq + 1);
			printf("STMT\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			    "\t%s\t", s.no, s.line, s.offset,
			    rp_stmt_kind_name(s.kind) ? rp_stmt_kind_name(s.kind)
			    : "?");
			esc(s.db, strlen(s.db));
			putchar('\t');
			esc(s.schema, strlen(s.schema));
			putchar('\t');
			esc(s.table, strlen(s.table));
			putchar('\t');
			esc(s.text, s.len);
			if (s.mode != 0)	/* (only then: old listings stay) */
				printf("\tmode=%d", s.mode);
			putchar('\n');
			break;
		}
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	if (st == FRAME_ERR)
		errx(1, "%s", frame_reader_errstr(r));
	tot = frame_reader_totals(r);
	printf("TRAILER\tframes=%" PRIu64 " rows=%" PRIu64 " stmts=%" PRIu64
	    " objects=%" PRIu64 " bytes=%" PRIu64 "\n", tot->frames, tot->rows,
	    tot->stmts, tot->objects, tot->bytes);
	for (i = 0; i < ntabs; i++)
		rp_table_free(tabs[i]);
	free(tabs);
	frame_reader_free(r);
	return fflush(stdout) == EOF;
}
