#!/bin/sh
# A dbsnap -j 2 stream interleaves the frames of several tables, so that
# sqlexec's units of different tables overlap in frame numbers.  Cut at a
# dozen points (and stopped by a server error), the resume point printed
# must describe exactly the committed rows: resumed as printed, every
# table (keyed, keyless, MyISAM) holds each row exactly once.  Before
# #23 the printed point was a prefix of frames that lay behind committed
# rows: ERROR 1062, or on the keyless table rows loaded twice, exit 0.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
FC=$RP_TOOLS/framecat

# The source: four tables of 3000 rows, one without a key, one MyISAM.
fresh_db t4220_src
sql t4220_src -e "
CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(40)) ENGINE=InnoDB;
CREATE TABLE b (id INT, v VARCHAR(40)) ENGINE=InnoDB;
CREATE TABLE c (id INT PRIMARY KEY, v VARCHAR(40)) ENGINE=InnoDB;
CREATE TABLE m (id INT, v VARCHAR(40)) ENGINE=MyISAM;
INSERT INTO a SELECT seq, REPEAT('a', 30) FROM seq_1_to_3000;
INSERT INTO b SELECT seq % 1000, REPEAT('b', 30) FROM seq_1_to_3000;
INSERT INTO c SELECT seq, REPEAT('c', 30) FROM seq_1_to_3000;
INSERT INTO m SELECT seq % 700, REPEAT('m', 30) FROM seq_1_to_3000;"
want=$(checksums t4220_src)

# interleaved: a ROWS frame of one table between two of another.  How
# the two workers' frames mix is the scheduler's: on a loaded machine one
# worker can send all before the other starts, so dump until they mix
# (the stream is the test's input; what it checks is sqlexec).
n=0
while :; do
	n=$((n + 1))
	dbsnap $C -j 2 --chunk-rows 200 --no-progress t4220_src >s.rp 2>err
	drc=$?
	"$FC" <s.rp | awk -F'\t' '$1 == "ROW" { print $2 }' | uniq >ids
	inter=$(awk '{ if (seen[$1]++) n++ } END { print n + 0 }' ids)
	[ $drc -ne 0 ] || [ "$inter" -gt 0 ] || [ $n -ge 30 ] && break
done
is $drc 0 "dbsnap -j 2: exit 0"
ok $([ "$inter" -gt 0 ]; echo $?) "the stream interleaves the tables' rows ($inter returns, dump $n)"

size=$(wc -c <s.rp)
# load ARGS...: into a fresh t4220_dst, -j 2, small units; stderr to err
load() {
	sqlexec $C -j 2 --commit-every 20000 --rename-db t4220_src=t4220_dst \
	    --no-progress "$@" 2>err
}
# token: the --skip-to argument of the last line of err, or "none"
token() {
	sed -n 's/.*resume with --skip-to \([^ ]*\)$/\1/p' err | tail -1 |
	    grep . || echo none
}

# Cut at 12 points, then resume with the whole stream as printed.
i=1
while [ $i -le 12 ]; do
	cut=$((size * i / 13))
	fresh_db t4220_dst
	head -c $cut s.rp | load
	rc=$?
	tok=$(token)
	if [ "$tok" = none ]; then
		# nothing committed: the whole stream again
		load <s.rp
	else
		load --skip-to "$tok" <s.rp
	fi
	rc2=$?
	got=$(checksums t4220_dst | sed 's/t4220_dst/t4220_src/')
	ok $([ $rc -eq 1 ] && [ $rc2 -eq 0 ] && [ "$got" = "$want" ]; echo $?) \
	    "cut at byte $cut (exit $rc, $tok), resumed: exit $rc2, every table as the source"
	[ $rc2 -eq 0 ] || diag "$(cat err)"
	i=$((i + 1))
done

# A server error part way (--no-create into tables made LIKE the source,
# one row of c there already: ERROR 1062); that row removed, the resume
# as printed gives every row once.
fresh_db t4220_dst
for t in a b c m; do
	sql -e "CREATE TABLE t4220_dst.$t LIKE t4220_src.$t"
done
sql -e "INSERT INTO t4220_dst.c VALUES (2500, 'x')"
load --no-create <s.rp
rc=$?
tok=$(token)
like "$(cat err)" "ERROR 1062" "a duplicate key part way: ERROR 1062"
sql -e "DELETE FROM t4220_dst.c WHERE id = 2500 AND v = 'x'"
load --no-create --skip-to "$tok" <s.rp
rc2=$?
got=$(checksums t4220_dst | sed 's/t4220_dst/t4220_src/')
ok $([ $rc -eq 1 ] && [ $rc2 -eq 0 ] && [ "$got" = "$want" ]; echo $?) \
    "server error (exit $rc, $tok), resumed: exit $rc2, every table as the source"
[ $rc2 -eq 0 ] || diag "$(cat err)"

# The old form of a resume point (a bare prefix N:ID) is refused for a
# snapshot stream, before anything runs: it may lie behind committed rows.
fresh_db t4220_dst
load --skip-to 19:0123456789abcdef <s.rp
rc=$?
is $rc 1 "an old-form N:IDENTITY for a snapshot stream: exit 1"
like "$(cat err)" "--skip-to 19:0123456789abcdef: a statement stream.s resume point .*this input is a snapshot stream" \
    "an old-form N:IDENTITY: the reason"
is "$(sql -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 't4220_dst'")" 0 \
    "an old-form N:IDENTITY: nothing ran"
# A snapshot stream's point given to another stream of the same tables
# (a new dbsnap run: another snapshot): refused at the point's last frame.
dbsnap $C -j 2 --chunk-rows 200 --no-progress t4220_src >s2.rp 2>/dev/null
head -c $((size / 2)) s.rp | load
tok=$(token)
load --skip-to "$tok" <s2.rp
is $? 1 "another stream's point: exit 1"
like "$(cat err)" "is not the one the resume point was made from" \
    "another stream's point: the reason"

# --checkpoint: cut at 6 points, --resume with the whole stream.
CK=t4220_dst.ck
i=1
while [ $i -le 6 ]; do
	cut=$((size * (2 * i + 1) / 14))
	fresh_db t4220_dst
	head -c $cut s.rp | load --checkpoint $CK
	rc=$?
	row=$(sql -e "SELECT position, marks FROM $CK")
	load --checkpoint $CK --resume <s.rp
	rc2=$?
	got=$(checksums t4220_dst | grep -v '^ck' | sed 's/t4220_dst/t4220_src/')
	ok $([ $rc -eq 1 ] && [ $rc2 -eq 0 ] && [ "$got" = "$want" ]; echo $?) \
	    "--checkpoint, cut at byte $cut (exit $rc, row $row), --resume: exit $rc2, every table as the source"
	[ $rc2 -eq 0 ] || diag "$(cat err)"
	i=$((i + 1))
done

# dbsnap -j 4 and sqlexec -j 4: cut at 6 points, resumed as printed.
dbsnap $C -j 4 --chunk-rows 150 --no-progress t4220_src >s4.rp 2>/dev/null
size4=$(wc -c <s4.rp)
i=1
while [ $i -le 6 ]; do
	cut=$((size4 * i / 7))
	fresh_db t4220_dst
	head -c $cut s4.rp | load -j 4
	rc=$?
	tok=$(token)
	if [ "$tok" = none ]; then
		load -j 4 <s4.rp
	else
		load -j 4 --skip-to "$tok" <s4.rp
	fi
	rc2=$?
	got=$(checksums t4220_dst | sed 's/t4220_dst/t4220_src/')
	ok $([ $rc -eq 1 ] && [ $rc2 -eq 0 ] && [ "$got" = "$want" ]; echo $?) \
	    "-j 4, cut at byte $cut (exit $rc, $tok), resumed: exit $rc2, every table as the source"
	[ $rc2 -eq 0 ] || diag "$(cat err)"
	i=$((i + 1))
done

done_testing
