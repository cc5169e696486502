#!/bin/sh
# --skip-definer on the snapshot path: a restore by an account that may
# not name another definer (no SUPER or SET USER) fails on the source's
# DEFINER=`root`@`localhost`; sqlexec --skip-definer creates the views,
# procedures and events with the restoring account as their definer, and
# rowmap --skip-definer writes a stream whose objects have no DEFINER
# clause, for any reader (rows2sql, sqlexec).
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
SRC=t4190_src DST=t4190_dst U=t4190_u

sql -e "DROP DATABASE IF EXISTS $SRC; CREATE DATABASE $SRC; USE $SRC;
    CREATE TABLE t (id INT PRIMARY KEY);
    INSERT INTO t VALUES (1), (2);
    CREATE DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER VIEW v AS
    SELECT id FROM t;
    CREATE DEFINER=\`root\`@\`localhost\` PROCEDURE p() SELECT COUNT(*) FROM t;
    CREATE DEFINER=\`root\`@\`localhost\` EVENT e ON SCHEDULE EVERY 1 DAY
    DISABLE DO DELETE FROM t WHERE id < 0;
    DROP USER IF EXISTS $U; CREATE USER $U IDENTIFIED BY '';
    GRANT ALL ON $DST.* TO $U"
dbsnap $C --events --routines $SRC | rowmap --rename-db $SRC=$DST >s.rp
ok $? "a snapshot of the source, moved to $DST"
like "$(rows2sql <s.rp | grep -c 'DEFINER=`root`@`localhost`')" "^[3-9]$" \
    "the stream's view, procedure and event name their definer"
UC="--no-defaults -u$U -S $RP_SOCK"

fresh_db $DST
sqlexec $UC <s.rp 2>err
is $? 1 "restored by $U with the definers: exit 1"
like "$(cat err)" "ERROR 1227 .*SUPER" "restored by $U with the definers: access denied"

definers() {
	sql -e "SELECT 'view', definer FROM information_schema.views
	    WHERE table_schema = '$DST' UNION ALL
	    SELECT routine_type, definer FROM information_schema.routines
	    WHERE routine_schema = '$DST' UNION ALL
	    SELECT 'event', definer FROM information_schema.events
	    WHERE event_schema = '$DST' ORDER BY 1"
}
want="event	$U@%
PROCEDURE	$U@%
view	$U@%"

fresh_db $DST
sqlexec $UC --skip-definer <s.rp 2>err
r=$?
is $r 0 "sqlexec --skip-definer, restored by $U: exit 0"
[ $r -eq 0 ] || sed 's/^/# /' err
is "$(definers)" "$want" "sqlexec --skip-definer: $U is the definer of each"
is "$(sql -e "SELECT COUNT(*) FROM $DST.v")" 2 "sqlexec --skip-definer: the view works"

# rowmap --skip-definer: the stream itself loses the clauses.
rowmap --skip-definer <s.rp >nd.rp
ok $? "rowmap --skip-definer"
is "$(rows2sql <nd.rp | grep -c 'DEFINER=')" 0 "rowmap --skip-definer: no DEFINER= left"
is "$(rows2sql <nd.rp | grep -c "^CREATE.* VIEW \`$DST\`\.\`v\` AS")" 1 \
    "rowmap --skip-definer: the view is still in the stream"
fresh_db $DST
sqlexec $UC <nd.rp 2>err
is $? 0 "rowmap --skip-definer | sqlexec, restored by $U: exit 0"
is "$(definers)" "$want" "rowmap --skip-definer: $U is the definer of each"
# with a rename in the same pass
sql -e "DROP DATABASE IF EXISTS ${DST}2"
rowmap --skip-definer --rename-db $DST=${DST}2 <s.rp | rows2sql | sql
ok $? "rowmap --skip-definer --rename-db | rows2sql | mariadb"
is "$(sql -e "SELECT COUNT(*) FROM ${DST}2.v")" 2 \
    "rowmap --skip-definer --rename-db: the view reads the renamed table"

sql -e "DROP DATABASE $SRC; DROP DATABASE $DST; DROP DATABASE ${DST}2;
    DROP USER $U"
done_testing
