#!/bin/sh
# dbsnap -j N: chunks read ahead of their turn wait in memory, never in a
# spool file, when the reader is slow: with TMPDIR pointing nowhere (a
# spool file would fail the dump) a table of about 40 MiB, more than the
# spool's memory for 2 and 4 jobs, is dumped whole and in key order, the
# same rows as -j 1.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1061_src
fresh_db $DB
sql $DB -e "CREATE TABLE t (id int PRIMARY KEY, v varchar(200));
    INSERT INTO t SELECT seq, concat(seq, ' ', repeat(md5(seq), 6))
    FROM seq_1_to_200000; ANALYZE TABLE t" >/dev/null || exit 1

plan 6
mib=$(sql -e "SELECT data_length >> 20 FROM information_schema.tables
    WHERE table_schema = '$DB' AND table_name = 't'")
ok $((mib < 32)) "the table holds $mib MiB, more than 4 jobs' spool memory"
dbsnap $(CONN) -j 1 $DB | framecat | grep '^ROW' > j1.txt
is "$(wc -l < j1.txt | tr -d ' ')" 200000 "-j 1: all 200000 rows"
for j in 2 4; do
	# (stderr may also hold a lock-wait notice from other tests' load)
	{ TMPDIR=$PWD/nowhere dbsnap $(CONN) -j $j --chunk-rows 20000 $DB \
	    2>err$j.txt; echo $? > rc$j.txt; } |
	    { sleep 2; framecat | grep '^ROW' > j$j.txt; }
	is "$(cat rc$j.txt) $(grep -c spool err$j.txt)" "0 0" \
	    "-j $j, slow reader, no TMPDIR: exit 0, no spool file"
	is_file j$j.txt j1.txt "-j $j: the same rows in the same order"
done
sql -e "DROP DATABASE $DB"
done_testing
