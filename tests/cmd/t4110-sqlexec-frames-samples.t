#!/bin/sh
# sqlexec on a snapshot stream: a sample database (tests/gen-store's, and
# sakila when $RP_SHARED has it: foreign keys, FULLTEXT, GEOMETRY, BLOB;
# views, triggers, procedures, functions and an event), dumped by dbsnap
# and restored by sqlexec at -j 1 and -j 4 into a server without it (and
# through INSERT text, --no-bulk): every table's CHECKSUM TABLE, HEX() of
# every value and every object's SHOW CREATE equal those of rows2sql's SQL
# of the same stream restored by the mariadb client.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)

check_sample() {
	s=$1 src=t4110_src ref=t4110_ref
	load_sample $s $src &&
	sql $src -e "CREATE EVENT purge_old ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00'
	    ON COMPLETION PRESERVE DISABLE COMMENT 'kept'
	    DO SET @purged = 1"
	ok $? "$s: loaded"
	dbsnap $C --routines --events $src >sak.rp
	ok $? "$s: dbsnap --routines --events"
	sql -e "DROP DATABASE IF EXISTS $ref"
	rows2sql --rename-db $src=$ref <sak.rp | sql
	ok $? "$s: reference: rows2sql | mariadb"
	db_sums $ref >ref.sums
	db_hex $ref >ref.hex
	db_objects $ref | sed "s/$ref/DB/g" >ref.objs
	tables=$(icount "tables WHERE table_schema = '$src' AND table_type = 'BASE TABLE'")
	is "$(wc -l <ref.sums)" "$tables" "$s: every table ($tables)"
	like "$(grep -c . ref.objs)" "^[3-9][0-9][0-9]$" "$s: objects listed"
	rows=0
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema = '$src' AND table_type = 'BASE TABLE'"); do
		rows=$((rows + $(sql -e "SELECT COUNT(*) FROM $src.\`$t\`")))
	done
	# the database, its tables and views, routines, triggers, events
	objects=$((1 + $(icount "tables WHERE table_schema = '$src'") +
	    $(icount "routines WHERE routine_schema = '$src'") +
	    $(icount "triggers WHERE trigger_schema = '$src'") +
	    $(icount "events WHERE event_schema = '$src'")))

	for j in 1 4; do
		sql -e "DROP DATABASE $src"
		sqlexec $C -j $j --commit-every 64K <sak.rp 2>err
		is $? 0 "$s: -j $j: dbsnap's stream restores"
		like "$(tail -1 err)" "^sqlexec: $tables tables, $rows rows, $objects objects created" \
		    "$s: -j $j: summary"
		db_sums $src >$j.sums
		is_file $j.sums ref.sums "$s: -j $j: CHECKSUM TABLE of every table"
		db_hex $src >$j.hex
		is_file $j.hex ref.hex "$s: -j $j: HEX() of every value"
		db_objects $src | sed "s/$src/DB/g" >$j.objs
		is_file $j.objs ref.objs "$s: -j $j: SHOW CREATE of every object"
	done
	# the INSERT text path (--no-bulk)
	sql -e "DROP DATABASE $src"
	sqlexec $C -j 4 --no-bulk --commit-every 64K <sak.rp 2>err
	is $? 0 "$s: --no-bulk: restores"
	db_hex $src >nb.hex
	is_file nb.hex ref.hex "$s: --no-bulk: HEX() of every value"
	db_objects $src | sed "s/$src/DB/g" >nb.objs
	is_file nb.objs ref.objs "$s: --no-bulk: SHOW CREATE of every object"
	# through a pipe, over the restore: objects dropped and made again
	cat sak.rp | sqlexec $C -j 4 2>err
	is $? 0 "$s: restoring over an existing restore, through a pipe"
	is "$(db_sums $src)" "$(cat ref.sums)" "$s: same checksums after the second restore"
	sql -e "DROP DATABASE $src; DROP DATABASE $ref"
}

on_samples check_sample
done_testing
