/*
 * payload: the encodings of the rowpipe-stream(5) frame payloads
 * (varints, strings, key/value lists, objects, tables, rows, statements);
 * see frame.h and man/man5/rowpipe-stream.5.  The stream around them
 * (prelude, frame headers, checksums, trailer) is frame.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "util.h"

static const char *const stmt_kinds[STK_KIND_MAX] = {
	[STK_OTHER] = "other",
	[STK_INSERT] = "insert",
	[STK_CREATE_TABLE] = "create-table",
	[STK_CREATE_VIEW] = "create-view",
	[STK_CREATE_ROUTINE] = "create-routine",
	[STK_CREATE_TRIGGER] = "create-trigger",
	[STK_CREATE_EVENT] = "create-event",
	[STK_CREATE_DATABASE] = "create-database",
	[STK_ALTER] = "alter",
	[STK_DROP] = "drop",
	[STK_SET] = "set",
	[STK_USE] = "use",
	[STK_LOCK] = "lock",
	[STK_UNLOCK] = "unlock",
	[STK_TRANSACTION] = "transaction",
	[STK_UPDATE] = "update",
	[STK_DELETE] = "delete",
	[STK_LOAD] = "load",
	[STK_SET_SERVER] = "set-server",
};

const char *
rp_stmt_kind_name(int kind)
{
	if (kind < 0 || kind >= STK_KIND_MAX)
		return NULL;
	return stmt_kinds[kind];
}

int
rp_stmt_kind_parse(const char *name)
{
	int	 k;

	for (k = 0; k < STK_KIND_MAX; k++)
		if (strcmp(stmt_kinds[k], name) == 0)
			return k;
	return -1;
}

static const char *const object_kinds[] = {
	[OBJ_DATABASE] = "database",
	[OBJ_TABLE] = "table",
	[OBJ_VIEW] = "view",
	[OBJ_PROCEDURE] = "procedure",
	[OBJ_FUNCTION] = "function",
	[OBJ_TRIGGER] = "trigger",
	[OBJ_EVENT] = "event",
	[OBJ_SEQUENCE] = "sequence",
	[OBJ_PACKAGE] = "package",
	[OBJ_PACKAGE_BODY] = "package body",
	[OBJ_USER] = "user",
	[OBJ_ROLE] = "role",
	[OBJ_GRANT] = "grant",
};
#define NOBJECT_KINDS	(int)(sizeof(object_kinds) / sizeof(object_kinds[0]))

const char *
rp_object_kind_name(int kind)
{
	if (kind < 0 || kind >= NOBJECT_KINDS)
		return NULL;
	return object_kinds[kind];
}

int
rp_object_kind_parse(const char *name)
{
	int	 k;

	for (k = 1; k < NOBJECT_KINDS; k++)
		if (object_kinds[k] != NULL && strcmp(object_kinds[k], name) == 0)
			return k;
	return -1;
}

void
enc_object(struct buf *b, const struct rp_object *o)
{
	enc_varint(b, (uint64_t)o->kind);
	enc_cstr(b, o->schema);
	enc_cstr(b, o->name);
	enc_str(b, o->ddl, o->ddl_len);
	enc_kv(b, o->attrs.key, o->attrs.val, o->attrs.n);
}

int
dec_object(const struct frame *f, struct rp_object *o)
{
	struct dec	 d;

	dec_init(&d, f->p, f->len);
	o->kind = (int)dec_varint(&d);
	o->schema = dec_str(&d, NULL);
	o->name = dec_str(&d, NULL);
	o->ddl = dec_str(&d, &o->ddl_len);
	if (dec_kv(&d, &o->attrs) == -1 || d.err)
		return -1;
	return 0;
}

void
enc_table(struct buf *b, const struct rp_table *t)
{
	const struct rp_column	*c;
	size_t			 i;

	enc_varint(b, t->id);
	enc_cstr(b, t->schema);
	enc_cstr(b, t->name);
	enc_varint(b, t->ncols);
	for (i = 0; i < t->ncols; i++) {
		c = &t->cols[i];
		enc_cstr(b, c->name);
		enc_varint(b, c->type);
		enc_varint(b, c->flags);
		enc_varint(b, c->charsetnr);
		enc_varint(b, c->decimals);
		enc_cstr(b, c->coltype);
	}
	enc_kv(b, t->attrs.key, t->attrs.val, t->attrs.n);
}

static char *
dup_str(struct dec *d, int *nomem)
{
	const char	*s;
	size_t		 len;
	char		*p;

	s = dec_str(d, &len);
	if ((p = malloc(len + 1)) == NULL) {
		*nomem = 1;
		return NULL;
	}
	memcpy(p, s, len + 1);
	return p;
}

struct rp_table *
dec_table(const struct frame *f)
{
	struct rp_table		*t;
	struct rp_column	*c;
	struct dec		 d, kd;
	uint64_t		 n, i;
	int			 nomem = 0;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	dec_init(&d, f->p, f->len);
	t->id = dec_varint(&d);
	t->schema = dup_str(&d, &nomem);
	t->name = dup_str(&d, &nomem);
	n = dec_varint(&d);
	/* Every column takes at least 7 payload bytes: no huge calloc. */
	if (d.err || nomem || n > (uint64_t)(d.end - d.p) / 7 || t->id == 0)
		goto fail;
	if ((t->cols = calloc(n ? n : 1, sizeof(*t->cols))) == NULL)
		goto fail;
	t->ncols = (size_t)n;
	for (i = 0; i < n && !d.err && !nomem; i++) {
		c = &t->cols[i];
		c->name = dup_str(&d, &nomem);
		c->type = (unsigned)dec_varint(&d);
		c->flags = (unsigned)dec_varint(&d);
		c->charsetnr = (unsigned)dec_varint(&d);
		c->decimals = (unsigned)dec_varint(&d);
		c->coltype = dup_str(&d, &nomem);
	}
	if (d.err || nomem)
		goto fail;
	if (d.p < d.end) {
		if ((t->attrs_mem = malloc((size_t)(d.end - d.p))) == NULL)
			goto fail;
		memcpy(t->attrs_mem, d.p, (size_t)(d.end - d.p));
		dec_init(&kd, t->attrs_mem, (size_t)(d.end - d.p));
		if (dec_kv(&kd, &t->attrs) == -1)
			goto fail;
	}
	return t;
fail:
	rp_table_free(t);
	return NULL;
}

void
rp_table_free(struct rp_table *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; t->cols != NULL && i < t->ncols; i++) {
		free(t->cols[i].name);
		free(t->cols[i].coltype);
	}
	free(t->cols);
	free(t->schema);
	free(t->name);
	free(t->attrs_mem);
	free(t);
}

void
enc_rows_begin(struct buf *b, uint64_t table_id, uint32_t nrows)
{
	uint8_t	 n[4];

	enc_varint(b, table_id);
	le32_put(n, nrows);
	buf_add(b, n, 4);
}

void
enc_rows_patch(struct buf *b, size_t at, uint32_t nrows)
{
	if (b->err || at < 4 || at > b->len)
		return;
	le32_put((uint8_t *)b->p + at - 4, nrows);
}

int
dec_rows_begin(const struct frame *f, struct rp_rows *r)
{
	dec_init(&r->d, f->p, f->len);
	r->table_id = dec_varint(&r->d);
	if (r->d.err || r->d.end - r->d.p < 4)
		return -1;
	r->nrows = r->left = le32_get(r->d.p);
	r->d.p += 4;
	return 0;
}

int
dec_rows_next(struct rp_rows *r, struct rp_val *vals, size_t ncols)
{
	struct dec	*d = &r->d;
	const uint8_t	*p = d->p, *end = d->end;
	uint64_t	 v;
	size_t		 i = 0;

	if (r->left == 0)
		return 0;
	while (i < ncols) {
		/*
		 * A one-byte length is at most 127, its value at most 126
		 * bytes: with 128 bytes left a column, no bounds checks.
		 */
		if ((size_t)(end - p) / 128 >= ncols - i)
			for (; i < ncols && *p < 0x80; i++) {
				if (*p == 0) {
					vals[i].p = NULL;
					vals[i].len = 0;
					p++;
					continue;
				}
				vals[i].p = (const char *)p + 1;
				vals[i].len = (size_t)*p - 1;
				p += *p;
			}
		if (i == ncols)
			break;
		if (p >= end)
			return -1;
		if (*p < 0x80)
			v = *p++;
		else {
			d->p = p;
			v = dec_varint(d);
			if (d->err)
				return -1;
			p = d->p;
		}
		if (v == 0) {
			vals[i].p = NULL;
			vals[i++].len = 0;
			continue;
		}
		if (v - 1 > (uint64_t)(end - p))
			return -1;
		vals[i].p = (const char *)p;
		vals[i++].len = (size_t)(v - 1);
		p += v - 1;
	}
	d->p = p;
	r->left--;
	return 1;
}

void
enc_table_end(struct buf *b, uint64_t table_id, uint64_t rows)
{
	enc_varint(b, table_id);
	enc_varint(b, rows);
}

int
dec_table_end(const struct frame *f, uint64_t *table_id, uint64_t *rows)
{
	struct dec	 d;

	dec_init(&d, f->p, f->len);
	*table_id = dec_varint(&d);
	*rows = dec_varint(&d);
	return d.err ? -1 : 0;
}

/* STMT before its text's bytes: the fields, then the text's length. */
static void
stmt_head(struct buf *b, const struct rp_stmt *s)
{
	enc_varint(b, s->no);
	enc_varint(b, s->line);
	enc_varint(b, s->offset);
	enc_varint(b, (uint64_t)s->kind);
	enc_cstr(b, s->db);
	enc_cstr(b, s->schema);
	enc_cstr(b, s->table);
	enc_varint(b, s->len);
}

/* STMT after its text's bytes: enc_str()'s NUL, the lexer mode. */
static void
stmt_tail(struct buf *b, const struct rp_stmt *s)
{
	buf_add(b, "", 1);
	if (s->said)
		enc_varint(b, (uint64_t)s->mode);
}

void
enc_stmt(struct buf *b, const struct rp_stmt *s)
{
	stmt_head(b, s);
	buf_add(b, s->text, s->len);
	stmt_tail(b, s);
}

void
enc_stmt_split(struct buf *head, struct buf *tail, const struct rp_stmt *s)
{
	stmt_head(head, s);
	stmt_tail(tail, s);
}

int
dec_stmt(const struct frame *f, struct rp_stmt *s)
{
	struct dec	 d;

	dec_init(&d, f->p, f->len);
	s->no = dec_varint(&d);
	s->line = dec_varint(&d);
	s->offset = dec_varint(&d);
	s->kind = (int)dec_varint(&d);
	s->db = dec_str(&d, NULL);
	s->schema = dec_str(&d, NULL);
	s->table = dec_str(&d, NULL);
	s->text = dec_str(&d, &s->len);
	s->mode = 0;
	s->said = 0;
	if (!d.err && d.p < d.end) {
		/* (bits a later version may add are not this lexer's) */
		s->mode = (int)(dec_varint(&d) & 0x03);
		s->said = 1;
	}
	return d.err ? -1 : 0;
}
