#!/bin/sh
# sqlexec: every literal bound exactly on the bulk path (issue #24).
# lit-gen -p writes, into a table per column type, INSERTs whose one
# column mixes two kinds of literal (every pair of NULL, TRUE/FALSE,
# integers, integers above 2^63, integers beyond 2^64, decimals, floats,
# strings, 0x and X'' hex, 0b and b'' bits, _binary, _latin1, _utf8mb4
# and _ascii), under the empty and a strict sql_mode.  With
# --commit-every 1 every statement is a unit of its own, so that all but
# the first into each table reach the bulk path (lit.c); then a few
# tables with megabytes each at the default settings.  The mysql client
# runs the same file: HEX() of every value, the number of warnings and
# of failed statements are equal.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4240_a b=t4240_b

bulk_count() {
	sed -n 's/.*affected, \([0-9]*\) by bulk execute.*/\1/p' "$1" | tail -1
}

# compare NAME FILE [sqlexec options]: the client and sqlexec on FILE
compare() {
	name=$1 f=$2
	shift 2
	sed "s/^USE \`$a\`/USE \`$b\`/" "$f" >b.sql
	fresh_db $a
	sql --force -vvv <"$f" >ref.out 2>ref.err
	fresh_db $b
	sqlsplit <b.sql | sqlexec $C --force "$@" $b 2>err
	db_hex $a >a.hex
	db_hex $b >b.hex
	is_file b.hex a.hex "$name: HEX() of every value"
	is "$(sqlexec_counts err)" "$(client_counts ref.out ref.err)" \
	    "$name: warnings and failed statements"
}

# with foreign_key_checks on, every INSERT would be ordered (no unit)
{ echo "SET FOREIGN_KEY_CHECKS=0;"; lit-gen -p empty,STRICT_ALL_TABLES $a; } >pairs.sql
ok $? "pairs of literal kinds generated"
compare "--commit-every 1" pairs.sql --commit-every 1
n=$(bulk_count err)
like "${n:-0}" "^[0-9]{4,}$" "--commit-every 1: statements through bulk executes: $n"

# The examples of issue #24, past the statements whose warnings are shown.
{
	echo "SET sql_mode = '', FOREIGN_KEY_CHECKS = 0;"; echo "USE \`$a\`;"
	echo "CREATE TABLE s (id INT, st SET('x','y','z'), bt BIT(12));"
	echo "CREATE TABLE w (i INT); CREATE TABLE z (i TINYINT);"
	for i in 1 2 3 4 5 6; do echo "INSERT INTO z VALUES (300);"; done
	echo "INSERT INTO s VALUES (0, 0, 0); INSERT INTO w VALUES (0);"
	echo "INSERT INTO s VALUES (1, 18446744073709551615, -1), (2, 1, 18446744073709551615);"
	echo "INSERT INTO w VALUES (256),(5.),(18446744073709551615);"
} >issue.sql
compare "issue #24's SET, BIT and INT" issue.sql --commit-every 1
is "$(sql -e "SELECT st, HEX(bt) FROM s WHERE id = 1" $b)" "x,y,z	FFF" \
    "SET stores every member, BIT all ones"
like "$(bulk_count err)" "^[1-9]" "they went by bulk execute"

# Default settings: a unit of 1 MiB, more than one for each table.
{ echo "SET FOREIGN_KEY_CHECKS=0;"; lit-gen -p empty -k 40 -n 18 $a |
    awk '!/^INSERT INTO t/ || $3 == "t4" || $3 == "t15" || $3 == "t35"'; } >big.sql
compare "default settings, megabytes a table" big.sql
n=$(bulk_count err)
like "${n:-0}" "^[0-9]{3,}$" "default settings: statements through bulk executes: $n"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
