# ENGINEERS: read /work/main/PARALLEL-WORK.md first (rules for working in parallel, deadline 02:35 UTC).
# tests/lib.sh: minimal TAP helpers for command tests; sourced, not run.
#
# Each test gets a scratch directory (its cwd) removed on exit.  $RP_BIN
# holds the binaries under test; with a server (tests/run starts one),
# $RP_SOCK is its socket and sql/dbname helpers below talk to it.
set -u
T_N=0 T_FAIL=0
RP_BIN=${RP_BIN:-$(cd "$(dirname "$0")/../.." && pwd)/bin}
RP_TOP=${RP_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
RP_SHARED=${RP_SHARED:-$RP_TOP/../shared}
RP_TOOLS=${RP_TOOLS:-$RP_TOP/build/tests/tools}
PATH=$RP_BIN:$RP_TOOLS:$PATH
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/t.XXXXXX") || exit 1
trap 'rm -rf "$T_DIR"' EXIT
cd "$T_DIR" || exit 1

plan()      { echo "1..$1"; T_PLANNED=1; }
skip_all()  { echo "1..0 # SKIP $*"; exit 0; }
ok()        { T_N=$((T_N + 1)); if [ "$1" -eq 0 ]; then echo "ok $T_N - $2";
              else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi; }
is()        { [ "$1" = "$2" ]; r=$?; ok $r "$3";
              [ $r -eq 0 ] || printf '#   got: %s\n#  want: %s\n' "$1" "$2"; }
isnt()      { [ "$1" != "$2" ]; ok $? "$3"; }
like()      { printf '%s\n' "$1" | grep -Eq -- "$2"; r=$?; ok $r "$3";
              [ $r -eq 0 ] || printf '#   got: %s\n#  want: /%s/\n' "$1" "$2"; }
is_file()   { diff -u "$2" "$1" | head -40 | sed 's/^/# /'; cmp -s "$1" "$2"; ok $? "$3"; }
diag()      { printf '# %s\n' "$*"; }
done_testing() { [ -n "${T_PLANNED:-}" ] || echo "1..$T_N"; exit $((T_FAIL > 0)); }

# Server helpers.  need_server skips the whole test when run outside
# tests/run; under tests/run (make check) a server is always there.
need_server() { [ -n "${RP_SOCK:-}" ] || skip_all "no server (run through tests/run)"; }
# sql [DB] < text, or sql DB -e 'stmt': the real mysql client, batch mode.
sql()       { mariadb --no-defaults -uroot -S "$RP_SOCK" --batch --skip-column-names "$@"; }
# Connection options for rowpipe programs.
CONN() { echo "--no-defaults -uroot -S $RP_SOCK"; }
# fresh_db NAME: drop and create a database.
fresh_db()  { sql -e "DROP DATABASE IF EXISTS \`$1\`; CREATE DATABASE \`$1\`"; }
# checksums DB: "table checksum" for every base table, sorted.
checksums() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema='$1' AND table_type LIKE '%TABLE' ORDER BY 1"); do
		sql -e "CHECKSUM TABLE \`$1\`.\`$t\` EXTENDED" | sed "s/^$1\\.//"
	done
}
