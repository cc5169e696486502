/*
 * json2rows: JSON Lines as rows2json(1) writes them back into a
 * rowpipe-stream(5) frame stream; shared by main.c and the tests.
 */
#ifndef JSON2ROWS_H
#define JSON2ROWS_H

struct j2r_opts {
	const char	*name;		/* the input's name for messages, or NULL */
	int		 progress;	/* 1, 0, -1: if stderr is a terminal */
	int		 force;		/* frames even to a terminal */
	int		 convert;	/* UTF-8 text to latin1 and ascii columns' bytes */
};

/*
 * Read JSON Lines from fd and write the frame stream to out_fd.  0 once
 * the trailer line was read and the stream's trailer written, or -1 with
 * one line in *errmsg (static; valid until the next call), the stream
 * then left without a trailer so that every reader sees it cut.
 */
int	 json2rows(int fd, int out_fd, const struct j2r_opts *,
	    const char **errmsg);

#endif
