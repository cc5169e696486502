/*
 * timefmt: temporal values as text (see timefmt.h).  The layout is that of
 * the server's text protocol (MariaDB my_date_to_str, my_datetime_to_str,
 * my_time_to_str in sql-common/my_time.c).
 */
#include <string.h>

#include "numfmt.h"
#include "timefmt.h"

static size_t
frac(char *o, uint32_t us, unsigned decimals)
{
	char	 t[NUMFMT_MAX];

	if (decimals == 0)
		return 0;
	if (decimals > 6)
		decimals = 6;
	if (us > 999999)
		us = 999999;
	numfmt_u64_pad(t, us, 6);
	o[0] = '.';
	memcpy(o + 1, t, decimals);
	return 1 + decimals;
}

size_t
timefmt_date(char *o, unsigned year, unsigned month, unsigned day)
{
	char	*p = o;

	p += numfmt_u64_pad(p, year, 4);
	*p++ = '-';
	p += numfmt_u64_pad(p, month, 2);
	*p++ = '-';
	p += numfmt_u64_pad(p, day, 2);
	return (size_t)(p - o);
}

static size_t
hms(char *o, unsigned minute, unsigned second)
{
	char	*p = o;

	*p++ = ':';
	p += numfmt_u64_pad(p, minute, 2);
	*p++ = ':';
	p += numfmt_u64_pad(p, second, 2);
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
	p += numfmt_u64_pad(p, hour, 2);
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
