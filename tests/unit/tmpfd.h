/*
 * tmpfd.h: a scratch file for the unit tests that need a descriptor
 * (frame.c, progress.c); included after cmocka.h.
 */
#ifndef TESTS_UNIT_TMPFD_H
#define TESTS_UNIT_TMPFD_H

#include <stdio.h>
#include <unistd.h>

/* An empty file of its own, removed already (tmpfile(3)); the caller's. */
static int
tmpfd(void)
{
	FILE	*f;
	int	 fd;

	assert_non_null(f = tmpfile());
	fd = dup(fileno(f));
	fclose(f);
	assert_true(fd >= 0);
	return fd;
}

#endif
