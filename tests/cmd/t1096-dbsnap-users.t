#!/bin/sh
# dbsnap --users: accounts, roles (with their admins), grants (tables,
# columns, routines, proxies, roles, default roles) as objects, restored
# on a second, fresh server by rows2sql | sqlsplit | sqlexec and by
# sqlexec from the stream, to the same SHOW CREATE USER and SHOW GRANTS;
# an account the target has keeps its password; -A leaves them out by
# default and says so, and names the system databases it always skips
# (mysql, sys) with the -B that dumps them (before, silently).  Its
# accounts are its own (t1096_*), on a source server of its own.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
# The source is a server of its own too: --users dumps every account of
# a server, and those of tests running beside this one (t1103) name
# databases this dump does not hold, so their grants failed the restore.
server_own SRC
RP_SOCK=$SRC_SOCK	# sql, CONN and fresh_db (tests/lib.sh) use it
server_own DST
B="--no-defaults -uroot -S $DST_SOCK"
dsql() { mariadb $B --batch --skip-column-names "$@"; }

DB=t1096_db
fresh_db $DB
sql <<SQL || exit 1
DROP USER IF EXISTS t1096_app@'%', t1096_ro@'10.0.0.%', t1096_locked@localhost;
DROP ROLE IF EXISTS t1096_reader;
DROP ROLE IF EXISTS t1096_writer;
DROP ROLE IF EXISTS t1096_all;
CREATE TABLE $DB.t (i int, j int);
CREATE FUNCTION $DB.f() RETURNS int DETERMINISTIC RETURN 1;
CREATE USER t1096_app@'%' IDENTIFIED BY 'pw1';
CREATE USER t1096_ro@'10.0.0.%' IDENTIFIED BY 'pw2' WITH MAX_QUERIES_PER_HOUR 10;
CREATE USER t1096_locked@localhost ACCOUNT LOCK;
CREATE ROLE t1096_reader;
CREATE ROLE t1096_writer WITH ADMIN t1096_app@'%';
CREATE ROLE t1096_all WITH ADMIN t1096_reader;
GRANT SELECT ON $DB.* TO t1096_reader;
GRANT INSERT, UPDATE (j) ON $DB.t TO t1096_writer;
GRANT SELECT (i) ON $DB.t TO t1096_all;
GRANT t1096_reader TO t1096_ro@'10.0.0.%';
SET DEFAULT ROLE t1096_reader FOR t1096_ro@'10.0.0.%';
GRANT ALL ON $DB.* TO t1096_app@'%' WITH GRANT OPTION;
GRANT EXECUTE ON FUNCTION $DB.f TO t1096_ro@'10.0.0.%';
GRANT PROXY ON t1096_locked@localhost TO t1096_app@'%';
SQL
accounts="t1096_app@'%' t1096_ro@'10.0.0.%' t1096_locked@localhost"
roles="t1096_reader t1096_writer t1096_all"
# What the server says about our accounts, on server $1 (src or dst).
describe() {
	q=
	for a in $accounts; do q="$q SHOW CREATE USER $a; SHOW GRANTS FOR $a;"; done
	for r in $roles; do q="$q SHOW GRANTS FOR $r;"; done
	q="$q SELECT Role, User, Host, Admin_option FROM mysql.roles_mapping WHERE Role LIKE 't1096%' ORDER BY 1, 2, 3;"
	if [ "$1" = src ]; then sql -e "$q"; else dsql -e "$q"; fi
}
describe src >src.txt || exit 1

# (-B: -A would read the databases other tests make and drop meanwhile)
dbsnap $(CONN) -R --users -B $DB >all.rp 2>err
is "$?" 0 "--users -R -B db: exit 0"
framecat <all.rp >all.txt
is "$(grep -c "^OBJECT	user		\`t1096_" all.txt)" 3 "... our three users"
is "$(grep -c "^OBJECT	role		\`t1096_" all.txt)" 3 "... our three roles"
like "$(grep "^OBJECT	grant		\`t1096_app\`@\`%\`	GRANT \`t1096_writer\`" all.txt)" \
    "WITH ADMIN OPTION" "... a role's admin, as a grant with ADMIN OPTION"
# Grants of privileges and SET DEFAULT ROLE (which needs no helper
# role) after every object they may name; grants of roles (GRANT `role`
# TO) with the accounts, before.
first_grant=$(grep -n '^OBJECT	grant' all.txt | grep -v '	GRANT `' | head -1 | cut -d: -f1)
first_default=$(grep -n '^OBJECT	grant.*	SET DEFAULT ROLE ' all.txt | head -1 | cut -d: -f1)
last_other=$(grep -n '^OBJECT	\(database\|table\|function\|procedure\|view\|trigger\|event\)' all.txt | tail -1 | cut -d: -f1)
first_other=$(grep -n '^OBJECT	\(database\|table\)' all.txt | head -1 | cut -d: -f1)
last_role_grant=$(grep -n '^OBJECT	grant.*	GRANT `' all.txt | tail -1 | cut -d: -f1)
ok $((first_grant < last_other)) "... grants of privileges after every other object"
ok $((${first_default:-0} < last_other)) "... SET DEFAULT ROLE too"
ok $((last_role_grant > first_other)) "... grants of roles before the databases"

# A fresh server: everything through SQL text.
rows2sql <all.rp | sqlsplit | sqlexec $B 2>err
is "$?" 0 "rows2sql | sqlsplit | sqlexec: exit 0"
describe dst >dst.txt 2>&1
is_file dst.txt src.txt "... the same accounts, roles, admins and grants"
is "$(dsql -e "SELECT CURRENT_USER()")" "root@localhost" "... the target's root still logs in"

# The stream itself, into the server without them.
for a in $accounts; do dsql -e "DROP USER $a"; done
for r in $roles; do dsql -e "DROP ROLE $r"; done
sqlexec $B <all.rp 2>err
is "$?" 0 "the stream into a server without them: exit 0"
describe dst >dst.txt 2>&1
is_file dst.txt src.txt "... the same accounts, roles, admins and grants"

# An account that exists on the target keeps its own password (the roles
# go first: one that exists, administered by another account, cannot be
# granted by the restore).
for r in $roles; do dsql -e "DROP ROLE $r"; done
dsql -e "ALTER USER t1096_app@'%' IDENTIFIED BY 'other'"
rows2sql <all.rp | sqlsplit | sqlexec $B 2>err
is "$?" 0 "over existing accounts: exit 0"
mariadb --no-defaults -ut1096_app -pother -h 127.0.0.1 -P "$(dsql -e 'SELECT @@port')" \
    -e "SELECT 1" >/dev/null 2>&1
is "$?" 0 "... an existing account keeps its password"
is "$(dsql -e "SELECT COUNT(*) FROM mysql.user WHERE user = 'rowpipe_import_role'")" 0 \
    "... and the restore's helper role is gone"

# -A leaves the accounts out and says so (on the private server).
dsql -e "CREATE DATABASE IF NOT EXISTS t1096_a"
dbsnap $B -A -R >noflag.rp 2>noflag.err
is "$?" 0 "-A without --users: exit 0"
is "$(framecat <noflag.rp | grep -Ec '^OBJECT	(user|role|grant)	')" 0 \
    "... no accounts in the stream"
# (and the system databases: mysql, and sys where the server has it)
sysdbs=$(dsql -e "SHOW DATABASES" | grep -Ex 'mysql|sys' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$sysdbs" = mysql ]; then
	sysnote="the database mysql \\(-A skips it: accounts and grants are --users; -B mysql dumps it whole, and restoring that overwrites the target's accounts and replication state\\)"
else
	sysnote="the databases $(echo "$sysdbs" | sed 's/ /, /g') \\(-A skips them: accounts and grants are --users; -B $sysdbs dumps them whole, and restoring that overwrites the target's accounts and replication state\\)"
fi
like "$(cat noflag.err)" "^dbsnap: left out: [0-9]+ users, 3 roles \(add --users\), $sysnote$" \
    "... and the note counts them and names --users, and the system databases"
dbsnap $B -A -R -E --users >/dev/null 2>all.err
is "$?" 0 "-A --users: exit 0"
like "$(cat all.err)" "^dbsnap: left out: $sysnote$" \
    "... the note still names the system databases, with how to dump them"
dbsnap $B -B $sysdbs >sys.rp 2>sys.err
is "$?" 0 "... and that advice works: dbsnap -B $sysdbs exits 0"
like "$(framecat <sys.rp | grep -c '^OBJECT	database	')" "^[12]$" "... with the databases in the stream"

# --users alone: only the accounts.
dbsnap $(CONN) --users >u.rp 2>/dev/null
is "$?" 0 "--users alone: exit 0"
is "$(framecat <u.rp | grep -c '^OBJECT	\(database\|table\)')" 0 "... no databases"

sql -e "DROP USER t1096_app@'%', t1096_ro@'10.0.0.%', t1096_locked@localhost;
    DROP ROLE t1096_reader; DROP ROLE t1096_writer; DROP ROLE t1096_all"
done_testing
