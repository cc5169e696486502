#!/bin/sh
# Where dbsnap's catalogue statements run (issue 26: a cost per table
# that grew with the tables before it).  A statement that opens a table
# searches its connection's metadata locks one by one, and the first
# connection's snapshot keeps one for each table it has opened: so with
# -j above 1 the information_schema queries and SHOW CREATE TABLE run on
# the second connection, which holds none yet, while the first opens
# each table (LIMIT 0) and keeps its lock to the end; and every
# connection sets use_stat_tables=NEVER (else each new table's statement
# opens the three statistics tables too).  With -j 1 all of it is on the
# one connection.  The collations' ids are asked once for the databases
# that use the same ones (each query reads all the server's collations).  The server is the test's own, its general log the
# record of which connection ran what.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
plan 10
server_own OWN --general-log=1 --general-log-file="$T_DIR/general.log"
RP_SOCK=$OWN_SOCK RP_PORT=$OWN_PORT
DB=t1170_db
fresh_db $DB
sql $DB -e "CREATE TABLE a (id int PRIMARY KEY, v varchar(10));
    CREATE TABLE b (id int PRIMARY KEY, k int, KEY (k));
    INSERT INTO a VALUES (1, 'x'); INSERT INTO b VALUES (1, 2)" || exit 1
DB2=t1170_db2
fresh_db $DB2
sql $DB2 -e "CREATE TABLE c (id int PRIMARY KEY, v varchar(10));
    INSERT INTO c VALUES (1, 'y')" || exit 1
DB3=t1170_db3
fresh_db $DB3
sql $DB3 -e "CREATE TABLE d (id int PRIMARY KEY, v varchar(10),
    w varchar(10) COLLATE utf8mb4_bin);
    INSERT INTO d VALUES (1, 'y', 'z')" || exit 1

# The general log's statements as "id<TAB>statement" (a line starts with
# a time or not)
stmts() {
	_t=$(printf '\t')
	sed -n "s/^[^$_t]*$_t[$_t ]*\\([0-9][0-9]*\\) Query$_t/\\1$_t/p" \
	    "$T_DIR/general.log"
}
# ids: the connection ids of the general log's statements matching $1
ids() {
	stmts | awk -F'\t' -v re="$1" '$2 ~ re { print $1 }' | sort -u |
	    tr '\n' ' '
}

: >"$T_DIR/general.log"
dbsnap $(CONN) -j 2 -B $DB $DB2 $DB3 >"$T_DIR/j2.rp" 2>/dev/null
is $? 0 "-j 2: the dump runs"
snap=$(ids "^SHOW STATUS WHERE Variable_name IN .'binlog_snapshot_file'")
probe=$(ids "^SELECT .* FROM \`$DB\`[.]\`[ab]\` LIMIT 0\$")
show=$(ids "^SHOW CREATE TABLE \`$DB\`")
cols=$(ids "FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = '$DB'")
like "$snap" '^[0-9]+ $' "... one connection records the snapshot's position"
is "$probe" "$snap" "... the LIMIT 0 of every table on that connection"
like "$show" '^[0-9]+ $' "... SHOW CREATE TABLE on one connection"
isnt "$show" "$snap" "... not the first"
is "$cols" "$show" "... information_schema.COLUMNS on the same"
stat=$(grep -c 'SET SESSION use_stat_tables = NEVER' "$T_DIR/general.log")
is "$stat" 2 "... use_stat_tables=NEVER on both connections"
coll=$(stmts | grep -c 'information_schema.COLLATIONS')
is "$coll" 2 "... collation ids asked for 3 databases by 2 queries (the 2nd: utf8mb4_bin)"
rows2sql < "$T_DIR/j2.rp" > "$T_DIR/j2.sql"
grep -q "^INSERT INTO \`d\` (\`id\`,\`v\`,\`w\`) VALUES (1,'y','z');" \
    "$T_DIR/j2.sql"
ok $? "... each column read as text of its collation"

: >"$T_DIR/general.log"
dbsnap $(CONN) -j 1 $DB >/dev/null 2>&1
all=$(ids '^(SHOW CREATE TABLE|SELECT .* LIMIT 0$)' | wc -w)
is "$all" 1 "-j 1: all of it on the one connection"
done_testing
