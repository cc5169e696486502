#!/bin/sh
# What rowpipe(7) says of summary lines, against what each program prints
# with standard error in a file, as a script has it (issue 25): the page
# promised "each program prints a summary line at the end", but only
# sqlexec does unless asked; the others print one with --progress (as
# plain lines off a terminal), none without.  rowmap's said "0 B".
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t6091

fresh_db $db
sql $db -e "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40));
    INSERT INTO t SELECT seq, MD5(seq) FROM seq_1_to_2000" || exit 1
dbsnap $C $db >s.rp 2>/dev/null || exit 1
rows2sql <s.rp >s.sql
lz <s.sql >s.sql.lz4
rows2json <s.rp >s.json

# prog (name, its input file, args): stderr with and without --progress
run() {
	p=$1 in=$2
	shift 2
	"$p" "$@" <"$in" >/dev/null 2>none.err
	"$p" --progress "$@" <"$in" >/dev/null 2>prog.err
}
summary='^[a-z2]+: ([0-9]+ tables?, [0-9]+ rows, |[0-9]+ statements, )?[0-9.]+ [KMG]?i?B in [0-9.]+ s \('
for p in dbsnap rows2sql sqlsplit lz rowmap rows2json json2rows; do
	case $p in
	dbsnap) run dbsnap /dev/null $C $db ;;
	rows2sql|rowmap|rows2json) run $p s.rp ;;
	sqlsplit) run sqlsplit s.sql ;;
	lz) run lz s.sql ;;
	json2rows) run json2rows s.json ;;
	esac
	is "$(wc -l <none.err | tr -d ' ')" 0 "$p, stderr not a terminal: no summary"
	is "$(wc -l <prog.err | tr -d ' ')" 1 "$p --progress: one line"
	like "$(cat prog.err)" "$summary" "$p --progress: the summary line"
	ok $(! grep -q ' 0 B in' prog.err; echo $?) "$p --progress: bytes counted"
done
fresh_db ${db}_dst
sqlexec $C --rename-db $db=${db}_dst <s.rp 2>x.err
like "$(cat x.err)" "^sqlexec: 1 table, 2000 rows, 2 objects created, " \
    "sqlexec: its summary line without being asked"
fresh_db ${db}_dst
sqlexec -q $C --rename-db $db=${db}_dst <s.rp 2>x.err
is "$(wc -l <x.err | tr -d ' ')" 0 "sqlexec -q: none when it succeeds"

# the page says so (and no longer that each program prints one)
man7=$RP_TOP/man/man7/rowpipe.7
ok $(! grep -q 'each program prints a summary line' "$man7"; echo $?) \
    "rowpipe(7): no summary promised of every program"
like "$(tr '\n' ' ' <"$man7")" "With \.Fl \\\\-progress any program shows both, as plain lines when standard error is not a terminal" \
    "rowpipe(7): --progress, for scripts"
sql -e "DROP DATABASE $db; DROP DATABASE ${db}_dst"
done_testing
