#!/bin/sh
# The names mysqldump users type: --single-transaction and -q/--quick
# accepted (dbsnap always does both), --no-create-info as -t, -C/--compress,
# -v/--verbose; and the note naming what a dump left out, with the option
# that includes it.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1001_db
fresh_db $DB
sql $DB <<'SQL' >/dev/null || exit 1
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = NEW.v + 1;
CREATE PROCEDURE p1() SELECT 1;
CREATE PROCEDURE p2() SELECT 2;
CREATE FUNCTION f() RETURNS int DETERMINISTIC RETURN 1;
CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;
SQL
body() { framecat <"$1" | grep -v '^HEADER\|^TRAILER'; }

dbsnap $(CONN) $DB >plain.rp 2>plain.err
is "$?" 0 "a plain dump: exit 0"
dbsnap $(CONN) --single-transaction --quick -q $DB >mysqldump.rp 2>err
is "$?" 0 "--single-transaction --quick -q: accepted"
is "$(body mysqldump.rp)" "$(body plain.rp)" "... and the same stream"
dbsnap $(CONN) --no-create-info $DB >nci.rp 2>/dev/null
dbsnap $(CONN) -t $DB >t.rp 2>/dev/null
is "$(body nci.rp)" "$(body t.rp)" "--no-create-info is -t"
is "$(framecat <nci.rp | grep -c '^OBJECT	table')" 0 "... no CREATE TABLE"

# -C: the connection is compressed (the server says so), and a dump works.
is "$(conntest $(CONN) -C -e "SHOW SESSION STATUS LIKE 'Compression'" | cut -f2)" \
    ON "-C: a compressed connection"
is "$(conntest $(CONN) -e "SHOW SESSION STATUS LIKE 'Compression'" | cut -f2)" \
    OFF "... and not without -C"
dbsnap $(CONN) --compress $DB >c.rp 2>/dev/null
is "$(body c.rp)" "$(body plain.rp)" "dbsnap --compress: the same stream"
sqlsplit </dev/null | sqlexec $(CONN) -C --allow-empty 2>err
is "$?" 0 "sqlexec -C: exit 0"

# -v: each step.
dbsnap $(CONN) -v $DB >/dev/null 2>err
like "$(cat err)" "dbsnap: connected to 10\." "-v: the server"
like "$(cat err)" "dbsnap: snapshot on 1 connection: consistency=snapshot" "-v: the snapshot"
like "$(cat err)" "dbsnap: done: 1 of 1 tables, 2 rows" "-v: what was dumped"

# What was left out is named, with the option that includes it.
is "$(cat plain.err)" \
    "dbsnap: left out: 2 procedures, 1 function (add -R), 1 event (add -E)" \
    "routines and events left out: named"
dbsnap $(CONN) -R -E $DB >/dev/null 2>err
is "$(cat err)" "" "-R -E: nothing left out, nothing said"
dbsnap $(CONN) -R -E --skip-triggers $DB >/dev/null 2>err
is "$(cat err)" "dbsnap: left out: 1 trigger (add --triggers)" "--skip-triggers: named"
dbsnap $(CONN) -E $DB t >/dev/null 2>err
is "$(cat err)" "" "a table list: routines and events are not the dump's business"
dbsnap $(CONN) -R -E --no-data $DB >/dev/null 2>err
is "$(cat err)" "" "-d: nothing left out"

done_testing
