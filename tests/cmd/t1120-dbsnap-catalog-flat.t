#!/bin/sh
# dbsnap's catalogue queries cost what the dumped tables cost, not what
# the server holds (issue 26): every information_schema query it sends
# names its database by the column the server looks tables up by, so
# that EXPLAIN never says "Scanned all databases" (TRIGGERS by
# TRIGGER_SCHEMA and GEOMETRY_COLUMNS by G_TABLE_SCHEMA did: 0.3 s each,
# per database, on a server of 4,000 tables); a database without a
# spatial column gets no GEOMETRY_COLUMNS query, a spatial table one of
# its own.  The statements are those of the server's slow log at
# long_query_time=0; the triggers and SRIDs still reach the stream.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
A=t1120_a B=t1120_b

fresh_db $A && fresh_db $B || exit 1
sql $A -e "CREATE TABLE t1 (id INT PRIMARY KEY, v INT);
    CREATE TABLE t2 (id INT PRIMARY KEY);
    CREATE TRIGGER tr1 BEFORE INSERT ON t1 FOR EACH ROW SET NEW.v = 1" || exit 1
sql $B -e "CREATE TABLE g (id INT PRIMARY KEY, p POINT REF_SYSTEM_ID=4326,
        q GEOMETRY REF_SYSTEM_ID=3857);
    CREATE TABLE h (id INT PRIMARY KEY);
    CREATE TRIGGER tr2 AFTER DELETE ON h FOR EACH ROW SET @x = 1" || exit 1

old=$(sql -e "SELECT @@slow_query_log, @@slow_query_log_file, @@long_query_time, @@log_output")
set -- $old
restore_log() {
	sql -e "SET GLOBAL long_query_time = $3; SET GLOBAL slow_query_log = $1;
	    SET GLOBAL slow_query_log_file = '$2'; SET GLOBAL log_output = '$4'"
}
sql -e "SET GLOBAL slow_query_log_file = '$T_DIR/slow.log';
    SET GLOBAL log_output = 'FILE'; SET GLOBAL long_query_time = 0;
    SET GLOBAL slow_query_log = 1" || exit 1
dbsnap $C -B $A $B >s.rp 2>err
rc=$?
restore_log "$@"
is "$rc" 0 "dbsnap -B $A $B"

# dbsnap's information_schema statements about the two databases
grep -i 'information_schema' "$T_DIR/slow.log" | grep "'t1120_" |
    sed 's/;$//' | sort -u >is.sql
like "$(cat is.sql)" "TRIGGERS" "the slow log has the catalogue queries"
scans=0 n=0
while IFS= read -r q; do
	n=$((n + 1))
	x=$(sql -e "EXPLAIN $q" | cut -f10)
	case $x in
	*"Scanned all databases"*) scans=$((scans + 1)); diag "scans all: $q" ;;
	esac
done <is.sql
isnt "$n" 0 "EXPLAIN of each of them"
is "$scans" 0 "none scans every database of the server"
is "$(grep -c GEOMETRY_COLUMNS is.sql)" 1 \
    "GEOMETRY_COLUMNS: one query, for the one spatial table"
like "$(grep GEOMETRY_COLUMNS is.sql)" "'$B'.*'g'" "about $B.g"

framecat <s.rp >s.txt
like "$(grep '^OBJECT	trigger	' s.txt | cut -f3,4 | tr '\t\n' '. ')" \
    "^$A.tr1 $B.tr2 $" "both triggers in the stream"
like "$(grep '^OBJECT	table	.*	g	' s.txt)" "srid=" "the SRIDs in the stream"

sql -e "DROP DATABASE $A; DROP DATABASE $B"
done_testing
