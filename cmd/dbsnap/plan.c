/*
 * plan: one dump cut into N parts that N machines can run at once (#19).
 *
 * dbsnap --plan N prints a plan: every base table as one unit, or, when
 * it is large and its key starts with an integer column, as ranges of
 * that column between its MIN and MAX (the first and last open); the
 * units go to N parts, largest first, each to the part with the fewest
 * estimated bytes so far (the LPT rule: Graham, "Bounds on multiprocessing
 * timing anomalies", SIAM J. Appl. Math. 17, 1969).  The document is text,
 * one line a fact, and ends with the XXH3_64bits of everything before its
 * hash line: the same catalogue gives the same bytes, and the same hash.
 *
 * dbsnap --part I/N dumps part I: the rows of its units, with the plan's
 * hash, I and N in the header; part 1 also carries the objects made
 * before the rows (databases, tables, sequences), part N those made after
 * them (routines, views, triggers, events), so that loading the parts in
 * order creates the tables first and the triggers last.  Each (table,
 * part) gets its own table id, table index * N + I, unique across the
 * parts, so that the parts of a plan can be loaded as one stream.
 *
 * The plan is best computed once and handed to every part (--plan-file):
 * servers' estimates differ (replicas sample their statistics on their
 * own), and a recomputed plan then differs, which the hash shows and the
 * loader refuses.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "dbsnap.h"
#include "report.h"
#include "quote.h"

#define PLAN_MAX_FILE	((size_t)64 << 20)
#define PLAN_CUTS	4	/* units per part a large table is cut for */

struct unit {
	unsigned	 part;		/* 1..N */
	uint64_t	 bytes;		/* estimated */
	char		*schema, *table;
	char		*column;	/* NULL: the whole table */
	int		 has_lo, has_hi;
	__int128	 lo, hi;
	size_t		 tindex;	/* the table's index in the plan, from 0 */
};

struct plan {
	unsigned	 parts;
	char		**dbs, **tables, **ignore;
	size_t		 ndbs, ntables, nignore;
	struct unit	*u;
	size_t		 n;
	size_t		 ntab;		/* distinct tables, tindex < ntab */
	struct table	**tab;		/* by tindex, once part_begin() ran */
	char		 hash[17];
};

static struct plan *the_plan;		/* from --plan-file */

static void
push_str(char ***v, size_t *n, char *p)
{
	if ((*v = reallocarray(*v, *n + 1, sizeof(**v))) == NULL)
		err(1, NULL);
	(*v)[(*n)++] = p;
}

static struct unit *
new_unit(struct plan *p)
{
	if ((p->n & 63) == 0 &&
	    (p->u = reallocarray(p->u, p->n + 64, sizeof(*p->u))) == NULL)
		err(1, NULL);
	memset(&p->u[p->n], 0, sizeof(p->u[p->n]));
	return &p->u[p->n++];
}

/* A field: backslash, tab, newline and CR escaped. */
static void
add_field(struct buf *b, const char *s)
{
	buf_addc(b, '\t');
	quote_tsv(b, s, strlen(s));
}

static void
add_bound(struct buf *b, int has, __int128 v)
{
	buf_addc(b, '\t');
	if (has)
		add_int128(b, v);
	else
		buf_addc(b, '-');
}

/* The document, hash line included, into b. */
static void
plan_text(struct plan *p, struct buf *b)
{
	uint64_t	*bytes;
	size_t		*count, i;
	struct unit	*u;

	bytes = xcalloc(p->parts + 1, sizeof(*bytes));
	count = xcalloc(p->parts + 1, sizeof(*count));
	buf_addf(b, "rowpipe-plan\t1\nparts\t%u\n", p->parts);
	for (i = 0; i < p->ndbs; i++) {
		buf_adds(b, "database");
		add_field(b, p->dbs[i]);
		buf_addc(b, '\n');
	}
	for (i = 0; i < p->ntables; i++) {
		buf_adds(b, "table");
		add_field(b, p->tables[i]);
		buf_addc(b, '\n');
	}
	for (i = 0; i < p->nignore; i++) {
		buf_adds(b, "ignore");
		add_field(b, p->ignore[i]);
		buf_addc(b, '\n');
	}
	for (i = 0; i < p->n; i++) {
		u = &p->u[i];
		buf_addf(b, "unit\t%u\t%" PRIu64, u->part, u->bytes);
		add_field(b, u->schema);
		add_field(b, u->table);
		if (u->column != NULL) {
			add_field(b, u->column);
			add_bound(b, u->has_lo, u->lo);
			add_bound(b, u->has_hi, u->hi);
		}
		buf_addc(b, '\n');
		bytes[u->part] += u->bytes;
		count[u->part]++;
	}
	for (i = 1; i <= p->parts; i++)
		buf_addf(b, "part\t%zu\t%" PRIu64 "\t%zu\n", i, bytes[i],
		    count[i]);
	must(b);
	snprintf(p->hash, sizeof(p->hash), "%016" PRIx64,
	    (uint64_t)XXH3_64bits(b->p, b->len));
	buf_addf(b, "hash\t%s\n", p->hash);
	must(b);
	free(bytes);
	free(count);
}

/* Cut t into ranges of its first key column, about target bytes each. */
static void
cut_table(struct snap *s, struct plan *p, struct table *t, uint64_t b,
    uint64_t target, size_t tindex)
{
	struct unit	*u;
	__int128	 lo, hi, span, k;
	size_t		 i;

	k = (__int128)(b / target + (b % target != 0));
	if (k > (__int128)p->parts * PLAN_CUTS)
		k = (__int128)p->parts * PLAN_CUTS;
	if (k >= 2 && key_is_integer(t) && key_bounds(s, t, &lo, &hi) == 0) {
		span = hi - lo + 1;
		if (k > span)
			k = span;
	} else
		k = 1;
	if (k < 2) {
		u = new_unit(p);
		u->bytes = b;
		u->schema = t->schema;
		u->table = t->name;
		u->tindex = tindex;
		return;
	}
	for (i = 0; i < (size_t)k; i++) {
		u = new_unit(p);
		u->bytes = (uint64_t)((__int128)b * (i + 1) / k -
		    (__int128)b * i / k);
		u->schema = t->schema;
		u->table = t->name;
		u->column = t->cols[t->key[0]].name;
		u->tindex = tindex;
		u->has_lo = i > 0;
		u->lo = lo + span * (__int128)i / k;
		u->has_hi = i + 1 < (size_t)k;
		u->hi = lo + span * (__int128)(i + 1) / k;
	}
}

static int
cmp_load(const void *a, const void *b)
{
	const struct unit *x = *(struct unit *const *)a;
	const struct unit *y = *(struct unit *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->tindex != y->tindex)
		return x->tindex < y->tindex ? -1 : 1;
	return x < y ? -1 : x > y;	/* the order they were cut in */
}

/* LPT: largest unit first, to the part with the fewest bytes so far. */
static void
assign_parts(struct plan *p)
{
	struct unit	**order;
	uint64_t	*load;
	size_t		 i;
	unsigned	 j, best;

	order = xcalloc(p->n, sizeof(*order));
	load = xcalloc(p->parts + 1, sizeof(*load));
	for (i = 0; i < p->n; i++)
		order[i] = &p->u[i];
	qsort(order, p->n, sizeof(*order), cmp_load);
	for (i = 0; i < p->n; i++) {
		for (best = 1, j = 2; j <= p->parts; j++)
			if (load[j] < load[best])
				best = j;
		order[i]->part = best;
		load[best] += order[i]->bytes;
	}
	free(order);
	free(load);
}

/* The plan of the catalogue s has discovered, for N parts. */
static struct plan *
plan_compute(struct snap *s, unsigned parts)
{
	struct plan	*p = xcalloc(1, sizeof(*p));
	struct table	*t;
	uint64_t	 total = 0, target;
	size_t		 i;

	p->parts = parts;
	p->dbs = s->o->dbs;
	p->ndbs = s->o->ndbs;
	p->tables = s->o->tables;
	p->ntables = s->o->ntables;
	p->ignore = s->o->ignore;
	p->nignore = s->o->nignore;
	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (!t->is_view && !t->is_sequence)
			total += t->bytes_est > 0 ? t->bytes_est : 1;
	}
	target = total / ((uint64_t)parts * PLAN_CUTS);
	if (target == 0)
		target = 1;
	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence)
			continue;
		cut_table(s, p, t, t->bytes_est > 0 ? t->bytes_est : 1,
		    target, p->ntab++);
	}
	assign_parts(p);
	return p;
}

void
plan_print(struct snap *s)
{
	struct plan	*p = plan_compute(s, s->o->plan_parts);
	struct buf	 b = BUF_INIT;

	plan_text(p, &b);
	if (fwrite(b.p, 1, b.len, stdout) != b.len)
		err(1, "stdout");
	buf_release(&b);
	free(p->u);		/* the units borrow the catalogue's strings */
	free(p);
}

/* Reading a plan file. */

static __dead void
bad(const char *file, size_t line, const char *why)
{
	if (line > 0)
		errx(1, "%s: line %zu: %s", file, line, why);
	errx(1, "%s: %s", file, why);
}

/* Split line (NUL-terminated, no newline) at tabs, unescaping in place. */
static size_t
split(char *line, char **f, size_t max, int *ok)
{
	char	*r, *w;
	size_t	 n = 0;

	*ok = 1;
	f[n++] = line;
	for (r = w = line; *r != '\0'; r++) {
		if (*r == '\t') {
			*w++ = '\0';
			if (n == max) {
				*ok = 0;
				return n;
			}
			f[n++] = w;
			continue;
		}
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		switch (*++r) {
		case '\\':	*w++ = '\\'; break;
		case 't':	*w++ = '\t'; break;
		case 'n':	*w++ = '\n'; break;
		case 'r':	*w++ = '\r'; break;
		default:	*ok = 0; return n;
		}
	}
	*w = '\0';
	return n;
}

static int
parse_u64(const char *v, uint64_t *out)
{
	char	*end;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

static int
parse_bound(const char *v, int *has, __int128 *out)
{
	uint64_t	 u;

	*has = strcmp(v, "-") != 0;
	if (!*has)
		return 0;
	if (*v == '-') {
		if (parse_u64(v + 1, &u) == -1 || u > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = -(__int128)u;
		return 0;
	}
	if (parse_u64(v, &u) == -1)
		return -1;
	*out = u;
	return 0;
}

static const char *
parse_unit(struct plan *p, char **f, size_t nf)
{
	struct unit	*u, *prev;
	uint64_t	 part;

	if (nf != 5 && nf != 8)
		return "a unit line has 5 or 8 fields";
	if (parse_u64(f[1], &part) == -1 || part < 1 || part > p->parts)
		return "unit: bad part number";
	prev = p->n > 0 ? &p->u[p->n - 1] : NULL;
	u = new_unit(p);
	u->part = (unsigned)part;
	if (parse_u64(f[2], &u->bytes) == -1)
		return "unit: bad byte count";
	u->schema = xstrdup(f[3]);
	u->table = xstrdup(f[4]);
	if (nf == 8) {
		u->column = xstrdup(f[5]);
		if (parse_bound(f[6], &u->has_lo, &u->lo) == -1 ||
		    parse_bound(f[7], &u->has_hi, &u->hi) == -1)
			return "unit: bad range";
	}
	/* The units of a table: one whole, or ranges that tile the key. */
	if (prev != NULL && strcmp(prev->schema, u->schema) == 0 &&
	    strcmp(prev->table, u->table) == 0) {
		u->tindex = prev->tindex;
		if (prev->column == NULL || u->column == NULL ||
		    strcmp(prev->column, u->column) != 0 || !prev->has_hi ||
		    !u->has_lo || prev->hi != u->lo)
			return "unit: ranges of one table must follow each "
			    "other on one column";
	} else {
		if (prev != NULL && prev->column != NULL && prev->has_hi)
			return "unit: the last range of a table must be open";
		if (u->column != NULL && u->has_lo)
			return "unit: the first range of a table must be open";
		u->tindex = p->ntab++;
	}
	if (u->has_lo && u->has_hi && u->lo >= u->hi)
		return "unit: empty range";
	return NULL;
}

/* One line of the document; NULL, or why it is wrong. */
static const char *
parse_line(struct plan *p, char *line, size_t no)
{
	char		*f[9];
	size_t		 nf;
	uint64_t	 v;
	int		 ok;

	nf = split(line, f, 9, &ok);
	if (!ok)
		return "bad escape or too many fields";
	if (no == 1)
		return nf == 2 && strcmp(f[0], "rowpipe-plan") == 0 &&
		    strcmp(f[1], "1") == 0 ? NULL :
		    "not a rowpipe plan (version 1)";
	if (strcmp(f[0], "parts") == 0) {
		if (nf != 2 || p->parts != 0 || parse_u64(f[1], &v) == -1 ||
		    v < 1 || v > 1024)
			return "bad parts line";
		p->parts = (unsigned)v;
		return NULL;
	}
	if (p->parts == 0)
		return "the parts line must come first";
	if (strcmp(f[0], "database") == 0 && nf == 2)
		push_str(&p->dbs, &p->ndbs, xstrdup(f[1]));
	else if (strcmp(f[0], "table") == 0 && nf == 2)
		push_str(&p->tables, &p->ntables, xstrdup(f[1]));
	else if (strcmp(f[0], "ignore") == 0 && nf == 2)
		push_str(&p->ignore, &p->nignore, xstrdup(f[1]));
	else if (strcmp(f[0], "unit") == 0)
		return parse_unit(p, f, nf);
	else if (strcmp(f[0], "part") != 0 || nf != 4)	/* totals: derived */
		return "unknown line";
	return NULL;
}

static char *
read_file(const char *file, size_t *lenp)
{
	struct buf	 b = BUF_INIT;
	FILE		*fp;
	char		 chunk[65536];
	size_t		 n;

	if ((fp = fopen(file, "r")) == NULL)
		err(1, "%s", file);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		buf_add(&b, chunk, n);
		if (b.len > PLAN_MAX_FILE)
			bad(file, 0, "larger than 64 MiB: not a plan");
	}
	if (ferror(fp))
		err(1, "%s", file);
	fclose(fp);
	if (b.err)
		err(1, NULL);
	*lenp = b.len;
	return b.len > 0 ? buf_detach(&b, NULL) : (buf_release(&b), NULL);
}

static int
same_list(char **a, size_t na, char **b, size_t nb)
{
	size_t	 i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return 0;
	return 1;
}

void
plan_read(struct snap_opts *o)
{
	struct plan	*p = xcalloc(1, sizeof(*p));
	const char	*file = o->plan_file, *why;
	char		*text, *line, *nl, *h;
	size_t		 len, no = 0;

	if ((text = read_file(file, &len)) == NULL)
		bad(file, 0, "empty: not a plan");
	/* The hash line is last: the hash covers every byte before it. */
	if (len < 2 || text[len - 1] != '\n')
		bad(file, 0, "does not end with a newline: cut short?");
	text[len - 1] = '\0';
	if ((h = strrchr(text, '\n')) == NULL || strncmp(h + 1, "hash\t", 5))
		bad(file, 0, "no hash line at the end: cut short?");
	snprintf(p->hash, sizeof(p->hash), "%016" PRIx64,
	    (uint64_t)XXH3_64bits(text, (size_t)(h + 1 - text)));
	if (strcmp(h + 6, p->hash) != 0)
		bad(file, 0, "the hash does not match the text: changed or "
		    "damaged");
	*h = '\0';
	for (line = text; line != NULL; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		if ((why = parse_line(p, line, ++no)) != NULL)
			bad(file, no, why);
	}
	if (p->n > 0 && p->u[p->n - 1].column != NULL &&
	    p->u[p->n - 1].has_hi)
		bad(file, no, "unit: the last range of a table must be open");
	if (p->ndbs == 0)
		bad(file, 0, "names no database");
	if (p->parts != o->parts)
		errx(2, "--part %u/%u: the plan %s is for %u parts", o->part,
		    o->parts, file, p->parts);
	/* Arguments, if given, must be what the plan was made for. */
	if (o->ndbs > 0 && (!same_list(o->dbs, o->ndbs, p->dbs, p->ndbs) ||
	    !same_list(o->tables, o->ntables, p->tables, p->ntables)))
		errx(2, "--plan-file %s: the plan is for other databases or "
		    "tables than the arguments name (give none: the plan "
		    "names them)", file);
	/* The arguments' arrays (of argv's strings) give way to the plan's. */
	free(o->dbs);
	free(o->tables);
	free(o->ignore);
	o->dbs = p->dbs;
	o->ndbs = p->ndbs;
	o->tables = p->tables;
	o->ntables = p->ntables;
	o->ignore = p->ignore;
	o->nignore = p->nignore;
	o->by_list = 1;
	o->all_databases = 0;
	the_plan = p;
	free(text);
}

/* Checking the catalogue against the plan, and dumping a part. */

static struct unit *
first_unit(struct plan *p, size_t tindex)
{
	size_t	 i;

	for (i = 0; i < p->n; i++)
		if (p->u[i].tindex == tindex)
			return &p->u[i];
	return NULL;
}

static void
check_catalogue(struct snap *s, struct plan *p)
{
	struct table	*t;
	struct unit	*u;
	size_t		 i, j;

	p->tab = xcalloc(p->ntab, sizeof(*p->tab));
	for (i = 0; i < p->n; i++) {
		u = &p->u[i];
		if (p->tab[u->tindex] != NULL)
			continue;
		if ((t = find_table(s, u->schema, u->table)) == NULL ||
		    t->is_view || t->is_sequence)
			die(s, "%s.%s: in the plan, but not a table on this "
			    "server", u->schema, u->table);
		if (u->column != NULL && (!key_is_integer(t) ||
		    strcmp(t->cols[t->key[0]].name, u->column) != 0))
			die(s, "%s.%s: the plan cuts it on column %s, which "
			    "does not start its key here: make a new plan",
			    u->schema, u->table, u->column);
		p->tab[u->tindex] = t;
	}
	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence)
			continue;
		for (j = 0; j < p->ntab && p->tab[j] != t; j++)
			;
		if (j == p->ntab)
			die(s, "%s.%s: not in the plan (made before the table "
			    "was?): make a new plan", t->schema, t->name);
	}
}

void
part_begin(struct snap *s)
{
	struct plan	*p = the_plan;
	struct buf	 b = BUF_INIT;
	char		 v[32];

	if (p == NULL) {		/* recomputed: the hash shows it */
		p = plan_compute(s, s->o->parts);
		plan_text(p, &b);
		buf_release(&b);
	}
	check_catalogue(s, p);
	s->plan = p;
	attrs_add(&s->header, "plan", p->hash);
	snprintf(v, sizeof(v), "%u", s->o->part);
	attrs_add(&s->header, "part", v);
	snprintf(v, sizeof(v), "%u", s->o->parts);
	attrs_add(&s->header, "parts", v);
}

int
part_table(struct snap *s, struct table *t)
{
	struct plan	*p = s->plan;
	struct unit	*u, *first;
	size_t		 ti, i, n = 0;

	for (ti = 0; ti < p->ntab && p->tab[ti] != t; ti++)
		;
	if (ti == p->ntab || (first = first_unit(p, ti)) == NULL)
		return 0;
	for (u = first; u < p->u + p->n && u->tindex == ti; u++)
		n += u->part == s->o->part;
	if (n == 0)
		return 0;
	t->id = (uint64_t)ti * p->parts + s->o->part;
	if (first->column == NULL)
		return 1;		/* whole: chunked as without a plan */
	t->mode = TM_RANGE;
	t->chunks = xcalloc(n, sizeof(*t->chunks));
	for (u = first, i = 0; u < p->u + p->n && u->tindex == ti; u++)
		if (u->part == s->o->part)
			t->chunks[i++].cond = range_cond(&t->cols[t->key[0]],
			    u->has_lo, u->lo, u->has_hi, u->hi);
	t->nchunks = n;
	return 1;
}

/*
 * Every table this run reads gets its stream id and its chunks: from the
 * --part plan, or by chunks.c as without one.
 */
void
plan_chunks(struct snap *s)
{
	struct table	*t;
	size_t		 i;

	for (i = 0; i < s->ntables; i++) {
		t = s->tables[i];
		if (t->is_view || t->is_sequence || t->rows_elsewhere)
			continue;
		/* --part: the plan's ranges, or not in this part (id 0) */
		if (s->plan != NULL) {
			if (part_table(s, t) == 0)
				continue;
		} else
			t->id = ++s->next_id;
		if (t->nchunks == 0)
			chunk_table(s, t);
	}
}

int
part_pre(const struct snap *s)
{
	return s->o->parts == 0 || s->o->part == 1;
}

int
part_post(const struct snap *s)
{
	return s->o->parts == 0 || s->o->part == s->o->parts;
}
