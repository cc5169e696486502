#!/bin/sh
# Memory with large values: 6 rows of 8 MiB LONGBLOBs.
# - sqlsplit on mariadb-dump's text (one 8 MiB INSERT a row) stays under
#   the largest statement plus 8 MiB: a large statement's frame is written
#   from the input window (it was copied into the frame writer first: 2x),
#   and the window reads a chunk at a time.
# - sqlexec -j 2 holds at most one unit over twice --commit-every per
#   connection pushed and not yet done (the queue had room for jobs more,
#   and the dispatcher's one): from the stream under 6 values' size (per
#   connection its unit and Connector/C's request; the frame reader's
#   buffer; the unit waiting), from SQL text under 9 (lit.c's unescaped
#   copy per connection too; 86 MiB before).
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

plan 10
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

fresh_db $DB
rss sqlexec $(CONN) -j 2 $DB <dump.rp 2>err; is $? 0 "sqlexec -j 2 of the SQL text"
kb=$(tail -1 rss.txt)
rss_below sqlexec "$kb" 72 "SQL text: max RSS ${kb} KiB < 72 MiB"
is "$(sums $DB)" "$want" "SQL text: every value restored"
sql -e "DROP DATABASE $DB"

done_testing
