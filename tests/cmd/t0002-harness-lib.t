#!/bin/bash
# The TAP helpers of tests/lib.sh hold under `set -o pipefail' (bash), and
# tests/skipped reports what a run skipped.
#
# like() once piped its text into grep -q: grep exits at the first match,
# the writer gets EPIPE, and under pipefail the check failed although the
# text matched (issue 17: t6000 test 2 failed 7 runs in 50).  A text of
# 3000 lines with the match on the first line made that shape fail every
# time; 50 runs of like() on it must all pass.
. "$(dirname "$0")/../lib.sh"
set -o pipefail

big=$(printf 'x835C955C8A5C5C27y\n'; for i in $(seq 3000); do printf '%060d\n' $i; done)
fail=0
for i in $(seq 50); do
	( T_N=0; like "$big" '835C955C8A5C5C27' "m" ) | grep -q '^ok' ||
	    fail=$((fail + 1))
done
is "$fail" 0 "like: 50 runs, an early match in a 180 KB text, under pipefail"
( T_N=0; like "$big" 'not there' "m" ) >out
like "$(head -1 out)" '^not ok 1 - m$' "like: a text that does not match fails"
( T_N=0; like 'a\b$c `d`' '^a\\b\$c `d`$' "m" ) >out
is "$(head -1 out)" "ok 1 - m" "like: backslashes, dollars and backquotes are text"

seq 1 5000 >a
seq 1 5000 | sed "s/$/x/" >b
( T_N=0; is_file a b "f" ) >out
r=$?
is "$r" 0 "is_file: a long diff under pipefail"
is "$(grep -c '^# ' out) $(tail -1 out)" "40 not ok 1 - f" \
    "is_file: 40 lines of diff, then the failed check"

( T_N=3; skip 2 "no frobnicator" ) >out
is "$(cat out)" "ok 4 # skip no frobnicator
ok 5 # skip no frobnicator" "skip: N skip lines, numbered on"

# tests/skipped over saved TAP as prove writes it.
mkdir -p tap/x/tests/cmd
printf '1..0 # SKIP no sakila in /nowhere\n' >tap/x/tests/cmd/t1.t
printf '1..3\nok 1 - a\nok 2 # skip no script(1)\nok 3 - # SKIP no script(1)\n' \
    >tap/x/tests/cmd/t2.t
printf '1..1\nok 1 - fine\n' >tap/x/tests/cmd/t3.t
"$RP_TOP/tests/skipped" tap >out
is $? 3 "skipped: exit 3 when something was skipped"
like "$(cat out)" "SKIPPED: 1 file and 2 tests did not run" "skipped: counts"
like "$(cat out)" "t1.t: the whole file: no sakila in /nowhere" "skipped: a file, why"
like "$(cat out)" "t2.t: 2 tests: no script\(1\)" "skipped: tests, why"
rm tap/x/tests/cmd/t1.t tap/x/tests/cmd/t2.t
"$RP_TOP/tests/skipped" tap >out
is "$? $(wc -c <out)" "0 0" "skipped: silent when nothing was skipped"
# tests/run-one: a passing file's stderr is kept, a failing file's shown.
mkdir errs
printf '#!/bin/sh\necho "1..1"; echo "ok 1"; echo noise >&2\n' >pass.t
printf '#!/bin/sh\necho "1..1"; echo "not ok 1"; echo why >&2; exit 1\n' >fail.t
chmod +x pass.t fail.t
RP_ERRDIR=$T_DIR/errs "$RP_TOP/tests/run-one" ./pass.t >out 2>err
is "$? $(cat err) $(cat errs/pass.t.err)" "0  noise" \
    "run-one: a passing file's stderr is kept, not shown"
RP_ERRDIR=$T_DIR/errs "$RP_TOP/tests/run-one" ./fail.t >out 2>err
is "$? $(tail -1 err)" "1 why" "run-one: a failing file's stderr is shown"
# prove shows no "#" line of a file's TAP: run-one shows the failing
# tests' diagnostics itself (issue 25: progress.t failed with no reason),
# those after it and those since the test before it (t4100's loop says
# what went wrong before the test that counts it: that was not shown).
printf '#!/bin/sh\necho 1..4; echo "# setup"; echo "ok 1 - a"; echo "# fine"
echo "not ok 2 - b"; echo "# want: x"; echo "#  got: y"; echo "y2"; echo "ok 3 - c"
echo "# later"; echo "ok 4 - d"; echo "# end"; exit 1\n' >diag.t
chmod +x diag.t
RP_ERRDIR=$T_DIR/errs "$RP_TOP/tests/run-one" ./diag.t >out 2>err
is "$?|$(cat err)" "1|diag.t: # fine
diag.t: not ok 2 - b
diag.t: # want: x
diag.t: #  got: y
diag.t: y2" "run-one: a failing test's diagnostics are shown, no others"
is "$(wc -l <out) $(ls errs)" "12 pass.t.err" \
    "run-one: the TAP passes through whole, nothing of it is left in RP_ERRDIR"
done_testing
