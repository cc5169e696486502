#!/bin/sh
# Memory with large values: 6 rows of 8 MiB LONGBLOBs.
# - sqlsplit on mariadb-dump's text (one 8 MiB INSERT a row) stays under
#   the largest statement plus 8 MiB: a large statement's frame is written
#   from the input window (it was copied into the frame writer first: 2x),
#   and the window reads a chunk at a time.
# - sqlexec -j 2 holds at most one unit over twice --commit-every per
#   connection pushed and not yet done (the queue had room for jobs more,
#   and the dispatcher's one), and reads no frame ahead of them: from the
#   stream under 6 values' size (per connection its unit and Connector/C's
#   request; the frame reader's buffer), from SQL text under 4: such a
#   statement's unit is the frame reader's buffer it came in (it was
#   copied), and lit.c cuts no literal too large for a bulk execute (it
#   unescaped a copy per connection): 68 MiB before.
# - so at -j 1 a larger statement costs about its size more (one copy),
#   not twice that: 4 MiB and 12 MiB statements.
# Every restore holds every value as the server had it.
. "$(dirname "$0")/../lib.sh"
need_server
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
command -v mariadb-dump >/dev/null || skip_all "no mariadb-dump"
DB=t4280_src
fresh_db $DB
sql $DB -e "CREATE TABLE b (id int PRIMARY KEY, v LONGBLOB);
    INSERT INTO b SELECT seq, REPEAT(UNHEX(MD5(seq)), 8 * 1048576 / 16)
    FROM seq_1_to_6" || exit 1

plan 16
sums() { sql -e "SELECT id, MD5(v) FROM $1.b ORDER BY id" | md5sum; }
want=$(sums $DB)

mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --max-allowed-packet=64M \
    --skip-extended-insert $DB >dump.sql; is $? 0 "mariadb-dump"
rss sqlsplit <dump.sql >dump.rp; is $? 0 "sqlsplit"
kb=$(tail -1 rss.txt)
rss_below sqlsplit "$kb" 16 "sqlsplit: max RSS ${kb} KiB < 16 MiB (8 MiB statements)"

dbsnap $(CONN) $DB >s.rp; is $? 0 "dbsnap"
sql -e "DROP DATABASE $DB"

rss sqlexec $(CONN) -j 2 <s.rp 2>err; is $? 0 "sqlexec -j 2 of the stream"
kb=$(tail -1 rss.txt)
rss_below sqlexec "$kb" 48 "stream: max RSS ${kb} KiB < 48 MiB"
is "$(sums $DB)" "$want" "stream: every value restored"
sql -e "DROP DATABASE $DB"

# the SQL text at -j 2 and -j 1: under 4 and 2.5 statements' size
for jm in 2:32 1:20; do
	j=${jm%:*} mib=${jm#*:}
	fresh_db $DB
	rss sqlexec $(CONN) -j $j $DB <dump.rp 2>err; is $? 0 "sqlexec -j $j of the SQL text"
	kb=$(tail -1 rss.txt)
	rss_below sqlexec "$kb" $mib "SQL text, -j $j: max RSS ${kb} KiB < $mib MiB"
	is "$(sums $DB)" "$want" "SQL text, -j $j: every value restored"
	sql -e "DROP DATABASE $DB"
done

for mb in 4 12; do
	fresh_db t4280_m
	sql t4280_m -e "CREATE TABLE b (id int PRIMARY KEY, v LONGBLOB);
	    INSERT INTO b VALUES (1, REPEAT(UNHEX(MD5(3)), $mb * 1048576 / 16))"
	mariadb-dump --no-defaults -uroot -S "$RP_SOCK" --max-allowed-packet=64M \
	    t4280_m | sqlsplit >m$mb.rp
	fresh_db t4280_m
	rss sqlexec $(CONN) -j 1 t4280_m <m$mb.rp 2>err
	eval "rc$mb=\$? kb$mb=\$(tail -1 rss.txt)"
done
is "$rc4/$rc12" "0/0" "sqlexec -j 1 of one 4 MiB statement and of one 12 MiB"
rss_below sqlexec $((kb12 - kb4)) 12 \
    "8 MiB more statement: $((kb12 - kb4)) KiB more RSS (< 12 MiB; twice before)"
is "$(sql -e "SELECT LENGTH(v) = 12 * 1048576 AND v = REPEAT(UNHEX(MD5(3)), 12 * 1048576 / 16) FROM t4280_m.b")" 1 \
    "the 12 MiB value restored"
sql -e "DROP DATABASE t4280_m"

done_testing
