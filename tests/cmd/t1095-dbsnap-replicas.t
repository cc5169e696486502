#!/bin/sh
# One consistent dump from two replicas at one GTID position (#19).
# A primary and two replicas of the test's own (GTID replication over
# loopback); a workload on the primary moves amounts between the rows of
# two tables, keeping their sum.  While it runs, part 1 of a plan is
# dumped from replica 1 with --at-gtid POS (a position a little ahead:
# dbsnap stops the replica there, snapshots, restarts it), part 2 from
# replica 2, stopped at POS by hand; the parts, loaded into a fresh
# server (tests/run's), keep the sum and equal a single-replica snapshot
# at POS and the replica's own tables at POS (CHECKSUM TABLE).  Parts of
# another plan or position are refused; --at-gtid that cannot reach its
# position, is past it, or is stopped by SIGTERM leaves replication
# running as it was found.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
. "$RP_TOP/tests/bank.sh"
need_server
DB=t1095_bank
server_own P --server-id=101
server_own R1 --server-id=102 --log-slave-updates
server_own R2 --server-id=103 --log-slave-updates
MOVER=
trap '[ -z "$MOVER" ] || kill "$MOVER" 2>/dev/null; server_own_stop; rm -rf "$T_DIR"' EXIT
on() { _s=$1; shift; mariadb --no-defaults -uroot -S "$_s" --batch --skip-column-names "$@"; }
conn() { echo "--no-defaults -uroot -S $1"; }
# slave_field SOCK FIELD: one field of SHOW SLAVE STATUS.
slave_field() {
	mariadb --no-defaults -uroot -S "$1" -e "SHOW SLAVE STATUS\\G" |
	    sed -n "s/^ *$2: //p"
}
repl_state() {
	echo "$(slave_field "$1" Slave_SQL_Running)/$(slave_field "$1" Slave_IO_Running)/$(slave_field "$1" Until_Condition)"
}
# Both threads run, without an UNTIL.  After START SLAVE the I/O thread
# is "Connecting" until it reaches the primary: a busy machine needs time.
replicating() { [ "$(repl_state "$1")" = Yes/Yes/None ]; }

# Replication: the primary's log starts empty, the replicas from nothing.
replicate "$P_SOCK" "$P_PORT" "$R1_SOCK" "$R2_SOCK" || exit 1
{ echo "CREATE USER dump@'127.0.0.1' IDENTIFIED BY 'd';
GRANT ALL ON *.* TO dump@'127.0.0.1';"; bank_sql $DB; } | on "$P_SOCK" || exit 1
total=$BANK_TOTAL
sumq="SELECT (SELECT SUM(amt) FROM $DB.acct_a) + (SELECT SUM(amt) FROM $DB.acct_b)"
pos=$(on "$P_SOCK" -e "SELECT @@gtid_binlog_pos")
for r in "$R1_SOCK" "$R2_SOCK"; do
	is "$(on "$r" -e "SELECT MASTER_GTID_WAIT('$pos', 60)")" 0 \
	    "a replica catches up with the primary ($pos)"
done
on "$R1_SOCK" -e "ANALYZE LOCAL TABLE $DB.acct_a, $DB.acct_b, $DB.ctl" >/dev/null

dbsnap $(conn "$R1_SOCK") --plan 2 $DB > plan.txt
is "$?" 0 "the plan is made on replica 1"

# The workload runs from here to the end of the dumps.
on "$P_SOCK" $DB -e "CALL mover()" &
MOVER=$!
n=0
while [ "$(on "$P_SOCK" -e "SELECT ops FROM $DB.ctl")" -lt 50 ] && [ $n -lt 300 ]; do
	sleep 0.1; n=$((n + 1))
done
early=$(on "$P_SOCK" -e "SELECT @@gtid_binlog_pos")
# A position 1500 transactions ahead of the primary: no replica is past it.
POS=$(echo "$early" | awk -F- '{ print $1 "-" $2 "-" $3 + 1500 }')
diag "the workload is at $early; the parts are taken at $POS"

dbsnap $(conn "$R1_SOCK") -j 2 --part 1/2 --plan-file plan.txt \
    --at-gtid "$POS" > p1.rp 2>p1.err &
part1=$!
# Replica 2 stopped at POS by hand: dbsnap finds it there and leaves it.
on "$R2_SOCK" -e "STOP SLAVE; START SLAVE UNTIL master_gtid_pos = '$POS'"
is "$(on "$R2_SOCK" -e "SELECT MASTER_GTID_WAIT('$POS', 60)")" 0 \
    "replica 2 reaches the position"
n=0
while [ "$(slave_field "$R2_SOCK" Slave_SQL_Running)" != No ] && [ $n -lt 600 ]; do
	sleep 0.1; n=$((n + 1))
done
is "$(on "$R2_SOCK" -e "SELECT @@gtid_slave_pos")" "$POS" "replica 2 stopped exactly there"
on "$R2_SOCK" -e "CHECKSUM TABLE $DB.acct_a, $DB.acct_b, $DB.ctl EXTENDED" |
    sed "s/^$DB\\.//" > at_pos.sums
dbsnap $(conn "$R2_SOCK") --part 2/2 --plan-file plan.txt --at-gtid "$POS" \
    > p2.rp 2>p2.err
is "$?" 0 "part 2 from replica 2 at the position"
dbsnap $(conn "$R2_SOCK") -j 2 --at-gtid "$POS" $DB > whole.rp 2>whole.err
is "$?" 0 "a single-replica snapshot at the position"
is "$(slave_field "$R2_SOCK" Slave_SQL_Running)" No \
    "replica 2 is left stopped, as it was found"
wait $part1
is "$?" 0 "part 1 from replica 1 at the position, while the workload runs"
is "$(cat p1.err)" "" "part 1 said nothing"
is "$(framecat < p1.rp | head -1 | grep -o 'gtid_pos=[^ ]*')" "gtid_pos=$POS" \
    "part 1's header has the position"
is "$(slave_field "$R1_SOCK" Slave_SQL_Running)/$(slave_field "$R1_SOCK" Slave_IO_Running)/$(slave_field "$R1_SOCK" Until_Condition)" \
    "Yes/Yes/None" "replica 1 replicates again, without the UNTIL"
on "$R2_SOCK" -e "START SLAVE"
later=$(on "$P_SOCK" -e "SELECT @@gtid_binlog_pos")
like "$(on "$R1_SOCK" -e "SELECT MASTER_GTID_WAIT('$later', 60), @@gtid_slave_pos")" \
    "^0	" "replica 1 goes past the position"

# Loaded into a fresh server: the sum holds, the tables are the snapshot's.
sql -e "DROP DATABASE IF EXISTS $DB"
sqlexec $(CONN) -j 2 --input p2.rp --input p1.rp 2>load.err
is "$?" 0 "sqlexec loads the two parts"
is "$(sql -e "$sumq")" "$total" "the sum of the two tables holds"
checksums $DB > parts.sums
sql -e "DROP DATABASE $DB"
sqlexec $(CONN) -j 2 < whole.rp 2>load.err
is "$?" 0 "sqlexec loads the single-replica snapshot"
checksums $DB > whole.sums
is_file parts.sums whole.sums "the parts equal the single-replica snapshot (CHECKSUM TABLE)"
is_file parts.sums at_pos.sums "and the replica's own tables at the position"
grep -q "acct_a" parts.sums
ok $? "the checksums name the tables"

# ahead N: a GTID position N transactions ahead of the primary's now.
ahead() {
	on "$P_SOCK" -e "SELECT @@gtid_binlog_pos" |
	    awk -F- -v n="$1" '{ print $1 "-" $2 "-" $3 + n }'
}
# load_sum FILE...: load the parts into a fresh $DB, print the sum.
load_sum() {
	sql -e "DROP DATABASE IF EXISTS $DB"
	_args=
	for _f in "$@"; do _args="$_args --input $_f"; done
	sqlexec $(CONN) -j 2 $_args 2>load.err || { cat load.err >&2; return 1; }
	sql -e "$sumq"
}

# rowpipe(7)'s GNU parallel recipe, with parallel's local execution
# (--sshlogin : runs the jobs here; each job slot {%} is one replica, by
# its option file, where over ssh each host would be).
for i in 1 2; do
	eval "sock=\$R${i}_SOCK"
	printf '[client]\nuser = root\nsocket = %s\n' "$sock" > r$i.cnf
done
POS=$(ahead 1500)
parallel --will-cite --sshlogin : --jobs 2 --joblog parts.log --retries 2 \
    --results 'rp{}.rp' \
    dbsnap --defaults-file=r{%}.cnf --part {}/2 --plan-file plan.txt \
    --at-gtid "$POS" $DB ::: 1 2
is "$?" 0 "parallel runs both parts, each on its replica, at one position"
diag "$(cat rp1.rp.err rp2.rp.err 2>/dev/null)"
is "$(awk -F'\t' 'NR > 1 { print $7 }' parts.log | sort | tr '\n' ' ')" "0 0 " \
    "the job log has each part's exit status"
is "$(load_sum rp1.rp rp2.rp)" "$total" "the parallel parts load, and the sum holds"
like "$(framecat < rp2.rp | head -1)" "gtid_pos=$POS" "at the position asked for"

# The Kubernetes Indexed Job: the manifest parses, and its container's
# script, run here for each index as the pods would run it (the plan,
# the secret and the volume as directories), dumps the parts.
M=$RP_TOP/contrib/kubernetes/dbsnap-parts.yaml
perl -MCPAN::Meta::YAML -e '
	my $y = CPAN::Meta::YAML->read($ARGV[0]) or die CPAN::Meta::YAML->errstr;
	my $j = $y->[0];
	my $s = $j->{spec};
	my $c = $s->{template}{spec}{containers}[0];
	die "kind\n" unless $j->{kind} eq "Job" && $j->{apiVersion} eq "batch/v1";
	die "mode\n" unless $s->{completionMode} eq "Indexed";
	die "counts\n" unless $s->{completions} == $s->{parallelism};
	die "restart\n" unless $s->{template}{spec}{restartPolicy} eq "Never";
	my $script = $c->{args}[0];
	die "index\n" unless $script =~ /JOB_COMPLETION_INDEX/;
	die "parts\n" unless $script =~ /^parts=(\d+)$/m && $1 == $s->{completions};
	my %m = map { $_->{name} => $_->{mountPath} } @{$c->{volumeMounts}};
	die "mounts\n" unless $m{plan} eq "/plan" && $m{parts} eq "/parts" &&
	    $m{client} eq "/secrets";
	open(my $o, ">", "job.sh") or die; print $o $script; close($o);
' "$M" 2>err.txt
is "$?:$(cat err.txt)" "0:" "the manifest is an Indexed Job whose pods run part index + 1"
if python3 -c 'import yaml' 2>/dev/null; then
	python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1]));
assert d["spec"]["template"]["spec"]["containers"][0]["command"] == ["/bin/sh", "-c"]' "$M"
	ok $? "a full YAML parser reads it the same (python3 yaml)"
else
	skip 1 "no python3 yaml module here (CPAN::Meta::YAML read it above)"
fi
sh -n job.sh
ok $? "the pods' script is valid sh"
mkdir -p plan secrets parts
cp plan.txt plan/shop.plan
printf '127.0.0.1 %s\n127.0.0.1 %s\n' "$R1_PORT" "$R2_PORT" > plan/replicas
printf '[client]\nuser = dump\npassword = d\n' > secrets/my.cnf
ahead 1500 > plan/pos
sed -e "s|/plan/|$T_DIR/plan/|g; s|/secrets/|$T_DIR/secrets/|g;
    s|/parts/|$T_DIR/parts/|g; s|^parts=.*|parts=2|;" \
    job.sh > job-here.sh
JOB_COMPLETION_INDEX=0 sh job-here.sh 2>job0.err &
job0=$!
JOB_COMPLETION_INDEX=1 sh job-here.sh 2>job1.err
job1=$?
wait $job0
is "$?/$job1" "0/0" "the two pods' script dumps both parts"
diag "$(cat job0.err job1.err)"
is "$(load_sum parts/part1.rp parts/part2.rp)" "$total" \
    "the Job's parts load, and the sum holds"
like "$(framecat < parts/part1.rp | head -1)" "gtid_pos=$(cat plan/pos)" \
    "at the ConfigMap's position"

# Parts that do not make one dump.
dbsnap $(conn "$R2_SOCK") --part 2/2 --plan-file plan.txt > p2now.rp 2>/dev/null
sqlexec $(CONN) --input p1.rp --input p2now.rp 2>err.txt
is "$?" 1 "a part of another position is refused"
like "$(cat err.txt)" "parts of different positions" "saying why"
dbsnap $(conn "$R2_SOCK") --part 2/3 $DB > p2of3.rp
sqlexec $(CONN) --input p1.rp --input p2of3.rp 2>err.txt
is "$?" 1 "a part of another plan is refused"
like "$(cat err.txt)" "parts of different plans" "saying why"

# --at-gtid's failures leave replication as it was found.
on "$P_SOCK" -e "UPDATE $DB.ctl SET stop = 1"
wait $MOVER
MOVER=
far=$(echo "$early" | awk -F- '{ print $1 "-" $2 "-" $3 + 1000000000 }')
dbsnap $(conn "$R1_SOCK") --at-gtid "$far" --gtid-wait-timeout 2 $DB \
    > /dev/null 2>err.txt
is "$?" 1 "a position not reached in time is refused"
like "$(cat err.txt)" "did not reach it within 2 s" "saying so"
wait_for replicating "$R1_SOCK"
ok $? "and replication runs again, without the UNTIL ($(repl_state "$R1_SOCK"))"
dbsnap $(conn "$R1_SOCK") --at-gtid "$early" $DB > /dev/null 2>err.txt
is "$?" 1 "a position the replica is past is refused"
like "$(cat err.txt)" "past or beside that position" "saying so"
is "$(slave_field "$R1_SOCK" Slave_SQL_Running)" Yes "replication was not touched"
dbsnap $(conn "$R1_SOCK") --at-gtid "$far" --gtid-wait-timeout 60 $DB \
    > /dev/null 2>err.txt &
waiting=$!
n=0
while [ "$(slave_field "$R1_SOCK" Until_Condition)" != Gtid ] && [ $n -lt 300 ]; do
	sleep 0.1; n=$((n + 1))
done
kill -TERM $waiting
{ wait $waiting; } 2>/dev/null
rc=$?
ok $([ $rc -ne 0 ]; echo $?) "SIGTERM while waiting for the position stops dbsnap"
wait_for replicating "$R1_SOCK"
ok $? "after starting replication again ($(repl_state "$R1_SOCK"))"
dbsnap $(conn "$P_SOCK") --at-gtid "$early" $DB > /dev/null 2>err.txt
is "$?" 1 "--at-gtid on a server that is not a replica is refused"
sql -e "DROP DATABASE IF EXISTS $DB"
done_testing
