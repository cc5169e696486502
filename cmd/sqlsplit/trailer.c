/*
 * trailer: the lines that say whether the input is whole: rows2sql's
 * header and trailer line (lib/sqltrailer.h), checked against the
 * statements and bytes before it, and mysqldump's header and its
 * closing "-- Dump completed" comment.
 */
#include <string.h>

#include "sqltrailer.h"
#include "state.h"

/* Record a rows2sql trailer or mysqldump marker line starting at pos. */
int
marker_line(struct split *s, size_t pos)
{
	const char	*b = s->buf + pos, *nl;
	size_t		 n = s->len - pos, ll;
	uint64_t	 off = s->base + pos;

	if (n < 24 && !s->eof)
		return 2;
	if (n >= SQLTRAILER_PREFIX_LEN &&
	    memcmp(b, SQLTRAILER_PREFIX, SQLTRAILER_PREFIX_LEN) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		ll = nl ? (size_t)(nl - b) : n;
		s->mark.tr_off = off;
		s->mark.tr_end = off + ll + (nl != NULL);
		s->mark.tr_stmts = s->nstmt;
		hash_to(s, off);
		s->mark.tr_hash = XXH3_64bits_digest(s->xx);
		s->mark.tr_seen = (nl != NULL && !s->started &&
		    sqltrailer_parse(b, ll, &s->mark.tr) == 0) ? 1 : -1;
		return 0;
	}
	if (off == 0 && n >= SQLTRAILER_HEADER_LEN &&
	    memcmp(b, SQLTRAILER_HEADER, SQLTRAILER_HEADER_LEN) == 0)
		s->mark.r2s_hdr = 1;
	else if (off < 1024 && ((n >= 14 && memcmp(b, "-- MySQL dump ", 14) == 0) ||
	    (n >= 16 && memcmp(b, "-- MariaDB dump ", 16) == 0)))
		s->mark.dump_hdr = 1;
	else if (n >= 17 && memcmp(b, "-- Dump completed", 17) == 0) {
		if ((nl = memchr(b, '\n', n)) == NULL && !s->eof)
			return 2;
		if (nl != NULL)
			s->mark.dump_done_end = off + (uint64_t)(nl - b) + 1;
	}
	return 0;
}

int
check_trailer(struct split *s)
{
	uint64_t	 end = s->base + s->len;

	if (s->mark.tr_seen != 0 && s->mark.tr_end == end) {
		if (s->mark.tr_seen == -1)
			return sfail(s, "line %llu: malformed or cut rowpipe "
			    "trailer line", (unsigned long long)line_at(s,
			    s->mark.tr_off));
		/* One more byte per line: a CR added to every LF. */
		if (s->mark.tr.bytes < s->mark.tr_off && s->mark.tr_off - s->mark.tr.bytes ==
		    line_at(s, s->mark.tr_off) - 1)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu: the line endings were "
			    "converted to CRLF (convert them back, e.g. with "
			    "dos2unix)", (unsigned long long)s->mark.tr_off,
			    (unsigned long long)s->mark.tr.bytes);
		if (s->mark.tr.bytes != s->mark.tr_off)
			return sfail(s, "trailer mismatch: %llu bytes before "
			    "the trailer, it says %llu (input damaged or "
			    "truncated)", (unsigned long long)s->mark.tr_off,
			    (unsigned long long)s->mark.tr.bytes);
		if (s->mark.tr.statements != s->mark.tr_stmts)
			return sfail(s, "trailer mismatch: %llu statements, "
			    "it says %llu", (unsigned long long)s->mark.tr_stmts,
			    (unsigned long long)s->mark.tr.statements);
		if (s->mark.tr.xxh3 != s->mark.tr_hash)
			return sfail(s, "trailer mismatch: xxh3 %016llx, it "
			    "says %016llx (input damaged)",
			    (unsigned long long)s->mark.tr_hash,
			    (unsigned long long)s->mark.tr.xxh3);
		s->mark.tr_ok = 1;
		return 0;
	}
	if (s->opts.require_trailer || s->mark.r2s_hdr)
		return sfail(s, "truncated: no rowpipe trailer line at the end "
		    "of the input (%llu bytes)%s", (unsigned long long)end,
		    s->mark.r2s_hdr ? ", which starts as rows2sql output" : "");
	if (s->mark.dump_hdr && s->mark.dump_done_end != end)
		return sfail(s, "truncated: mysqldump output does not end "
		    "with its '-- Dump completed' line (%llu bytes)",
		    (unsigned long long)end);
	return 0;
}
