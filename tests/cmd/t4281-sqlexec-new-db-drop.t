#!/bin/sh
# sqlexec < stream: a table of a database that this run's CREATE DATABASE
# IF NOT EXISTS made cannot exist, so its DROP TABLE IF EXISTS is not
# sent (it cost about a third of a small table's restore), and neither is
# a COMMIT after DDL or USE (they commit themselves); into a database that
# was there, the DROP is sent and replaces the table.  The server's
# general log says which statements came: the server is the test's own,
# so that no other test's statements are in its log.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own OWN --server-id=4281
RP_SOCK=$OWN_SOCK RP_PORT=$OWN_PORT
DB=t4281_db
fresh_db $DB
sql $DB -e "CREATE TABLE t4281_a (id int PRIMARY KEY, k int, KEY (k));
    CREATE TABLE t4281_b (id int PRIMARY KEY);
    INSERT INTO t4281_a SELECT seq, seq FROM seq_1_to_10;
    INSERT INTO t4281_b VALUES (1)" || exit 1
dbsnap $(CONN) $DB >s.rp; is $? 0 "dbsnap"
want=$(db_sums $DB)
sql -e "DROP DATABASE $DB"

log=$PWD/general.log
logged() {	# CMD...: run it with the general log on, into $log
	sql -e "SET GLOBAL general_log_file = '$log', log_output = 'FILE',
	    general_log = 1"
	"$@"
	_rc=$?
	sql -e "SET GLOBAL general_log = 0"
	return $_rc
}
drops() { grep -c 'DROP TABLE IF EXISTS `t4281_' "$log"; }
creates() { grep -c 'CREATE TABLE `t4281_' "$log"; }

logged sqlexec $(CONN) -j 2 <s.rp 2>err; is $? 0 "into a new database"
is "$(creates)" 2 "both tables created"
is "$(drops)" 0 "no DROP TABLE IF EXISTS into the database the run made"
is "$(db_sums $DB)" "$want" "every row restored"
# After the USE of the new database, the next COMMIT is the first table's
# rows': none after USE, CREATE DATABASE or CREATE TABLE.  At -j 2 the
# tables' CREATEs run on both connections at once, each after its USE.
like "$(awk '/CREATE DATABASE IF NOT EXISTS `t4281_db`/ { on = 1 }
    on && /Query/ { sub(/.*Query[ \t]*/, ""); print }' "$log" |
    sed -n '1,6p' | tr '\n' '|')" '^CREATE DATABASE[^|]*[|]USE `t4281_db`[|]((USE `t4281_db`|CREATE TABLE[^|]*)[|])*CREATE TABLE[^|]*[|]' \
    "no COMMIT between CREATE DATABASE, USE and CREATE TABLE"

sql $DB -e "INSERT INTO t4281_b VALUES (2)"
rm -f "$log"
logged sqlexec $(CONN) -j 2 <s.rp 2>err; is $? 0 "into the database that is there"
is "$(drops)" 2 "DROP TABLE IF EXISTS of both tables"
is "$(db_sums $DB)" "$want" "the tables replaced: the extra row is gone"
sql -e "DROP DATABASE $DB"

# A FEDERATED table's CREATE connects to its CONNECTION and reads the
# table there: one of the same database, made just before it in the
# stream, must be made first, so it is not created at once with the
# tables before it.
if [ -f "$(sql -e "SELECT @@plugin_dir")/ha_federatedx.so" ] &&
    sql -e "INSTALL SONAME 'ha_federatedx'" 2>/dev/null; then
	fresh_db $DB
	sql $DB -e "CREATE TABLE t4281_a (id int PRIMARY KEY);
	    INSERT INTO t4281_a SELECT seq FROM seq_1_to_10;
	    CREATE TABLE t4281_f (id int PRIMARY KEY) ENGINE=FEDERATED
	    CONNECTION='mysql://root@127.0.0.1:$RP_PORT/$DB/t4281_a'" || exit 1
	dbsnap $(CONN) $DB >f.rp; is $? 0 "FEDERATED: dbsnap"
	sql -e "DROP DATABASE $DB"
	sqlexec $(CONN) -j 2 <f.rp 2>err; is $? 0 "FEDERATED: sqlexec -j 2"
	sed 's/^/# /' err
	is "$(sql $DB -e "SELECT COUNT(*) FROM t4281_f")" 10 \
	    "FEDERATED: made after the table it reads"
	sql -e "DROP DATABASE $DB; UNINSTALL SONAME 'ha_federatedx'"
else
	skip 3 "no FEDERATED engine (ha_federatedx)"
fi
done_testing
