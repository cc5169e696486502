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

#endif
