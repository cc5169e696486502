/*
 * timefmt: temporal values as text (see timefmt.h).  The layout is that of
 * the server's text protocol (MariaDB my_date_to_str, my_datetime_to_str,
 * my_time_to_str in sql-common/my_time.c).
 */
#include <string.h>

#include "numfmt.h"
#include "timefmt.h"

/* Two digits, or all of them for a field wider than its place. */
static inline size_t
put2(char *o, unsigned v)
{
	if (v < 100) {
		numfmt_put2(o, v);
		return 2;
	}
	return numfmt_u64(o, v);
}

#ifdef NUMFMT_SWAR
/*
 * Fields below 100 (and a year below 10000) as whole words of digits and
 * separators (numfmt_dig2x4), 8 bytes a store; the general code below
 * for the rest.
 */
static inline void
put_date(char *o, uint64_t x)	/* x: the digits of year / 100, year % 100, month, day */
{
	uint64_t	 w = (x & 0xffffffffULL) | (uint64_t)'-' << 32 |
	    (x >> 32 & 0xffff) << 40 | (uint64_t)'-' << 56;
	uint16_t	 d = (uint16_t)(x >> 48);

	memcpy(o, &w, 8);
	memcpy(o + 8, &d, 2);
}

/* "HH:MM:SS" at o, 8 bytes. */
static inline void
put_hms(char *o, unsigned h, unsigned mi, unsigned s)
{
	uint64_t	 x = numfmt_dig2x4(h, mi, s, 0);
	uint64_t	 w = (x & 0xffff) | (uint64_t)':' << 16 |
	    (x >> 16 & 0xffff) << 24 | (uint64_t)':' << 40 |
	    (x >> 32 & 0xffff) << 48;

	memcpy(o, &w, 8);
}
#endif

static size_t
frac(char *o, uint32_t us, unsigned decimals)
{
#ifndef NUMFMT_SWAR
	char	 t[6];
#endif

	if (decimals == 0)
		return 0;
	if (decimals > 6)
		decimals = 6;
	if (us > 999999)
		us = 999999;
#ifdef NUMFMT_SWAR
	{
		uint64_t x = numfmt_dig2x4(us / 10000, us / 100 % 100,
		    us % 100, 0);

		o[0] = '.';
		memcpy(o + 1, &x, 8);	/* past the text: scratch */
		return 1 + decimals;
	}
#else
	put2(t, us / 10000);
	put2(t + 2, us / 100 % 100);
	put2(t + 4, us % 100);
	o[0] = '.';
	memcpy(o + 1, t, decimals);
	return 1 + decimals;
#endif
}

size_t
timefmt_date(char *o, unsigned year, unsigned month, unsigned day)
{
	char	*p = o;

#ifdef NUMFMT_SWAR
	if (year < 10000 && month < 100 && day < 100) {
		put_date(o, numfmt_dig2x4(year / 100, year % 100, month, day));
		return 10;
	}
#endif
	if (year < 10000) {
		p += put2(p, year / 100);
		p += put2(p, year % 100);
	} else
		p += numfmt_u64(p, year);
	*p++ = '-';
	p += put2(p, month);
	*p++ = '-';
	p += put2(p, day);
	return (size_t)(p - o);
}

static size_t
hms(char *o, unsigned minute, unsigned second)
{
	char	*p = o;

	*p++ = ':';
	p += put2(p, minute);
	*p++ = ':';
	p += put2(p, second);
	return (size_t)(p - o);
}

size_t
timefmt_datetime(char *o, unsigned year, unsigned month, unsigned day,
    unsigned hour, unsigned minute, unsigned second, uint32_t us,
    unsigned decimals)
{
	char	*p = o;

#ifdef NUMFMT_SWAR
	if (year < 10000 && month < 100 && day < 100 && hour < 100 &&
	    minute < 100 && second < 100) {
		put_date(o, numfmt_dig2x4(year / 100, year % 100, month, day));
		o[10] = ' ';
		put_hms(o + 11, hour, minute, second);
		return 19 + frac(o + 19, us, decimals);
	}
#endif
	p += timefmt_date(p, year, month, day);
	*p++ = ' ';
	p += put2(p, hour);
	p += hms(p, minute, second);
	p += frac(p, us, decimals);
	return (size_t)(p - o);
}

size_t
timefmt_time(char *o, int negative, uint64_t hours, unsigned minute,
    unsigned second, uint32_t us, unsigned decimals)
{
	char	*p = o;

	if (negative)
		*p++ = '-';
#ifdef NUMFMT_SWAR
	if (hours < 100 && minute < 100 && second < 100) {
		put_hms(p, (unsigned)hours, minute, second);
		p += 8;
		return (size_t)(p - o) + frac(p, us, decimals);
	}
#endif
	p += numfmt_u64_pad(p, hours, 2);
	p += hms(p, minute, second);
	p += frac(p, us, decimals);
	return (size_t)(p - o);
}
