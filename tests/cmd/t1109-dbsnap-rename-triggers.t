#!/bin/sh
# rows2sql --rename of a table within its database leaves its triggers
# out (trigger names are per database) and says so (#25): the warning
# came with the triggers, at the stream's end, and was lost when the
# pipeline died before (a load that failed, a reader that went away).
# dbsnap now counts each table's triggers in its object (the "triggers"
# attribute), and the warning comes with the table, before its rows.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1109_db
fresh_db $DB
sql $DB -e "CREATE TABLE t (id int PRIMARY KEY, v varchar(200));
    INSERT INTO t SELECT seq, REPEAT('x', 200) FROM seq_1_to_20000;
    CREATE TABLE log (n int);
    CREATE TRIGGER t_ins AFTER INSERT ON t FOR EACH ROW INSERT INTO log VALUES (1);
    CREATE TRIGGER t_del AFTER DELETE ON t FOR EACH ROW INSERT INTO log VALUES (2)" || exit 1
dbsnap $(CONN) $DB >all.rp 2>/dev/null
framecat <all.rp | grep -q '^OBJECT	table	'"$DB"'	t	.*triggers=2'
ok $? "the table's object counts its two triggers"

# The reader goes away after the first bytes: rows2sql stops early.
rows2sql --rename t=t2 <all.rp 2>err | head -c 100 >/dev/null
like "$(cat err)" "$DB\.t: renamed to t2: its 2 triggers will be left out \(trigger names are per database; create them under new names by hand\)" \
    "a pipeline that stops early still has the warning (before: none)"
rows2sql --rename t=t2 <all.rp 2>err >all.sql
is "$?" 0 "the whole stream: exit 0"
is "$(grep -c 'will be left out\|left out (trigger names' err)" 1 \
    "... the warning once, not again for each trigger"
is "$(grep -c 'CREATE.*TRIGGER' all.sql)" 0 "... and no trigger is created"
sql -e "DROP DATABASE $DB"
done_testing
