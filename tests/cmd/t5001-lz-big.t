#!/bin/sh
# lz: a 100 MiB mixed file (random 4 MiB runs between 6 MiB runs of SQL
# text) both ways with the lz4 command, at levels 1, 9 and 12, block sizes
# 64 KiB and 4 MiB, with one and two threads; memory stays bounded; a closed
# pipe ends lz quietly by SIGPIPE.
. "$(dirname "$0")/../lib.sh"
command -v lz4 >/dev/null || skip_all "no lz4 command"

awk 'BEGIN { srand(11); for (i = 0; i < 17000; i++)
	printf "INSERT INTO t VALUES (%d,\x27%s-%d\x27,%d.%02d,\x27%x\x27);\n",
	    i, (i % 3 ? "customer" : "supplier"), int(rand() * 100000),
	    int(rand() * 1000), int(rand() * 100), int(rand() * 2^31) }' |
    head -c 1048576 >t1m
cat t1m t1m t1m t1m t1m t1m >t6m
i=0
while [ $i -lt 10 ]; do
	head -c 4194304 /dev/urandom
	cat t6m
	i=$((i + 1))
done >mixed
rm -f t1m t6m
is "$(wc -c <mixed | tr -d ' ')" 104857600 "100 MiB mixed file"

# lz writes, lz4 and lz read.
for args in "-1 -B7 -T1" "-1 -B4 -T2" "-9 -B7 -T2" "-12 -B4 -T2"; do
	lz $args <mixed >c.lz4
	ok $? "lz $args compresses"
	lz4 -dc c.lz4 | cmp -s - mixed
	ok $? "lz4 -d reads lz $args"
	lz -d -T2 <c.lz4 | cmp -s - mixed
	ok $? "lz -d -T2 reads lz $args"
	lz -d -T1 <c.lz4 | cmp -s - mixed
	ok $? "lz -d -T1 reads lz $args"
done

# lz4 writes (linked and independent blocks), lz reads.
for args in "-1 -B7 -BD" "-1 -B4" "-9 -B4 -BD"; do
	lz4 -q $args -c mixed >ref.lz4
	lz -d -T2 <ref.lz4 | cmp -s - mixed
	ok $? "lz -d -T2 reads lz4 $args"
	lz -d -T1 ref.lz4 | cmp -s - mixed
	ok $? "lz -d -T1 reads lz4 $args"
done
# lz4 -12 runs at about 10 MB/s: the first 16 MiB only.
head -c 16777216 mixed >part
lz4 -q -12 -B7 -c part >ref.lz4
lz -d <ref.lz4 | cmp -s - part
ok $? "lz -d reads lz4 -12 -B7 (16 MiB)"
lz4 -q -l -c mixed >ref.lz4
lz -d <ref.lz4 | cmp -s - mixed
ok $? "lz -d reads lz4 -l (legacy format)"
rm -f part ref.lz4

# Memory: 2 * threads slots of one block in and one block out.
# (Not under a sanitizer: ASan's own memory would dominate.)
if [ -x /usr/bin/time ] && ! ldd "$(command -v lz)" | grep -q libasan; then
	lz -1 -T2 -B7 <mixed >c.lz4
	kb=$(/usr/bin/time -f %M lz -1 -T2 -B7 <mixed 2>&1 >/dev/null)
	[ "$kb" -lt 65536 ]
	ok $? "lz -T2 -B7 on 100 MiB: max RSS $kb KiB < 64 MiB"
	kb=$(/usr/bin/time -f %M lz -d -T2 <c.lz4 2>&1 >/dev/null)
	[ "$kb" -lt 65536 ]
	ok $? "lz -d -T2 on 100 MiB: max RSS $kb KiB < 64 MiB"
	kb=$(/usr/bin/time -f %M lz -1 -T2 -B4 <mixed 2>&1 >/dev/null)
	[ "$kb" -lt 16384 ]
	ok $? "lz -T2 -B4 on 100 MiB: max RSS $kb KiB < 16 MiB"
else
	lz -1 -T2 -B7 <mixed >c.lz4
	diag "no /usr/bin/time, or a sanitizer build: memory not measured"
fi

# A closed pipe: killed by SIGPIPE (status 141 in sh), nothing on stderr.
{ lz -T2 <mixed 2>err1; echo $? >rc1; } | head -c 10 >/dev/null
is "$(cat rc1)" 141 "lz | head: SIGPIPE"
is "$(cat err1)" "" "lz | head: quiet"
{ lz -d -T2 <c.lz4 2>err2; echo $? >rc2; } | head -c 10 >/dev/null
is "$(cat rc2)" 141 "lz -d | head: SIGPIPE"
is "$(cat err2)" "" "lz -d | head: quiet"

done_testing
