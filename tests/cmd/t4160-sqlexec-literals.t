#!/bin/sh
# sqlexec: INSERTs of literals through bulk executes (issue #14), against
# the mysql client, differentially.  lit-gen writes random tables over
# every column type and INSERT, INSERT IGNORE and REPLACE statements of
# random literal tuples (edge numbers, strings with escapes, introducers,
# COLLATE, hex and bit literals into every type, NULL, TRUE/FALSE) under
# strict and non-strict sql_modes, with and without NO_BACKSLASH_ESCAPES;
# the text is loaded once by the mariadb client (--force) and once by
# sqlsplit | sqlexec --force -j 1: HEX() of every value, CHECKSUM TABLE,
# the number of warnings and of failed statements are equal, and a share
# of the statements took the bulk path (most of the generated ones have
# a literal that is not bound, or an error or warning in their unit).
# Then the same with --no-bulk.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
a=t4160_a b=t4160_b
ROWS=${RP_LIT_ROWS:-35000}

bulk=0
for seed in 1 2 3; do
	# with foreign_key_checks on, every INSERT would be ordered (no unit)
	{ echo "SET FOREIGN_KEY_CHECKS=0;"; lit-gen -s $seed -r $ROWS -t 8 $a; } >a.sql &&
	    { echo "SET FOREIGN_KEY_CHECKS=0;"; lit-gen -s $seed -r $ROWS -t 8 $b; } >b.sql
	ok $? "seed $seed: $ROWS rows of literals generated"
	fresh_db $a
	sql --force -vvv <a.sql >ref.out 2>ref.err
	fresh_db $b
	sqlsplit <b.sql | sqlexec $C --force -j 1 --commit-every 2K $b 2>err
	db_hex $a >a.hex
	db_hex $b >b.hex
	is_file b.hex a.hex "seed $seed: HEX() of every value"
	is "$(db_sums $b)" "$(db_sums $a)" "seed $seed: CHECKSUM TABLE"
	is "$(sqlexec_counts err)" "$(client_counts ref.out ref.err)" \
	    "seed $seed: warnings and failed statements"
	n=$(sed -n 's/.*affected, \([0-9]*\) by bulk execute.*/\1/p' err | tail -1)
	bulk=$((bulk + ${n:-0}))
done
like "$bulk" "^[1-9][0-9]+$" "statements through bulk executes: $bulk"

fresh_db $b
sqlsplit <b.sql | sqlexec $C --force -j 1 --commit-every 2K --no-bulk $b 2>err
db_hex $b >b.hex
is_file b.hex a.hex "--no-bulk: HEX() of every value"
like "$(tail -1 err)" "^sqlexec: [0-9]+ statements" "--no-bulk: no bulk execute count"
sql -e "DROP DATABASE $a; DROP DATABASE $b"
done_testing
