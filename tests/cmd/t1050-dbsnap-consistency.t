#!/bin/sh
# dbsnap -j 4: all connections share one snapshot.  A server-side loop
# keeps moving amounts between two tables (inserting and deleting rows,
# the total constant) while dbsnap runs; the dumped rows keep the total.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/bank.sh"
need_server
DB=t1050_src
fresh_db $DB
{ cat <<'SQL'
CREATE TABLE a (id int PRIMARY KEY, amt int NOT NULL);
CREATE TABLE b (id int AUTO_INCREMENT PRIMARY KEY, amt int NOT NULL);
INSERT INTO a SELECT seq, 1000 FROM seq_1_to_20000;
SQL
bank_mover '    START TRANSACTION;
    UPDATE a SET amt = amt - 3 WHERE id = 1 + (i * 7919) % 20000;
    INSERT INTO b (amt) VALUES (3);
    UPDATE ctl SET ops = ops + 1 WHERE id = 1;
    COMMIT;
    IF i % 3 = 0 THEN
      START TRANSACTION;
      SELECT id, amt INTO @bid, @bamt FROM b ORDER BY id LIMIT 1 FOR UPDATE;
      DELETE FROM b WHERE id = @bid;
      UPDATE a SET amt = amt + @bamt WHERE id = 1 + (i * 104729) % 20000;
      COMMIT;
    END IF;'; } | sql $DB || exit 1
total=20000000

sql $DB -e "CALL mover()" &
mover=$!
stop_mover() {
	sql $DB -e "UPDATE ctl SET stop = 1"
	wait $mover
}
# Wait until the mover has committed something.
n=0
while [ "$(sql $DB -e 'SELECT ops FROM ctl')" -lt 50 ] && [ $n -lt 300 ]; do
	sleep 0.1; n=$((n + 1))
done

plan 13
sum() {	# table name: sum of its dumped amt column
	id=$(awk -F'\t' -v t="$1" '$1 == "TABLE" && $4 == t { print $2 }' out.txt)
	awk -F'\t' -v id="$id" '$1 == "ROW" && $2 == id { s += $4 } END { print s + 0 }' out.txt
}
for i in 1 2 3; do
	j=${J:-4}
	before=$(sql $DB -e 'SELECT ops FROM ctl')
	dbsnap $(CONN) -j $j --chunk-rows 1500 $DB a b > out.rp
	is "$?" 0 "run $i: dbsnap -j 4 exits 0"
	after=$(sql $DB -e 'SELECT ops FROM ctl')
	framecat -t < out.rp > out.txt
	is "$(($(sum a) + $(sum b)))" $total "run $i: the total holds in the dump"
	ok $((after <= before)) "run $i: the tables changed while dbsnap ran ($before -> $after)"
	like "$(grep '^HEADER' out.txt)" "consistency=snapshot" "run $i: header says snapshot"
done
stop_mover
is "$(sql $DB -e 'SELECT (SELECT SUM(amt) FROM a) + (SELECT SUM(amt) FROM b)')" \
    $total "the mover kept the total"
sql -e "DROP DATABASE $DB"
done_testing
