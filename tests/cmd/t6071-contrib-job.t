#!/bin/sh
# contrib/ (#27): the Kubernetes Indexed Job and the image it names,
# checked without a container engine (none runs here: the image itself is
# not built).  The Job's YAML parses (python3-yaml) into an Indexed Job
# whose completions are its script's parts; the image it names is the one
# contrib/Containerfile builds; every command its script runs is installed
# by `make install` (DESTDIR, the Containerfile's PREFIX) or by every
# Debian image (Essential packages); every library the installed programs
# load comes from a package the Containerfile's runtime stage installs.
# Then the script itself, as the pods run it (JOB_COMPLETION_INDEX 0, 1,
# 2, the volumes at directories of the test's own), dumps the parts from a
# replica of a primary of the test's own at the primary's GTID position,
# with the installed programs; the parts, loaded by sqlexec --input,
# equal the primary (CHECKSUM TABLE).
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
YAML=$RP_TOP/contrib/kubernetes/dbsnap-parts.yaml
CF=$RP_TOP/contrib/Containerfile
PY=/usr/bin/python3
DB=t6071_shop
"$PY" -c 'import yaml' 2>/dev/null ||
    skip_all "no python3-yaml (tests/deps.sh installs it)"

# The YAML, as Kubernetes reads it: the facts the test needs, one a line.
"$PY" - "$YAML" > job.facts 2> yaml.err <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None]
job = docs[0]
spec = job["spec"]
pod = spec["template"]["spec"]
c = pod["containers"][0]
print("kind", job["apiVersion"], job["kind"], spec["completionMode"],
      spec["completions"], spec["parallelism"])
print("image", c["image"])
print("argv0", c["command"][0])
for m in c["volumeMounts"]:
    print("mount", m["name"], m["mountPath"])
open("job.sh", "w").write(c["args"][0])
EOF
ok $? "the Job's YAML parses"
facts=$(cat job.facts)
parts=$(sed -n 's/^parts=\([0-9]*\)$/\1/p' job.sh | tr -d ' ')
like "$facts" "^kind batch/v1 Job Indexed $parts $parts\$" \
    "an Indexed Job, one pod for each of the script's $parts parts"
image=$(sed -n 's/^image //p' job.facts)
like "$(sed -n '1,/^FROM/p' "$CF")" "image $image\\)" \
    "its image, $image, is the one contrib/Containerfile builds"

# The image's programs: make install into a directory, as the
# Containerfile does (it runs it in a fresh tree; here the tree must be
# built already, so that installing rebuilds nothing).
prefix=$(sed -n 's/.*make install PREFIX=\([^ ]*\) DESTDIR=.*/\1/p' "$CF")
is "$prefix" /usr/local "the Containerfile installs into /usr/local"
IMG=$T_DIR/img
if make -s -C "$RP_TOP" -q all 2>/dev/null; then
	make -s -C "$RP_TOP" install DESTDIR="$IMG" PREFIX="$prefix" \
	    > install.log 2>&1
	ok $? "make install DESTDIR=... PREFIX=$prefix"
else
	skip 1 "the tree is not built (make all): make install would build"
	mkdir -p "$IMG$prefix" && cp -R "$RP_BIN" "$IMG$prefix/bin"
fi

# pkg_of FILE: the Debian package FILE comes from (with or without /usr).
pkg_of() {
	for _f in "$1" "$(readlink -f "$1")" "${1#/usr}" "/usr$1"; do
		dpkg -S "$_f" 2>/dev/null | grep -v '^diversion' |
		    sed -n '1s/:.*//p' | grep . && return 0
	done
	return 1
}
# The runtime stage's packages: the apt-get install after the last FROM.
runtime=$(sed -n '/^FROM/h; /^FROM/!H; ${x; p}' "$CF" | tr '\\\n' '  ' |
    sed -n 's/.*--no-install-recommends \([^&]*\)&&.*/\1/p')
in_runtime() { case " $(echo $runtime) " in *" $1 "*) return 0 ;; esac; return 1; }
essential() { [ "$(dpkg-query -W -f '${Essential}' "$1" 2>/dev/null)" = yes ]; }

# Commands: the first word of each command of the script and of each
# $(...) in it, assignments and shell builtins left out.
cmds=$( { echo "$(sed -n 's/^argv0 //p' job.facts)"
	sed -e :a -e '/\\$/N; s/\\\n//; ta' job.sh |
	sed 's/\$(([^)]*))//g; s/\$(/\n/g' |
	sed -E 's/^[[:space:]]*//; s/^([A-Za-z_][A-Za-z0-9_]*=[^ ]*[[:space:]]*)+//' |
	awk '{ print $1 }'; } | grep -v -E '^(|set|export|cd|exit|test|\[|#.*)$' |
	sort -u)
like "$cmds" "dbsnap" "the script runs dbsnap"
missing=
for c in $cmds; do
	case $c in
	/*) p=$c ;;
	*) p=$(command -v "$c") || p= ;;
	esac
	if [ -x "$IMG$prefix/bin/${c##*/}" ]; then
		continue
	elif [ -n "$p" ] && pkg=$(pkg_of "$p") &&
	    { essential "$pkg" || in_runtime "$pkg"; }; then
		continue
	fi
	missing="$missing $c"
done
is "$missing" "" "every command of the Job ($(echo $cmds)) is in the image"

# (A sanitizer build, copied from RP_BIN by make asan in a tree not built
# otherwise, loads libasan, which no runtime image has: not measured.)
missing= asan=
for b in "$IMG$prefix"/bin/*; do
	sanitized "$b" && asan=1
	for l in $(ldd "$b" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		pkg=$(pkg_of "$l") || { missing="$missing $l"; continue; }
		pkg=${pkg%%:*}
		in_runtime "$pkg" || missing="$missing $pkg($l)"
	done
done
if [ -n "$asan" ]; then
	skip 1 "the installed programs are a sanitizer build"
else
	is "$(echo $(echo $missing | tr ' ' '\n' | sort -u))" "" \
	    "every library of the installed programs is in the runtime stage"
fi

# The script, run as the pods run it, against a replica.
server_own P --server-id=111
server_own R --server-id=112 --log-slave-updates
on() { _s=$1; shift; mariadb --no-defaults -uroot -S "$_s" --batch --skip-column-names "$@"; }
on "$P_SOCK" -e "CREATE USER repl@'127.0.0.1' IDENTIFIED BY 'r';
    GRANT REPLICATION SLAVE ON *.* TO repl@'127.0.0.1'; RESET MASTER" || exit 1
on "$R_SOCK" -e "RESET MASTER; SET GLOBAL gtid_slave_pos = '';
    CHANGE MASTER TO master_host = '127.0.0.1', master_port = $P_PORT,
    master_user = 'repl', master_password = 'r',
    master_use_gtid = slave_pos; START SLAVE" || exit 1
on "$P_SOCK" > /dev/null <<SQL || exit 1
CREATE USER dump@'127.0.0.1' IDENTIFIED BY 'secret';
GRANT ALL ON *.* TO dump@'127.0.0.1';
CREATE DATABASE $DB;
USE $DB;
CREATE TABLE orders (id int PRIMARY KEY, who varchar(40), total decimal(10,2));
INSERT INTO orders SELECT seq, CONCAT('who ', seq), seq / 3 FROM seq_1_to_20000;
CREATE TABLE items (order_id int, line int, sku char(8), PRIMARY KEY (order_id, line));
INSERT INTO items SELECT seq, 1, CONCAT('s', seq) FROM seq_1_to_15000;
CREATE TABLE notes (k varchar(20) PRIMARY KEY, v text);
INSERT INTO notes VALUES ('a', 'x'), ('b', NULL);
ANALYZE TABLE orders, items, notes;
SQL

# The volumes, at directories of the test's own, made as the YAML's
# comment says: the ConfigMap's files, the Secret's my.cnf, the parts.
vol() { echo "$T_DIR/vol/$1"; }
mkdir -p "$(vol plan)" "$(vol client)" "$(vol parts)"
printf '[client]\nuser=dump\npassword=secret\n' > "$(vol client)/my.cnf"
chmod 0440 "$(vol client)/my.cnf"
for i in 1 2 3; do echo "127.0.0.1 $R_PORT"; done > "$(vol plan)/replicas"
on "$P_SOCK" -e 'SELECT @@gtid_binlog_pos' > "$(vol plan)/pos"
is "$(on "$R_SOCK" -e "SELECT MASTER_GTID_WAIT('$(cat "$(vol plan)/pos")', 60)")" 0 \
    "the replica caught up with the primary"
dbsnap --no-defaults -udump -psecret -h 127.0.0.1 -P "$R_PORT" --plan "$parts" \
    $DB > "$(vol plan)/shop.plan" 2> plan.err
ok $? "the plan, from the replica (it has the tables once it caught up)"
# the script with each mount path replaced by its directory here
sedargs=
while read -r _ name path; do
	sedargs="$sedargs -e s#$path/#$(vol "$name")/#g"
done <<EOF
$(grep '^mount ' job.facts)
EOF
sed $sedargs job.sh > job-here.sh
isnt "$(cat job-here.sh)" "$(cat job.sh)" "the script reads its volumes' paths"
rc=
for i in $(seq 0 $((parts - 1))); do
	JOB_COMPLETION_INDEX=$i PATH="$IMG$prefix/bin:$PATH" \
	    sh job-here.sh > "job$i.out" 2> "job$i.err"
	rc="$rc $?"
done
is "$rc" "$(for i in $(seq 1 "$parts"); do printf ' 0'; done)" \
    "the script succeeds in each pod (JOB_COMPLETION_INDEX 0 to $((parts - 1)))"
is "$(cd "$(vol parts)" && ls)" "$(for i in $(seq 1 "$parts"); do echo "part$i.rp"; done)" \
    "each pod leaves its part, and no .tmp file"
set --
for f in "$(vol parts)"/part*.rp; do set -- "$@" --input "$f"; done
sqlexec $(CONN) "$@" 2> load.err
ok $? "sqlexec --input loads the parts"
want=$(RP_SOCK=$P_SOCK checksums $DB)
is "$(checksums $DB)" "$want" "the parts equal the primary at the position"
sql -e "DROP DATABASE $DB"
done_testing
