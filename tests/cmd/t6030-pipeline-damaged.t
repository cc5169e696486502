#!/bin/sh
# One byte changed inside a row value of a rows2sql file: sqlsplit | sqlexec
# commits nothing of that segment, and sqlexec says "damaged", names the
# tables that hold rows of this input, says the target must be restored
# again and prints no resume point; a cut file is "truncated" with a
# resume point, a different outcome.  Issue 15 item 1: the changed row was
# committed, then called "input truncated" with resume advice.
. "$(dirname "$0")/../lib.sh"
need_server
command -v perl >/dev/null || skip_all "no perl"
C=$(CONN)
src=t6030_src dst=t6030_dst

checkpointed_dump $src $dst 300000 damage

# A row in the middle of segment 2: change one letter of its value.
lo=$(grep -bn '^-- rowpipe-checkpoint ' dump.sql | sed -n 1p | cut -d: -f2)
hi=$(grep -bn '^-- rowpipe-checkpoint ' dump.sql | sed -n 2p | cut -d: -f2)
set -- $(grep -bo "'row [0-9]* of the damage test'" dump.sql |
    awk -F: -v m=$(( (lo + hi) / 2 )) '$1 > m { print $1; exit }')
off=$1
id=$(tail -c +$((off + 1)) dump.sql | head -c 20 | sed "s/^'row \([0-9]*\).*/\1/")
cp dump.sql bad.sql
put bad.sql $((off + 1)) R
like "$(cmp dump.sql bad.sql)" "differ" "one byte changed, in row $id"

sql -e "DROP DATABASE IF EXISTS $dst"
sqlsplit bad.sql 2>split.err | sqlexec $C -j 4 --commit-every 64K 2>err
is "$?" 1 "damaged: exit 1"
like "$(cat split.err)" "^sqlsplit: bad.sql: damaged: " "damaged: sqlsplit says so"
like "$(grep '^sqlexec: input damaged' err)" "^sqlexec: input damaged \\(sqlsplit: bad.sql: damaged: lines [0-9]+-[0-9]+ .*do not match their checkpoint line" \
    "damaged: sqlexec says damaged, with sqlsplit's reason"
like "$(cat err)" "sqlexec: nothing of the damaged part ran, but these tables were created or loaded from this input: $dst\\.t, $dst\\.u: the target must be restored again, from a good copy of the input" \
    "damaged: the tables this input created or loaded, and: restore again"
ok $(! grep -q 'resume with' err; echo $?) "damaged: no resume point"
ok $(! grep -q 'truncated' err; echo $?) "damaged: not called truncated"
is "$(sql -e "SELECT COUNT(*) FROM $dst.t WHERE id = $id")" 0 \
    "the changed row is not committed"
is "$(sql -e "SELECT COUNT(*) = MAX(id), MAX(id) < $id, MAX(id) > 0 FROM $dst.t")" "1	1	1" \
    "only whole segments before it are (rows 1 to $(sql -e "SELECT MAX(id) FROM $dst.t")), nothing of its segment"

# A cut file: truncated, with a resume point that completes it.
sql -e "DROP DATABASE IF EXISTS $dst"
head -c $off dump.sql | sqlsplit 2>split.err | sqlexec $C -j 4 2>err
is "$?" 1 "cut: exit 1"
like "$(cat split.err)" "^sqlsplit: stdin: truncated" "cut: sqlsplit says truncated"
like "$(cat err)" "truncated" "cut: truncated"
ok $(! grep -q 'damaged' err; echo $?) "cut: not called damaged"
tok=$(sed -n 's/^sqlexec: statements 1-[0-9]* are committed; resume with --skip-to \([0-9]*:[0-9a-f]*\)$/\1/p' err)
like "$tok" '^[0-9]+:[0-9a-f]{16}$' "cut: a resume point"
sqlsplit dump.sql | sqlexec $C -j 4 --skip-to "$tok" 2>err
is "$?" 0 "cut: resumed with the whole file: exit 0"
is "$(sql -e "CHECKSUM TABLE $dst.t, $dst.u" | cut -f2)" \
    "$(sql -e "CHECKSUM TABLE $src.t, $src.u" | cut -f2)" \
    "cut: the resumed copy equals the source"

sql -e "DROP DATABASE $src; DROP DATABASE $dst"
done_testing
