#!/bin/sh
# dbsnap: a large value is in memory once per connection, in Connector/C's
# packet buffer, and written from there (it was copied into the batch and
# again into the frame writer: three copies).  8 rows of 12 MiB values:
# max RSS under two values' size with -j 1, and under four with -j 2 (a
# buffer per connection, and a chunk ahead of its turn may hold one in
# the spool); both streams hold every value as the server has it.
. "$(dirname "$0")/../lib.sh"
need_server
[ -x /usr/bin/time ] || skip_all "no /usr/bin/time"
DB=t1131_src
fresh_db $DB
sql $DB -e "CREATE TABLE v (id int PRIMARY KEY, t longtext);
    INSERT INTO v SELECT seq, REPEAT(CHAR(64 + seq), 12 * 1048576)
    FROM seq_1_to_8; ANALYZE TABLE v" >/dev/null || exit 1

plan 6
want=$(sql -e "SELECT id, t FROM $DB.v ORDER BY id" | md5sum)
rows() { framecat -t < "$1" | grep -a '^ROW	' | cut -f3- | md5sum; }
rss dbsnap $(CONN) -j 1 $DB > j1.rp
is "$?" 0 "-j 1: exits 0"
kb=$(tail -1 rss.txt)
rss_below dbsnap "$kb" 24 "-j 1: max RSS ${kb} KiB < 24 MiB"
is "$(rows j1.rp)" "$want" "-j 1: every value whole"
rss dbsnap $(CONN) -j 2 $DB > j2.rp
is "$?" 0 "-j 2: exits 0"
kb=$(tail -1 rss.txt)
rss_below dbsnap "$kb" 48 "-j 2: max RSS ${kb} KiB < 48 MiB"
is "$(rows j2.rp)" "$want" "-j 2: every value whole, in key order"
sql -e "DROP DATABASE $DB"
done_testing
