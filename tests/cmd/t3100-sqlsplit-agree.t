#!/bin/sh
# sqlsplit agrees with the mysql client on real files: the schema and data
# files of the sample databases (tests/gen-store's, and sakila's when
# $RP_SHARED has it), and the DELIMITER and comment test files of Debian's
# mariadb-test package.  Two checks each:
#  - the same statements: what `mariadb -v` echoes as it sends each one,
#    against `sqlsplit --print -0`, both with comments removed and blanks
#    squeezed (the client strips comments; sqlsplit keeps them);
#  - the same database: the client loads the file into one database,
#    sqlsplit | stmtexec (tests/tools, one mysql_real_query a statement)
#    into another; CHECKSUM TABLE of every table and SHOW CREATE of every
#    object must match.  The client runs with --comments, as sqlsplit keeps
#    comments inside statements (routine bodies keep theirs).
. "$(dirname "$0")/../lib.sh"
need_server

MT=/usr/share/mysql/mysql-test/main

. "$RP_TOP/tests/sqlsplit.sh"

client() { mariadb --no-defaults -uroot -S "$RP_SOCK" "$@"; }

# check_sample NAME: the sample's files, the database name replaced, the
# clock fixed (triggers use NOW())
check_sample() {
	s=$1
	for x in a b; do
		for f in schema data; do
			{ echo "SET timestamp = 1000000000;"
			  sample_sql $s t3100_$x $f; } >$f-$x.sql
		done
	done
	sql -e "DROP DATABASE IF EXISTS t3100_a; DROP DATABASE IF EXISTS t3100_b"
	client -v --comments <schema-a.sql >c1.out && client -v --comments <data-a.sql >c2.out
	is $? 0 "$s: the client loads it"
	sqlsplit schema-b.sql data-b.sql | stmtexec -S "$RP_SOCK"
	is $? 0 "$s: sqlsplit | stmtexec loads it"
	sqlsplit --print -0 schema-a.sql >s1.out && sqlsplit --print -0 data-a.sql >s2.out
	for i in 1 2; do
		norm client <c$i.out >c$i.n
		norm split <s$i.out >s$i.n
		is_file s$i.n c$i.n "$s file $i: the same statements as the client ($(wc -l <c$i.n))"
	done
	dbstate t3100_a >a.st
	dbstate t3100_b >b.st
	is_file b.st a.st "$s: the same tables, data and objects ($(wc -l <a.st) lines)"
	is "$(grep -c 'CREATE.*PROCEDURE\|CREATE.*FUNCTION' a.st)" \
	    "$(icount "routines WHERE routine_schema = 't3100_a'")" \
	    "$s: (procedures and functions compared)"
	is "$(grep -c 'CREATE.*TRIGGER' a.st)" \
	    "$(icount "triggers WHERE trigger_schema = 't3100_a'")" "$s: (triggers compared)"
	sql -e "DROP DATABASE t3100_a; DROP DATABASE t3100_b"

	# the schema with CRLF line ends and a byte-order mark: the client
	# reads lines without their CR, so routine bodies must come out
	# without them
	for x in a b; do
		printf '\357\273\277' >crlf-$x.sql
		sed 's/$/\r/' schema-$x.sql >>crlf-$x.sql
	done
	client -v --comments <crlf-a.sql >c.out
	is $? 0 "$s: the client loads the CRLF schema"
	sqlsplit crlf-b.sql | stmtexec -S "$RP_SOCK"
	is $? 0 "$s: sqlsplit | stmtexec loads it"
	sqlsplit --print -0 crlf-a.sql | norm split >s.n
	norm client <c.out >c.n
	is_file s.n c.n "$s: CRLF schema: the same statements ($(wc -l <c.n))"
	dbstate t3100_a >a.st
	dbstate t3100_b >b.st
	is_file b.st a.st "$s: CRLF schema: the same objects ($(wc -l <a.st) lines)"
	is "$(grep -c -e "$(printf '\r')" -e '\\r' b.st)" 0 "$s: (no CR in them)"
	sql -e "DROP DATABASE t3100_a; DROP DATABASE t3100_b"
}

on_samples check_sample

# --- mariadb-test's client test files, from a copy (they use db "test",
# and source each other by relative path)
[ -r "$MT/mysql_delimiter.sql" ] || { done_testing; }
mkdir -p mt/main
for f in mysql_delimiter.sql mysql_delimiter_19799.sql \
    mysql_delimiter_source.sql mysql_comments.sql delimiter_case_mdev_10728.sql; do
	sed 's/\btest\b/t3100_m/g' "$MT/$f" >mt/main/$f
done
for f in mysql_delimiter.sql mysql_delimiter_source.sql \
    mysql_delimiter_19799.sql mysql_comments.sql delimiter_case_mdev_10728.sql; do
	sql -e "DROP DATABASE IF EXISTS t3100_m; CREATE DATABASE t3100_m;
	    CREATE TABLE t3100_m.t1 (a int)"
	(cd mt && client -v --force t3100_m <main/$f 2>/dev/null) | norm client >c.n
	(cd mt && sqlsplit --print -0 main/$f 2>/dev/null) | norm split >s.n
	is_file s.n c.n "$f: the same statements as the client ($(wc -l <c.n))"
done
sql -e "DROP DATABASE IF EXISTS t3100_m"

done_testing
