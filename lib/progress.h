/*
 * progress: a progress line on stderr and a summary at the end, shared by
 * the programs that take --progress.
 *
 * Shows the percent done and the ETA first when a total is known, then
 * units done of total (tables, statements), rows, bytes and rate;
 * redraws at most a few times a second, on one line with \r when stderr
 * is a terminal and as plain lines otherwise.
 * Thread-safe: workers may call progress_add() concurrently.  Never
 * writes to stdout.
 */
#ifndef ROWPIPE_PROGRESS_H
#define ROWPIPE_PROGRESS_H

#include <stdint.h>

struct progress;

/*
 * enabled: 1 on, 0 off (progress_done() then prints nothing), -1 on only
 * when stderr is a terminal and stdin is not a pipe (the first program
 * of a pipeline shows the pipeline's progress).  unit names what is
 * counted, in the plural ("tables", "statements"; "table" for one), or
 * NULL for bytes only.  NULL with errno ENOMEM.
 */
struct progress	*progress_new(const char *program, const char *unit,
		    int enabled);
/* Known totals; 0 means unknown.  May be called again as estimates grow. */
void	 progress_total(struct progress *, uint64_t units, uint64_t rows,
	    uint64_t bytes);
/* Add to the counts done and redraw if it is time. */
void	 progress_add(struct progress *, uint64_t units, uint64_t rows,
	    uint64_t bytes);
/*
 * Clear the progress line and, if enabled, print one summary line:
 * "program: 16 tables, 47000 rows, 3.1 MiB in 1.2 s (2.6 MiB/s)" (no
 * rows when none were counted).
 */
void	 progress_done(struct progress *);
void	 progress_free(struct progress *);
/*
 * A run's end: progress_done() when ok, else progress_clear() alone (the
 * failure's message follows, no summary); then progress_free().  p may be
 * NULL.
 */
void	 progress_end(struct progress *, int ok);

/*
 * Clear the progress line (on a terminal) so that a warning can be printed;
 * the next progress_add() that is due redraws it.
 */
void	 progress_clear(struct progress *);
/*
 * When stderr is a terminal, replace the stderr stream by one that starts
 * each line with \r and clear-to-end-of-line and writes it with one
 * write(2): a message then never runs into a progress line, this
 * program's or another's in the same pipeline.  Called once, early, by
 * opt_parse().  Lines on stderr are then line-buffered.
 */
void	 progress_stderr(void);
/* The counts so far (any pointer may be NULL). */
void	 progress_get(struct progress *, uint64_t *units, uint64_t *rows,
	    uint64_t *bytes);

#endif
