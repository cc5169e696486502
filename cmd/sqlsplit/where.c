/*
 * where: the splitter's diagnostics (sfail, nosplit, swarn) and where in
 * the input they are: the lazy line count and the input's XXH3 up to an
 * offset.  Below every other file of the splitter: it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "state.h"

int
sfail(struct split *s, const char *fmt, ...)
{
	va_list	 ap;

	if (!s->failed) {
		va_start(ap, fmt);
		verrf(s->err, sizeof(s->err), fmt, ap);
		va_end(ap);
		s->failed = 1;
	}
	s->stopped = 1;
	return -1;
}

int
sfail_as(struct split *s, int reason, const char *pre, const char *fmt,
    va_list ap)
{
	char	 msg[400];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!s->failed && reason == FRAME_ABORT_DAMAGED)
		s->mark.damaged = 1;
	else if (!s->failed)
		s->mark.reason = reason;
	return sfail(s, "%s%s", pre, msg);
}

int
nosplit(struct split *s, const char *cs, const char *fmt, ...)
{
	char	 pre[160];
	va_list	 ap;
	int	 r;

	snprintf(pre, sizeof(pre), "cannot split (use mariadb "
	    "--default-character-set=%s DB < FILE: the input is good): ",
	    strncmp(cs, "of ", 3) != 0 ? cs : "NAME");
	va_start(ap, fmt);
	r = sfail_as(s, FRAME_ABORT_NOSPLIT, pre, fmt, ap);
	va_end(ap);
	return r;
}

void
swarn(struct split *s, const char *fmt, ...)
{
	char	 msg[512];
	va_list	 ap;

	if (s->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->warn(s->warn_arg, msg);
}

/* Newlines in p[0..n). */
static uint64_t
count_nl(const char *p, size_t n)
{
	uint64_t	 c = 0;
	size_t		 i = 0;
#ifdef SQLTOK_SIMD
	__m128i		 nl = _mm_set1_epi8('\n'), acc, zero = _mm_setzero_si128();
	size_t		 k;

	while (i + 16 <= n) {
		/* each lane counts down by one per newline, 255 blocks max */
		acc = zero;
		for (k = 0; k < 255 && i + 16 <= n; k++, i += 16)
			acc = _mm_add_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(
			    (const __m128i *)(p + i)), nl));
		acc = _mm_sad_epu8(_mm_sub_epi8(zero, acc), zero);
		c += (uint64_t)_mm_cvtsi128_si32(acc) +
		    (uint64_t)_mm_extract_epi16(acc, 4);
	}
#endif
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* Line number of input offset off (>= line_off, still in the buffer). */
uint64_t
line_at(struct split *s, uint64_t off)
{
	if (off <= s->line_off)
		return s->line_no;
	s->line_no += count_nl(s->buf + (s->line_off - s->base),
	    (size_t)(off - s->line_off));
	s->line_off = off;
	return s->line_no;
}

void
hash_to(struct split *s, uint64_t off)
{
	const char	*p = s->buf + (s->hash_off - s->base);
	size_t		 n = (size_t)(off - s->hash_off);

	if (off <= s->hash_off)
		return;
	/*
	 * A checked text's segments and checkpoint lines cover every byte
	 * before its trailer line: its whole-text hash would be redundant.
	 */
	if (s->mark.seg_max == 0)
		XXH3_64bits_update(s->xx, p, n);
	if (s->mark.seg_on)
		XXH3_64bits_update(s->mark.seg_xx, p, n);
	s->hash_off = off;
}
