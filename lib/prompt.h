/*
 * prompt: ask for a password on the controlling terminal (/dev/tty),
 * never on stdin or stdout, which carry a pipeline's data.
 *
 * One prompt at a time per terminal: the prompt holds an exclusive
 * flock(2) on the terminal device while it asks, so that the programs of
 * one pipeline that all ask (dbsnap -p | ... | sqlexec -p) ask one after
 * the other, each with echo off, instead of at once (where the second
 * program's echo setting is undone by the first's restore).  Echo is
 * checked to be off (tcgetattr(3) after tcsetattr(3)) before the prompt
 * is shown; the terminal's settings are restored after the answer, and
 * also when a signal ends the prompt (the signal is then raised again).
 * The prompt clears the terminal's line first (a progress line may be on
 * it); while it holds the lock, lib/progress neither redraws nor clears
 * a line, and puts stderr's messages below it.
 */
#ifndef ROWPIPE_PROMPT_H
#define ROWPIPE_PROMPT_H

#include <stddef.h>

/*
 * Show prompt and read one line, without its newline, into buf (len
 * bytes, NUL-terminated; a longer line is cut).  0, or -1 with errno set
 * and *errstr a reason: ENOTTY "no terminal to ask for the password on",
 * or "cannot turn off echo on the terminal", or the read error.  The
 * caller wipes buf (explicit_bzero) when done with it.
 */
int	 prompt_password(const char *prompt, char *buf, size_t len,
	    const char **errstr);
/*
 * A descriptor (close-on-exec, the caller's) of the file prompt_password()
 * locks while it asks, for writers to the terminal that must not write
 * over a prompt: flock(2) with LOCK_SH | LOCK_NB fails with EWOULDBLOCK
 * while one is shown.  -1 (errno set) without a controlling terminal.
 */
int	 prompt_lock_open(void);

#endif
