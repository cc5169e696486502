#!/bin/bash
# The whole pipeline, dbsnap | rows2sql | lz | lz -d | sqlsplit | sqlexec,
# at -j 1 and -j 2, restores sakila and the all-types tables identically:
# CHECKSUM TABLE, HEX() of every value, SHOW CREATE of every object.
. "$(dirname "$0")/../lib.sh"
need_server
load_sakila t6000_sak || exit 1
load_alltypes t6000_typ || exit 1
set -o pipefail
plan 20

for db in t6000_sak t6000_typ; do
	db_sums $db >$db.sum
	db_hex $db >$db.hex
	db_objects $db >$db.obj
done
like "$(wc -l <t6000_sak.obj)" '^ *[0-9]{2,}$' "sakila objects listed for comparison"
like "$(cat t6000_typ.hex)" "835C955C8A5C5C27" "all-types source holds sjis with 0x5C"

for j in 1 2; do
	dbsnap $(CONN) -j $j -R -E -B t6000_sak t6000_typ 2>snap.err |
	    rows2sql --rename-db t6000_sak=t6000_sak_$j \
	        --rename-db t6000_typ=t6000_typ_$j |
	    lz | lz -d | sqlsplit | sqlexec $(CONN) -j $j 2>exec.err
	r=$?
	is $r 0 "-j $j: pipeline exits 0"
	[ $r -eq 0 ] || sed 's/^/# /' snap.err exec.err
	for db in t6000_sak t6000_typ; do
		is_file "$(db_sums ${db}_$j >a; echo a)" $db.sum \
		    "-j $j: $db: same CHECKSUM TABLE"
		is_file "$(db_hex ${db}_$j >b; echo b)" $db.hex \
		    "-j $j: $db: same HEX() of every column"
		is_file "$(db_objects ${db}_$j >c; echo c)" $db.obj \
		    "-j $j: $db: same definition of every object"
	done
done

# The same stream, kept as a file, is also plain SQL for the mysql client.
dbsnap $(CONN) -R -E t6000_sak | rows2sql --rename-db t6000_sak=t6000_sak_m |
    lz > sak.sql.lz4
is $? 0 "backup to a .lz4 file"
lz -dc sak.sql.lz4 | mariadb --no-defaults -uroot -S "$RP_SOCK"
is $? 0 "the mariadb client loads the decompressed file"
is_file "$(db_sums t6000_sak_m >m; echo m)" t6000_sak.sum "client load: same CHECKSUM TABLE"
is_file "$(db_objects t6000_sak_m >n; echo n)" t6000_sak.obj "client load: same objects"

for db in t6000_sak t6000_typ t6000_sak_1 t6000_typ_1 t6000_sak_2 t6000_typ_2 t6000_sak_m; do
	sql -e "DROP DATABASE IF EXISTS $db"
done
done_testing
