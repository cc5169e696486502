#!/bin/sh
# dbsnap: a connection killed mid-dump gives a one-line error naming the
# table and chunk, exit 1, and a stream that ends with an abort frame (the
# producer failed: issue 25), which the reader reports as such, not as a
# cut.  A reader that goes away stops dbsnap quietly with
# a non-zero status.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1070_src
fresh_db $DB
sql $DB -e "CREATE TABLE big (id int PRIMARY KEY, v varchar(100));
    INSERT INTO big SELECT seq, repeat('x', 90) FROM seq_1_to_300000" || exit 1

plan 7
# The reader waits until the connection is killed, so dbsnap blocks on a
# full pipe in the middle of the table.
( dbsnap $(CONN) $DB 2>err.txt; echo $? > rc.txt ) |
    { while [ ! -f killed ]; do sleep 0.1; done; framecat > /dev/null 2>fc.txt;
      echo $? > fcrc.txt; } &
pipeline=$!
n=0 id=
while [ -z "$id" ] && [ $n -lt 300 ]; do
	id=$(sql -e "SELECT id FROM information_schema.processlist
	    WHERE info LIKE 'SELECT %FROM \`$DB\`.\`big\`%' AND id <> connection_id()")
	[ -n "$id" ] || sleep 0.1
	n=$((n + 1))
done
ok $([ -n "$id" ]; echo $?) "found dbsnap's query"
sql -e "KILL $id"
touch killed
wait $pipeline
is "$(cat rc.txt)" 1 "dbsnap exits 1"
like "$(cat err.txt)" "^dbsnap: $DB\\.big: chunk 1: .*\\((2013|1927), [0-9A-Z]{5}\\)$" \
    "the error names table and chunk, errno and SQLSTATE"
is "$(wc -l < err.txt)" 1 "one line"
is "$(cat fcrc.txt)" 1 "the reader fails"
like "$(cat fc.txt)" "aborted by the producer: dbsnap: $DB\\.big: chunk 1: " \
    "... reporting dbsnap's failure (an abort frame), not a cut"

# stdout closed early: non-zero, quiet.
( dbsnap $(CONN) $DB 2>err2.txt; echo $? > rc2.txt ) | head -c 100 > /dev/null
ok $([ "$(cat rc2.txt)" -ne 0 ]; echo $?) "reader gone: non-zero exit ($(cat rc2.txt))"
sql -e "DROP DATABASE $DB"
done_testing
