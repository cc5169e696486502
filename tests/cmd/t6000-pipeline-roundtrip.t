#!/bin/bash
# The whole pipeline, dbsnap | rows2sql | lz | lz -d | sqlsplit | sqlexec,
# at -j 1 and -j 2, restores the sample databases (tests/gen-store's, and
# sakila when $RP_SHARED has it) and the all-types tables identically:
# CHECKSUM TABLE, HEX() of every value, SHOW CREATE of every object.
. "$(dirname "$0")/../lib.sh"
need_server
samples=store
have_sample sakila && samples="store sakila"
for s in $samples; do
	load_sample $s t6000_$s || exit 1
done
load_alltypes t6000_typ || exit 1
set -o pipefail

dbs=
for s in $samples; do dbs="$dbs t6000_$s"; done
dbs="$dbs t6000_typ"
for db in $dbs; do
	db_sums $db >$db.sum
	db_hex $db >$db.hex
	db_objects $db >$db.obj
done
n0=$T_N
like "$(wc -l <t6000_store.obj)" '^ *[0-9]{2,}$' "store: objects listed for comparison"
per=$((T_N - n0))
have_sample sakila &&
    like "$(wc -l <t6000_sakila.obj)" '^ *[0-9]{2,}$' "sakila: objects listed for comparison"
like "$(cat t6000_typ.hex)" "835C955C8A5C5C27" "all-types source holds sjis with 0x5C"

for j in 1 2; do
	renames=
	for db in $dbs; do renames="$renames --rename-db $db=${db}_$j"; done
	dbsnap $(CONN) -j $j -R -E -B $dbs 2>snap.err | rows2sql $renames |
	    lz | lz -d | sqlsplit | sqlexec $(CONN) -j $j 2>exec.err
	r=$?
	is $r 0 "-j $j: pipeline exits 0"
	[ $r -eq 0 ] || sed 's/^/# /' snap.err exec.err
	n0=$T_N
	for db in $dbs; do
		is_file "$(db_sums ${db}_$j >a; echo a)" $db.sum \
		    "-j $j: $db: same CHECKSUM TABLE"
		is_file "$(db_hex ${db}_$j >b; echo b)" $db.hex \
		    "-j $j: $db: same HEX() of every column"
		is_file "$(db_objects ${db}_$j >c; echo c)" $db.obj \
		    "-j $j: $db: same definition of every object"
		[ $db = t6000_store ] && per=$((per + T_N - n0))
	done
done

# The same stream, kept as a file, is also plain SQL for the mysql client.
for s in $samples; do
	n0=$T_N
	dbsnap $(CONN) -R -E t6000_$s |
	    rows2sql --rename-db t6000_$s=t6000_${s}_m | lz > $s.sql.lz4
	is $? 0 "$s: backup to a .lz4 file"
	lz -dc $s.sql.lz4 | mariadb --no-defaults -uroot -S "$RP_SOCK"
	is $? 0 "$s: the mariadb client loads the decompressed file"
	is_file "$(db_sums t6000_${s}_m >m; echo m)" t6000_$s.sum \
	    "$s: client load: same CHECKSUM TABLE"
	is_file "$(db_objects t6000_${s}_m >n; echo n)" t6000_$s.obj \
	    "$s: client load: same objects"
	[ $s = store ] && per=$((per + T_N - n0))
done
have_sample sakila || sample_skip sakila $per

for db in $dbs; do
	sql -e "DROP DATABASE IF EXISTS ${db}; DROP DATABASE IF EXISTS ${db}_1;
	    DROP DATABASE IF EXISTS ${db}_2; DROP DATABASE IF EXISTS ${db}_m"
done
done_testing
