#!/bin/bash
# Damage anywhere in the pipeline makes it exit non-zero under pipefail,
# with the damage reported, and never leaves a silent partial restore:
# a truncated or bit-flipped .lz4 file, dbsnap killed mid-stream, and SQL
# text cut at any point.  After a cut restore, the resume point sqlexec
# prints completes the restore exactly.
. "$(dirname "$0")/../lib.sh"
need_server
set -o pipefail
C=$(CONN)
SRC=t6010_src DST=t6010_dst

fresh_db $SRC || exit 1
sql $SRC -e "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(100), b BLOB);
    INSERT INTO t SELECT seq, CONCAT('row ', seq, REPEAT(' x', seq % 20)),
    IF(seq % 3 = 0, NULL, UNHEX(SHA2(seq, 256))) FROM seq_1_to_20000;
    CREATE TABLE u (k VARCHAR(20) PRIMARY KEY, n INT);
    INSERT INTO u SELECT CONCAT('k', seq), seq FROM seq_1_to_3000;
    CREATE VIEW w AS SELECT COUNT(*) AS n FROM t;" || exit 1
db_sums $SRC >src.sum

# Small LZ4 blocks, so that a cut file still decompresses to a cut text.
dbsnap $C $SRC | rows2sql --rename-db $SRC=$DST --max-statement-size 16384 |
    lz -B4 > full.lz4
is $? 0 "backup"
size=$(stat -c %s full.lz4)
lz -dc full.lz4 >full.sql
lines=$(wc -l <full.sql)

restore() {	# restore < input; exit status of the pipeline, stderrs in
	sql -e "DROP DATABASE IF EXISTS $DST"	# lz.err, split.err, err
	lz -d 2>lz.err | sqlsplit 2>split.err |
	    sqlexec $C -j 2 --commit-every 32768 2>err
}

# A truncated .lz4 file.
for cut in $((size / 3)) $((size * 2 / 3)) $((size - 5)); do
	head -c $cut full.lz4 | restore
	r=$?
	isnt $r 0 "lz4 cut at $cut of $size: pipeline fails"
	like "$(cat lz.err)" "^lz: stdin: truncated at byte [0-9]+$" \
	    "lz4 cut at $cut: lz -d reports the truncation"
	like "$(cat err)" "truncated" "lz4 cut at $cut: sqlexec reports the truncation"
done

# Resuming after the last cut completes the restore, identical.
resume=$(sed -n 's/.*resume with --skip-to \([^ ]*\)$/\1/p' err | tail -1)
like "${resume:-none}" '^[0-9]+:[0-9a-f]{16}$' "sqlexec printed a resume point"
lz -d <full.lz4 | sqlsplit | sqlexec $C -j 2 --skip-to "${resume:-0}" 2>err
is $? 0 "resume with --skip-to $resume"
is_file "$(db_sums $DST >dst.sum; echo dst.sum)" src.sum "resumed copy is identical"

# One flipped byte in the middle of the .lz4 file.
cp full.lz4 flip.lz4
printf '\xff' | dd of=flip.lz4 bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
cmp -s flip.lz4 full.lz4; isnt $? 0 "a byte is flipped"
lz -d <flip.lz4 >/dev/null 2>lzerr
isnt $? 0 "lz -d fails on the flipped byte"
like "$(cat lzerr)" "corrupt|checksum" "and says it is corrupt"
restore <flip.lz4
isnt $? 0 "restore of the flipped file fails"
like "$(cat lz.err)" "^lz: stdin: corrupt" "restore: lz -d reports the damage"

# SQL text cut anywhere: at a statement boundary, inside a statement,
# inside a string, just before the trailer line.
for cut in $(grep -a -b -m 30 '^INSERT' full.sql | tail -1 | cut -d: -f1) \
    $(( $(stat -c %s full.sql) / 2 )) $(( $(stat -c %s full.sql) - 80 )) \
    $(( $(stat -c %s full.sql) - 1 )); do
	sql -e "DROP DATABASE IF EXISTS $DST"
	head -c $cut full.sql | sqlsplit 2>split.err | sqlexec $C 2>err
	isnt $? 0 "SQL text cut at byte $cut: pipeline fails"
	like "$(cat split.err)" "^sqlsplit: stdin: .*(truncated|cut)" \
	    "SQL text cut at byte $cut: sqlsplit reports the cut"
done

# dbsnap killed mid-stream: the pipeline fails and sqlexec says truncated.
sql -e "DROP DATABASE IF EXISTS $DST"
sql $SRC -e "CREATE TABLE big (id INT PRIMARY KEY, pad CHAR(200));
    INSERT INTO big SELECT seq, 'p' FROM seq_1_to_200000;"
# The reader takes the first 64 KiB, then waits while dbsnap fills the
# pipe and is killed, then drains the rest.
mkfifo snap.fifo
dbsnap $C $SRC >snap.fifo 2>/dev/null &
snap=$!
{ dd bs=65536 count=1 iflag=fullblock 2>/dev/null; touch taken
  n=0; while [ ! -e killed ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
  cat; } <snap.fifo | rows2sql --rename-db $SRC=$DST 2>r2s.err |
    sqlsplit 2>split.err | sqlexec $C --commit-every 65536 2>err &
pipe=$!
n=0
while [ ! -e taken ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
# (dbsnap cannot end now: the reader holds 64 KiB and reads no more)
# Killed and reaped with the shell's stderr going nowhere: bash prints a
# "Killed" notice for a background job a signal ended, at whatever command
# it runs when it learns of the death, and this kill is expected.
{ kill -9 $snap; killed=$?; wait $snap; reaped=$?; } 2>/dev/null
ok $killed "dbsnap killed while it was streaming"
is $reaped 137 "dbsnap died of the SIGKILL"
touch killed
wait $pipe
isnt $? 0 "the pipeline after a killed dbsnap fails"
like "$(cat r2s.err)" "truncated" "rows2sql reports the truncation"
like "$(cat split.err)" "truncated" "sqlsplit reports the truncation"
like "$(cat err)" "truncated" "sqlexec reports the truncation"

sql -e "DROP DATABASE $SRC; DROP DATABASE IF EXISTS $DST"
done_testing
