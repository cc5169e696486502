#!/bin/sh
# lz -o FILE killed with SIGKILL leaves nothing (issue 25): the output is
# written to a file with no name (open(2) O_TMPFILE in FILE's directory)
# that linkat(2) names FILE only once the output is complete, so kill -9
# leaves neither FILE nor a hidden ".FILE.XXXXXX" (it did: no handler
# runs on SIGKILL).  Replacing a file with -f keeps the old content until
# then.  Where O_TMPFILE cannot be used (here: /proc/self/fd hidden,
# which linkat(2) links from), lz writes the hidden name as before, and still
# gives a complete FILE.
. "$(dirname "$0")/../lib.sh"
umask 022

awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "INSERT INTO t VALUES (%d,\x27row %d\x27);\n", i, i * 7 }' >text
lz <text >text.lz4
echo old >old
old_sum=$(cksum <old)
only() {
	is "$(ls -A | grep -Ev '^(text|text\.lz4|in|old|err)$' | sort | tr '\n' ' ')" \
	    "$1" "$2"
}

# lz reads a FIFO this shell holds open: it writes, then waits for more.
mkfifo in
exec 3<>in
dir=$(pwd -P)
writing() { ls -l /proc/$pid/fd 2>/dev/null | grep -q "$dir/"; }

for how in "-o new.lz4" "-f -o old"; do
	lz $how <in &
	pid=$!
	head -c 100000 text >&3
	wait_for writing
	ok $? "lz $how: its output file is open while it runs"
	is "$(ls -l /proc/$pid/fd | grep -c "$dir/[.]")" 0 \
	    "lz $how: and it has no name (O_TMPFILE)"
	kill -KILL $pid
	wait $pid 2>/dev/null
	is $? 137 "lz $how: killed with SIGKILL"
	only "" "lz $how, kill -9: no file left behind, hidden or not"
done
is "$(cksum <old)" "$old_sum" "lz -f -o old, kill -9: old keeps its content"

# complete runs still give the file, new or replaced, with its mode
lz -o new.lz4 <text
is "$? $(lz -d <new.lz4 | cksum)" "0 $(cksum <text)" "lz -o new.lz4: complete"
is "$(stat -c %a new.lz4)" 644 "a new file: 0666 less the umask"
chmod 600 old
lz -f -o old <text
is "$? $(lz -d <old | cksum) $(stat -c %a old)" "0 $(cksum <text) 600" \
    "lz -f -o old: replaced, with the old file's mode"
lz -o new.lz4 <text 2>err
is "$? $(cat err)" "1 lz: new.lz4: already exists (use -f to overwrite)" \
    "an existing file without -f: refused"
rm -f new.lz4 old
only "" "no other file"

# Without O_TMPFILE's way to a name (/proc/self/fd hidden, in a mount
# namespace of its own): the hidden name beside FILE, and a complete FILE
# at the end.  (Over /proc/PID/fd only, of the shell that becomes lz: a
# sanitizer build needs the rest of /proc.)
nofd() { exec unshare -m sh -c 'mount -t tmpfs none /proc/$$/fd && exec "$@"' sh "$@"; }
if (nofd true) 2>/dev/null; then
	(nofd "$RP_BIN/lz" -o new.lz4) <text 2>err
	is "$? $(cat err)" "0 " "no /proc/self/fd: lz -o new.lz4: exit 0"
	is "$(lz -d <new.lz4 | cksum)" "$(cksum <text)" "no /proc/self/fd: complete"
	only "new.lz4 " "no /proc/self/fd: no other file"
	nofd "$RP_BIN/lz" -o hid.lz4 <in 2>err &
	pid=$!
	hidden() { ls -A | grep -q '^\.hid\.lz4\.'; }
	wait_for hidden
	ok $? "no /proc/self/fd: a hidden temporary name while it runs (the fallback)"
	kill -TERM $pid
	wait $pid 2>/dev/null
	only "new.lz4 " "no /proc/self/fd: SIGTERM removes it"
	is "$(cat err)" "lz: hid.lz4: not written (terminated)" "no /proc/self/fd: and says so"
else
	skip 6 "unshare -m: no mount namespace here"
fi
exec 3>&-
done_testing
