#!/bin/sh
# dbsnap: tables whose rows live elsewhere (MERGE, FEDERATED, CONNECT,
# SPIDER) are dumped as their definition only, as mysqldump does for
# MERGE and FEDERATED: their rows are the rows of other tables, and a
# restore that wrote them again would double those (MERGE INSERT_METHOD)
# or fail (a read-only MERGE: ERROR 1036).  A SEQUENCE is its definition
# and its position, never rows.  Restored through rows2sql | mariadb and
# through sqlexec (the snapshot stream path), into a fresh database.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
SRC=t1090_src DST=t1090_dst REM=t1090_remote

# rows_of STREAMFILE TABLE: the rows the stream holds for TABLE, or
# "none" when it has no TABLE frame for it
rows_of() {
	framecat <"$1" | awk -F'\t' -v t="$2" '
	    $1 == "TABLE" && $4 == t { id = $2 }
	    $1 == "TABLE_END" && $2 == id { n = $3 }
	    END { print id == "" ? "none" : n }'
}
# restore_both STREAM CHECK NAME: CHECK (queries) gives on a restore of
# STREAM what it gives on $SRC, restored by rows2sql | mariadb into $DST,
# and by sqlexec (the snapshot stream path) into a server without $SRC
# (it is dropped: each part below makes its own).
restore_both() {
	want=$(sql $SRC -e "$2")
	sql -e "DROP DATABASE IF EXISTS $DST"
	rows2sql --rename-db $SRC=$DST <"$1" | sql 2>r2s.err
	is "$?" 0 "$3: rows2sql | mariadb restores"
	[ -s r2s.err ] && cut -c1-200 r2s.err | tail -3 | sed 's/^/# /'
	is "$(sql $DST -e "$2")" "$want" "$3: rows2sql | mariadb: the same"
	sql -e "DROP DATABASE $SRC; DROP DATABASE IF EXISTS $DST"
	sqlexec $C <"$1" 2>exec.err
	is "$?" 0 "$3: sqlexec restores the stream"
	grep -v '^sqlexec: [0-9]* tables' exec.err | cut -c1-200 | sed 's/^/# /'
	is "$(sql $SRC -e "$2" 2>&1)" "$want" "$3: sqlexec: the same"
}
# base: $SRC afresh with two MyISAM tables of rows, t1 and t2
base() {
	fresh_db $SRC &&
	sql $SRC -e "CREATE TABLE t1 (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=MyISAM;
	    CREATE TABLE t2 (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=MyISAM;
	    INSERT INTO t1 SELECT seq, CONCAT('one ', seq) FROM seq_1_to_300;
	    INSERT INTO t2 SELECT seq + 1000, CONCAT('two ', seq) FROM seq_1_to_200"
}

# --- MERGE: INSERT_METHOD=LAST would double t2's rows, NO would fail
base &&
sql $SRC -e "CREATE TABLE m_last (id INT NOT NULL, v VARCHAR(20), PRIMARY KEY (id))
        ENGINE=MERGE UNION=(t1,t2) INSERT_METHOD=LAST;
    CREATE TABLE m_ro (id INT NOT NULL, v VARCHAR(20), PRIMARY KEY (id))
        ENGINE=MERGE UNION=(t1,t2) INSERT_METHOD=NO;" || exit 1
dbsnap $C $SRC >merge.rp 2>snap.err
is "$?" 0 "MERGE: dbsnap exits 0"
is "$(grep -c 'm_' snap.err)" 0 "MERGE: no warning about them (no rows read)"
is "$(rows_of merge.rp m_last) $(rows_of merge.rp m_ro)" "none none" \
    "MERGE: no rows in the stream for the MERGE tables"
is "$(rows_of merge.rp t1) $(rows_of merge.rp t2)" "300 200" \
    "MERGE: the underlying tables' rows are"
is "$(framecat <merge.rp | grep -c '^OBJECT	table	.*	m_')" 2 \
    "MERGE: the MERGE tables' definitions are"
restore_both merge.rp "SELECT COUNT(*), SUM(id) FROM t1; SELECT COUNT(*),
    SUM(id) FROM t2; SELECT COUNT(*) FROM m_last; SELECT COUNT(*) FROM m_ro" \
    "MERGE"

# The "other server" of FEDERATED, CONNECT and SPIDER tables: a database
# of this one that is not dumped.
fresh_db $REM && sql $REM -e "CREATE TABLE r (id INT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO r SELECT seq, CONCAT('far ', seq) FROM seq_1_to_300" || exit 1
remote() { echo "mysql://root@127.0.0.1:$RP_PORT/$REM/r"; }

# elsewhere ENGINE TABLE DEFINITION: TABLE made in a fresh $SRC with
# DEFINITION (its columns and engine clauses) reads the remote rows, is
# dumped without them and restores (8 checks).
elsewhere() {
	base && sql $SRC -e "CREATE TABLE $2 $3" || exit 1
	is "$(sql $SRC -e "SELECT COUNT(*) FROM $2")" 300 \
	    "$1: the table reads the remote rows"
	dbsnap $C $SRC >$2.rp 2>snap.err
	is "$?" 0 "$1: dbsnap exits 0"
	is "$(grep -c "\\.$2:" snap.err)" 0 "$1: no warning about it"
	is "$(rows_of $2.rp $2)" "none" "$1: no rows in the stream"
	restore_both $2.rp "SELECT COUNT(*), SUM(id) FROM t1;
	    SELECT COUNT(*), SUM(id) FROM $2" "$1"
	sql -e "DROP DATABASE IF EXISTS $SRC; DROP DATABASE IF EXISTS $DST"
}
# have_engine ENGINE SONAME: the engine is there, installed if need be
# (then $installed is 1)
have_engine() {
	installed=0
	[ "$(sql -e "SELECT COUNT(*) FROM information_schema.ENGINES WHERE
	    ENGINE = '$1' AND SUPPORT IN ('YES', 'DEFAULT')")" = 1 ] && return 0
	[ -f "$(sql -e "SELECT @@plugin_dir")/$2.so" ] &&
	    sql -e "INSTALL SONAME '$2'" 2>/dev/null && installed=1
}

# FEDERATED (ha_federatedx), CONNECT and SPIDER (Debian
# mariadb-plugin-connect and mariadb-plugin-spider: tests/deps.sh)
if have_engine FEDERATED ha_federatedx; then
	elsewhere FEDERATED f "(id INT PRIMARY KEY, v VARCHAR(20))
	    ENGINE=FEDERATED CONNECTION='$(remote)'"
	[ $installed = 1 ] && sql -e "UNINSTALL SONAME 'ha_federatedx'"
else
	skip 8 "no FEDERATED engine (ha_federatedx)"
fi
if have_engine CONNECT ha_connect; then
	elsewhere CONNECT c "(id INT NOT NULL, v VARCHAR(20))
	    ENGINE=CONNECT TABLE_TYPE=MYSQL CONNECTION='$(remote)'"
	[ $installed = 1 ] && sql -e "UNINSTALL SONAME 'ha_connect'"
else
	skip 8 "no CONNECT engine (Debian mariadb-plugin-connect)"
fi
# (SPIDER is left installed: it does not uninstall cleanly; a link to
# this same server needs spider_same_server_link)
if have_engine SPIDER ha_spider &&
    sql -e "SET GLOBAL spider_same_server_link = ON"; then
	elsewhere SPIDER sp "(id INT PRIMARY KEY, v VARCHAR(20))
	    ENGINE=SPIDER COMMENT='wrapper \"mysql\", host \"127.0.0.1\",
	    port \"$RP_PORT\", user \"root\", database \"$REM\", table \"r\"'"
else
	skip 8 "no SPIDER engine (Debian mariadb-plugin-spider)"
fi

# --- SEQUENCE: its definition and position, no rows
base && sql $SRC -e "CREATE SEQUENCE s START WITH 10 INCREMENT BY 5 NOCACHE;
    DO NEXTVAL(s), NEXTVAL(s), NEXTVAL(s)" || exit 1
dbsnap $C $SRC >seq.rp 2>snap.err
is "$?" 0 "SEQUENCE: dbsnap exits 0"
is "$(rows_of seq.rp s)" "none" "SEQUENCE: no rows in the stream"
is "$(framecat <seq.rp | grep -c '^OBJECT	sequence	.*	s	')" 1 \
    "SEQUENCE: its definition is"
restore_both seq.rp "SELECT NEXTVAL(s)" "SEQUENCE"

sql -e "DROP DATABASE IF EXISTS $SRC; DROP DATABASE IF EXISTS $DST;
    DROP DATABASE $REM"
done_testing
