#!/bin/sh
# lz -o FILE: a regular file is replaced only by a complete output (a
# temporary file beside it, renamed into place); a device node, a FIFO, a
# socket and a symbolic link are never removed, whatever happens; a link
# to a regular file stays a link, and its file is replaced only when the
# output is complete.  Issue 15 item 5: lz -f -o /dev/full deleted
# /dev/full, and through a symlink wrote a partial file and removed the link.
. "$(dirname "$0")/../lib.sh"
umask 022

awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "INSERT INTO t VALUES (%d,\x27row %d\x27);\n", i, i * 7 }' >text
lz <text >text.lz4
head -c 1000 text.lz4 >cut.lz4
echo old >old

# only NAME...: the scratch names other than the fixtures are exactly these.
only() {
	is "$(ls -A | grep -Ev '^(text|text\.lz4|cut\.lz4|old|err)$' |
	    sort | tr '\n' ' ')" "$*" "no other file left behind ($*)"
}

# A device node, /dev/full's numbers: every write fails with ENOSPC.
if mknod full c 1 7 2>/dev/null; then
	lz -f -o full <text 2>err
	is "$?" 1 "lz -f -o on a full device: exit 1"
	is "$(cat err)" "lz: full: No space left on device" \
	    "lz -f -o on a full device: reason"
	[ -c full ]
	ok $? "lz -f -o on a full device: the device node is left in place"
	lz -d -f -o full <cut.lz4 2>err
	is "$?" 1 "lz -d -f -o on a full device, damaged input: exit 1"
	[ -c full ]
	ok $? "lz -d -f -o on a full device: the device node is left in place"
	lz -o full <text 2>err
	is "$?" 1 "lz -o on an existing device without -f: exit 1"
	is "$(cat err)" "lz: full: already exists (use -f to overwrite)" \
	    "lz -o on an existing device without -f: reason, as lz4"
	only "full "
	rm -f full
else
	ok 0 "# SKIP mknod not permitted"
fi
lz -o /dev/null <text
is "$?" 0 "lz -o /dev/null needs no -f, as in lz4"
[ -c /dev/null ]
ok $? "/dev/null is still a device"

# A FIFO: written to, as lz4 does; never removed, also on failure.  The
# reader has a deadline, and so has every lz run.
mkfifo fifo
timeout 20 cat fifo >got &
timeout 20 lz -f -o fifo <text
is "$?" 0 "lz -f -o on a FIFO: exit 0"
wait
lz -d <got | cmp -s - text
ok $? "lz -f -o on a FIFO: the reader got the whole output"
timeout 20 cat fifo >got &
timeout 20 lz -d -f -o fifo <cut.lz4 2>err
is "$?" 1 "lz -d -f -o on a FIFO, damaged input: exit 1"
wait
[ -p fifo ]
ok $? "lz -d -f -o on a FIFO, damaged input: the FIFO is left in place"
rm -f got

# A socket: refused, left in place.
if perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => "sock",
    Listen => 1) or exit 1' 2>/dev/null && [ -S sock ]; then
	lz -f -o sock <text 2>err
	is "$?" 1 "lz -f -o on a socket: exit 1"
	is "$(cat err)" "lz: sock: is a socket (not replaced)" \
	    "lz -f -o on a socket: reason"
	[ -S sock ]
	ok $? "lz -f -o on a socket: the socket is left in place"
	rm -f sock
else
	ok 0 "# SKIP no unix socket"
fi
only "fifo "
rm -f fifo

# A symbolic link to a regular file: the link stays, the file is replaced
# only by a complete output.
cp old real
ln -s real link
lz -d -f -o link <cut.lz4 2>err
is "$?" 1 "lz -d -f -o through a symlink, damaged input: exit 1"
[ -L link ] && [ "$(readlink link)" = real ]
ok $? "damaged input: the symlink is left in place"
is_file real old "damaged input: the file it names is unchanged"
lz -d -f -o link <text.lz4
is "$?" 0 "lz -d -f -o through a symlink: exit 0"
[ -L link ] && [ "$(readlink link)" = real ]
ok $? "the symlink is still a link to the same name"
is_file real text "the file it names holds the whole output"
lz -d -o link <text.lz4 2>err
is "$?" 1 "lz -o on an existing symlink without -f: exit 1"
only "link real "
rm -f link real
ln -s nowhere dangling
lz -f -o dangling <text 2>err
is "$?" 1 "lz -f -o on a dangling symlink: exit 1"
is "$(cat err)" "lz: dangling: symbolic link to a missing file (not followed)" \
    "lz -f -o on a dangling symlink: reason"
[ -L dangling ] && [ ! -e nowhere ]
ok $? "a dangling symlink is left as it was"
rm -f dangling

# A regular file: replaced only by a complete output, keeping its mode.
cp old reg
chmod 640 reg
lz -d -f -o reg <cut.lz4 2>err
is "$?" 1 "lz -d -f -o on a file, damaged input: exit 1"
is_file reg old "damaged input: the file is unchanged"
lz -d -f -o reg <text.lz4
is "$?" 0 "lz -d -f -o on a file: exit 0"
is_file reg text "the file holds the whole output"
is "$(stat -c %a reg)" 640 "the replaced file keeps its mode"
lz -o new <text
is "$(stat -c %a new)" 644 "a new file gets 0666 less the umask"
lz -d -o new2 <cut.lz4 2>/dev/null
is "$?" 1 "lz -d -o new file, damaged input: exit 1"
[ ! -e new2 ]
ok $? "damaged input: no new file"
lz -f -o new new
is "$?" 0 "lz -f -o FILE FILE: the input is read whole before it is replaced"
lz -d <new | cmp -s - text.lz4
ok $? "lz -f -o FILE FILE: the output is the input's compression"
only "new reg "

# A signal leaves no temporary file.  The input is a FIFO that this
# shell holds open, so lz waits for input until it is killed.  (Its
# output file has no name yet, O_TMPFILE, or a hidden one: t5020.)
rm -f new reg
mkfifo in
exec 3<>in
lz -o out <in &
pid=$!
writing() { ls -l /proc/$pid/fd 2>/dev/null | grep -q "$(pwd -P)/[.#]"; }
wait_for writing
ok $? "lz -o out: its output file is open beside out while it runs"
kill -TERM $pid
wait $pid 2>/dev/null	# the shell's "Terminated" notice: expected here
is "$?" 143 "SIGTERM ends lz as the signal does"
exec 3>&-
only "in "

done_testing
