#!/bin/sh
# sqlexec: sakila (tables with FKs, FULLTEXT, GEOMETRY, BLOB; views,
# triggers, procedures, functions, plus an event) loaded with the mariadb
# client, dumped with mariadb-dump --routines --triggers --events, and
# restored with sqlsplit | sqlexec at -j 1 and -j 4: every table's CHECKSUM
# and every object's SHOW CREATE equal those of a restore by the mariadb
# client.
. "$(dirname "$0")/../lib.sh"
need_server
[ -r "$RP_SHARED/data/sakila/sakila-schema.sql" ] || skip_all "no sakila in $RP_SHARED"
C=$(CONN)
src=t4040_src

# objects DB: SHOW CREATE of every object, the database name replaced
objects() {
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema = '$1' AND table_type LIKE '%TABLE' ORDER BY 1"); do
		sql -e "SHOW CREATE TABLE \`$1\`.\`$t\`"
	done
	db_defs "$1"
}

# the source, renamed so that parallel tests do not collide
sed -e "s/\\bsakila\\([.;]\\)/$src\\1/g; s/SCHEMA sakila/SCHEMA $src/" \
    "$RP_SHARED/data/sakila/sakila-schema.sql" | sql
ok $? "sakila schema loaded"
sed -e "s/\\bsakila\\([.;]\\)/$src\\1/g" "$RP_SHARED/data/sakila/sakila-data.sql" | sql
ok $? "sakila data loaded"
sql $src -e "CREATE EVENT purge_old ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00'
    ON COMPLETION PRESERVE DISABLE COMMENT 'kept'
    DO DELETE FROM payment WHERE payment_date < '2000-01-01'"
mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --routines --triggers --events \
    $src >dump.sql
ok $? "mariadb-dump"
sqlsplit <dump.sql >dump.rp
ok $? "sqlsplit"

fresh_db t4040_ref
sql t4040_ref <dump.sql
ok $? "reference restore with the mariadb client"
checksums t4040_ref >ref.sums
objects t4040_ref | sed 's/t4040_ref/DB/g' >ref.objs
like "$(wc -l <ref.sums)" "^ *16$" "16 tables"
like "$(grep -c . ref.objs)" "^[3-9][0-9]$" "objects listed"

for j in 1 4; do
	db=t4040_j$j
	fresh_db $db
	sqlexec $C -j $j --commit-every 256K $db <dump.rp 2>err
	is $? 0 "-j $j: sqlsplit | sqlexec restores"
	like "$(tail -1 err)" "^sqlexec: [0-9]+ statements, 4[0-9]{4} rows affected" "-j $j: summary"
	checksums $db >$j.sums
	is_file $j.sums ref.sums "-j $j: CHECKSUM TABLE of every table"
	objects $db | sed "s/$db/DB/g" >$j.objs
	is_file $j.objs ref.objs "-j $j: SHOW CREATE of every object"
done
# the dump again through a pipe, at -j 4, over itself: idempotent
sqlsplit <dump.sql | sqlexec $C -j 4 t4040_j4 2>/dev/null
is $? 0 "restoring over an existing restore"
is "$(checksums t4040_j4)" "$(cat ref.sums)" "same checksums after the second restore"
sql -e "DROP DATABASE $src; DROP DATABASE t4040_ref; DROP DATABASE t4040_j1; DROP DATABASE t4040_j4"
done_testing
