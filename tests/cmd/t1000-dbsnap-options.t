#!/bin/sh
# dbsnap: usage errors, --version, --list, the header, --no-data,
# --no-create, triggers on by default, -B, -A, --progress, sequences,
# system-versioned history, the lock privilege and --no-lock.
. "$(dirname "$0")/../lib.sh"
need_server
DB=t1000_src
DB2=t1000_two
fresh_db $DB
fresh_db $DB2
sql $DB <<'SQL' >/dev/null || exit 1
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.v = NEW.v + 1;
CREATE SEQUENCE sq START WITH 100;
SELECT NEXTVAL(sq);
CREATE TABLE hist (id int PRIMARY KEY, v int) WITH SYSTEM VERSIONING;
INSERT INTO hist VALUES (1, 1);
UPDATE hist SET v = 2 WHERE id = 1;
UPDATE hist SET v = 3 WHERE id = 1;
CREATE TABLE my (id int PRIMARY KEY) ENGINE=MyISAM;
SQL
sql $DB2 -e "CREATE TABLE u (id int PRIMARY KEY)"

plan 51
dbsnap > /dev/null 2>err.txt;		is "$?" 2 "no arguments: exit 2"
is "$(head -n 1 err.txt)" "dbsnap: no database named" "... saying why, then the usage"
like "$(sed -n 2p err.txt)" "^usage: dbsnap " "... then the usage"
dbsnap -j 0 $DB > /dev/null 2>err.txt;	is "$?" 2 "-j 0: exit 2"
is "$(cat err.txt)" "dbsnap: -j 0: too small" "... saying why"
dbsnap --chunk-rows x $DB > /dev/null 2>&1; is "$?" 2 "--chunk-rows x: exit 2"
dbsnap --bogus $DB > /dev/null 2>&1;	is "$?" 2 "unknown option: exit 2"
dbsnap --ignore-table t $DB > /dev/null 2>&1; is "$?" 2 "--ignore-table without db: exit 2"
dbsnap -A $DB > /dev/null 2>&1;		is "$?" 2 "-A with a database: exit 2"
like "$(dbsnap --version)" "^dbsnap [0-9]" "--version"
dbsnap $(CONN) t1000_nosuch > out.rp 2>err.txt
is "$?" 1 "a missing database: exit 1"
is "$(cat err.txt)" "dbsnap: t1000_nosuch: no such database" "... saying which"
if command -v script > /dev/null; then
	script -qec "$RP_BIN/dbsnap $(CONN) $DB" /dev/null > tty.txt 2>&1
	is "$?" 2 "stdout a terminal: exit 2"
	like "$(cat tty.txt)" "terminal" "... saying why"
else
	ok 0 "# SKIP no script(1)"; ok 0 "# SKIP no script(1)"
fi

is "$(dbsnap $(CONN) --list $DB | cut -f2,3 | tr '\t\n' ': ')" \
    "hist:InnoDB my:MyISAM sq:sequence t:InnoDB " "--list: tables, engines"
like "$(dbsnap $(CONN) --list -A | cut -f1 | sort -u | tr '\n' ' ')" \
    "(^| )$DB $DB2( |$)" "--list -A: every database"
ok $(dbsnap $(CONN) --list -A | cut -f1 | grep -qx mysql; echo $((! $?))) \
    "--list -A: not mysql"
# Names with a tab, a newline or a backslash: escaped as in --plan, so
# that each table is one line of five fields.
DB3="t1000_na	me"
sql -e "DROP DATABASE IF EXISTS \`$DB3\`; CREATE DATABASE \`$DB3\`"
sql "$DB3" -e "CREATE TABLE \`a	b\` (id int); CREATE TABLE \`c
d\` (id int); CREATE TABLE \`e\\f\` (id int)"
dbsnap $(CONN) --list "$DB3" >list.txt
is "$?" 0 "--list: names with a tab, a newline, a backslash"
is "$(awk -F '\t' 'NF != 5' list.txt | wc -l) $(wc -l <list.txt)" "0 3" \
    "--list: one line of five fields a table"
is "$(cut -f1,2 list.txt | sort | tr '\n' '|')" \
    "$(printf '%s\t%s|' 't1000_na\tme' 'a\tb' 't1000_na\tme' 'c\nd' \
    't1000_na\tme' 'e\\f')" \
    "--list: tab, newline and backslash escaped, as in --plan"
sql -e "DROP DATABASE \`$DB3\`"

dbsnap $(CONN) --progress $DB > out.rp 2>err.txt
is "$?" 0 "dump exits 0"
framecat < out.rp > out.txt
is "$?" 0 "complete stream"
h=$(grep '^HEADER' out.txt)
like "$h" "producer=dbsnap [0-9]" "header: producer"
like "$h" "server_version=10\\.[0-9]+\\.[0-9]+-MariaDB" "header: server_version"
like "$h" "snapshot_time=20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]( |$)" \
    "header: snapshot_time"
like "$h" "consistency=snapshot" "header: consistency"
like "$h" "binlog_file=binlog\\.[0-9]+ binlog_pos=[0-9]+ gtid_binlog_pos=[0-9]+-[0-9]+-[0-9]+" \
    "header: binlog and GTID positions"
like "$h" "time_zone=\\+00:00" "header: time_zone"
like "$(cat err.txt)" "MyISAM is not transactional" "non-InnoDB tables are reported"
like "$(cat err.txt)" "^dbsnap: .*3 tables" "--progress: a summary line"
like "$(grep '^OBJECT	sequence	' out.txt)" "CREATE SEQUENCE .*next_value=" "sequence with its next value"
is "$(grep -c '^OBJECT	trigger	' out.txt)" 1 "triggers by default"
hid=$(awk -F'\t' '$1 == "TABLE" && $4 == "hist" { print $2 }' out.txt)
is "$(grep -c "^ROW	$hid	" out.txt)" 3 "system-versioned table: its history rows"
like "$(grep "^COLUMN	$hid	" out.txt | cut -f4,6 | tr '\t\n' ': ')" \
    "ROW_START:0x1[0-9a-f]{2} ROW_END:0x2[0-9a-f]{2}" "... with ROW_START and ROW_END"

hq="SELECT id, v, ROW_START, ROW_END FROM hist FOR SYSTEM_TIME ALL ORDER BY ROW_START"
sql -e "DROP DATABASE IF EXISTS t1000_dst"
rows2sql --rename-db=$DB=t1000_dst < out.rp | sql 2>/dev/null
is "$(sql t1000_dst -e "$hq")" "$(sql $DB -e "$hq")" \
    "history rows restore with their ROW_START and ROW_END (via rows2sql)"
sql -e "DROP DATABASE IF EXISTS t1000_dst"

dbsnap $(CONN) --no-data --skip-triggers $DB 2>err.txt | framecat > out.txt
is "$(grep -c '^TABLE	' out.txt) $(grep -c '^OBJECT	table' out.txt) $(grep -c '^OBJECT	trigger' out.txt)" \
    "0 3 0" "--no-data --skip-triggers: objects only"
like "$(cat err.txt)" "^dbsnap: left out: [0-9]+ triggers? \(add --triggers\)$" \
    "--skip-triggers: says what it left out"
dbsnap $(CONN) --no-create $DB 2>/dev/null | framecat > out.txt
is "$(grep -c '^TABLE	' out.txt) $(grep -c '^OBJECT	table\|^OBJECT	database' out.txt)" \
    "3 0" "--no-create: rows only"
dbsnap $(CONN) -B $DB $DB2 2>/dev/null | framecat > out.txt
is "$(grep '^OBJECT	database' out.txt | cut -f3 | tr '\n' ' ')" "$DB $DB2 " "-B: both databases"
# A name given twice is dumped once, as mysqldump does.
dbsnap $(CONN) -B $DB2 $DB $DB2 $DB 2>/dev/null | framecat > out.txt
is "$(grep '^OBJECT	database' out.txt | cut -f3 | tr '\n' ' ')" "$DB2 $DB " "-B d2 d1 d2 d1: each database once"
is "$(grep -c '^TABLE	' out.txt)" 4 "-B d2 d1 d2 d1: each table once"
dbsnap $(CONN) $DB t my t 2>/dev/null | framecat > out.txt
is "$(grep '^TABLE	' out.txt | cut -f4 | tr '\n' ' ')" "t my " "d1 t my t: each table once"

# An account without RELOAD: -j 2 refuses, --no-lock goes on, -j 1 is fine.
sql -e "DROP USER IF EXISTS t1000_ro@localhost; CREATE USER t1000_ro@localhost;
    GRANT SELECT, SHOW VIEW, TRIGGER, EVENT ON $DB.* TO t1000_ro@localhost"
RO="--no-defaults -ut1000_ro -S $RP_SOCK"
dbsnap $RO -j 2 $DB > out.rp 2>err.txt
is "$?" 1 "-j 2 without RELOAD: exit 1"
like "$(cat err.txt)" "RELOAD privilege" "-j 2 without RELOAD: says so"
dbsnap $RO -j 2 --no-lock $DB 2>err.txt | framecat > out.txt
like "$(grep '^HEADER' out.txt)" "consistency=none" "--no-lock: header says consistency=none"
like "$(cat err.txt)" "warning: --no-lock" "--no-lock: a warning"
dbsnap $RO -j 1 $DB 2>/dev/null | framecat > out.txt
like "$(grep '^HEADER' out.txt)" "consistency=snapshot" "-j 1 without RELOAD: a snapshot"
# --ignore-table that names no table: a typo would leave in what it meant
# to leave out (issue 25: filters that match nothing were silent).  Said,
# not an error, as mysqldump's recipes name tables not always there; one
# of a system database that is not dumped (mysql.event) is moot.
sql $DB -e "CREATE TABLE ign (id INT)"
dbsnap $(CONN) --ignore-table $DB.nosuch $DB >/dev/null 2>err.txt
is "$? $(grep -e --ignore-table err.txt)" "0 dbsnap: warning: --ignore-table $DB.nosuch: no such table in the dump: it leaves out nothing" \
    "--ignore-table of no table: a warning"
dbsnap $(CONN) --ignore-table nosuchdb.ign $DB >/dev/null 2>err.txt
is "$? $(grep -e --ignore-table err.txt)" "0 dbsnap: warning: --ignore-table nosuchdb.ign: that database is not dumped: it leaves out nothing" \
    "--ignore-table of a database not dumped: a warning"
dbsnap $(CONN) --ignore-table $DB.ign --ignore-table mysql.event $DB >/dev/null 2>err.txt
is "$? $(grep -e --ignore-table err.txt)" "0 " "--ignore-table of a table dumped, and mysql.event: nothing said"
like "$(mandoc -Tascii "$RP_TOP/man/man1/dbsnap.1" | col -b | tr -s '[:space:]' ' ')" \
    "An --ignore-table that names no table of the databases dumped is named in a warning" \
    "dbsnap(1) says so"
sql -e "DROP USER t1000_ro@localhost; DROP DATABASE $DB; DROP DATABASE $DB2"
done_testing
