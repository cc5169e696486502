#!/bin/sh
# sqlexec on a snapshot stream (dbsnap's output), rows through the bulk
# prepared INSERT: the all-types fixture restores at -j 1 and -j 4 with
# the same CHECKSUM TABLE, HEX() of every value (history rows included)
# and SHOW CREATE TABLE as rows2sql's SQL restored by the mariadb client,
# through INSERT text (--no-bulk, the path for servers without bulk
# execute) and with --no-create into existing tables; a duplicate key
# fails naming the table and its rows, with the units before it committed
# and the failed one rolled back; warnings are shown and --strict fails;
# a stream cut or damaged anywhere commits only whole units before the
# cut, says so, and resuming from the printed frame completes the table.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
src=t4100_src ref=t4100_ref

load_alltypes $src
ok $? "all-types fixture loaded"
dbsnap $C $src >at.rp
ok $? "dbsnap"
sql -e "DROP DATABASE IF EXISTS $ref"
rows2sql --rename-db $src=$ref <at.rp | sql
ok $? "reference: rows2sql | mariadb"
db_sums $ref >ref.sums
db_hex $ref >ref.hex
like "$(wc -l <ref.hex)" "^ *[2-9][0-9]$" "reference rows listed"

db_objects $ref | sed "s/$ref/DB/g" >ref.objs

# the stream creates the database, its tables and objects, then the rows
for j in 1 4; do
	sql -e "DROP DATABASE $src"
	# -j 4: rows larger than a bulk request go alone, in pieces
	sqlexec $C -j $j --commit-every 1 $([ $j = 4 ] && echo --batch-bytes 16K) \
	    <at.rp 2>err
	is $? 0 "-j $j: restore"
	like "$(tail -1 err)" "^sqlexec: 8 tables, 26 rows, 9 objects created" "-j $j: summary"
	db_sums $src >$j.sums
	is_file $j.sums ref.sums "-j $j: CHECKSUM TABLE of every table"
	db_hex $src >$j.hex
	is_file $j.hex ref.hex "-j $j: HEX() of every value"
	db_objects $src | sed "s/$src/DB/g" >$j.objs
	is_file $j.objs ref.objs "-j $j: SHOW CREATE TABLE of every table"
done

# -q, for cron: no summary on success, also for dbsnap's output piped in;
# a failure still ends with the summary.
sql -e "DROP DATABASE IF EXISTS t4100_q"
dbsnap $C $src | rowmap --rename-db $src=t4100_q | sqlexec $C -q 2>err
# (warnings are printed as always: the fixture's gv = i + 1 overflows)
is "$?:$(grep -v '^sqlexec: warning: ' err)" "0:" \
    "-q: a snapshot stream loads in silence"
db_sums t4100_q >q.sums
is_file q.sums ref.sums "-q: the snapshot stream is loaded"
rowmap --rename-db $src=t4100_q <at.rp | sqlexec $C -q --no-create 2>err
is $? 1 "-q: duplicate rows: exit 1"
like "$(cat err)" "ERROR 1062" "-q: duplicate rows: the error"
like "$(cat err)" "^sqlexec: [0-9]+ tables?, [0-9]+ rows, " \
    "-q: a failed load: the summary too"
sql -e "DROP DATABASE t4100_q"

# --no-bulk: the INSERT text path, rows larger than a statement alone
for bs in 1M 16K; do
	sql -e "DROP DATABASE $src"
	sqlexec $C -j 2 --no-bulk --batch-bytes $bs <at.rp 2>err
	is $? 0 "--no-bulk --batch-bytes $bs: restore"
	db_sums $src >nb.sums
	is_file nb.sums ref.sums "--no-bulk --batch-bytes $bs: CHECKSUM TABLE"
	db_hex $src >nb.hex
	is_file nb.hex ref.hex "--no-bulk --batch-bytes $bs: HEX() of every value"
done

# --batch-bytes at its least, 1K: long values go in pieces of 512 bytes;
# below it the option is refused (at 1 the piece was 0 bytes, and the
# bulk execute sent nothing, forever: breaker F6)
sqlexec $C --batch-bytes 1023 <at.rp 2>err
is "$? $(cat err)" "2 sqlexec: --batch-bytes 1023: too small" "--batch-bytes 1023: refused"
sql -e "DROP DATABASE $src"
sqlexec $C -j 2 --batch-bytes 1K <at.rp 2>err
is $? 0 "--batch-bytes 1K: restore"
db_hex $src >bb.hex
is_file bb.hex ref.hex "--batch-bytes 1K: HEX() of every value"

# --no-create: rows only, into the tables that are there
sql -e "DROP DATABASE $src" && rows2sql --no-data <at.rp | sql
sqlexec $C -j 2 --no-create <at.rp 2>err
is $? 0 "--no-create: rows into existing tables"
like "$(tail -1 err)" "^sqlexec: 8 tables, 26 rows, 1 object created" \
    "--no-create: only the database, if it is missing"
db_hex $src >nc.hex
is_file nc.hex ref.hex "--no-create: HEX() of every value"

# a duplicate key: a source without a key, a target with one
dup=t4100_dup
fresh_db $dup
sql $dup -e "CREATE TABLE d (a INT, pad CHAR(200));
    INSERT INTO d SELECT seq, REPEAT('p', 200) FROM seq_1_to_20000;
    INSERT INTO d VALUES (5, 'again')"
dbsnap $C $dup >dup.rp
sql $dup -e "DROP TABLE d; CREATE TABLE d (a INT PRIMARY KEY, pad CHAR(200))"
sqlexec $C -j 2 --no-create --commit-every 300K <dup.rp 2>err
is $? 1 "a duplicate key fails"
msg=$(grep "ERROR 1062" err)
like "$msg" "^sqlexec: $dup\\.d: rows [0-9]+-20001 \\(frames [0-9]+-[0-9]+\\): INSERT: ERROR 1062 \\(23000\\): Duplicate entry '5'" \
    "the table, its rows and the server's error"
first=$(printf '%s\n' "$msg" | sed -n 's/.*: rows \([0-9]*\)-.*/\1/p')
is "$(sql -e "SELECT COUNT(*), IFNULL(MAX(a), 0) FROM $dup.d")" \
    "$((first - 1))	$((first - 1))" "the units before it are committed, its own is not"
like "$(grep resume err)" "^sqlexec: frames 1-[0-9]+ are committed(, and [^;]*)?; resume with --skip-to f[0-9]+(,[0-9]+=[0-9]+)*:[0-9a-f]{16}$" \
    "resume point"
sql $dup -e "TRUNCATE TABLE d"
sqlexec $C -j 2 --no-create --no-bulk --commit-every 300K <dup.rp 2>err
is $? 1 "--no-bulk: a duplicate key fails"
like "$(grep "ERROR 1062" err)" "^sqlexec: $dup\\.d: rows [0-9]+-20001 \\(frames [0-9]+-[0-9]+\\): INSERT: ERROR 1062 \\(23000\\): Duplicate entry '5'" \
    "--no-bulk: the table, its rows and the server's error"

# warnings: into a narrower column, counted and shown; --strict fails
sql $dup -e "CREATE TABLE w (id INT PRIMARY KEY, s VARCHAR(20));
    INSERT INTO w VALUES (1, 'United States'), (2, 'Peru')"
dbsnap $C $dup w >w.rp
sql $dup -e "DROP TABLE w; CREATE TABLE w (id INT PRIMARY KEY, s VARCHAR(5))"
sqlexec $C --no-create <w.rp 2>err
is $? 0 "a truncating load succeeds"
like "$(grep warning: err)" "^sqlexec: warning: $dup\\.w: rows 1-2 \\(frame [0-9]+\\): Warning 1265: Data truncated for column 's'" \
    "its warning is shown with the table and rows"
like "$(tail -1 err)" ", 1 warning$" "and counted in the summary"
sql $dup -e "TRUNCATE TABLE w"
sqlexec $C --no-create --strict <w.rp 2>err
is $? 1 "--strict: a warning fails the load"
is "$(sql -e "SELECT COUNT(*) FROM $dup.w")" 0 "--strict: nothing of the unit committed"

# cut and damaged streams
cut=t4100_cut
fresh_db $cut
sql $cut -e "CREATE TABLE c (id INT PRIMARY KEY, pad VARCHAR(300));
    INSERT INTO c SELECT seq, REPEAT(CHAR(65 + seq % 26), 300) FROM seq_1_to_20000"
dbsnap $C $cut >cut.rp
want=$(checksums $cut)
size=$(wc -c <cut.rp)
bad=0 n=0
for pct in 0 3 11 23 37 50 61 74 88 99; do
	at=$((size * pct / 100 + 7))
	for how in cut flip; do
		if [ $how = cut ]; then
			head -c $at cut.rp >part.rp
		else
			perl -e 'local $/; $_ = <STDIN>; substr($_, $ARGV[0], 1) ^= "\x01";
			    print' $at <cut.rp >part.rp
		fi
		sql $cut -e "DROP TABLE c; CREATE TABLE c (id INT PRIMARY KEY, pad VARCHAR(300))"
		sqlexec $C -j 2 --no-create --commit-every 300K <part.rp 2>err
		rc=$?
		n=$((n + 1))
		# the rows of the whole units the dispatcher queued before the cut
		last=$(sqlexec -n --no-create --commit-every 300K <part.rp 2>/dev/null |
		    sed -n 's/^unit [0-9]*: [^:]*: rows [0-9]*-\([0-9]*\) .*/\1/p' | tail -1)
		got=$(sql -e "SELECT COUNT(*), IFNULL(MAX(id), 0) FROM $cut.c")
		resume=$(sed -n 's/^sqlexec: .* resume .*with --skip-to \(f[0-9,=]*:[0-9a-f]*\)$/\1/p' err)
		# a damaged frame: "damaged", and the resume from a good copy
		if [ $how = flip ] && grep -q "^sqlexec: stdin: input damaged (frame " err &&
		    { grep -q "corrupt" err || { [ -n "$resume" ] &&
		    ! grep -q "resume from a good copy of the input with --skip-to $resume\$" err; }; }; then
			bad=$((bad + 1))
			diag "$how at $at: the damage misnamed: $(cat err)"
			continue
		fi
		if [ $rc -ne 1 ] || ! grep -Eq "truncated|damaged|not a rowpipe" err ||
		    [ "$got" != "${last:-0}	${last:-0}" ]; then
			bad=$((bad + 1))
			diag "$how at $at: exit $rc, rows $got, want ${last:-0}: $(head -1 err)"
			continue
		fi
		sqlexec $C -j 2 --no-create --commit-every 300K --skip-to "${resume:-0}" \
		    <cut.rp 2>err
		if [ $? -ne 0 ] || [ "$(checksums $cut)" != "$want" ]; then
			bad=$((bad + 1))
			diag "$how at $at: resume at $resume: $(head -1 err)"
		fi
	done
done
is "$bad" 0 "$n cut or damaged streams: whole units before the damage, then resumed"

# one byte changed at offset 5000: "input damaged", once, and the resume
# point is one to run on a good copy (this copy stops at the same frame)
perl -e 'local $/; $_ = <STDIN>; substr($_, 5000, 1) ^= "\x01"; print' \
    <cut.rp >dmg.rp
sql $cut -e "DROP TABLE c; CREATE TABLE c (id INT PRIMARY KEY, pad VARCHAR(300))"
sqlexec $C --no-create --commit-every 300K <dmg.rp 2>err
is $? 1 "a damaged frame: exit 1"
like "$(cat err)" "^sqlexec: stdin: input damaged \(frame [0-9]+ at byte [0-9]+: .*\): loading this copy again stops at the same place$" \
    "... says damaged, with the frame"
is "$(grep -c corrupt err)" 0 "... and not corrupt"
like "$(cat err)" "^sqlexec: (no frame up to the first is committed|frames? 1(-[0-9]+)? (is|are) committed.*); resume from a good copy of the input with --skip-to f[0-9]" \
    "... the resume advice names a good copy"
sql -e "DROP DATABASE $src; DROP DATABASE $ref; DROP DATABASE $dup; DROP DATABASE $cut"
done_testing
