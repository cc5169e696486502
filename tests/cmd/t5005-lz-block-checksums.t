#!/bin/sh
# lz writes block checksums by default, lz4 reads them and lz reads lz4's,
# and lz -d never writes a block whose checksum fails: a byte flipped in a
# block gives only bytes of the original (the blocks before it), exit 1 and
# the damaged block's offset.  Issue 15 item 6: lz -d wrote 19 MB past the
# damage before the content checksum failed at the end.
. "$(dirname "$0")/../lib.sh"
command -v lz4 >/dev/null || skip_all "no lz4 command"
command -v perl >/dev/null || skip_all "no perl"

# 1.3 MB of SQL text (20 blocks of 64 KiB, compressed), then 200 KB of
# random bytes (blocks stored raw, where no decoder can see damage).
awk 'BEGIN { srand(9); for (i = 0; i < 30000; i++)
	printf "INSERT INTO t VALUES (%d,\x27%s-%d\x27,%d);\n", i,
	    (i % 3 ? "customer" : "supplier"), int(rand() * 100000),
	    int(rand() * 1000) }' >sql
head -c 200000 /dev/urandom >random

# Interop both ways.
lz -B4 <sql >sql.lz4
like "$(lz -l sql.lz4 | sed -n 2p)" ' indep,crc,blockcrc ' \
    "lz's default frame has block checksums"
lz4 -dc sql.lz4 | cmp -s - sql
ok $? "lz4 -d reads lz's default output"
lz4 -q -B4 -BX -c sql | lz -d | cmp -s - sql
ok $? "lz -d reads lz4 -BX output"
lz4 -q -B4 -BX -BD -c sql | lz -d | cmp -s - sql
ok $? "lz -d reads lz4 -BX -BD (linked blocks) output"
lz --no-block-checksum -B4 <sql >nob.lz4
like "$(lz -l nob.lz4 | sed -n 2p)" ' indep,crc +[0-9]' \
    "--no-block-checksum: no block checksums"
lz4 -q -B4 -c sql | cmp -s - nob.lz4
ok $? "--no-block-checksum: the same bytes as lz4 -B4"
lz --block-checksum -B4 <sql | cmp -s - sql.lz4
ok $? "--block-checksum is accepted (the default)"

# blocks.pl FILE: "offset length" of each block of a one-frame LZ4 file
# (offset of its 4-byte size field; length with size field and checksum).
cat >blocks.pl <<'PERL'
open(F, '<:raw', $ARGV[0]) or die; local $/; $_ = <F>;
my $flg = ord(substr($_, 4, 1));
my $o = 7 + ($flg & 8 ? 8 : 0);
my $bc = $flg & 0x10 ? 4 : 0;
while (1) {
	my $n = unpack('V', substr($_, $o, 4)) & 0x7fffffff;
	last if $n == 0;
	print "$o ", 4 + $n + $bc, "\n";
	$o += 4 + $n + $bc;
}
PERL
# flip FILE OFFSET: xor one byte with 0x20.
flip() {
	perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, $ARGV[1], 0);
	    read(F, $c, 1); seek(F, $ARGV[1], 0); print F chr(ord($c) ^ 0x20);
	    close F' "$1" "$2"
}
# prefix_of OUT ORIG: OUT is the first bytes of ORIG.
prefix_of() {
	head -c "$(wc -c <"$1")" "$2" | cmp -s - "$1"
}

# A byte flipped in the middle of block k's data, for compressed and for
# raw blocks, decoded with 1 and 3 workers: lz -d writes blocks 0..k-1
# exactly and nothing after, exits 1 and names block k's offset.
cat sql random >data
lz -B4 <data >data.lz4
perl blocks.pl data.lz4 >blocks
nb=$(wc -l <blocks)
[ "$nb" -gt 20 ]
ok $? "the file has $nb blocks"
for k in 3 $((nb - 2)); do
	set -- $(sed -n "$((k + 1))p" blocks)
	cp data.lz4 bad.lz4
	flip bad.lz4 $(($1 + $2 / 2))
	for t in 1 3; do
		timeout 30 lz -d -T$t <bad.lz4 >out 2>err
		is "$?" 1 "block $k flipped, -T$t: exit 1"
		is "$(cat err)" "lz: stdin: corrupt: block checksum mismatch (block at byte $1)" \
		    "block $k flipped, -T$t: the damaged block's offset"
		prefix_of out data
		ok $? "block $k flipped, -T$t: only bytes of the original come out"
		is "$(wc -c <out | tr -d ' ')" $((k * 65536)) \
		    "block $k flipped, -T$t: every block before it comes out"
	done
done

# The same through lz4 -BD -BX (linked blocks, decoded in the main thread).
lz4 -q -B4 -BD -BX -c data >linked.lz4
set -- $(perl blocks.pl linked.lz4 | sed -n 6p)
flip linked.lz4 $(($1 + $2 / 2))
timeout 30 lz -d <linked.lz4 >out 2>err
is "$?" 1 "linked block 5 flipped: exit 1"
is "$(cat err)" "lz: stdin: corrupt: block checksum mismatch (block at byte $1)" \
    "linked block 5 flipped: the damaged block's offset"
prefix_of out data
ok $? "linked block 5 flipped: only bytes of the original come out"
is "$(wc -c <out | tr -d ' ')" $((5 * 65536)) \
    "linked block 5 flipped: every block before it comes out"

# lz -d -o FILE with a damaged block: no FILE at all.
lz -d -o back <bad.lz4 2>/dev/null
is "$?" 1 "lz -d -o, damaged block: exit 1"
[ ! -e back ]
ok $? "lz -d -o, damaged block: no output file"

done_testing
