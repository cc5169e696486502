/*
 * rows2json: a rowpipe-stream(5) frame stream as JSON Lines, the text form
 * rows2json(1) specifies; shared by main.c and the tests.
 */
#ifndef ROWS2JSON_H
#define ROWS2JSON_H

struct r2j_opts {
	int	 progress;	/* 1, 0, -1: if stderr is a terminal */
	int	 convert;	/* latin1 columns' text as UTF-8 strings */
};

/*
 * Read a frame stream from fd and write its JSON Lines to out_fd.  0 on
 * success (the trailer line written last), or -1 with one line in
 * *errmsg (static; valid until the next call).  On error the text ends
 * with the last whole line and has no trailer line.
 */
int	 rows2json(int fd, int out_fd, const struct r2j_opts *,
	    const char **errmsg);

#endif
