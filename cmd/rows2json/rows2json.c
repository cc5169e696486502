/*
 * rows2json: the frame stream to JSON Lines conversion behind
 * rows2json(1), which specifies the lines.
 *
 * Every frame becomes one line (RFC 8259 JSON text, RFC 7464-free JSON
 * Lines: one text a line, LF-terminated).  Values are JSON strings when
 * their bytes are text JSON can carry as they are (valid UTF-8, or ASCII
 * in an ASCII-compatible character set), else {"base64":"..."} of the
 * bytes (RFC 4648, section 4), so that json2rows gets back every byte.
 * Lines are built in one buffer and written at line ends only, so a
 * failure leaves whole lines and no trailer line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/base64.h>

#include "charset.h"
#include "frame.h"
#include "progress.h"
#include "sqlvalue.h"
#include "stbl.h"
#include "utf8.h"
#include "util.h"
#include "rows2json.h"

#define OUT_FLUSH_AT	((size_t)1 << 20)

/* The most a JSON string of n bytes takes: \u00XX each, and quotes. */
#define JSTR_MAX(n)	(6 * (size_t)(n) + 2)
/* The most {"base64":"..."} of n bytes takes. */
#define JB64_MAX(n)	(BASE64_ENCODE_RAW_LENGTH(n) + 16)

/* How a column's values become JSON. */
enum jkind {
	JK_UTF8,	/* a string if valid UTF-8, else base64 */
	JK_ASCII,	/* a string if ASCII, else base64 */
	JK_LATIN1,	/* --convert: a string always, latin1 read as such */
	JK_BASE64	/* base64 always: binary, wide character sets */
};

struct jtbl {
	struct stbl	 s;		/* first: its id, TABLE frame, rows */
	struct buf	 prefix;	/* {"type":"row","db":..,"table":..,"row":{ */
	struct buf	*keys;		/* "name": per column */
	int		*kinds;		/* enum jkind per column */
	struct rp_val	*vals;
};

struct r2j {
	int		 out_fd;
	struct buf	 out;
	struct stbls	 tbls;
	struct progress	*prog;
	uint64_t	 tot_tables, tot_rows;
	const struct frame *f;
	int		 werr;
	int		 convert;	/* --convert */
	struct buf	 conv;		/* a latin1 value as UTF-8 */
	char		 errbuf[512];
};

static int
fail(struct r2j *st, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	frame_verrf(st->errbuf, sizeof(st->errbuf), st->f, fmt, ap);
	va_end(ap);
	return -1;
}

static int
out_flush(struct r2j *st)
{
	if (st->out.len == 0)
		return 0;
	if (write_all(st->out_fd, st->out.p, st->out.len) == -1) {
		st->werr = errno;
		return -1;
	}
	progress_add(st->prog, 0, 0, st->out.len);
	st->out.len = 0;
	return 0;
}

/* A line is complete in the buffer. */
static int
line_end(struct r2j *st)
{
	buf_addc(&st->out, '\n');
	if (st->out.err)
		return fail(st, "%s", strerror(st->out.err));
	if (st->out.len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

/* JSON text. */

/*
 * Escapes of RFC 8259, section 7, for ASCII: 0 copies the byte, 'u' is
 * \u00XX, another letter is that short escape.
 */
static const unsigned char jesc[128] = {
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r',
	'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
	'u', 'u', 'u', 'u',
	['"'] = '"', ['\\'] = '\\'
};

/*
 * Write the JSON string of (s, n) at o (room for JSTR_MAX(n)).  Bytes
 * >= 0x80 must form valid UTF-8 (utf8) or are refused (!utf8): then
 * NULL, and nothing at o is meaningful.
 */
static char *
jstr_put(char *o, const char *p, size_t n, int utf8)
{
	const unsigned char *s = (const unsigned char *)p, *e = s + n;
	static const char hexd[] = "0123456789abcdef";
	size_t		 k;
	unsigned char	 c, x;

	*o++ = '"';
	while (s < e) {
		c = *s;
		if (c >= 0x80) {
			if (!utf8 || (k = utf8_len(s, e)) == 0)
				return NULL;
			memcpy(o, s, k);
			o += k;
			s += k;
		} else if ((x = jesc[c]) == 0) {
			*o++ = (char)c;
			s++;
		} else if (x == 'u') {
			memcpy(o, "\\u00", 4);
			o[4] = hexd[c >> 4];
			o[5] = hexd[c & 15];
			o += 6;
			s++;
		} else {
			*o++ = '\\';
			*o++ = (char)x;
			s++;
		}
	}
	*o++ = '"';
	return o;
}

static char *
jb64_put(char *o, const char *p, size_t n)
{
	memcpy(o, "{\"base64\":\"", 11);
	o += 11;
	base64_encode_raw(o, n, (const uint8_t *)p);
	o += BASE64_ENCODE_RAW_LENGTH(n);
	memcpy(o, "\"}", 2);
	return o + 2;
}

/* A value of kind k: null, a string, or base64. */
static char *
jval_put(char *o, int k, const struct rp_val *v)
{
	char	*e;

	if (v->p == NULL) {
		memcpy(o, "null", 4);
		return o + 4;
	}
	if (k != JK_BASE64 && (e = jstr_put(o, v->p, v->len, k == JK_UTF8)))
		return e;
	return jb64_put(o, v->p, v->len);
}

/* Any bytes: a string if they are UTF-8, else base64. */
static void
add_text(struct buf *b, const char *p, size_t n)
{
	struct rp_val	 v = { p, n };
	size_t		 need = JSTR_MAX(n) > JB64_MAX(n) ? JSTR_MAX(n) :
	    JB64_MAX(n);

	if (buf_grow(b, need) == -1)
		return;
	b->len = (size_t)(jval_put(b->p + b->len, JK_UTF8, &v) - b->p);
	b->p[b->len] = '\0';
}

/* A name (identifier, key): UTF-8 as every server identifier is. */
static int
add_name(struct buf *b, const char *s, size_t n)
{
	char	*e;

	if (buf_grow(b, JSTR_MAX(n)) == -1)
		return 0;
	if ((e = jstr_put(b->p + b->len, s, n, 1)) == NULL)
		return -1;
	b->len = (size_t)(e - b->p);
	b->p[b->len] = '\0';
	return 0;
}

/* ,"key": and a name. */
static int
add_field_name(struct buf *b, const char *key, const char *s)
{
	buf_addf(b, ",\"%s\":", key);
	return add_name(b, s, strlen(s));
}

/* ,"key":{"k":"v",...}, or -1 if a key is not UTF-8. */
static int
add_kv(struct buf *b, const char *key, const struct rp_kv *kv)
{
	size_t	 i;

	buf_addf(b, ",\"%s\":{", key);
	for (i = 0; i < kv->n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		if (add_name(b, kv->key[i], strlen(kv->key[i])) == -1)
			return -1;
		buf_addc(b, ':');
		add_text(b, kv->val[i], kv->vlen[i]);
	}
	buf_addc(b, '}');
	return 0;
}

/* Frames. */

static int
do_header(struct r2j *st, const struct frame *f)
{
	struct rp_kv	 kv;
	struct dec	 d;

	dec_init(&d, f->p, f->len);
	if (dec_kv(&d, &kv) == -1)
		return fail(st, "corrupt header frame");
	buf_adds(&st->out, "{\"type\":\"header\",\"version\":1");
	if (add_kv(&st->out, "meta", &kv) == -1)
		return fail(st, "header: a key is not UTF-8");
	buf_addc(&st->out, '}');
	return line_end(st);
}

static int
do_object(struct r2j *st, const struct frame *f)
{
	struct rp_object ob;
	const char	*kind;

	if (dec_object(f, &ob) == -1)
		return fail(st, "corrupt object frame");
	buf_adds(&st->out, "{\"type\":\"object\",\"kind\":");
	if ((kind = rp_object_kind_name(ob.kind)) != NULL)
		buf_addf(&st->out, "\"%s\"", kind);
	else
		buf_addf(&st->out, "\"%d\"", ob.kind);
	if (add_field_name(&st->out, "db", ob.schema) == -1 ||
	    add_field_name(&st->out, "name", ob.name) == -1)
		return fail(st, "object name is not UTF-8");
	buf_adds(&st->out, ",\"ddl\":");
	add_text(&st->out, ob.ddl, ob.ddl_len);
	if (add_kv(&st->out, "attrs", &ob.attrs) == -1)
		return fail(st, "%s.%s: an attribute name is not UTF-8",
		    ob.schema, ob.name);
	buf_addc(&st->out, '}');
	return line_end(st);
}

/* stbls_free()'s release: the members of a jtbl past its struct stbl. */
static void
tbl_release(struct stbl *s)
{
	struct jtbl	*tb = (struct jtbl *)s;
	size_t		 i;

	for (i = 0; tb->keys != NULL && i < s->t->ncols; i++)
		buf_release(&tb->keys[i]);
	free(tb->keys);
	free(tb->kinds);
	free(tb->vals);
	buf_release(&tb->prefix);
}

static int
col_kind(const struct r2j *st, const struct rp_column *c)
{
	struct sqlval_col k;
	const char	*cs;

	sqlval_col_setup(&k, c, 1);
	switch (k.kind) {
	case VK_HEX:
	case VK_BINSTR:
	case VK_CSHEX:
		return JK_BASE64;
	case VK_ASCII:
		(void)sqlval_charset_class(c->charsetnr, &cs);
		return st->convert && strcmp(cs, "latin1") == 0 ? JK_LATIN1 :
		    JK_ASCII;
	default:
		return JK_UTF8;
	}
}

/* The table line, and what its rows need. */
static int
table_line(struct r2j *st, struct jtbl *tb)
{
	const struct rp_table *t = tb->s.t;
	struct buf	*b = &st->out;
	size_t		 i;

	buf_adds(b, "{\"type\":\"table\"");
	if (add_field_name(b, "db", t->schema) == -1 ||
	    add_field_name(b, "name", t->name) == -1)
		return fail(st, "table name is not UTF-8");
	buf_adds(b, ",\"columns\":[");
	for (i = 0; i < t->ncols; i++) {
		const struct rp_column *c = &t->cols[i];

		buf_adds(b, i ? ",{\"name\":" : "{\"name\":");
		if (add_name(b, c->name, strlen(c->name)) == -1 ||
		    add_name(&tb->keys[i], c->name, strlen(c->name)) == -1)
			return fail(st, "%s.%s: column name is not UTF-8",
			    t->schema, t->name);
		buf_addc(&tb->keys[i], ':');
		buf_addf(b, ",\"type\":%u,\"flags\":%u,\"collation\":%u,"
		    "\"decimals\":%u,\"coltype\":", c->type, c->flags,
		    c->charsetnr, c->decimals);
		add_text(b, c->coltype, strlen(c->coltype));
		buf_addc(b, '}');
		tb->kinds[i] = col_kind(st, c);
		if (tb->keys[i].err)
			return fail(st, "%s", strerror(ENOMEM));
	}
	buf_addc(b, ']');
	if (add_kv(b, "attrs", &t->attrs) == -1)
		return fail(st, "%s.%s: an attribute name is not UTF-8",
		    t->schema, t->name);
	buf_addc(b, '}');
	buf_adds(&tb->prefix, "{\"type\":\"row\"");
	add_field_name(&tb->prefix, "db", t->schema);
	add_field_name(&tb->prefix, "table", t->name);
	buf_adds(&tb->prefix, ",\"row\":{");
	if (tb->prefix.err)
		return fail(st, "%s", strerror(ENOMEM));
	return line_end(st);
}

static int
do_table(struct r2j *st, const struct frame *f)
{
	const struct rp_table *t;
	struct jtbl	*tb;
	const char	*est;

	if ((tb = stbls_add(&st->tbls, f, sizeof(*tb))) == NULL)
		return fail(st, "%s", st->tbls.why);
	t = tb->s.t;
	if ((tb->keys = calloc(t->ncols + 1, sizeof(*tb->keys))) == NULL ||
	    (tb->kinds = calloc(t->ncols + 1, sizeof(*tb->kinds))) == NULL ||
	    (tb->vals = calloc(t->ncols + 1, sizeof(*tb->vals))) == NULL)
		return fail(st, "%s", strerror(ENOMEM));
	st->tot_tables++;
	if ((est = rp_kv_get(&t->attrs, "rows_estimate")) != NULL)
		st->tot_rows += strtoull(est, NULL, 10);
	progress_total(st->prog, st->tot_tables, st->tot_rows, 0);
	return table_line(st, tb);
}

/*
 * A latin1 value (--convert) at o: as UTF-8 (made in st->conv: 3 bytes a
 * byte at most, which JSTR_MAX() of the latin1 length still bounds once
 * escaped); as base64 if memory ran out, never as its bytes read as UTF-8.
 */
static char *
latin1_put(struct r2j *st, char *o, const struct rp_val *v)
{
	struct rp_val	 u;

	if (v->p == NULL || buf_grow(&st->conv, 3 * v->len + 1) == -1)
		return jval_put(o, JK_BASE64, v);
	u.p = st->conv.p;
	u.len = (size_t)(cs_latin1_to_utf8(st->conv.p, v->p, v->len) -
	    st->conv.p);
	return jval_put(o, JK_UTF8, &u);
}

/* The upper bound of a row line's bytes. */
static size_t
row_bound(const struct jtbl *tb)
{
	size_t	 i, n = tb->prefix.len + 4, l;

	for (i = 0; i < tb->s.t->ncols; i++) {
		l = tb->vals[i].len;
		n += tb->keys[i].len + 1 + (JSTR_MAX(l) > JB64_MAX(l) ?
		    JSTR_MAX(l) : JB64_MAX(l));
	}
	return n;
}

static int
row_line(struct r2j *st, struct jtbl *tb)
{
	struct buf	*b = &st->out;
	char		*o;
	size_t		 i;

	if (buf_grow(b, row_bound(tb)) == -1)
		return fail(st, "%s", strerror(ENOMEM));
	o = b->p + b->len;
	memcpy(o, tb->prefix.p, tb->prefix.len);
	o += tb->prefix.len;
	for (i = 0; i < tb->s.t->ncols; i++) {
		if (i > 0)
			*o++ = ',';
		memcpy(o, tb->keys[i].p, tb->keys[i].len);
		o += tb->keys[i].len;
		o = tb->kinds[i] == JK_LATIN1 ? latin1_put(st, o,
		    &tb->vals[i]) : jval_put(o, tb->kinds[i], &tb->vals[i]);
	}
	memcpy(o, "}}\n", 3);
	b->len = (size_t)(o + 3 - b->p);
	b->p[b->len] = '\0';
	if (b->len >= OUT_FLUSH_AT)
		return out_flush(st);
	return 0;
}

static int
do_rows(struct r2j *st, const struct frame *f)
{
	struct rp_rows	 r;
	struct jtbl	*tb;
	int		 k;

	if ((tb = stbls_rows(&st->tbls, f, &r)) == NULL)
		return fail(st, "%s", st->tbls.why);
	progress_add(st->prog, 0, r.nrows, 0);
	while ((k = dec_rows_next(&r, tb->vals, tb->s.t->ncols)) == 1) {
		tb->s.rows++;
		if (row_line(st, tb) == -1)
			return -1;
	}
	if (k == -1)
		return fail(st, "%s.%s: corrupt row %" PRIu64, tb->s.t->schema,
		    tb->s.t->name, tb->s.rows + 1);
	return 0;
}

static int
do_table_end(struct r2j *st, const struct frame *f)
{
	struct jtbl	*tb;

	if ((tb = stbls_end(&st->tbls, f)) == NULL)
		return fail(st, "%s", st->tbls.why);
	progress_add(st->prog, 1, 0, 0);
	buf_adds(&st->out, "{\"type\":\"end\"");
	add_field_name(&st->out, "db", tb->s.t->schema);
	add_field_name(&st->out, "name", tb->s.t->name);
	buf_addf(&st->out, ",\"rows\":%" PRIu64 "}", tb->s.rows);
	return line_end(st);
}

static int
do_stmt(struct r2j *st, const struct frame *f)
{
	struct rp_stmt	 s;
	const char	*kind;
	struct buf	*b = &st->out;

	if (dec_stmt(f, &s) == -1)
		return fail(st, "corrupt statement frame");
	if ((kind = rp_stmt_kind_name(s.kind)) == NULL)
		return fail(st, "statement %" PRIu64 ": unknown kind %d", s.no,
		    s.kind);
	buf_addf(b, "{\"type\":\"stmt\",\"no\":%" PRIu64 ",\"line\":%" PRIu64
	    ",\"offset\":%" PRIu64 ",\"kind\":\"%s\"", s.no, s.line, s.offset,
	    kind);
	if (add_field_name(b, "db", s.db) == -1 ||
	    add_field_name(b, "target_db", s.schema) == -1 ||
	    add_field_name(b, "target_table", s.table) == -1)
		return fail(st, "statement %" PRIu64 ": a name is not UTF-8",
		    s.no);
	buf_adds(b, ",\"text\":");
	add_text(b, s.text, s.len);
	if (s.said)
		buf_addf(b, ",\"lex_mode\":%d", s.mode);
	buf_addc(b, '}');
	return line_end(st);
}

static int
do_trailer(struct r2j *st, const struct frame_totals *t)
{
	buf_addf(&st->out, "{\"type\":\"trailer\",\"frames\":%" PRIu64
	    ",\"rows\":%" PRIu64 ",\"stmts\":%" PRIu64 ",\"objects\":%" PRIu64
	    ",\"bytes\":%" PRIu64 "}", t->frames, t->rows, t->stmts,
	    t->objects, t->bytes);
	if (line_end(st) == -1)
		return -1;
	return out_flush(st);
}

static int
do_frame(struct r2j *st, const struct frame *f)
{
	switch (f->type) {
	case FT_HEADER:
		return do_header(st, f);
	case FT_OBJECT:
		return do_object(st, f);
	case FT_TABLE:
		return do_table(st, f);
	case FT_ROWS:
		return do_rows(st, f);
	case FT_TABLE_END:
		return do_table_end(st, f);
	case FT_STMT:
		return do_stmt(st, f);
	default:
		return fail(st, "unexpected frame type %d", f->type);
	}
}

int
rows2json(int fd, int out_fd, const struct r2j_opts *o, const char **errmsg)
{
	static char	 msg[600];
	struct r2j	 st;
	struct frame_reader *fr;
	struct frame	 f;
	enum frame_status s;
	int		 r = -1;

	memset(&st, 0, sizeof(st));
	st.tbls.release = tbl_release;
	st.out_fd = out_fd;
	st.convert = o->convert;
	if ((fr = frame_reader_new(fd, 0)) == NULL || (st.prog =
	    progress_new("rows2json", "tables", o->progress)) == NULL) {
		snprintf(st.errbuf, sizeof(st.errbuf), "%s", strerror(ENOMEM));
		goto out;
	}
	for (;;) {
		if ((s = frame_read(fr, &f)) == FRAME_ERR) {
			snprintf(st.errbuf, sizeof(st.errbuf), "%s",
			    frame_reader_errstr(fr));
			break;
		}
		if (s == FRAME_DONE) {
			st.f = NULL;
			r = do_trailer(&st, frame_reader_totals(fr));
			break;
		}
		st.f = &f;
		if (do_frame(&st, &f) == -1)
			break;
	}
	if (r == -1 && !st.werr) {
		/* Whole lines only: drop a line being built, write the rest. */
		if (st.out.len > 0 && st.out.p[st.out.len - 1] != '\n') {
			char *nl = memrchr(st.out.p, '\n', st.out.len);

			st.out.len = nl ? (size_t)(nl + 1 - st.out.p) : 0;
		}
		st.out.err = 0;
		out_flush(&st);
	}
out:
	if (st.werr)
		snprintf(msg, sizeof(msg), "stdout: write: %s",
		    strerror(st.werr));
	else
		snprintf(msg, sizeof(msg), "%s", st.errbuf);
	progress_end(st.prog, r == 0);
	frame_reader_free(fr);
	stbls_free(&st.tbls);
	buf_release(&st.out);
	buf_release(&st.conv);
	*errmsg = msg;
	return r;
}
