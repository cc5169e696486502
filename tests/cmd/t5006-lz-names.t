#!/bin/sh
# lz FILE on a terminal writes FILE.lz4, lz -d FILE.lz4 writes FILE, as
# lz4 does; with stdout not a terminal, or -c, stdout as before.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || skip_all "no script(1)"
tty() { script -qec "$*" /dev/null >tty.out 2>&1; }

seq 1 20000 >data
cp data orig
tty "lz data"
is "$?" 0 "lz FILE on a terminal: exit 0"
lz4 -dc data.lz4 >back 2>/dev/null
is_file back orig "... wrote FILE.lz4, which lz4 reads"
is "$(cat data)" "$(cat orig)" "... and left FILE"
tty "lz data"
is "$?" 1 "FILE.lz4 exists: exit 1"
like "$(cat tty.out)" "data.lz4: .*exists" "... saying so"
tty "lz -f data"
is "$?" 0 "-f: overwrites"
rm data
tty "lz -d data.lz4"
is "$?" 0 "lz -d FILE.lz4 on a terminal: exit 0"
is_file data orig "... wrote FILE"
cp data.lz4 other
tty "lz -d other"
is "$?" 2 "lz -d FILE without .lz4: exit 2"
like "$(cat tty.out)" "other: no \.lz4 suffix" "... saying why"
rm data.lz4
tty "lz -c data"
is "$?" 0 "-c on a terminal: exit 0"
ok $([ ! -e data.lz4 ] && [ -s tty.out ]; echo $?) "... to the terminal, no FILE.lz4"
lz data >p.lz4
is "$?" 0 "stdout not a terminal: exit 0"
lz -d <p.lz4 >p.out
is_file p.out orig "... and the data went to stdout, as before"
done_testing
