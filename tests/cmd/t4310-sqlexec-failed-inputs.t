#!/bin/sh
# sqlexec --input of the output of a dbsnap that failed (#25): its ABORT
# is named once, in one line ("the dump failed when it was made ..."),
# alone or among the parts of a plan, where it was called "not a part of
# a plan (no plan in its header)".
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
db=t4310_db

fresh_db $db
sql $db -e "CREATE TABLE t (id INT PRIMARY KEY); INSERT INTO t VALUES (1), (2)"
dbsnap $C $db >s.rp
ok $? "dbsnap"
dbsnap --no-defaults -h 127.0.0.1 -P 1 -u nobody $db >bad3.rp 2>d.err
is $? 1 "a dbsnap that fails: exit 1"

sqlexec $C --input bad3.rp 2>err
is $? 1 "--input of a failed dump: exit 1"
like "$(cat err)" "^sqlexec: bad3.rp: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: dbsnap: " \
    "... says the dump failed, naming the file"
is "$(grep -c 'dbsnap: ' err)" 1 "... once (before: also \"aborted by the producer\")"
is "$(grep -c 'resume' err)" 0 "... with no resume advice"

sqlexec $C --input s.rp --input bad3.rp 2>err
is $? 1 "--input of a dump and a failed dump: exit 1"
like "$(cat err)" "^sqlexec: bad3.rp: the dump failed when it was made; this is not a complete backup; its bytes are not damaged: dbsnap: " \
    "... the failed dump is named"
is "$(grep -c 'not a part' err) $(wc -l <err)" "0 1" \
    "... in one line, not \"not a part of a plan\""
# A damaged file given with --input (a byte of a ROWS frame changed): the
# merge passes the damage on as damage, not as an end without a trailer
# (it was "ended early ... (cut)", with a resume point that fails the
# same way on that file).
dbsnap $C $db t >big.rp
ok $? "dbsnap of t"
n=$(wc -c <big.rp)
printf 'X' | dd of=big.rp bs=1 seek=$((n - 60)) conv=notrunc 2>/dev/null
sqlexec $C --input big.rp 2>err
is $? 1 "--input of a damaged file: exit 1"
like "$(cat err)" "input damaged \\(big.rp: " "... named as damage, with the file"
is "$(grep -c 'cut\|ended early' err)" 0 "... not as a cut"
diag "$(cat err)"
sql -e "DROP DATABASE $db"
done_testing
