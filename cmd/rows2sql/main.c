/*
 * rows2sql: placeholder until its issue lands.
 */
#include <err.h>

int
main(void)
{
	errx(1, "not implemented yet");
}
