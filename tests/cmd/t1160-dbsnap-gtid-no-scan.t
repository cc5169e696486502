#!/bin/sh
# With -j above 1 dbsnap holds the global read lock while it records the
# snapshot's binary log position, so the GTID position is the server's
# @@gtid_binlog_pos: the same text BINLOG_GTID_POS(file, pos) gives, but
# without reading the binary log from its start (#28: 20 ms of server
# CPU per 72 MB of log; before, every dump at -j 2 asked for it).  With
# -j 1 (no lock) it is @@gtid_binlog_pos too when the binary log still
# ends at the snapshot's position after it was read (SHOW MASTER STATUS);
# a user without BINLOG MONITOR, who may not ask that, gets the same
# position from BINLOG_GTID_POS.  Under writes (a loop committing all the
# while) a commit falls between -j 1's snapshot and that check now and
# then, and it reads the log: whichever way, the position is the one
# BINLOG_GTID_POS gives for the snapshot's file and position.
# The server is the test's own, its general log the record of dbsnap's
# queries.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
. "$RP_TOP/tests/bank.sh"
need_server
plan 10
server_own OWN --server-id=1160 --general-log=1 \
    --general-log-file="$T_DIR/general.log"
RP_SOCK=$OWN_SOCK RP_PORT=$OWN_PORT
DB=t1160_db
fresh_db $DB
sql $DB -e "CREATE TABLE t (id int PRIMARY KEY, v text);
    INSERT INTO t SELECT seq, REPEAT('x', 100) FROM seq_1_to_2000" || exit 1

: >"$T_DIR/general.log"
h=$(dbsnap $(CONN) -j 2 --no-data $DB 2>/dev/null | rows2sql)
file=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_file: //p')
pos=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_pos: //p')
gtid=$(printf '%s\n' "$h" | sed -n 's/^-- gtid_binlog_pos: //p')
grep -q 'BINLOG_GTID_POS' "$T_DIR/general.log"
scanned=$?
want=$(sql -N -e "SELECT BINLOG_GTID_POS('$file', $pos)")
like "$gtid" '^[0-9]+-1160-[0-9]+' "-j 2: a GTID position in the header"
is "$gtid" "$want" "... the one BINLOG_GTID_POS gives for its file and position"
is $scanned 1 "... found without BINLOG_GTID_POS (before: it read the binary log)"

: >"$T_DIR/general.log"
h=$(dbsnap $(CONN) -j 1 --no-data $DB 2>/dev/null | rows2sql)
gtid=$(printf '%s\n' "$h" | sed -n 's/^-- gtid_binlog_pos: //p')
is "$gtid" "$want" "-j 1: the same position"
grep -q 'BINLOG_GTID_POS' "$T_DIR/general.log"
is $? 1 "... found without BINLOG_GTID_POS (before: it read the binary log)"
grep -q 'SHOW MASTER STATUS' "$T_DIR/general.log"
is $? 0 "... the log's end checked against the snapshot's position"

{ bank_mover '    INSERT INTO w (v) VALUES (i); UPDATE ctl SET ops = ops + 1;'
  echo "CREATE TABLE w (id int AUTO_INCREMENT PRIMARY KEY, v int);"; } |
    sql $DB || exit 1
sql $DB -e "CALL mover()" &
mover=$!
wait_for sh -c "[ \$(mariadb --no-defaults -uroot -S '$RP_SOCK' -N -e \
    'SELECT ops FROM $DB.ctl') -gt 10 ]" || fail_all "no writes"
bad=0 runs=0
while [ $runs -lt 5 ]; do
	h=$(dbsnap $(CONN) -j 1 --no-data $DB 2>/dev/null | rows2sql)
	file=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_file: //p')
	pos=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_pos: //p')
	gtid=$(printf '%s\n' "$h" | sed -n 's/^-- gtid_binlog_pos: //p')
	want=$(sql -N -e "SELECT BINLOG_GTID_POS('$file', $pos)")
	[ -n "$gtid" ] && [ "$gtid" = "$want" ] || { bad=$((bad + 1));
	    diag "at $file $pos: $gtid, want $want"; }
	runs=$((runs + 1))
done
ops0=$(sql -N -e "SELECT ops FROM $DB.ctl")
sql -e "UPDATE $DB.ctl SET stop = 1"
wait $mover
like "$ops0" '^[0-9]+$' "under writes ($ops0 commits meanwhile)"
is $bad 0 "... -j 1: each of 5 dumps has its snapshot's GTID position"

sql -e "CREATE USER t1160_r@localhost; GRANT SELECT, SHOW VIEW, TRIGGER, EVENT
    ON *.* TO t1160_r@localhost" || exit 1
: >"$T_DIR/general.log"
h=$(dbsnap --no-defaults -ut1160_r -S "$RP_SOCK" -j 1 --no-data $DB \
    2>/dev/null | rows2sql)
file=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_file: //p')
pos=$(printf '%s\n' "$h" | sed -n 's/^-- binlog_pos: //p')
gtid=$(printf '%s\n' "$h" | sed -n 's/^-- gtid_binlog_pos: //p')
want=$(sql -N -e "SELECT BINLOG_GTID_POS('$file', $pos)")
is "$gtid" "$want" "-j 1 without BINLOG MONITOR: the snapshot's position"
grep -q 'BINLOG_GTID_POS' "$T_DIR/general.log"
is $? 0 "... from BINLOG_GTID_POS"
done_testing
