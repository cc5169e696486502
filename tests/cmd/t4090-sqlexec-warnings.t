#!/bin/sh
# sqlexec: server warnings are counted, the first few are printed with
# their statement, and --strict makes any warning an error.  Issue 15
# item 7: a load into an existing table with a narrower column truncated
# 'United States' to 'Unite' and exited 0 without a word.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# The source: 3000 rows, one country per row, under the wide column.
sql -e "DROP DATABASE IF EXISTS t4090_src; CREATE DATABASE t4090_src; USE t4090_src;
    CREATE TABLE t4090_src.c (id INT PRIMARY KEY, country VARCHAR(40));
    INSERT INTO t4090_src.c SELECT seq, ELT(1 + seq % 3, 'United States',
    'Chad', 'Peru') FROM seq_1_to_3000"
# The target table exists already, with a narrower column; rows2sql's
# dump sets a non-strict sql_mode (NO_AUTO_VALUE_ON_ZERO), as mysqldump's.
narrow() {
	sql -e "DROP DATABASE IF EXISTS t4090_dst; CREATE DATABASE t4090_dst;
	    CREATE TABLE t4090_dst.c (id INT PRIMARY KEY, country VARCHAR(5))"
}
dbsnap $C t4090_src c | rows2sql --no-create --rename-db t4090_src=t4090_dst \
    --max-statement-size=4K | sqlsplit >load.rp
nstmt=$(sqlexec -n <load.rp | grep -c ': insert: parallel')
ok $([ "$nstmt" -gt 10 ]; echo $?) "the load is $nstmt INSERT statements"

for j in 1 3; do
	narrow
	sqlexec $C -j $j <load.rp 2>err
	is $? 0 "-j $j: a truncating load without --strict: exit 0"
	like "$(grep -m1 '^sqlexec: warning:' err)" \
	    "^sqlexec: warning: statement [0-9]+ \\(line [0-9]+, table t4090_dst\\.c\\): Warning 1265: Data truncated for column 'country' at row [0-9]+" \
	    "-j $j: the first warning is printed with its statement and text"
	is "$(grep -c '^sqlexec: warning:' err)" 5 \
	    "-j $j: the first 5 statements with warnings are printed"
	like "$(tail -1 err)" ", 1000 warnings(,|$)" \
	    "-j $j: the summary counts every warning (1000 truncated values)"
	is "$(sql -e "SELECT COUNT(*), SUM(country = 'Unite') FROM t4090_dst.c")" \
	    "3000	1000" "-j $j: the rows are loaded, truncated as the server does"

	narrow
	sqlexec $C -j $j --strict <load.rp 2>err
	is $? 1 "-j $j --strict: a truncating load fails, exit 1"
	like "$(head -1 err)" \
	    "^sqlexec: statement [0-9]+ \\(line [0-9]+, table t4090_dst\\.c\\): Warning 1265: Data truncated for column 'country' at row [0-9]+.* \\(an error with --strict\\)$" \
	    "-j $j --strict: the warning is the error, with its statement"
	first=$(sed -n '1s/^sqlexec: statement \([0-9]*\) .*/\1/p' err)
	resume=$(sed -n 's/^sqlexec: statements 1-\([0-9]*\) are committed; resume with --skip-to \1:[0-9a-f]\{16\}$/\1/p' err)
	ok $([ -n "$resume" ] && [ "$resume" -lt "${first:-0}" ]; echo $?) \
	    "-j $j --strict: the resume point $resume is before statement $first"
	is "$(sql -e "SELECT COUNT(*) FROM t4090_dst.c WHERE country = 'Unite'")" 0 \
	    "-j $j --strict: no truncated value is committed"
done

# --strict --force: each statement with a warning fails and is not
# committed; the others load.
narrow
sqlexec $C --strict -f <load.rp 2>err
is $? 1 "--strict --force: exit 1"
like "$(tail -1 err)" "[0-9]+ FAILED$" "--strict --force: the failed statements are counted"
is "$(sql -e "SELECT COUNT(*) FROM t4090_dst.c WHERE country = 'Unite'")" 0 \
    "--strict --force: no truncated value is committed"

# Notes (DROP TABLE IF EXISTS of a missing table) are not warnings.
printf 'DROP TABLE IF EXISTS t4090_dst.nothing_here;\n' | sqlsplit |
    sqlexec $C --strict 2>err
is $? 0 "--strict: a note is not a warning"

# A warning of a barrier statement: printed; with --strict an error, after
# which the resume point is past it (it ran and is committed).
narrow
printf "USE t4090_dst;\nSET SESSION sql_mode='';\nINSERT INTO c VALUES (1, 'Chad');\nUPDATE c SET country = 'United States';\nINSERT INTO c VALUES (2, 'Peru');\n" |
    sqlsplit >upd.rp
sqlexec $C <upd.rp 2>err
is $? 0 "a warning of an UPDATE (a barrier): exit 0"
like "$(cat err)" "^sqlexec: warning: statement 4 \\(line 4, table t4090_dst\\.c\\): Warning 1265: " \
    "a warning of an UPDATE is printed"
narrow
sqlexec $C --strict <upd.rp 2>err
is $? 1 "--strict: a warning of an UPDATE: exit 1"
like "$(tail -1 err)" "^sqlexec: statements 1-4 are committed; resume with --skip-to 4:[0-9a-f]{16}$" \
    "--strict: the UPDATE ran (autocommit): the resume point is past it"
is "$(sql -e "SELECT GROUP_CONCAT(country) FROM t4090_dst.c")" "Unite" \
    "--strict: and nothing after it ran"

# The snapshot path: a warning names the row of the table, not the row
# of the bulk execute (4096 rows at most) or INSERT the server counts in.
sql t4090_src -e "CREATE TABLE w (id INT PRIMARY KEY, country VARCHAR(40));
    INSERT INTO w SELECT seq, IF(seq IN (904, 5000, 9999), 'United States',
    'Chad') FROM seq_1_to_10000"
dbsnap $C t4090_src w | rowmap --rename-db t4090_src=t4090_dst >w.rp
for o in "" "--no-bulk" "--no-bulk --commit-every 10K --batch-bytes 3K" \
    "--commit-every 10K --batch-bytes 3K" "-j 3 --commit-every 20K"; do
	sql -e "DROP TABLE IF EXISTS t4090_dst.w;
	    CREATE TABLE t4090_dst.w (id INT PRIMARY KEY, country VARCHAR(5))"
	sqlexec $C --no-create $o <w.rp 2>err
	is $? 0 "snapshot ${o:-(bulk)}: a truncating load: exit 0"
	is "$(grep -o "Data truncated for column 'country' at row [0-9]* of [a-z0-9_.]*" err | sort)" \
	    "Data truncated for column 'country' at row 5000 of t4090_dst.w
Data truncated for column 'country' at row 904 of t4090_dst.w
Data truncated for column 'country' at row 9999 of t4090_dst.w" \
	    "snapshot ${o:-(bulk)}: each warning names the row of the table"
done

sql -e "DROP DATABASE t4090_src; DROP DATABASE t4090_dst"
done_testing
