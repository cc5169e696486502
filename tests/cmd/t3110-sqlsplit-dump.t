#!/bin/sh
# sqlsplit agrees with the mysql client on mariadb-dump output of the
# sample databases (tests/gen-store's, and sakila when $RP_SHARED has it;
# --routines --triggers --events), with and without --extended-insert,
# (the variants after the first with at most 500 rows a table),
# with --hex-blob, with --compact, and all three together: the same
# statements (`mariadb -v` against `sqlsplit --print -0`, comments removed)
# and the same database (the client loads one copy, sqlsplit | stmtexec
# another; CHECKSUM TABLE and SHOW CREATE of everything must match).
. "$(dirname "$0")/../lib.sh"
need_server

. "$RP_TOP/tests/sqlsplit.sh"

client() { mariadb --no-defaults -uroot -S "$RP_SOCK" "$@"; }

dump() {
	mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers \
	    --events "$@" t3110_src
}

check_sample() {
	s=$1
	# The source database, loaded by the client.
	{ sample_sql $s t3110_src schema; sample_sql $s t3110_src data; } | client
	is $? 0 "$s: the client loads it into t3110_src"

	n=0
	for opts in "" "--skip-extended-insert" "--hex-blob" "--compact" \
	    "--skip-extended-insert --hex-blob --compact"; do
		n=$((n + 1))
		# --compact leaves out the session settings a load needs
		# (all rows in the first; at most 500 a table in the others, for time)
		where=; [ $n -gt 1 ] && where="--where=1 LIMIT 500"
		{ echo "SET NAMES utf8mb4, timestamp = 1000000000, foreign_key_checks = 0;"
		  dump $opts ${where:+"$where"}; } >d$n.sql
		sql -e "DROP DATABASE IF EXISTS t3110_a; CREATE DATABASE t3110_a;
		    DROP DATABASE IF EXISTS t3110_b; CREATE DATABASE t3110_b"
		client -v --comments t3110_a <d$n.sql >c.out
		is $? 0 "$s: dump ${opts:-(default)}: the client loads it"
		sqlsplit d$n.sql | stmtexec -S "$RP_SOCK" -D t3110_b
		is $? 0 "$s: dump ${opts:-(default)}: sqlsplit | stmtexec loads it"
		sqlsplit --print -0 d$n.sql | norm split >s.n
		norm client <c.out >c.n
		is_file s.n c.n "$s: dump ${opts:-(default)}: the same statements ($(wc -l <c.n))"
		dbstate t3110_a >a.st
		dbstate t3110_b >b.st
		is_file b.st a.st "$s: dump ${opts:-(default)}: the same database ($(wc -l <a.st) lines)"
	done
	is "$(grep -c 'TRIGGER' a.st)" "$(icount "triggers WHERE
	    trigger_schema = 't3110_src'")" "$s: (triggers compared)"
	is "$(grep -c 'PROCEDURE\|FUNCTION' a.st)" "$(icount "routines WHERE
	    routine_schema = 't3110_src'")" "$s: (routines compared)"
	sql -e "DROP DATABASE t3110_a; DROP DATABASE t3110_b; DROP DATABASE t3110_src"
}

on_samples check_sample

# sql_mode changes how the client lexes: a script that switches to
# NO_BACKSLASH_ESCAPES and ANSI_QUOTES, and the dump of what it made, whose
# routines, triggers and views carry their own sql_mode.
cat >nbe.sql <<'X'
DROP DATABASE IF EXISTS t3110_src; CREATE DATABASE t3110_src; USE t3110_src;
SET sql_mode = 'NO_BACKSLASH_ESCAPES';
CREATE TABLE t (a varchar(20));
INSERT INTO t VALUES ('C:\dir\'), ('x'';y');
CREATE PROCEDURE p() SELECT 'C:\dir\' AS path, 'x;y';
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = CONCAT(NEW.a, '\');
SET sql_mode = 'ANSI_QUOTES';
CREATE PROCEDURE q() SELECT "a\" FROM t;
SET sql_mode = 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES';
CREATE VIEW v AS SELECT 'b\' AS "c\";
SET sql_mode = DEFAULT;
SELECT 'it\'s;';
X
client -v <nbe.sql | norm client >c.n
is $? 0 "the client runs a script that changes sql_mode"
sqlsplit --print -0 nbe.sql | norm split >s.n
is_file s.n c.n "the same statements as the client ($(wc -l <c.n))"
dump >nbe-dump.sql
sql -e "DROP DATABASE IF EXISTS t3110_a; CREATE DATABASE t3110_a;
    DROP DATABASE IF EXISTS t3110_b; CREATE DATABASE t3110_b"
client -v --comments t3110_a <nbe-dump.sql | norm client >c.n
sqlsplit nbe-dump.sql | stmtexec -S "$RP_SOCK" -D t3110_b
is $? 0 "sqlsplit | stmtexec loads its dump"
sqlsplit --print -0 nbe-dump.sql | norm split >s.n
is_file s.n c.n "its dump: the same statements ($(wc -l <c.n))"
dbstate t3110_a >a.st
dbstate t3110_b >b.st
is_file b.st a.st "its dump: the same database ($(wc -l <a.st) lines)"
sql -e "DROP DATABASE t3110_a; DROP DATABASE t3110_b; DROP DATABASE t3110_src"

done_testing
