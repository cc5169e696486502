#!/bin/bash
# make demo: the main job end to end on throwaway servers.
#
# Starts two throwaway MariaDB servers (source and an empty target),
# generates the sample shop database on the source, backs it up with
#   dbsnap -j 2 --routines --events shop | rows2sql | lz > shop.sql.lz4
# restores it on the target with
#   lz -d < shop.sql.lz4 | sqlsplit | sqlexec -j 2
# and checks that every table's CHECKSUM TABLE and every object's
# definition match.  Stops both servers on exit, failure or Ctrl-C.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
PATH=$top/bin:$PATH
. "$top/tests/server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/rowpipe-demo.XXXXXX") || exit 1
SRC_PID= DST_PID=
cleanup() {
	RP_SERVER_PID=$SRC_PID; server_stop
	RP_SERVER_PID=$DST_PID; server_stop
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
set -e

say()  { printf '\n== %s\n' "$*"; }
now()  { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
size() { stat -c %s "$1" | awk '{ printf "%.1f MiB", $1 / 1048576 }'; }
q()    { mariadb --no-defaults --default-character-set=utf8mb4 -uroot -S "$1" --batch --skip-column-names -e "$2"; }

say "starting two throwaway MariaDB servers under $work"
server_start "$work/src"; SRC=$RP_SOCK; SRC_PID=$RP_SERVER_PID
server_start "$work/dst"; DST=$RP_SOCK; DST_PID=$RP_SERVER_PID
echo "source $SRC, target $DST"

say "generating the sample database 'shop' on the source"
t0=$(now)
mariadb --no-defaults --default-character-set=utf8mb4 -uroot -S "$SRC" < "$top/tests/demo/shop.sql"
q "$SRC" "SELECT table_name, table_rows FROM information_schema.tables
          WHERE table_schema = 'shop' AND table_type = 'BASE TABLE' ORDER BY 1" |
    awk '{ printf "  %-12s ~%s rows\n", $1, $2 }'
echo "generated in $(secs "$t0" "$(now)") s"

say "backup: dbsnap -j 2 --routines --events shop | rows2sql | lz > shop.sql.lz4"
t0=$(now)
set -o pipefail
dbsnap --no-defaults -uroot -S "$SRC" -j 2 --routines --events --progress shop |
    rows2sql | lz -T 2 > "$work/shop.sql.lz4"
t1=$(now)
echo "backup: $(size "$work/shop.sql.lz4") compressed in $(secs "$t0" "$t1") s"

say "verify without restoring: lz -t, then sqlsplit --require-trailer"
lz -t "$work/shop.sql.lz4"
lz -dc "$work/shop.sql.lz4" | sqlsplit --require-trailer > /dev/null
echo "the file is complete and its SQL trailer checks"

say "restore into the empty target: lz -d < shop.sql.lz4 | sqlsplit | sqlexec -j 2"
t0=$(now)
lz -d < "$work/shop.sql.lz4" | sqlsplit |
    sqlexec --no-defaults -uroot -S "$DST" -j 2 --progress
echo "restored in $(secs "$t0" "$(now)") s"

say "checking: CHECKSUM TABLE of every table, SHOW CREATE of every object"
fail=0
created='s/\t[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\.[0-9]{2}$//'
for t in $(q "$SRC" "SELECT table_name FROM information_schema.tables
                     WHERE table_schema = 'shop' AND table_type = 'BASE TABLE' ORDER BY 1"); do
	a=$(q "$SRC" "CHECKSUM TABLE shop.$t EXTENDED" | cut -f2)
	b=$(q "$DST" "CHECKSUM TABLE shop.$t EXTENDED" | cut -f2)
	n=$(q "$DST" "SELECT COUNT(*) FROM shop.$t")
	if [ "$a" = "$b" ]; then r=same; else r=DIFFERENT; fail=1; fi
	printf '  table %-12s %7s rows  checksum %-11s %s\n' "$t" "$n" "$a" "$r"
done
for o in "VIEW shop.order_totals" "TRIGGER shop.orders_audit" "PROCEDURE shop.cancel_order" \
    "TABLE shop.orders" "EVENT shop.nightly_cleanup"; do
	# a trigger's creation time is when it was restored: left out
	a=$(q "$SRC" "SHOW CREATE $o" | sed -E "$created" | md5sum)
	b=$(q "$DST" "SHOW CREATE $o" | sed -E "$created" | md5sum)
	if [ "$a" = "$b" ]; then r=same; else r=DIFFERENT; fail=1; fi
	printf '  %-30s definition %s\n' "$(echo "$o" | tr 'A-Z' 'a-z')" "$r"
done
[ "$fail" -eq 0 ] || { echo "demo: the restored copy differs" >&2; exit 1; }

say "done: the restored copy is identical; stopping the servers"
