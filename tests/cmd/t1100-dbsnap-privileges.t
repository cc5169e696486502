#!/bin/sh
# An account that cannot read every object it is asked to dump (#25):
# the server hides what it may not see (triggers without TRIGGER, events
# without EVENT, routines of other definers without SELECT on
# mysql.proc), so the dump had none of them and exited 0.  Now each kind
# asked for and not readable is named with the privilege it needs and
# dbsnap exits 1 before writing; a kind left out by option is named in
# the "left out" line as not counted, exit 0; privileges held through a
# default role count.  Real accounts on the test's server.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1100_db
fresh_db $DB
users="t1100_sel@localhost, t1100_trg@localhost, t1100_viarole@localhost, t1100_tbl@localhost"
sql <<SQL || exit 1
DROP USER IF EXISTS $users;
DROP ROLE IF EXISTS t1100_reader;
USE $DB;
CREATE TABLE t (id int PRIMARY KEY, v int);
CREATE TABLE u (id int PRIMARY KEY);
INSERT INTO t VALUES (1, 1);
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = 1;
CREATE EVENT ev ON SCHEDULE EVERY 1 DAY DO DELETE FROM u;
CREATE PROCEDURE pr() SELECT 1;
CREATE VIEW vw AS SELECT id FROM t;
CREATE USER t1100_sel@localhost;
GRANT SELECT ON $DB.* TO t1100_sel@localhost;
CREATE USER t1100_trg@localhost;
GRANT SELECT, SHOW VIEW ON $DB.* TO t1100_trg@localhost;
GRANT TRIGGER ON $DB.t TO t1100_trg@localhost;
GRANT TRIGGER ON $DB.u TO t1100_trg@localhost;
CREATE ROLE t1100_reader;
GRANT SELECT, SHOW VIEW, TRIGGER, EVENT ON $DB.* TO t1100_reader;
CREATE USER t1100_tbl@localhost;
GRANT SELECT, TRIGGER ON $DB.t TO t1100_tbl@localhost;
CREATE USER t1100_viarole@localhost;
GRANT t1100_reader TO t1100_viarole@localhost;
SET DEFAULT ROLE t1100_reader FOR t1100_viarole@localhost;
SQL
as() { _u=$1; shift; dbsnap --no-defaults -u"$_u" -S "$RP_SOCK" "$@"; }

# SELECT only, the defaults (triggers are dumped by default).
as t1100_sel --ignore-table $DB.vw $DB >out.rp 2>err
is "$?" 1 "SELECT only: exit 1 (before: exit 0, no trigger)"
like "$(cat err)" "^dbsnap: cannot read the triggers of $DB\.t, $DB\.u: needs the TRIGGER privilege on each \(or --skip-triggers\)$" \
    "... names the tables whose triggers it cannot read and TRIGGER"
is "$(tail -1 err)" "dbsnap: the account cannot read all that the options ask for (named above): grant the privileges, or leave those objects out" \
    "... and ends with one line"
framecat <out.rp 2>&1 >out.txt | grep -q "aborted by the producer"
ok $? "... its stream says the producer failed"
is "$(grep -c '^OBJECT\|^TABLE' out.txt)" 0 "... before any object or row"
as t1100_sel $DB >out.rp 2>err
is "$?" 1 "with a view: exit 1"
like "$(cat err)" "^dbsnap: cannot read the definition of the views $DB\.vw: needs SHOW VIEW" \
    "... names the view and SHOW VIEW, with the triggers"

# TRIGGER and SHOW VIEW, asked for events and routines.
as t1100_trg -E -R $DB >out.rp 2>err
is "$?" 1 "-E -R without EVENT and mysql.proc: exit 1"
like "$(cat err)" "^dbsnap: cannot read the events of $DB: needs EVENT on each database \(or no -E\)$" \
    "... names the database's events and EVENT"
like "$(cat err)" "^dbsnap: cannot read the routines of $DB: needs SELECT on mysql.proc" \
    "... names the routines and SELECT on mysql.proc"
is "$(grep -c 'triggers of' err)" 0 "... nothing about triggers it can read"

# The same account, without -E -R: what is left out is named, exit 0.
as t1100_trg $DB >out.rp 2>err
is "$?" 0 "without -E -R: exit 0"
framecat <out.rp >out.txt
is "$(grep -c '^OBJECT	trigger	' out.txt)" 1 "... the trigger is dumped"
like "$(cat err)" "^dbsnap: left out: routines this account did not define \(not counted: this account lacks SELECT on mysql.proc\) \(add -R\), events \(not counted: this account lacks EVENT\) \(add -E\)$" \
    "... the left-out line says what it could not count"

# SELECT only, leaving triggers out: named as not counted, exit 0.
as t1100_sel --skip-triggers --ignore-table $DB.vw $DB >out.rp 2>err
is "$?" 0 "--skip-triggers --ignore-table: exit 0"
like "$(cat err)" "the triggers of 2 tables \(not counted: this account lacks TRIGGER\) \(add --triggers\)" \
    "... the triggers it could not count are named"

# Through a default role: everything readable, all dumped.
as t1100_viarole -E $DB >out.rp 2>err
is "$?" 0 "privileges of a default role: exit 0"
framecat <out.rp >out.txt
is "$(grep -c '^OBJECT	\(trigger\|event\|view\)	' out.txt)" 3 \
    "... the trigger, the event and the view are dumped"

# --users without SELECT on mysql.*.
as t1100_trg --users >out.rp 2>err
is "$?" 1 "--users without SELECT on mysql.*: exit 1"
like "$(cat err)" "^dbsnap: cannot read the accounts, roles and grants: needs SELECT on mysql\.\* \(or no --users\)$" \
    "... names SELECT on mysql.*"

# -A without SELECT on *.*: the databases it cannot see are named.
as t1100_trg -A 2>err | framecat >/dev/null 2>&1
like "$(cat err)" "^dbsnap: cannot read the databases this account holds no privilege on: needs SELECT on \*\.\* for -A \(or name the databases: -B db \.\.\.\)$" \
    "-A: the databases it cannot list are named (before: left out in silence)"
# A database where it has table grants only: its other tables are unseen.
as t1100_tbl $DB >/dev/null 2>err
like "$(cat err)" "^dbsnap: cannot read the tables of $DB: needs SELECT on each database" \
    "table grants only: the tables it cannot list are named"
as t1100_tbl $DB t >/dev/null 2>err
is "$?" 0 "... naming the table it may read: exit 0"

sql -e "DROP USER $users; DROP ROLE t1100_reader; DROP DATABASE $DB"
done_testing
