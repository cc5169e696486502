#!/bin/sh
# lz: options and modes: usage errors, -t, -l, -o and -f, the terminal
# guard, concatenated, skippable and legacy frames, --content-size.
. "$(dirname "$0")/../lib.sh"
command -v lz4 >/dev/null || skip_all "no lz4 command"

awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "INSERT INTO t VALUES (%d,\x27row %d\x27);\n", i, i * 7 }' >text
lz <text >text.lz4

# Usage errors: exit 2, nothing written.
for args in "-B9" "-B" "-T x" "-T 1000" "-13" "--fast=0" "-q" "a b" \
    "-t -o out" "-l -o out" "--no-such-option"; do
	lz $args <text >out 2>err
	is "$?" 2 "lz $args: exit 2"
	is "$(wc -c <out | tr -d ' ')" 0 "lz $args: no output"
done
like "$(lz -q 2>&1)" '^usage: lz ' "usage line"
lz -h >out 2>err
is "$?" 0 "lz -h: help, as lz4 -h, exit 0"
like "$(cat out)" '^usage: lz ' "lz -h: usage on stdout"
rm -f out
lz -o out nonexistent 2>err
is "$?" 1 "missing input file: exit 1"
is "$(cat err)" "lz: nonexistent: No such file or directory" \
    "missing input file: reason"
[ ! -e out ]
ok $? "missing input file: -o file not created"

# Empty input: a frame with no block, 15 bytes, as lz4 writes it.
lz </dev/null >e.lz4
is "$?" 0 "empty input compresses"
is "$(wc -c <e.lz4 | tr -d ' ')" 15 "empty frame: 15 bytes"
lz4 -dc e.lz4 >e.out && [ ! -s e.out ]
ok $? "empty frame: lz4 -d reads it"
lz4 -c </dev/null | lz -d >e.out && [ ! -s e.out ]
ok $? "lz4's empty frame: lz -d reads it"

# -t: verify, write nothing.
lz -t text.lz4 >out
is "$?" 0 "lz -t on a good file: exit 0"
is "$(wc -c <out | tr -d ' ')" 0 "lz -t writes nothing"
lz -t <text >out 2>err
is "$?" 1 "lz -t on text: exit 1"

# -o and -f.
lz -o o.lz4 text
is "$?" 0 "lz -o file"
lz -o o.lz4 text 2>err
is "$?" 1 "lz -o existing file: exit 1"
is "$(cat err)" "lz: o.lz4: already exists (use -f to overwrite)" \
    "lz -o existing file: reason"
lz -d -o o.lz4 e.lz4 2>/dev/null
cmp -s o.lz4 text.lz4
ok $? "lz -o existing file: left alone"
lz -f -o o.lz4 e.lz4 && lz -d o.lz4 | cmp -s - e.lz4
ok $? "lz -f -o overwrites"
head -c 1000 text.lz4 >cut.lz4
lz -d -o back cut.lz4 2>/dev/null
is "$?" 1 "lz -d -o on damaged input: exit 1"
[ ! -e back ]
ok $? "lz -d -o on damaged input: partial output removed"

# A terminal on stdout: refused for compressed data unless -f or -c.
if command -v script >/dev/null; then
	script -qec "lz <text" /dev/null >tty.out 2>&1
	is "$?" 2 "compressing to a terminal: a usage error, exit 2"
	like "$(cat tty.out)" 'stdout is a terminal: refusing to write compressed data there' \
	    "compressing to a terminal: reason"
	script -qec "lz -c <e.lz4 >/dev/null; lz -d <text.lz4 | head -c 0" \
	    /dev/null >/dev/null 2>&1
	is "$?" 0 "-c forces; decompressing to a terminal is allowed"
fi

# Concatenated frames, skippable frames, the legacy format, in any order.
printf '\121\052\115\030\005\000\000\000hello' >skip
lz4 -q -9 -BD -c text >lz4.lz4
lz4 -q -l -c text >legacy.lz4
cat skip text.lz4 legacy.lz4 skip lz4.lz4 e.lz4 legacy.lz4 skip >multi.lz4
lz -d <multi.lz4 >multi.out
is "$?" 0 "concatenated frames: exit 0"
cat text text text text >multi.want
cmp -s multi.out multi.want
ok $? "concatenated frames: the content of each, in order"
lz -l multi.lz4 >list
is "$?" 0 "lz -l: exit 0"
is "$(grep -c ' skippable ' list)" 3 "lz -l: 3 skippable frames"
is "$(grep -c ' legacy ' list)" 2 "lz -l: 2 legacy frames"
is "$(grep -c ' LZ4 ' list)" 3 "lz -l: 3 LZ4 frames"
like "$(grep ' LZ4 ' list | head -1)" \
    "^ +13  LZ4  +4M  indep,crc,blockcrc  +$(wc -c <text.lz4 | tr -d ' ') +$(wc -c <text | tr -d ' ')\$" \
    "lz -l: offset, type, block size, flags, sizes"
like "$(tail -1 list)" "^8 frames, $(wc -c <multi.lz4 | tr -d ' ') bytes compressed, $(wc -c <multi.want | tr -d ' ') bytes uncompressed\$" \
    "lz -l: total line"
lz -l cut.lz4 >/dev/null 2>err
is "$?" 1 "lz -l on a truncated file: exit 1"

# --content-size: in the header when the input is a file, checked on -d.
lz --content-size text >cs.lz4
like "$(lz -l cs.lz4 | sed -n 2p)" 'indep,crc,blockcrc,size ' \
    "--content-size: flag set"
lz4 --list -v cs.lz4 2>&1 | grep -q "$(wc -c <text | tr -d ' ')"
ok $? "--content-size: lz4 --list shows the size"
cat text | lz --content-size >cs2.lz4 2>err
is "$?" 0 "--content-size on a pipe: exit 0"
is "$(cat err)" "lz: stdin: size unknown, --content-size ignored" \
    "--content-size on a pipe: warning"
lz -d cs2.lz4 | cmp -s - text
ok $? "--content-size on a pipe: still a good frame"

# --no-frame-crc and -BX / --block-checksum flags (block checksums are
# the default; t5005 tests them).
like "$(lz --no-frame-crc text | lz -l | sed -n 2p)" ' indep,blockcrc +[0-9]' \
    "--no-frame-crc: no content checksum"
like "$(lz -BX text | lz -l | sed -n 2p)" 'indep,crc,blockcrc ' \
    "-BX: block checksums"

done_testing
