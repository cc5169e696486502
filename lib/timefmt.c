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

static size_t
frac(char *o, uint32_t us, unsigned decimals)
{
	char	 t[6];

	if (decimals == 0)
		return 0;
	if (decimals > 6)
		decimals = 6;
	if (us > 999999)
		us = 999999;
	put2(t, us / 10000);
	put2(t + 2, us / 100 % 100);
	put2(t + 4, us % 100);
	o[0] = '.';
	memcpy(o + 1, t, decimals);
	return 1 + decimals;
}

size_t
timefmt_date(char *o, unsigned year, unsigned month, unsigned day)
{
	char	*p = o;

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
	p += numfmt_u64_pad(p, hours, 2);
	p += hms(p, minute, second);
	p += frac(p, us, decimals);
	return (size_t)(p - o);
}
