#!/bin/sh
# sqlsplit checks a rows2sql text a segment at a time (its checkpoint
# lines, lib/sqltrailer.h) and passes on no statement of a segment that
# does not match: a byte changed in a row, a checkpoint line changed or
# removed, the last segment changed (the trailer line checks it) are
# "damaged", end the frame stream with an abort frame after the statements
# known good, and exit 1; a cut is "truncated", without an abort frame.
# Memory stays bounded by a segment, not the text.  Issue 15 item 1.
. "$(dirname "$0")/../lib.sh"
command -v perl >/dev/null || skip_all "no perl"

# 200000 rows of about 70 bytes: a text of about 14 MB, 14 segments (the
# last checkpoint line comes right before the trailer line).
awk 'BEGIN {
	print "HEADER\tproducer=t3130"
	print "OBJECT\tdatabase\tt3130\tt3130\tCREATE DATABASE `t3130`"
	print "OBJECT\ttable\tt3130\tt\tCREATE TABLE `t` (`id` int, `v` varchar(90))"
	print "TABLE\t1\tt3130\tt\t2"
	print "COLUMN\t1\t0\tid\t3\t0x40\t63\t0\tint"
	print "COLUMN\t1\t1\tv\t253\t0\t45\t0\tvarchar(90)"
	for (i = 1; i <= 200000; i++)
		printf "ROW\t1\t\x27%d\t\x27row %d of the segment test, some text to make it longer\n", i, i
	print "TABLE_END\t1\t200000"
	print "TRAILER"
}' | r2s-gen | rows2sql >good.sql
is "$(sed -n 2p good.sql)" "-- rowpipe-segments bytes=1048576" \
    "rows2sql declares its segments on line 2"
nck=$(grep -c '^-- rowpipe-checkpoint statements=[0-9]* bytes=[0-9]* xxh3=[0-9a-f]\{16\}$' good.sql)
ok $([ "$nck" -ge 4 ]; echo $?) "rows2sql writes a checkpoint line every 1 MiB ($nck)"
is "$(tail -2 good.sql | head -1 | cut -c1-22)" "-- rowpipe-checkpoint " \
    "the last checkpoint line comes right before the trailer line"

# stmts FILE: the statement numbers in a frame stream, first and last.
stmts() {
	framecat <"$1" 2>/dev/null | awk -F'\t' '$1 == "STMT" {
		if (!f) f = $2; l = $2 } END { print f + 0, l + 0 }'
}
# seg N: the statement numbers of segment N (1-based) of good.sql, from
# sqlsplit --list's lines and the checkpoint lines' offsets.
grep -bn '^-- rowpipe-checkpoint' good.sql | cut -d: -f2 >ck.off
sqlsplit --list good.sql >list
seg() {
	lo=$(sed -n "$(($1 - 1))p" ck.off) hi=$(sed -n "$1p" ck.off)
	awk -F'\t' -v lo="${lo:-0}" -v hi="${hi:-999999999999}" \
	    '$3 >= lo && $3 < hi { if (!f) f = $1; l = $1 } END { print f, l }' list
}
# flip FILE OFFSET: change one byte.
flip() {
	perl -e 'open(F, "+<:raw", $ARGV[0]) or die; seek(F, $ARGV[1], 0);
	    read(F, $c, 1); seek(F, $ARGV[1], 0); print F chr(ord($c) ^ 0x04);
	    close F' "$1" "$2"
}

sqlsplit good.sql >good.rp
is "$?" 0 "the whole text splits"
last=$(sqlsplit --list good.sql | tail -1 | cut -f1)
is "$(stmts good.rp)" "1 $last" "every statement is passed on"
framecat <good.rp >/dev/null
is "$?" 0 "and the stream ends with its trailer"

# at N: the offset of a row's text in the middle of segment N.
at() {
	lo=$(sed -n "$(($1 - 1))p" ck.off) hi=$(sed -n "$1p" ck.off)
	grep -bo "of the segment test" good.sql | cut -d: -f1 |
	    awk -v m=$(( (${lo:-0} + hi) / 2 )) '$1 > m { print; exit }'
}
# A byte changed in a row value of segment 3: statements of segments 1 and
# 2 only, then the abort frame.
set -- $(seg 3)
first3=$1
off=$(at 3)
cp good.sql bad.sql
flip bad.sql $((off + 4))
is "$(awk -v o="$off" '$1 < o' ck.off | wc -l | tr -d ' ')" 2 \
    "(the changed row is in segment 3)"
sqlsplit bad.sql >bad.rp 2>err
is "$?" 1 "a changed row: exit 1"
like "$(cat err)" "^sqlsplit: bad.sql: damaged: lines [0-9]+-[0-9]+ \\(bytes [0-9]+-[0-9]+, statements $first3-[0-9]+\\) do not match their checkpoint line: xxh3 [0-9a-f]{16} where it says [0-9a-f]{16}; none of these statements was passed on$" \
    "a changed row: damaged, naming the segment"
is "$(stmts bad.rp)" "1 $((first3 - 1))" \
    "a changed row: only the statements before its segment are passed on"
like "$(framecat <bad.rp 2>&1 >/dev/null)" "^framecat: aborted by the producer: sqlsplit: bad.sql: damaged: " \
    "a changed row: the stream ends with an abort frame, damaged"

# The same in the last segment, and in the trailer line (every statement
# is good then, but the text is not what rows2sql wrote).
set -- $(seg $nck)
off=$(grep -bo "SET SQL_NOTES=@OLD_SQL_NOTES" good.sql | cut -d: -f1)
cp good.sql bad.sql
flip bad.sql $((off + 4))
sqlsplit bad.sql >bad.rp 2>err
is "$?" 1 "a changed row in the last segment: exit 1"
like "$(cat err)" "damaged" "a changed row in the last segment: damaged"
is "$(stmts bad.rp)" "1 $(($1 - 1))" \
    "a changed row in the last segment: none of it is passed on"
like "$(framecat <bad.rp 2>&1 >/dev/null)" "aborted by the producer: .*damaged" \
    "a changed row in the last segment: an abort frame"
sed '$s/xxh3=./xxh3=x/' good.sql >bad.sql
# (a changed first line does not turn the checks off: segment 1 fails)
sed '1s/rows2sql/rows2sqX/' good.sql >bad1.sql
sqlsplit bad1.sql >bad1.rp 2>err
like "$(cat err)" "damaged: lines 1-" "a changed first line: segment 1 is damaged"
is "$(stmts bad1.rp)" "0 0" "a changed first line: nothing passed on"
sqlsplit bad.sql >bad.rp 2>err
is "$?" 1 "a changed trailer line: exit 1"
like "$(cat err)" "damaged|malformed" "a changed trailer line: damaged"

# A checkpoint line removed, or changed.
set -- $(seg 2)
first2=$1
awk '/^-- rowpipe-checkpoint/ && ++n == 2 { next } { print }' good.sql >bad.sql
sqlsplit bad.sql >bad.rp 2>err
is "$?" 1 "a checkpoint line removed: exit 1"
like "$(cat err)" "damaged: line [0-9]+: statement [0-9]+ starts [0-9]+ bytes after the last checkpoint \\(byte [0-9]+\\), where a checkpoint line was due after 1048576: it is missing or damaged" \
    "a checkpoint line removed: damaged"
is "$(stmts bad.rp)" "1 $((first2 - 1))" \
    "a checkpoint line removed: nothing after the last good checkpoint"
perl -pe 's/^(-- rowpipe-checkpoint statements=)\d+/${1}9/ && $n++ if !$n' \
    good.sql >bad.sql
sqlsplit bad.sql >bad.rp 2>err
is "$?" 1 "a checkpoint line changed: exit 1"
like "$(cat err)" "damaged: lines 1-[0-9]+ .*: [0-9]+ statements where it says 9;" \
    "a checkpoint line changed: damaged"
is "$(stmts bad.rp)" "0 0" "a checkpoint line changed: nothing passed on"

# A cut: truncated, not damaged; the segments before it are passed on.
off=$(at 3)
head -c "$off" good.sql >cut.sql
sqlsplit cut.sql >cut.rp 2>err
is "$?" 1 "a cut text: exit 1"
like "$(cat err)" "truncated" "a cut text: truncated"
ok $(! grep -q damaged err; echo $?) "a cut text: not called damaged"
like "$(framecat <cut.rp 2>&1 >/dev/null)" "^framecat: truncated at byte" \
    "a cut text: no abort frame, a truncated stream"
s=$(stmts cut.rp | cut -d' ' -f2)
ok $([ "$s" -lt "$first3" ]; echo $?) \
    "a cut text: no statement of the unchecked segment passed on ($s)"

# Memory: held statements are a segment, not the text (14 MB here).
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o rss sqlsplit good.sql >/dev/null
	rss=$(tail -1 rss)
	ok $([ "$rss" -lt 40000 ]; echo $?) \
	    "sqlsplit holds a segment at a time: max RSS $rss KiB"
fi

# --print writes as it reads: a changed row is still reported as damage.
cp good.sql bad.sql
flip bad.sql $((off + 4))
sqlsplit --print bad.sql >/dev/null 2>err
is "$?" 1 "--print of a changed text: exit 1"
like "$(cat err)" "damaged" "--print of a changed text: damaged"

# A text of rows2sql before its segments line (header keys from line 2,
# no checkpoint lines): checked by its trailer alone, as sqlsplit(1)
# says, not refused as damaged.  Made from good.sql: segments and
# checkpoint lines out, the trailer computed again over what is left.
grep -v -e '^-- rowpipe-segments ' -e '^-- rowpipe-checkpoint ' \
    -e '^-- rowpipe-trailer ' good.sql >old.body
n=$(sed -n 's/^-- rowpipe-trailer statements=\([0-9]*\) .*/\1/p' good.sql)
h=$(xxhsum -H3 <old.body | sed 's/.* = //')
{ cat old.body; echo "-- rowpipe-trailer statements=$n bytes=$(wc -c <old.body) xxh3=$h"; } >old.sql
like "$(sed -n 2p old.sql)" "^-- producer: " "an older rows2sql text: header keys from line 2"
sqlsplit old.sql >old.rp 2>err
is "$?" 0 "an older rows2sql text (trailer only): exit 0"
is "$(framecat <old.rp | grep -c '^STMT')" "$(framecat <good.rp | grep -c '^STMT')" \
    "... with every statement"
awk '!d && /^INSERT/ { sub(/\(/, "( "); d = 1 } { print }' old.sql >oldbad.sql
sqlsplit oldbad.sql >/dev/null 2>err
is "$?" 1 "an older rows2sql text changed: exit 1"
like "$(cat err)" "damaged" "... damaged, by its trailer"

done_testing
