#!/bin/sh
# sqlexec: a sample database (tests/gen-store's, and sakila when $RP_SHARED
# has it: tables with FKs, FULLTEXT, GEOMETRY, BLOB; views, triggers,
# procedures, functions, plus an event) loaded with the mariadb client,
# dumped with mariadb-dump --routines --triggers --events, and restored
# with sqlsplit | sqlexec at -j 1 and -j 4: every table's CHECKSUM and
# every object's SHOW CREATE equal those of a restore by the mariadb
# client.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

# objects DB: SHOW CREATE of every object, the database name replaced
objects() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema = '$1' AND table_type LIKE '%TABLE' ORDER BY 1"); do
		sql -e "SHOW CREATE TABLE \`$1\`.\`$t\`"
	done
	db_defs "$1"
}

check_sample() {
	s=$1 src=t4040_src
	load_sample $s $src
	ok $? "$s: loaded"
	sql $src -e "CREATE EVENT purge_old ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00'
	    ON COMPLETION PRESERVE DISABLE COMMENT 'kept'
	    DO SET @purged = 1"
	mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers --events \
	    $src >dump.sql
	ok $? "$s: mariadb-dump"
	sqlsplit <dump.sql >dump.rp
	ok $? "$s: sqlsplit"

	fresh_db t4040_ref
	sql t4040_ref <dump.sql
	ok $? "$s: reference restore with the mariadb client"
	checksums t4040_ref >ref.sums
	objects t4040_ref | sed 's/t4040_ref/DB/g' >ref.objs
	is "$(wc -l <ref.sums)" "$(icount "tables WHERE table_schema = '$src'
	    AND table_type = 'BASE TABLE'")" "$s: every table ($(wc -l <ref.sums))"
	like "$(grep -c . ref.objs)" "^[3-9][0-9]$" "$s: objects listed"
	# rows affected: every row of every table, one INSERT each
	rows=0
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema = '$src' AND table_type = 'BASE TABLE'"); do
		rows=$((rows + $(sql -e "SELECT COUNT(*) FROM $src.\`$t\`")))
	done

	for j in 1 4; do
		db=t4040_j$j
		fresh_db $db
		sqlexec $C -j $j --commit-every 256K $db <dump.rp 2>err
		is $? 0 "$s: -j $j: sqlsplit | sqlexec restores"
		like "$(tail -1 err)" "^sqlexec: [0-9]+ statements, $rows rows affected" \
		    "$s: -j $j: summary ($rows rows)"
		checksums $db >$j.sums
		is_file $j.sums ref.sums "$s: -j $j: CHECKSUM TABLE of every table"
		objects $db | sed "s/$db/DB/g" >$j.objs
		is_file $j.objs ref.objs "$s: -j $j: SHOW CREATE of every object"
	done
	# the dump again through a pipe, at -j 4, over itself: idempotent
	sqlsplit <dump.sql | sqlexec $C -j 4 t4040_j4 2>/dev/null
	is $? 0 "$s: restoring over an existing restore"
	is "$(checksums t4040_j4)" "$(cat ref.sums)" "$s: same checksums after the second restore"
	sql -e "DROP DATABASE $src; DROP DATABASE t4040_ref; DROP DATABASE t4040_j1; DROP DATABASE t4040_j4"
}

on_samples check_sample
done_testing
