#!/bin/sh
# dbsnap: every object of the sakila database is in the stream, in an
# order that restores (tables, rows, routines, views after the views they
# use, triggers), with DDL byte-exact as SHOW CREATE gives it; the rows of
# each table are all there; dbsnap | rows2sql restores the same database.
. "$(dirname "$0")/../lib.sh"
need_server
[ -f "$RP_SHARED/data/sakila/sakila-schema.sql" ] || skip_all "no sakila data"
DB=t1020_sakila
DST=t1020_dst
for f in schema data; do
	sed -E "s/\\bsakila\\b/$DB/g" "$RP_SHARED/data/sakila/sakila-$f.sql"
done | sql || exit 1
# Views on views, named so that name order is the wrong restore order.
sql $DB -e "CREATE VIEW z_base AS SELECT actor_id, first_name FROM actor;
    CREATE VIEW m_mid AS SELECT * FROM z_base WHERE actor_id < 100;
    CREATE VIEW a_top AS SELECT COUNT(*) AS n FROM m_mid;
    CREATE EVENT ev_noop ON SCHEDULE EVERY 1 DAY DISABLE DO SET @x = 1;"

plan 17

dbsnap $(CONN) --routines --events $DB > out.rp 2>err.txt
is "$?" 0 "dbsnap --routines --events exits 0"
is "$(cat err.txt)" "" "nothing on stderr"
framecat < out.rp > out.txt
is "$?" 0 "the stream is complete"

count() { grep -c "^OBJECT	$1	" out.txt; }
is "$(count database)" 1 "one database object"
is "$(count table)" "$(sql -e "SELECT COUNT(*) FROM information_schema.tables
    WHERE table_schema='$DB' AND table_type='BASE TABLE'")" "every table"
is "$(count view)" 10 "every view (7 + 3)"
is "$(count trigger)" "$(sql -e "SELECT COUNT(*) FROM information_schema.triggers
    WHERE trigger_schema='$DB'")" "every trigger"
is "$(count procedure) $(count function)" "3 3" "3 procedures, 3 functions"
is "$(count event)" 1 "the event"

# Frame kinds in stream order, consecutive duplicates squeezed.
order=$(awk -F'\t' '{ k = $1 == "OBJECT" ? $2 : $1;
    if (k == "COLUMN" || k == "ROW" || k == "TABLE_END") k = "TABLE";
    if (k != last) printf "%s ", k; last = k }' out.txt)
is "$order" "HEADER database table TABLE function procedure view trigger event TRAILER " \
    "objects come in restore order"

views=$(grep '^OBJECT	view' out.txt | cut -f4 | tr '\n' ' ')
like "$views" "z_base .*m_mid .*a_top" "a view comes after the views it uses"

# Rows: every table's TABLE_END count is its row count.
bad=0
for t in $(sql -e "SELECT table_name FROM information_schema.tables
    WHERE table_schema='$DB' AND table_type='BASE TABLE'"); do
	id=$(awk -F'\t' -v t="$t" '$1 == "TABLE" && $4 == t { print $2 }' out.txt)
	n=$(awk -F'\t' -v id="$id" '$1 == "TABLE_END" && $2 == id { print $3 }' out.txt)
	[ "$n" = "$(sql -e "SELECT COUNT(*) FROM $DB.\`$t\`")" ] ||
	    { diag "$t: $n rows dumped"; bad=1; }
done
is "$bad" 0 "every table's rows are all in the stream"

# DDL byte-exact: the client's batch escaping is framecat's.
want=$(sql -e "SHOW CREATE PROCEDURE $DB.rewards_report" | cut -f3)
got=$(awk -F'\t' '$1 == "OBJECT" && $4 == "rewards_report" { print $5 }' out.txt)
is "$got" "$want" "procedure body byte-exact"
want=$(sql -e "SHOW CREATE TRIGGER $DB.ins_film" | cut -f3)
got=$(awk -F'\t' '$1 == "OBJECT" && $4 == "ins_film" { print $5 }' out.txt)
is "$got" "$want" "trigger body byte-exact"
like "$(grep '^OBJECT	trigger	.*	ins_film	' out.txt)" \
    "table=film.*|.*table=film" "trigger names its table"

# -j 3 reads the same rows, each table's in the same order.
dbsnap $(CONN) -j 3 --chunk-rows 2000 $DB 2>/dev/null | framecat > out3.txt
for f in out.txt out3.txt; do
	grep '^ROW' $f | awk -F'\t' -v f=$f '{ print > ("rows-" f "-" $2) }'
done
bad=0
for r in rows-out.txt-*; do
	cmp -s "$r" "rows-out3.txt-${r#rows-out.txt-}" || { diag "$r differs"; bad=1; }
done
is "$bad" 0 "-j 3 --chunk-rows 2000: every table's rows identical, in order"

# Restore through rows2sql into another database: same checksums.
sql -e "DROP DATABASE IF EXISTS $DST"
rows2sql --rename-db=$DB=$DST < out.rp | sql 2>restore.err
is "$(checksums $DST)" "$(checksums $DB)" "dbsnap | rows2sql restores every table (CHECKSUM TABLE)"
sql -e "DROP DATABASE $DB; DROP DATABASE IF EXISTS $DST"
done_testing
