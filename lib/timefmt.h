/*
 * timefmt: DATE, DATETIME, TIMESTAMP and TIME values as the server's text
 * protocol writes them (the canonical text of rowpipe-stream(5)), into a caller's
 * buffer without stdio: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS[.f...] and
 * [-]HH:MM:SS[.f...] with hours past 24 (up to 838 for a column), the
 * fraction with exactly the column's number of digits (0 to 6), zero and
 * invalid dates (month or day 0, February 31) written as they are.
 */
#ifndef ROWPIPE_TIMEFMT_H
#define ROWPIPE_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The room timefmt_* need at o: the longest text and scratch bytes past
 * it, which they may overwrite (no NUL is written).
 */
#define TIMEFMT_MAX	48

/*
 * Each returns the length.  Fields wider than their place (a month of
 * 123) are written with all their digits; us is microseconds (0-999999),
 * of which the first decimals (at most 6) digits are written.
 */
size_t	 timefmt_date(char *o, unsigned year, unsigned month, unsigned day);
size_t	 timefmt_datetime(char *o, unsigned year, unsigned month,
	    unsigned day, unsigned hour, unsigned minute, unsigned second,
	    uint32_t us, unsigned decimals);
size_t	 timefmt_time(char *o, int negative, uint64_t hours, unsigned minute,
	    unsigned second, uint32_t us, unsigned decimals);

#endif
