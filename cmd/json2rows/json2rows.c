/*
 * json2rows: the JSON Lines to frame stream conversion behind json2rows(1);
 * rows2json(1) specifies the lines.
 *
 * Each line is parsed whole with jansson (RFC 8259; invalid UTF-8, lone
 * surrogates and duplicate keys are errors) and becomes one frame, except
 * that consecutive rows of one table share a ROWS frame.  Every key a line
 * has must be one rows2json writes, every value must fit its column: a
 * mistyped jq path or a value the frame stream cannot carry stops the run
 * with the line number, and the stream written so far gets no trailer.
 * Row counts, totals and checks are computed from what is written, so a
 * filter may drop, add or change rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/base64.h>

#include "frame.h"
#include "progress.h"
#include "sqlvalue.h"
#include "charset.h"
#include "json2rows.h"

#define READ_CHUNK	((size_t)64 << 10)

/* What a column accepts as a JSON string or integer. */
enum check {
	CK_TEXT,	/* any string: its UTF-8 bytes */
	CK_ASCII,	/* ASCII strings only (legacy character sets) */
	CK_BYTES	/* base64 only (UCS-2, UTF-16, UTF-32) */
};

struct jt {
	uint64_t	 id;
	struct rp_table	*t;		/* the columns; owned */
	int		*checks;	/* enum check per column */
	uint64_t	 rows;
	int		 ended;
};

struct j2r {
	const struct j2r_opts *o;
	struct frame_writer *fw;
	struct jt	**tbls;
	size_t		 ntbls;
	struct jt	*last;

	struct jt	*open;		/* table whose ROWS frame is open */
	struct buf	*rb;		/* its payload (the writer's buffer) */
	size_t		 count_at;
	size_t		 row_at;	/* where the row being added starts */
	uint32_t	 nrows;

	int		 fd;
	struct buf	 in;		/* input; lines from start on */
	size_t		 start, scan;
	int		 eof;
	uint64_t	 line;
	int		 header, trailer;
	struct buf	 bytes;		/* a decoded base64 value */
	struct buf	 kvstore[RP_KV_MAX];
	char		 num[32];
	struct progress	*prog;
	char		 errbuf[600];
};

static int
fail(struct j2r *st, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	n = snprintf(st->errbuf, sizeof(st->errbuf), "%s%sline %" PRIu64
	    ": ", st->o->name ? st->o->name : "", st->o->name ? ": " : "",
	    st->line);
	if (n < 0 || (size_t)n >= sizeof(st->errbuf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(st->errbuf + n, sizeof(st->errbuf) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* An output error: "stdout: why", not a position in the input. */
static int
werr(struct j2r *st)
{
	snprintf(st->errbuf, sizeof(st->errbuf), "stdout: %s",
	    frame_writer_errstr(st->fw));
	return -1;
}

/* JSON access. */

/*
 * Check obj's keys against keys (NULL-terminated; a leading '?' marks an
 * optional one): each must be there, and no other.
 */
static int
check_keys(struct j2r *st, json_t *obj, const char *what,
    const char *const *keys)
{
	const char	*k, *name;
	json_t		*v;
	size_t		 i;

	json_object_foreach(obj, k, v) {
		for (i = 0; keys[i] != NULL; i++) {
			name = keys[i][0] == '?' ? keys[i] + 1 : keys[i];
			if (strcmp(k, name) == 0)
				break;
		}
		if (keys[i] == NULL)
			return fail(st, "%s line with unknown key \"%s\"",
			    what, k);
	}
	for (i = 0; keys[i] != NULL; i++)
		if (keys[i][0] != '?' && json_object_get(obj, keys[i]) == NULL)
			return fail(st, "%s line without \"%s\"", what,
			    keys[i]);
	return 0;
}

/* A name: a string without NUL bytes. */
static const char *
get_name(struct j2r *st, json_t *obj, const char *key)
{
	json_t	*v = json_object_get(obj, key);

	if (!json_is_string(v) || strlen(json_string_value(v)) !=
	    json_string_length(v)) {
		fail(st, "\"%s\" is not a string (without NUL bytes)", key);
		return NULL;
	}
	return json_string_value(v);
}

static int
get_uint(struct j2r *st, json_t *obj, const char *key, uint64_t max,
    uint64_t *out)
{
	json_t	*v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max)
		return fail(st, "\"%s\" is not an integer from 0 to %" PRIu64,
		    key, max);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* {"base64":"..."}: decode into st->bytes.  0, or -1 if it is not one. */
static int
get_base64(struct j2r *st, json_t *v, const char *what)
{
	struct base64_decode_ctx ctx;
	json_t		*s;
	size_t		 n, out;

	if (!json_is_object(v) || json_object_size(v) != 1 ||
	    !json_is_string(s = json_object_get(v, "base64")))
		return fail(st, "%s: an object other than {\"base64\":\"...\"}",
		    what);
	n = json_string_length(s);
	buf_reset(&st->bytes);
	if (buf_grow(&st->bytes, BASE64_DECODE_LENGTH(n)) == -1)
		return fail(st, "%s", strerror(ENOMEM));
	base64_decode_init(&ctx);
	out = BASE64_DECODE_LENGTH(n);
	if (!base64_decode_update(&ctx, &out, (uint8_t *)st->bytes.p, n,
	    json_string_value(s)) || !base64_decode_final(&ctx))
		return fail(st, "%s: invalid base64", what);
	st->bytes.len = out;
	st->bytes.p[out] = '\0';
	return 0;
}

/* Bytes of a text field: a string, or base64 (in st->bytes). */
static int
get_text(struct j2r *st, json_t *v, const char *what, const char **p,
    size_t *len)
{
	if (json_is_string(v)) {
		*p = json_string_value(v);
		*len = json_string_length(v);
		return 0;
	}
	if (get_base64(st, v, what) == -1)
		return -1;
	*p = st->bytes.p;
	*len = st->bytes.len;
	return 0;
}

/* A kv object of texts into kv (values in st->kvstore when decoded). */
static int
get_kv(struct j2r *st, json_t *obj, const char *key, struct rp_kv *kv)
{
	json_t		*o = json_object_get(obj, key), *v;
	const char	*k, *p;
	size_t		 len;

	kv->n = 0;
	if (!json_is_object(o))
		return fail(st, "\"%s\" is not an object", key);
	if (json_object_size(o) > RP_KV_MAX)
		return fail(st, "\"%s\": more than %d keys", key, RP_KV_MAX);
	json_object_foreach(o, k, v) {
		if (get_text(st, v, k, &p, &len) == -1)
			return -1;
		if (memchr(p, '\0', len) != NULL)
			return fail(st, "\"%s\": %s: a NUL byte, which a "
			    "frame's key/value list cannot carry", key, k);
		if (p == st->bytes.p) {
			buf_reset(&st->kvstore[kv->n]);
			buf_add(&st->kvstore[kv->n], p, len);
			if (st->kvstore[kv->n].err)
				return fail(st, "%s", strerror(ENOMEM));
			p = st->kvstore[kv->n].p;
		}
		kv->key[kv->n] = k;
		kv->val[kv->n] = p;
		kv->vlen[kv->n] = len;
		kv->n++;
	}
	return 0;
}

/* Tables. */

static void
jt_free(struct jt *tb)
{
	if (tb == NULL)
		return;
	rp_table_free(tb->t);
	free(tb->checks);
	free(tb);
}

static struct jt *
jt_find(struct j2r *st, const char *db, const char *name)
{
	size_t	 i;

	if (st->last != NULL && strcmp(st->last->t->name, name) == 0 &&
	    strcmp(st->last->t->schema, db) == 0)
		return st->last;
	for (i = st->ntbls; i-- > 0;)
		if (strcmp(st->tbls[i]->t->name, name) == 0 &&
		    strcmp(st->tbls[i]->t->schema, db) == 0)
			return st->last = st->tbls[i];
	return NULL;
}

static int
check_of(const struct rp_column *c)
{
	struct sqlval_col k;

	sqlval_col_setup(&k, c, 1);
	if (k.kind == VK_CSHEX)
		return CK_BYTES;
	return k.kind == VK_ASCII ? CK_ASCII : CK_TEXT;
}

/* One element of a table line's "columns". */
static int
get_column(struct j2r *st, json_t *v, size_t i, struct rp_column *c)
{
	static const char *const keys[] = { "name", "type", "flags",
	    "collation", "decimals", "coltype", NULL };
	const char	*name, *ct;
	uint64_t	 type, flags, coll, dec;

	if (!json_is_object(v))
		return fail(st, "column %zu is not an object", i + 1);
	if (check_keys(st, v, "column", keys) == -1 ||
	    (name = get_name(st, v, "name")) == NULL ||
	    (ct = get_name(st, v, "coltype")) == NULL ||
	    get_uint(st, v, "type", 255, &type) == -1 ||
	    get_uint(st, v, "flags", UINT32_MAX, &flags) == -1 ||
	    get_uint(st, v, "collation", UINT32_MAX, &coll) == -1 ||
	    get_uint(st, v, "decimals", UINT32_MAX, &dec) == -1)
		return -1;
	if ((c->name = strdup(name)) == NULL ||
	    (c->coltype = strdup(ct)) == NULL)
		return fail(st, "%s", strerror(ENOMEM));
	c->type = (unsigned)type;
	c->flags = (unsigned)flags;
	c->charsetnr = (unsigned)coll;
	c->decimals = (unsigned)dec;
	return 0;
}

static int
rows_close(struct j2r *st)
{
	if (st->open == NULL)
		return 0;
	enc_rows_patch(st->rb, st->count_at, st->nrows);
	st->open = NULL;
	if (frame_end(st->fw, FT_ROWS, 0) == -1)
		return werr(st);
	return 0;
}

static int
do_table(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "db", "name", "columns",
	    "attrs", NULL };
	const char	*db, *name;
	struct jt	*tb, **nt;
	struct rp_table	*t;
	json_t		*cols;
	size_t		 i, n;

	if (check_keys(st, j, "table", keys) == -1 ||
	    (db = get_name(st, j, "db")) == NULL ||
	    (name = get_name(st, j, "name")) == NULL)
		return -1;
	if ((tb = jt_find(st, db, name)) != NULL && !tb->ended)
		return fail(st, "%s.%s: a second table line before its end "
		    "line", db, name);
	cols = json_object_get(j, "columns");
	if (!json_is_array(cols) || (n = json_array_size(cols)) == 0)
		return fail(st, "%s.%s: \"columns\" is not an array of "
		    "columns", db, name);
	if ((tb = calloc(1, sizeof(*tb))) == NULL ||
	    (tb->t = t = calloc(1, sizeof(*t))) == NULL ||
	    (t->cols = calloc(n, sizeof(*t->cols))) == NULL ||
	    (tb->checks = calloc(n, sizeof(*tb->checks))) == NULL ||
	    (t->schema = strdup(db)) == NULL ||
	    (t->name = strdup(name)) == NULL ||
	    (nt = reallocarray(st->tbls, st->ntbls + 1,
	    sizeof(*st->tbls))) == NULL) {
		jt_free(tb);
		return fail(st, "%s", strerror(ENOMEM));
	}
	st->tbls = nt;
	st->tbls[st->ntbls++] = st->last = tb;
	t->id = tb->id = st->ntbls;
	t->ncols = n;
	for (i = 0; i < n; i++) {
		if (get_column(st, json_array_get(cols, i), i,
		    &t->cols[i]) == -1)
			return -1;
		tb->checks[i] = check_of(&t->cols[i]);
	}
	if (get_kv(st, j, "attrs", &t->attrs) == -1)
		return -1;
	enc_table(frame_begin(st->fw), t);
	t->attrs.n = 0;		/* it pointed into this line */
	if (frame_end(st->fw, FT_TABLE, 0) == -1)
		return werr(st);
	progress_total(st->prog, st->ntbls, 0, 0);
	return 0;
}

/* Rows. */

/*
 * Non-ASCII text p (len bytes of UTF-8) for col, whose character set is
 * not UTF-8: with --convert, in that set's bytes (charset.h), appended
 * to the open ROWS payload; refused otherwise, or where it has no byte.
 */
static int
put_converted(struct j2r *st, struct jt *tb, const struct rp_column *col,
    const char *p, size_t len)
{
	const char	*cs;
	uint32_t	 cp;

	(void)sqlval_charset_class(col->charsetnr, &cs);
	if (!st->o->convert)
		return fail(st, "%s.%s: %s: non-ASCII text for a column not "
		    "in UTF-8 (%s): give its bytes as {\"base64\":\"...\"}%s",
		    tb->t->schema, tb->t->name, col->name, cs,
		    cs_convertible(cs) ? ", or --convert to convert it from "
		    "UTF-8" : "");
	if (!cs_convertible(cs))
		return fail(st, "%s.%s: %s: non-ASCII text for a column in %s, "
		    "which --convert does not know (latin1 and ascii only): "
		    "give its bytes as {\"base64\":\"...\"}", tb->t->schema,
		    tb->t->name, col->name, cs);
	if (cs_from_utf8(cs, p, len, &st->bytes, &cp) == -1) {
		if (st->bytes.err)
			return fail(st, "%s", strerror(ENOMEM));
		return fail(st, "%s.%s: %s: U+%04" PRIX32 " has no byte in "
		    "%s (--convert): give its bytes as {\"base64\":\"...\"}",
		    tb->t->schema, tb->t->name, col->name, cp, cs);
	}
	enc_val(st->rb, st->bytes.p, st->bytes.len);
	return 0;
}

/* Append column c's value v to the open ROWS payload. */
static int
put_value(struct j2r *st, struct jt *tb, size_t c, json_t *v)
{
	const struct rp_column *col = &tb->t->cols[c];
	const char	*p;
	size_t		 len, i;
	int		 n;

	if (json_is_null(v)) {
		if (col->flags & COL_NOT_NULL)
			return fail(st, "%s.%s: %s: null for a NOT NULL column",
			    tb->t->schema, tb->t->name, col->name);
		enc_val(st->rb, NULL, 0);
		return 0;
	}
	if (json_is_integer(v)) {
		n = snprintf(st->num, sizeof(st->num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		p = st->num;
		len = (size_t)n;
	} else if (json_is_string(v)) {
		p = json_string_value(v);
		len = json_string_length(v);
	} else if (json_is_object(v)) {
		if (get_base64(st, v, col->name) == -1)
			return -1;
		enc_val(st->rb, st->bytes.p, st->bytes.len);
		return 0;
	} else
		return fail(st, "%s.%s: %s: %s", tb->t->schema, tb->t->name,
		    col->name, json_is_real(v) ? "a number with a fraction "
		    "or exponent (give it as a string)" : "neither a string, "
		    "null nor {\"base64\":\"...\"}");
	if (tb->checks[c] == CK_BYTES && len > 0)
		return fail(st, "%s.%s: %s: text for a column in a wide "
		    "character set (give its bytes as {\"base64\":\"...\"})",
		    tb->t->schema, tb->t->name, col->name);
	if (tb->checks[c] == CK_ASCII)
		for (i = 0; i < len; i++)
			if ((unsigned char)p[i] >= 0x80)
				return put_converted(st, tb, col, p, len);
	enc_val(st->rb, p, len);
	return 0;
}

/* The key of row that is no column, or the column row lacks. */
static int
row_mismatch(struct j2r *st, struct jt *tb, json_t *row)
{
	const char	*k;
	json_t		*v;
	size_t		 i;

	json_object_foreach(row, k, v) {
		for (i = 0; i < tb->t->ncols; i++)
			if (strcmp(tb->t->cols[i].name, k) == 0)
				break;
		if (i == tb->t->ncols)
			return fail(st, "%s.%s has no column \"%s\"",
			    tb->t->schema, tb->t->name, k);
	}
	for (i = 0; i < tb->t->ncols; i++)
		if (json_object_get(row, tb->t->cols[i].name) == NULL)
			break;
	return fail(st, "%s.%s: no value for column \"%s\"", tb->t->schema,
	    tb->t->name, i < tb->t->ncols ? tb->t->cols[i].name : "?");
}

static int
do_row(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "db", "table", "row",
	    NULL };
	const char	*db, *name;
	struct jt	*tb;
	json_t		*row, *v;
	size_t		 i;

	if (check_keys(st, j, "row", keys) == -1 ||
	    (db = get_name(st, j, "db")) == NULL ||
	    (name = get_name(st, j, "table")) == NULL)
		return -1;
	if ((tb = jt_find(st, db, name)) == NULL)
		return fail(st, "row of %s.%s before its table line", db, name);
	if (tb->ended)
		return fail(st, "row of %s.%s after its end line", db, name);
	if (!json_is_object(row = json_object_get(j, "row")))
		return fail(st, "\"row\" is not an object");
	if (json_object_size(row) != tb->t->ncols)
		return row_mismatch(st, tb, row);
	if (st->open != tb) {
		if (rows_close(st) == -1)
			return -1;
		st->rb = frame_begin(st->fw);
		enc_rows_begin(st->rb, tb->id, 0);
		st->count_at = st->rb->len;
		st->nrows = 0;
		st->open = tb;
	}
	st->row_at = st->rb->len;
	for (i = 0; i < tb->t->ncols; i++) {
		if ((v = json_object_get(row, tb->t->cols[i].name)) == NULL)
			return row_mismatch(st, tb, row);
		if (put_value(st, tb, i, v) == -1)
			return -1;
	}
	st->nrows++;
	tb->rows++;
	st->row_at = st->rb->len;
	if (st->rb->err)
		return fail(st, "%s", strerror(st->rb->err));
	if (st->rb->len >= FRAME_FLUSH_AT || st->nrows == UINT32_MAX)
		return rows_close(st);
	return 0;
}

static int
do_end(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "db", "name", "?rows",
	    NULL };
	const char	*db, *name;
	struct jt	*tb;

	if (check_keys(st, j, "end", keys) == -1 ||
	    (db = get_name(st, j, "db")) == NULL ||
	    (name = get_name(st, j, "name")) == NULL)
		return -1;
	if ((tb = jt_find(st, db, name)) == NULL || tb->ended)
		return fail(st, "end line of %s.%s without its table line",
		    db, name);
	if (rows_close(st) == -1)
		return -1;
	tb->ended = 1;
	enc_table_end(frame_begin(st->fw), tb->id, tb->rows);
	if (frame_end(st->fw, FT_TABLE_END, 0) == -1)
		return werr(st);
	progress_add(st->prog, 1, tb->rows, 0);
	return 0;
}

/* The other lines. */

static int
do_header(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "version", "meta", NULL };
	struct rp_kv	 kv;
	uint64_t	 version;

	if (check_keys(st, j, "header", keys) == -1 ||
	    get_uint(st, j, "version", UINT32_MAX, &version) == -1)
		return -1;
	if (version != 1)
		return fail(st, "version %" PRIu64 " of the JSON Lines form "
		    "(this json2rows reads version 1)", version);
	if (get_kv(st, j, "meta", &kv) == -1)
		return -1;
	enc_kv(frame_begin(st->fw), kv.key, kv.val, kv.n);
	if (frame_end(st->fw, FT_HEADER, 0) == -1)
		return werr(st);
	return 0;
}

static int
do_object(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "kind", "db", "name",
	    "ddl", "attrs", NULL };
	struct rp_object ob;
	const char	*kind, *errstr;

	if (check_keys(st, j, "object", keys) == -1 ||
	    (kind = get_name(st, j, "kind")) == NULL ||
	    (ob.schema = get_name(st, j, "db")) == NULL ||
	    (ob.name = get_name(st, j, "name")) == NULL ||
	    get_kv(st, j, "attrs", &ob.attrs) == -1 ||
	    get_text(st, json_object_get(j, "ddl"), "ddl", &ob.ddl,
	    &ob.ddl_len) == -1)
		return -1;
	if ((ob.kind = rp_object_kind_parse(kind)) == -1) {
		ob.kind = (int)strtonum(kind, 1, 255, &errstr);
		if (errstr != NULL)
			return fail(st, "unknown object kind \"%s\"", kind);
	}
	enc_object(frame_begin(st->fw), &ob);
	if (frame_end(st->fw, FT_OBJECT, 0) == -1)
		return werr(st);
	return 0;
}

static int
do_stmt(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "no", "line", "offset",
	    "kind", "db", "target_db", "target_table", "text", "?lex_mode",
	    NULL };
	struct rp_stmt	 s;
	const char	*kind;
	uint64_t	 mode = 0;

	if (check_keys(st, j, "stmt", keys) == -1 ||
	    get_uint(st, j, "no", UINT64_MAX >> 1, &s.no) == -1 ||
	    get_uint(st, j, "line", UINT64_MAX >> 1, &s.line) == -1 ||
	    get_uint(st, j, "offset", UINT64_MAX >> 1, &s.offset) == -1 ||
	    (kind = get_name(st, j, "kind")) == NULL ||
	    (s.db = get_name(st, j, "db")) == NULL ||
	    (s.schema = get_name(st, j, "target_db")) == NULL ||
	    (s.table = get_name(st, j, "target_table")) == NULL ||
	    get_text(st, json_object_get(j, "text"), "text", &s.text,
	    &s.len) == -1)
		return -1;
	s.said = json_object_get(j, "lex_mode") != NULL;
	if (s.said && get_uint(st, j, "lex_mode", 3, &mode) == -1)
		return -1;
	s.mode = (int)mode;
	if ((s.kind = rp_stmt_kind_parse(kind)) == -1)
		return fail(st, "unknown statement kind \"%s\"", kind);
	enc_stmt(frame_begin(st->fw), &s);
	if (frame_end(st->fw, FT_STMT, 0) == -1)
		return werr(st);
	return 0;
}

static int
do_trailer(struct j2r *st, json_t *j)
{
	static const char *const keys[] = { "type", "?frames", "?rows",
	    "?stmts", "?objects", "?bytes", NULL };

	if (check_keys(st, j, "trailer", keys) == -1 || rows_close(st) == -1)
		return -1;
	if (frame_writer_close(st->fw) == -1)
		return werr(st);
	st->trailer = 1;
	return 0;
}

static int
do_json(struct j2r *st, json_t *j)
{
	const char	*type;
	json_t		*t = json_object_get(j, "type");

	if (!json_is_string(t))
		return fail(st, "a line without a \"type\" string");
	type = json_string_value(t);
	if (!st->header) {
		if (strcmp(type, "header") != 0)
			return fail(st, "not rows2json output: the first line "
			    "is not its header line");
		st->header = 1;
		return do_header(st, j);
	}
	if (strcmp(type, "row") == 0)
		return do_row(st, j);
	if (st->open != NULL && rows_close(st) == -1)
		return -1;
	if (strcmp(type, "object") == 0)
		return do_object(st, j);
	if (strcmp(type, "table") == 0)
		return do_table(st, j);
	if (strcmp(type, "end") == 0)
		return do_end(st, j);
	if (strcmp(type, "stmt") == 0)
		return do_stmt(st, j);
	if (strcmp(type, "trailer") == 0)
		return do_trailer(st, j);
	if (strcmp(type, "header") == 0)
		return fail(st, "a second header line");
	return fail(st, "unknown line type \"%s\"", type);
}

/* Lines. */

static int
blank(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

static int
do_line(struct j2r *st, const char *s, size_t n, int cut)
{
	json_error_t	 e;
	json_t		*j;
	int		 r;

	if (blank(s, n))
		return 0;
	if (st->trailer)
		return fail(st, "a line after the trailer line");
	if ((j = json_loadb(s, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	    &e)) == NULL)
		return fail(st, "column %d: %s%s", e.column, e.text, cut ?
		    " (the input ends inside this line: cut short?)" : "");
	if (!json_is_object(j))
		r = fail(st, "not a JSON object");
	else
		r = do_json(st, j);
	json_decref(j);
	return r;
}

/*
 * The next line of the input into *p, *n (its LF included, if it has
 * one): 1, 0 at the end of the input, -1 on a read error.  The line stays
 * valid until the next call.
 */
static int
next_line(struct j2r *st, const char **p, size_t *n)
{
	struct buf	*b = &st->in;
	char		*nl;
	ssize_t		 r;

	for (;;) {
		nl = b->len > st->scan ? memchr(b->p + st->scan, '\n',
		    b->len - st->scan) : NULL;
		if (nl != NULL || (st->eof && st->start < b->len)) {
			*p = b->p + st->start;
			*n = nl ? (size_t)(nl + 1 - *p) : b->len - st->start;
			st->start = st->scan = (size_t)(*p + *n - b->p);
			return 1;
		}
		if (st->eof)
			return 0;
		if (st->start > 0) {
			memmove(b->p, b->p + st->start, b->len - st->start);
			b->len -= st->start;
			st->start = 0;
		}
		st->scan = b->len;
		if (buf_grow(b, READ_CHUNK) == -1)
			return fail(st, "%s", strerror(ENOMEM));
		if ((r = read(st->fd, b->p + b->len, READ_CHUNK)) == -1) {
			if (errno == EINTR)
				continue;
			return fail(st, "read: %s", strerror(errno));
		}
		if (r == 0)
			st->eof = 1;
		b->len += (size_t)r;
		progress_add(st->prog, 0, 0, (uint64_t)r);
	}
}

/*
 * After a failure: seal the whole rows of an open ROWS frame, drop the
 * rest, and write out what was sealed, so that the next reader sees a
 * stream that started and was cut.
 */
static void
stop(struct j2r *st)
{
	if (st->open != NULL) {
		st->rb->len = st->row_at;
		if (st->nrows > 0)
			rows_close(st);
		else {
			st->open = NULL;
			frame_cancel(st->fw);
		}
	}
	frame_writer_flush(st->fw);
}

static int
convert(struct j2r *st)
{
	const char	*line = NULL, *what;
	size_t		 n = 0;
	int		 r;

	while ((r = next_line(st, &line, &n)) == 1) {
		st->line++;
		if (st->line == 1 &&
		    (what = frame_sniff_magic(line, st->in.len)) != NULL)
			return fail(st, "%s, not JSON Lines", what);
		if (do_line(st, line, n, line[n - 1] != '\n') == -1)
			return -1;
	}
	if (r == -1)
		return -1;
	if (!st->header) {
		snprintf(st->errbuf, sizeof(st->errbuf), "%s%sempty input: "
		    "no header line", st->o->name ? st->o->name : "",
		    st->o->name ? ": " : "");
		return -1;
	}
	if (!st->trailer) {
		snprintf(st->errbuf, sizeof(st->errbuf), "%s%struncated after "
		    "line %" PRIu64 ": no trailer line (a cut stream)",
		    st->o->name ? st->o->name : "", st->o->name ? ": " : "",
		    st->line);
		return -1;
	}
	return 0;
}

int
json2rows(int fd, int out_fd, const struct j2r_opts *o, const char **errmsg)
{
	static char	 msg[700];
	struct j2r	 st;
	size_t		 i;
	int		 r = -1;

	memset(&st, 0, sizeof(st));
	st.o = o;
	st.fd = fd;
	if ((st.fw = frame_writer_new(out_fd)) == NULL ||
	    (st.prog = progress_new("json2rows", "tables", o->progress)) ==
	    NULL)
		snprintf(st.errbuf, sizeof(st.errbuf), "%s", strerror(errno));
	else if ((r = convert(&st)) == -1 && !st.trailer)
		stop(&st);
	snprintf(msg, sizeof(msg), "%s", st.errbuf);
	progress_end(st.prog, r == 0);
	frame_writer_free(st.fw);
	for (i = 0; i < st.ntbls; i++)
		jt_free(st.tbls[i]);
	free(st.tbls);
	buf_release(&st.in);
	buf_release(&st.bytes);
	for (i = 0; i < RP_KV_MAX; i++)
		buf_release(&st.kvstore[i]);
	*errmsg = msg;
	return r;
}
