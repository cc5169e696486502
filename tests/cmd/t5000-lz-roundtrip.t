#!/bin/sh
# lz: round trips and interop both ways with the lz4 command, on empty
# input, one byte, random and compressible data, at levels 1, 9 and 12,
# block sizes 64 KiB (-B4) and 4 MiB (-B7), with one and two threads.
. "$(dirname "$0")/../lib.sh"
command -v lz4 >/dev/null || skip_all "no lz4 command"

: >empty
printf 'x' >one
head -c 200000 /dev/urandom >random
# Compressible text: SQL-like rows, 300 KB (several 64 KiB blocks).
awk 'BEGIN { srand(7); for (i = 0; i < 5000; i++)
	printf "INSERT INTO t VALUES (%d,\x27name %d\x27,%d.%02d,NULL);\n",
	    i, int(rand() * 100000), int(rand() * 1000), int(rand() * 100) }' |
    head -c 300000 >text

for d in empty one random text; do
	for l in 1 9 12; do
		for b in 4 7; do
			lz -$l -B$b -T1 <$d >c1.lz4
			ok $? "lz -$l -B$b -T1 compresses $d"
			lz -$l -B$b -T2 $d >c2.lz4
			ok $? "lz -$l -B$b -T2 compresses $d (file argument)"
			cmp -s c1.lz4 c2.lz4
			ok $? "$d -$l -B$b: same output with 1 and 2 threads"
			lz4 -dc <c2.lz4 | cmp -s - $d
			ok $? "$d -$l -B$b: lz4 -d reads lz's output"
			lz -d -T1 <c1.lz4 | cmp -s - $d
			ok $? "$d -$l -B$b: lz -d -T1 round trip"
			lz -d -T2 <c2.lz4 | cmp -s - $d
			ok $? "$d -$l -B$b: lz -d -T2 round trip"
			for dep in BI BD; do
				lz4 -q -$l -B$b -$dep -c <$d >ref.lz4
				for t in 1 2; do
					lz -d -T$t <ref.lz4 | cmp -s - $d
					ok $? "$d: lz -d -T$t reads lz4 -$l -B$b -$dep"
				done
			done
		done
	done
done

# Same algorithm, same block size: output size within 1% of lz4's.
for l in 1 9; do
	a=$(lz -$l <text | wc -c)
	b=$(lz4 -q -$l -c <text | wc -c)
	[ $((a * 100)) -le $((b * 101)) ] && [ $((a * 100)) -ge $((b * 99)) ]
	ok $? "lz -$l output $a bytes, lz4 -$l $b bytes: within 1%"
done

# lz4 at every level, and its --fast and --favor-decSpeed variants.
for l in 1 2 3 4 5 6 7 8 9 10 11 12 "-fast=1" "-fast=9" "12 --favor-decSpeed"; do
	lz4 -q -$l -c <text | lz -d | cmp -s - text
	ok $? "lz -d reads lz4 -$l"
done

# lz4's own options: block checksums, content size, no content checksum.
for x in -BX --content-size --no-frame-crc; do
	lz4 -q $x -c <text | lz -d | cmp -s - text
	ok $? "lz -d reads lz4 $x"
done
for x in --block-checksum --content-size --no-frame-crc --fast=4 -2 -3 -5; do
	lz $x text | lz4 -dc | cmp -s - text
	ok $? "lz4 -d reads lz $x"
done
lz -B5 text | lz4 -dc | cmp -s - text
ok $? "lz4 -d reads lz -B5"
lz -B6 --best text | lz -d | cmp -s - text
ok $? "lz -B6 --best round trip"

# -o, -c and - name stdout and stdin as lz4 does.
lz -o out.lz4 - <text && lz4 -dc out.lz4 | cmp -s - text
ok $? "lz -o file"
lz -d -c out.lz4 | cmp -s - text
ok $? "lz -d -c file"
lz -d -o back out.lz4 && cmp -s back text
ok $? "lz -d -o file"

done_testing
