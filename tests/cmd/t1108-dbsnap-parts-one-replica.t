#!/bin/sh
# Parts with fewer replicas than parts, under writes (#25): rowpipe(7)'s
# GNU parallel recipe with one replica for two parts.  Before, the
# replica's first part started replication again and the second found
# it past the position ("the replica has executed ..., past or beside
# that position") whatever --retries did.  With --keep-stopped each part
# leaves the replica at the position (and says so) and the next finds it
# there; START SLAVE after the last.  A workload on the primary moves
# amounts between two tables, keeping their sum; the two parts, loaded
# into tests/run's server, keep it.  A primary and a replica of the
# test's own.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
. "$RP_TOP/tests/bank.sh"
need_server
command -v parallel >/dev/null || skip_all "no GNU parallel"
DB=t1108_bank
server_own P --server-id=181
server_own R --server-id=182
MOVER=
trap '[ -z "$MOVER" ] || kill "$MOVER" 2>/dev/null; server_own_stop; rm -rf "$T_DIR"' EXIT
on() { _s=$1; shift; mariadb --no-defaults -uroot -S "$_s" --batch --skip-column-names "$@"; }
sql_state() { mariadb --no-defaults -uroot -S "$R_SOCK" -e "SHOW SLAVE STATUS\\G" | sed -n "s/^ *Slave_SQL_Running: //p"; }
replicate "$P_SOCK" "$P_PORT" "$R_SOCK" && bank_sql $DB | on "$P_SOCK" || exit 1
total=$BANK_TOTAL
sumq="SELECT (SELECT SUM(amt) FROM $DB.acct_a) + (SELECT SUM(amt) FROM $DB.acct_b)"
pos=$(on "$P_SOCK" -e "SELECT @@gtid_binlog_pos")
is "$(on "$R_SOCK" -e "SELECT MASTER_GTID_WAIT('$pos', 60)")" 0 "the replica catches up"
on "$R_SOCK" -e "ANALYZE LOCAL TABLE $DB.acct_a, $DB.acct_b, $DB.ctl" >/dev/null
dbsnap --no-defaults -uroot -S "$R_SOCK" --plan 2 $DB >plan.txt
is "$?" 0 "a plan of two parts"
printf '[client]\nuser = root\nsocket = %s\n' "$R_SOCK" >r.cnf

on "$P_SOCK" $DB -e "CALL mover()" &
MOVER=$!
ahead() {
	on "$P_SOCK" -e "SELECT @@gtid_binlog_pos" |
	    awk -F- -v n="$1" '{ print $1 "-" $2 "-" $3 + n }'
}
ops_ge() { [ "$(on "$P_SOCK" -e "SELECT ops FROM $DB.ctl")" -ge "$1" ]; }
reached() { [ "$(on "$R_SOCK" -e "SELECT MASTER_GTID_WAIT('$1', 1)")" = 0 ]; }
replicating() { [ "$(sql_state)" = Yes ]; }
# A position 300 transactions ahead: the replica is behind it.
wait_for ops_ge 20
POS=$(ahead 300)

# Without --keep-stopped: the second part finds the replica past POS.
dbsnap --defaults-file=r.cnf --part 1/2 --plan-file plan.txt --at-gtid "$POS" \
    $DB >old1.rp 2>old1.err
is "$?" 0 "without --keep-stopped: part 1 at $POS"
is "$(sql_state)" Yes "... and replication runs again"
wait_for reached "$(echo "$POS" | awk -F- '{ print $1 "-" $2 "-" $3 + 1 }')"
dbsnap --defaults-file=r.cnf --part 2/2 --plan-file plan.txt --at-gtid "$POS" \
    $DB >old2.rp 2>old2.err
is "$?" 1 "... part 2 on the same replica: exit 1"
like "$(cat old2.err)" "past or beside that position: it cannot stop there" \
    "... it is past the position"

# rowpipe(7)'s recipe with one replica: --keep-stopped, --jobs 1.
POS=$(ahead 300)
parallel --will-cite --sshlogin : --jobs 1 --joblog parts.log --retries 2 \
    --results 'rp{}.rp' \
    dbsnap --defaults-file=r.cnf --part {}/2 --plan-file plan.txt \
    --at-gtid "$POS" --keep-stopped $DB ::: 1 2
is "$?" 0 "parallel: both parts from one replica at $POS"
is "$(awk -F'\t' 'NR > 1 { print $7 }' parts.log | tr '\n' ' ')" "0 0 " \
    "... each part exits 0"
like "$(cat rp1.rp.err)" "^dbsnap: note: replication left stopped at $POS \(--keep-stopped\): run START SLAVE on the replica when its last part is done$" \
    "... the first part says it left the replica stopped"
is "$(sql_state)/$(on "$R_SOCK" -e "SELECT @@gtid_slave_pos")" "No/$POS" \
    "... which stays at the position"
on "$R_SOCK" -e "START SLAVE"
wait_for replicating
ok $? "START SLAVE after the last part: it replicates again"
on "$P_SOCK" -e "UPDATE $DB.ctl SET stop = 1"
wait $MOVER
MOVER=

sql -e "DROP DATABASE IF EXISTS $DB"
sqlexec $(CONN) -j 2 --input rp1.rp --input rp2.rp 2>load.err
is "$?" 0 "sqlexec loads the two parts"
is "$(sql -e "$sumq")" "$total" "the sum of the two tables holds"
sql -e "DROP DATABASE $DB"
done_testing
