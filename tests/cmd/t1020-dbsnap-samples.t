#!/bin/sh
# dbsnap: every object of a sample database (tests/gen-store's, and sakila
# when $RP_SHARED has it) is in the stream, in an order that restores
# (tables, rows, routines, views after the views they use, triggers), with
# DDL byte-exact as SHOW CREATE gives it; the rows of each table are all
# there; dbsnap | rows2sql restores the same database.
. "$(dirname "$0")/../lib.sh"
need_server

count() { grep -c "^OBJECT	$1	" out.txt; }

check_sample() {
	s=$1 DB=t1020_$1 DST=t1020_$1_dst
	load_sample $s $DB &&
	# Views on views, named so that name order is the wrong restore order.
	sql $DB -e "CREATE VIEW z_base AS SELECT 1 AS id, 'x' AS v;
	    CREATE VIEW m_mid AS SELECT * FROM z_base WHERE id < 100;
	    CREATE VIEW a_top AS SELECT COUNT(*) AS n FROM m_mid;
	    CREATE EVENT ev_noop ON SCHEDULE EVERY 1 DAY DISABLE DO SET @x = 1;"
	ok $? "$s: loaded"

	dbsnap $(CONN) --routines --events $DB > out.rp 2>err.txt
	is "$?" 0 "$s: dbsnap --routines --events exits 0"
	is "$(cat err.txt)" "" "$s: nothing on stderr"
	framecat < out.rp > out.txt
	is "$?" 0 "$s: the stream is complete"

	is "$(count database)" 1 "$s: one database object"
	is "$(count table)" "$(icount "tables WHERE table_schema='$DB'
	    AND table_type='BASE TABLE'")" "$s: every table"
	is "$(count view)" "$(icount "views WHERE table_schema='$DB'")" \
	    "$s: every view ($(count view))"
	is "$(count trigger)" "$(icount "triggers WHERE trigger_schema='$DB'")" \
	    "$s: every trigger ($(count trigger))"
	is "$(count procedure) $(count function)" "$(icount "routines WHERE
	    routine_schema='$DB' AND routine_type='PROCEDURE'") $(icount "routines
	    WHERE routine_schema='$DB' AND routine_type='FUNCTION'")" \
	    "$s: every procedure and function ($(count procedure) $(count function))"
	is "$(count event)" "$(icount "events WHERE event_schema='$DB'")" \
	    "$s: every event ($(count event))"

	# Frame kinds in stream order, consecutive duplicates squeezed.
	order=$(awk -F'\t' '{ k = $1 == "OBJECT" ? $2 : $1;
	    if (k == "COLUMN" || k == "ROW" || k == "TABLE_END") k = "TABLE";
	    if (k != last) printf "%s ", k; last = k }' out.txt)
	is "$order" "HEADER database table TABLE function procedure view trigger event TRAILER " \
	    "$s: objects come in restore order"

	views=$(grep '^OBJECT	view' out.txt | cut -f4 | tr '\n' ' ')
	like "$views" "z_base .*m_mid .*a_top" "$s: a view comes after the views it uses"

	# Rows: every table's TABLE_END count is its row count.
	bad=0
	for t in $(sql -e "SELECT table_name FROM information_schema.tables
	    WHERE table_schema='$DB' AND table_type='BASE TABLE'"); do
		id=$(awk -F'\t' -v t="$t" '$1 == "TABLE" && $4 == t { print $2 }' out.txt)
		n=$(awk -F'\t' -v id="$id" '$1 == "TABLE_END" && $2 == id { print $3 }' out.txt)
		[ "$n" = "$(sql -e "SELECT COUNT(*) FROM $DB.\`$t\`")" ] ||
		    { diag "$t: $n rows dumped"; bad=1; }
	done
	is "$bad" 0 "$s: every table's rows are all in the stream"

	# DDL byte-exact, every routine's and trigger's: the client's batch
	# escaping is framecat's.
	bad=0 n=0
	sql -e "SELECT routine_type, routine_name FROM information_schema.routines
	    WHERE routine_schema = '$DB' UNION ALL SELECT 'TRIGGER', trigger_name
	    FROM information_schema.triggers WHERE trigger_schema = '$DB'" >names
	while read -r type name; do
		want=$(sql -e "SHOW CREATE $type $DB.\`$name\`" | cut -f3)
		got=$(awk -F'\t' -v n="$name" '$1 == "OBJECT" && $4 == n { print $5 }' out.txt)
		[ "$got" = "$want" ] || { diag "$type $name differs"; bad=1; }
		n=$((n + 1))
	done <names
	is "$bad" 0 "$s: every routine and trigger body byte-exact ($n)"
	set -- $(sql -e "SELECT trigger_name, event_object_table FROM
	    information_schema.triggers WHERE trigger_schema = '$DB' ORDER BY 1 LIMIT 1")
	like "$(grep "^OBJECT	trigger	.*	$1	" out.txt)" \
	    "table=$2.*|.*table=$2" "$s: a trigger names its table ($1 on $2)"

	# -j 3 reads the same rows, each table's in the same order.
	dbsnap $(CONN) -j 3 --chunk-rows 2000 $DB 2>/dev/null | framecat > out3.txt
	rm -f rows-*
	for f in out.txt out3.txt; do
		grep '^ROW' $f | awk -F'\t' -v f=$f '{ print > ("rows-" f "-" $2) }'
	done
	bad=0
	for r in rows-out.txt-*; do
		cmp -s "$r" "rows-out3.txt-${r#rows-out.txt-}" || { diag "$r differs"; bad=1; }
	done
	is "$bad" 0 "$s: -j 3 --chunk-rows 2000: every table's rows identical, in order"
	like "$(grep -c '^OBJECT	view' out.txt) $(grep -c '^ROW' out3.txt)" \
	    '^1[0-9] [0-9]{3,}$' "$s: views on views, and rows enough to chunk"

	# Restore through rows2sql into another database: same checksums.
	sql -e "DROP DATABASE IF EXISTS $DST"
	rows2sql --rename-db=$DB=$DST < out.rp | sql 2>restore.err
	is "$(checksums $DST)" "$(checksums $DB)" \
	    "$s: dbsnap | rows2sql restores every table (CHECKSUM TABLE)"
	sql -e "DROP DATABASE $DB; DROP DATABASE IF EXISTS $DST"
}

on_samples check_sample
done_testing
