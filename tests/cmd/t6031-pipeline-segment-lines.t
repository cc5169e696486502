#!/bin/sh
# The lines that make a rows2sql file checkable are checked themselves: a
# damaged segments line (line 2), the end of line 1, or the checkpoint
# line before the trailer is damage ("damaged", exit 1, nothing of the
# damaged part committed), never a reason to stop checking the segments.
# Before, each turned the segment checks off (or left the last segment
# unchecked), and a changed row beside it was committed, with exit 0 for
# the last one.  A text with both first lines damaged is checked by its
# trailer alone, after every statement ran: sqlexec then says the damaged
# part may have run (ABORT reason damaged-late), not "nothing of the
# damaged part ran".  Issue 15 item 1.
. "$(dirname "$0")/../lib.sh"
need_server
command -v perl >/dev/null || skip_all "no perl"
C=$(CONN)
src=t6031_src dst=t6031_dst

checkpointed_dump $src $dst 120000 lines
nck=$(grep -c '^-- rowpipe-checkpoint ' dump.sql)
grep -bn '^-- rowpipe-checkpoint ' dump.sql | cut -d: -f2 >ck.off

# row_in N: the offset and id of a row value in the middle of segment N.
row_in() {
	lo=$(sed -n "$(($1 - 1))p" ck.off) hi=$(sed -n "$1p" ck.off)
	grep -bo "'row [0-9]* of the lines test'" dump.sql |
	    awk -F: -v m=$(( (${lo:-0} + hi) / 2 )) '$1 > m {
		sub(/^.row /, "", $2); sub(/ .*/, "", $2); print $1, $2; exit }'
}
# bad NAME: a copy of dump.sql with one letter of a row of segment 2
# changed ("row" to "Row"), then damaged further by the caller.
bad() {
	cp dump.sql "$1"
	put "$1" $((roff + 1)) R
}
set -- $(row_in 2)
roff=$1 rid=$2
# the last segment: the session statements at the end (the rows before
# it come in parallel chunks)
loff=$(grep -bo 'SET SQL_NOTES=@OLD_SQL_NOTES' dump.sql | cut -d: -f1)
ok $([ "${loff:-0}" -gt "$(sed -n "$((nck - 1))p" ck.off)" ]; echo $?) \
    "(the last statement is in the last segment)"
nbefore=$(sqlsplit --list dump.sql | awk -F'\t' -v o="$(sed -n "$((nck - 1))p" ck.off)" \
    '$3 < o' | wc -l | tr -d ' ')

# run FILE: sqlsplit FILE | sqlexec into a fresh target.
run() {
	sql -e "DROP DATABASE IF EXISTS $dst"
	sqlsplit "$1" 2>split.err | sqlexec $C -j 4 --commit-every 64K 2>err
}
# committed ID: 1 if row ID of t is in the target.
committed() {
	sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE
	    table_schema = '$dst' AND table_name = 't'" | grep -q 1 || {
		echo 0; return; }
	sql -e "SELECT COUNT(*) FROM $dst.t WHERE id = $1"
}

# 1. The segments line damaged ("segments" to "segmentw").
bad l2.sql
put l2.sql $((17 + 18)) w
is "$(sed -n 2p l2.sql | cut -c1-27)" "-- rowpipe-segmentw bytes=1" "(line 2 damaged)"
run l2.sql
is "$?" 1 "segments line damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: l2.sql: damaged: line 2: the input starts as rows2sql output \\(its first line\\) but line 2 is not its rowpipe segments line" \
    "segments line damaged: sqlsplit says damaged, line 2"
is "$(committed $rid)" 0 "segments line damaged: the changed row is not committed"
like "$(cat err)" "^sqlexec: input damaged \\(sqlsplit: l2.sql: damaged: line 2" \
    "segments line damaged: sqlexec says damaged"
like "$(cat err)" "sqlexec: nothing of the damaged part ran, and nothing of this input is committed" \
    "segments line damaged: nothing of it is committed, and sqlexec says so"
ok $(! grep -q 'resume with' err; echo $?) "segments line damaged: no resume point"

# 2. The newline of line 1 damaged: lines 1 and 2 become one.
bad l1.sql
put l1.sql 16 "$(printf '\016')"
run l1.sql
is "$?" 1 "line 1's end damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: l1.sql: damaged: line 2" \
    "line 1's end damaged: damaged, line 2"
is "$(committed $rid)" 0 "line 1's end damaged: the changed row is not committed"

# 3. The segments line made statement text ("-- " to "--$"), and line 1
# made statement text ("-" to ")"), so that line 2 is inside statement 1.
bad l2s.sql
put l2s.sql $((17 + 2)) '$'
run l2s.sql
is "$?" 1 "segments line made statement text: exit 1"
like "$(cat split.err)" "^sqlsplit: l2s.sql: damaged: line 2: " \
    "segments line made statement text: damaged"
is "$(committed 1)" 0 "segments line made statement text: nothing committed"
bad l1s.sql
put l1s.sql 0 ')'
run l1s.sql
is "$?" 1 "line 1 made statement text: exit 1"
like "$(cat split.err)" "^sqlsplit: l1s.sql: damaged: lines 1-[0-9]+ .*do not match their checkpoint line" \
    "line 1 made statement text: segment 1 is damaged"
is "$(committed 1)" 0 "line 1 made statement text: nothing committed"

# 4. The checkpoint line before the trailer damaged ("checkpoint" to
# "checkpoinp"), and the last statement changed.
last=$(tail -1 ck.off)
cp dump.sql lc.sql
put lc.sql $((loff + 27)) Z
put lc.sql $((last + 20)) p
is "$(tail -2 lc.sql | head -1 | cut -c1-22)" "-- rowpipe-checkpoinp " "(the last checkpoint line damaged)"
sqlsplit lc.sql >lc.rp 2>split.err
is "$?" 1 "last checkpoint line damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: lc.sql: damaged: lines [0-9]+-[0-9]+ \\(bytes [0-9]+-[0-9]+, statements [0-9]+-[0-9]+\\) have no checkpoint line before the trailer line: it is missing or damaged; none of these statements was passed on$" \
    "last checkpoint line damaged: damaged, naming the last segment"
is "$(framecat <lc.rp 2>/dev/null | grep -c '^STMT')" "$nbefore" \
    "last checkpoint line damaged: no statement of the last segment is passed on"
run lc.sql
is "$?" 1 "last checkpoint line damaged: sqlexec exits 1"
like "$(cat err)" "sqlexec: nothing of the damaged part ran, but these tables were created or loaded from this input: $dst\\.t, $dst\\.u: the target" \
    "last checkpoint line damaged: sqlexec names the tables it loaded"

# 5. The trailer line made part of the last statement (its ";" changed):
# damaged, not cut.
cp dump.sql lt.sql
semi=$(( $(wc -c <dump.sql) - $(tail -2 dump.sql | wc -c) - 2 ))
is "$(tail -c +$((semi + 1)) dump.sql | head -c 1)" ";" "(the last statement's delimiter)"
put lt.sql $semi '?'
sqlsplit lt.sql >lt.rp 2>split.err
is "$?" 1 "last delimiter damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: lt.sql: damaged: line [0-9]+: malformed rowpipe trailer line, or one inside a statement" \
    "last delimiter damaged: damaged"
like "$(framecat <lt.rp 2>&1 >/dev/null)" "aborted by the producer: .*damaged" \
    "last delimiter damaged: an abort frame, not a cut stream"

# 6. Both first lines damaged: no longer known as rows2sql's, checked by
# the trailer alone, after every statement ran.
bad l12.sql
put l12.sql 10 X
put l12.sql $((17 + 18)) w
run l12.sql
is "$?" 1 "both first lines damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: l12.sql: trailer mismatch: xxh3 [0-9a-f]{16}, it says [0-9a-f]{16} \\(input damaged\\)$" \
    "both first lines damaged: the trailer finds it"
like "$(cat err)" "sqlexec: the damage was found only after the input before it had run, damaged part included: these tables were created or loaded from this input: $dst\\.t, $dst\\.u: the target must be restored again" \
    "both first lines damaged: sqlexec says the damaged part may have run"
ok $(! grep -q 'nothing of the damaged part ran' err; echo $?) \
    "both first lines damaged: no false 'nothing of the damaged part ran'"
ok $(! grep -q 'resume with' err; echo $?) "both first lines damaged: no resume point"

# The whole file still loads.
run dump.sql
is "$?" 0 "the undamaged file loads"
is "$(sql -e "CHECKSUM TABLE $dst.t, $dst.u" | cut -f2)" \
    "$(sql -e "CHECKSUM TABLE $src.t, $src.u" | cut -f2)" \
    "and equals the source"

sql -e "DROP DATABASE $src; DROP DATABASE $dst"
done_testing
