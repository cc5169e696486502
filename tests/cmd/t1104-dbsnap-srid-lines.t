#!/bin/sh
# The SRIDs that dbsnap sends beside a table's definition (its srid
# attribute) are put back by rows2sql and sqlexec (lib/objsql
# add_srids) exactly once and never lost in silence (#25).  Streams
# edited through rows2json | sed | json2rows: a definition that already
# has REF_SYSTEM_ID keeps one (before: twice, which the server refuses);
# a column line that cannot be found is an error naming the column
# (before: its SRID was dropped silently); entries out of the columns'
# order still apply (before: skipped); a column that the definition no
# longer names (dropped by rowmap) is skipped.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1104_db
fresh_db $DB
sql $DB -e "CREATE TABLE g (id int PRIMARY KEY, p POINT REF_SYSTEM_ID=4326,
    q POINT REF_SYSTEM_ID=3857); INSERT INTO g VALUES (1, NULL, NULL)" || exit 1
dbsnap $(CONN) $DB g 2>/dev/null | rows2json >g.jsonl
grep -q '"srid":"4326\\t`p`\\n3857\\t`q`"' g.jsonl
ok $? "the stream has both SRIDs beside the definition"

# edited SED-EXPR: the stream with its table object edited by sed.
edited() { sed "$1" g.jsonl | json2rows; }
srids() { grep -o 'REF_SYSTEM_ID=[0-9]*' | tr '\n' ' '; }

edited 's/`p` point DEFAULT NULL/`p` point REF_SYSTEM_ID=4326 DEFAULT NULL/' |
    rows2sql >twice.sql
is "$?" 0 "a definition with REF_SYSTEM_ID already: exit 0"
is "$(srids <twice.sql)" "REF_SYSTEM_ID=4326 REF_SYSTEM_ID=3857 " \
    "... each SRID once (before: 4326 twice)"

edited 's/\\n  `q` point/\\n   `q` point/' | rows2sql >lost.sql 2>err
is "$?" 1 "a column line that is not found: exit 1"
like "$(cat err)" "$DB\.g: column \`q\`: its SRID 3857 cannot be put back: no column line for it in the definition" \
    "... naming the column and its SRID (before: dropped in silence)"

edited 's/"srid":"4326\\t`p`\\n3857\\t`q`"/"srid":"3857\\t`q`\\n4326\\t`p`"/' |
    rows2sql >order.sql
is "$?" 0 "entries out of the columns' order: exit 0"
is "$(srids <order.sql)" "REF_SYSTEM_ID=4326 REF_SYSTEM_ID=3857 " \
    "... both SRIDs put back (before: one skipped)"

dbsnap $(CONN) $DB g 2>/dev/null | rowmap --drop g.q | rows2sql >dropped.sql
is "$?" 0 "a spatial column dropped by rowmap: exit 0"
is "$(srids <dropped.sql)" "REF_SYSTEM_ID=4326 " "... the other SRID is put back"

# sqlexec too, from the stream.
sql -e "DROP DATABASE $DB; CREATE DATABASE $DB"
edited 's/`p` point DEFAULT NULL/`p` point REF_SYSTEM_ID=4326 DEFAULT NULL/' |
    sqlexec $(CONN) 2>/dev/null
is "$?" 0 "sqlexec: a definition with REF_SYSTEM_ID already: exit 0"
is "$(sql -e "SELECT G_GEOMETRY_COLUMN, SRID FROM information_schema.GEOMETRY_COLUMNS
    WHERE G_TABLE_SCHEMA = '$DB' ORDER BY 1" | tr '\t\n' '= ')" "p=4326 q=3857 " \
    "... the SRIDs are restored"
sql -e "DROP DATABASE $DB"
done_testing
