#!/bin/sh
# dbsnap: memory stays bounded dumping a 2-million-row table: max RSS under
# 64 MiB with -j 1 and under 64 MiB x jobs with -j 4, also when the reader
# is slow and chunks that run ahead have to be spooled.
. "$(dirname "$0")/../lib.sh"
need_server
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
DB=t1060_src
fresh_db $DB
sql $DB -e "CREATE TABLE big (id int PRIMARY KEY, v varchar(30), d datetime);
    INSERT INTO big SELECT seq, concat('value ', seq), '2020-01-01' + INTERVAL seq SECOND
    FROM seq_1_to_2000000; ANALYZE TABLE big" >/dev/null || exit 1

plan 6
rss dbsnap $(CONN) -j 1 $DB > out.rp
is "$?" 0 "-j 1: exits 0"
kb=$(tail -1 rss.txt)
ok $((kb >= 65536)) "-j 1: max RSS ${kb} KiB < 64 MiB"
is "$(framecat < out.rp | tail -1 | sed 's/.*rows=\([0-9]*\).*/\1/')" 2000000 \
    "-j 1: all 2000000 rows"
rss dbsnap $(CONN) -j 4 --chunk-rows 100000 $DB > /dev/null
is "$?" 0 "-j 4: exits 0"
kb=$(tail -1 rss.txt)
ok $((kb >= 4 * 65536)) "-j 4: max RSS ${kb} KiB < 4 x 64 MiB"
# A slow reader: chunks ahead of the write position spool.
rss dbsnap $(CONN) -j 4 --chunk-rows 100000 $DB | { sleep 2; cat > /dev/null; }
kb=$(tail -1 rss.txt)
ok $((kb >= 4 * 65536)) "-j 4, slow reader: max RSS ${kb} KiB < 4 x 64 MiB"
sql -e "DROP DATABASE $DB"
done_testing
