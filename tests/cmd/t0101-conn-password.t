#!/bin/sh
# lib/conn: -p with no value asks on the terminal without echo; without a
# terminal it fails clearly; a password given as -pSECRET is overwritten in
# argv (not in /proc/<pid>/cmdline) and never printed.
. "$(dirname "$0")/../lib.sh"
need_server
command -v conntest >/dev/null || skip_all "conntest not built (make units)"

HOME=$T_DIR; export HOME
unset MYSQL_PWD MARIADB_HOME MYSQL_HOME 2>/dev/null

U=t0101user
PW=Secret0101pw
sql -e "DROP USER IF EXISTS '$U'@'localhost'; CREATE USER '$U'@'localhost' IDENTIFIED BY '$PW'"

# No terminal (a new session has no controlling terminal): exit 1, clear.
setsid -w conntest --no-defaults -u$U -p -S "$RP_SOCK" -e "SELECT 1" \
    </dev/null >out 2>err
is $? 1 "-p without a terminal: exit 1"
is "$(cat err)" "conntest: -p: no terminal to ask for the password on: put it in an option file ([client] password=...) or in MYSQL_PWD" \
    "-p without a terminal: says why, and what to do instead"

# With a terminal: script(1) gives conntest a pty.  The password is typed
# only once the prompt shows (echo is off by then), through a fifo.
if command -v script >/dev/null && command -v mkfifo >/dev/null; then
	for try in right wrong; do
		[ $try = right ] && typed=$PW || typed=Wrong0101pw
		tty_start "conntest --no-defaults -u$U -p -S '$RP_SOCK' -e 'SELECT CURRENT_USER()'"
		ok $? "-p ($try): prompt shown"
		# (after the \r ESC [K that clears the line for it)
		like "$(sed 's/^\r\x1b\[K//' tty.out)" "^conntest: password for $U@localhost: " \
		    "-p ($try): the prompt names the program, user and host"
		printf '%s\n' "$typed" >&3
		exec 3>&-
		wait $TTY_PID
		rc=$?
		if [ $try = right ]; then
			is $rc 0 "-p ($try): exit 0"
			like "$(cat tty.out)" "$U@localhost" "-p ($try): connected as $U"
		else
			is $rc 1 "-p ($try): exit 1"
			like "$(cat tty.out)" "\(1045, 28000\)" "-p ($try): access denied"
		fi
		grep -q "$typed" tty.out; isnt $? 0 "-p ($try): password not echoed"
		[ $(grep -c 'password for' tty.out) -eq 1 ]; ok $? "-p ($try): asked once"
	done
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ok 0 "# SKIP no script(1)"; done
fi

# sqlexec's own prompt, as sqlexec(1) shows it: over TCP to a port other
# than 3306 it names the port too (both prompts of a pipeline read
# user@127.0.0.1 before, #25).  A wrong password ends it.
if command -v script >/dev/null && command -v mkfifo >/dev/null &&
    [ "$RP_PORT" != 3306 ]; then
	tty_start "echo 'SELECT 1;' | sqlsplit | sqlexec --no-defaults -u$U -p -h 127.0.0.1 -P $RP_PORT"
	ok $? "sqlexec -p: prompt shown"
	like "$(cat tty.out)" "sqlexec: password for $U@127\\.0\\.0\\.1:$RP_PORT: " \
	    "sqlexec -p: the prompt names sqlexec, the user, the host and the port"
	printf '%s\n' Wrong0101pw >&3
	exec 3>&-
	wait $TTY_PID
	is $? 1 "sqlexec -p, a wrong password: exit 1"
else
	skip 3 "no script(1), or the server's port is 3306"
fi

# Two programs of one pipeline that both ask: one prompt at a time (the
# second waits for the first's lock on the terminal, as /proc/locks
# shows), each with echo off, each naming its user.
U2=t0101user2
sql -e "DROP USER IF EXISTS '$U2'@'localhost'; CREATE USER '$U2'@'localhost' IDENTIFIED BY '$PW'"
if command -v script >/dev/null && command -v mkfifo >/dev/null &&
    [ -r /proc/locks ]; then
	tty_start "conntest --no-defaults -u$U -p -S '$RP_SOCK' -e 'SELECT CURRENT_USER()' | conntest --no-defaults -u$U2 -p -S '$RP_SOCK' -e 'SELECT CURRENT_USER()'; echo; cat /dev/null"
	ok $? "pipeline: a first prompt"
	wait_for grep -q -- '-> FLOCK' /proc/locks
	ok $? "pipeline: the other program waits for the terminal's lock"
	is "$(grep -c 'password for' tty.out)" 1 "pipeline: one prompt at a time"
	printf '%s\n' "$PW" >&3
	n=0
	until [ "$(grep -o 'password for' tty.out | wc -l)" -ge 2 ] ||
	    [ $n -ge 300 ]; do n=$((n + 1)); sleep 0.1; done
	is "$(grep -o 'password for' tty.out | wc -l | tr -d ' ')" 2 \
	    "pipeline: then the second prompt"
	printf '%s\n' "$PW" >&3
	exec 3>&-
	wait $TTY_PID
	is $? 0 "pipeline: both connected"
	like "$(cat tty.out)" "$U2@localhost" "pipeline: the second connected as its user"
	like "$(cat tty.out)" "conntest: password for $U@localhost: " "pipeline: prompt for $U"
	like "$(cat tty.out)" "conntest: password for $U2@localhost: " "pipeline: prompt for $U2"
	grep -q "$PW" tty.out; isnt $? 0 "pipeline: no password echoed"
else
	for i in 1 2 3 4 5 6 7 8; do ok 0 "# SKIP no script(1) or /proc/locks"; done
fi
sql -e "DROP USER '$U2'@'localhost'"

# -pSECRET: overwritten in argv while the program runs.
conntest --no-defaults -u$U -p$PW -S "$RP_SOCK" -e "SELECT SLEEP(3)" >/dev/null 2>err &
cpid=$!
running() {
	[ "$(sql -e "SELECT COUNT(*) FROM information_schema.processlist
	    WHERE user = '$U' AND info LIKE 'SELECT SLEEP%'")" = 1 ]
}
wait_for running
ok $? "-pSECRET: query running"
cmdline=$(tr '\0' ' ' </proc/$cpid/cmdline)
case $cmdline in *"$PW"*) r=1 ;; *) r=0 ;; esac
ok $r "-pSECRET: password not in /proc/<pid>/cmdline"
like "$cmdline" " -px " "-pSECRET: argv shows -px, as mysql(1) does"
wait $cpid
is $? 0 "-pSECRET: exit 0"

# --password=SECRET likewise.
conntest --no-defaults -u$U --password=$PW -S "$RP_SOCK" -e "SELECT SLEEP(3)" >/dev/null 2>>err &
cpid=$!
wait_for running
cmdline=$(tr '\0' ' ' </proc/$cpid/cmdline)
case $cmdline in *"$PW"*) r=1 ;; *) r=0 ;; esac
ok $r "--password=SECRET: password not in /proc/<pid>/cmdline"
wait $cpid
is $? 0 "--password=SECRET: exit 0"

# A failing query after connecting: the error does not carry the password.
conntest --no-defaults -u$U -p$PW -S "$RP_SOCK" -e "SELECT nosuchcolumn" >/dev/null 2>>err
is $? 1 "query error: exit 1"
like "$(cat err)" "Unknown column 'nosuchcolumn'.*\(1054, 42S22\)" "query error: (errno, SQLSTATE)"
grep -q "$PW" err; isnt $? 0 "password never in stderr"

sql -e "DROP USER '$U'@'localhost'"
done_testing
