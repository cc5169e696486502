#!/bin/sh
# The password prompt names the port when the connection is TCP to a
# port other than 3306 (#25): both prompts of a pipeline from one host
# to another of the same machine read "dba@127.0.0.1" alike.  script(1)
# gives dbsnap a terminal; the (empty) password is typed once the prompt
# shows, through a fifo.  A socket connection's prompt has no port.
. "$(dirname "$0")/../lib.sh"
need_server
command -v script >/dev/null && command -v mkfifo >/dev/null ||
    skip_all "no script(1) or mkfifo"
[ -n "${RP_PORT:-}" ] || skip_all "no TCP port of the server"

# prompt_of ARGS: the prompt dbsnap ARGS -p --list shows.
prompt_of() {
	tty_start "dbsnap --no-defaults -uroot -p $* --list mysql"
	printf '\n' >&3
	exec 3>&-
	wait $TTY_PID
	sed -n 's/^\r\x1b\[K//; s/\(password for [^ ]*\) .*/\1/p' tty.out | head -1
}
is "$(prompt_of -h 127.0.0.1 -P "$RP_PORT")" "dbsnap: password for root@127.0.0.1:$RP_PORT:" \
    "TCP to port $RP_PORT: the prompt names the port (before: root@127.0.0.1)"
is "$(prompt_of -h 127.0.0.1 -P 3306)" "dbsnap: password for root@127.0.0.1:" \
    "port 3306: no port"
is "$(prompt_of -S "$RP_SOCK")" "dbsnap: password for root@localhost:" \
    "a socket: no port"
done_testing
