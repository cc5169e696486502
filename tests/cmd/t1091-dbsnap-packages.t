#!/bin/sh
# dbsnap --routines: Oracle-mode (sql_mode=ORACLE) PACKAGE and PACKAGE
# BODY objects are in the stream (object kinds 9 and 10), byte-exact with
# their sql_mode; without -R they are named as left out.  rows2sql writes
# them in their sql_mode=ORACLE context (DROP PACKAGE only parses there),
# and the restore through the mariadb client, through sqlsplit | sqlexec
# and through sqlexec's snapshot path has the same definitions and
# packages that run.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
SRC=t1091_src DST=t1091_dst

fresh_db $SRC || exit 1
sql $SRC <<'EOF' || exit 1
CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40));
INSERT INTO t VALUES (1, 'one');
SET sql_mode = ORACLE;
DELIMITER $$
CREATE PACKAGE shop AS
  FUNCTION total RETURN INT;
  PROCEDURE add_one(v VARCHAR2);
END;
$$
CREATE PACKAGE BODY shop AS
  -- a comment; with 'quotes' and $$
  FUNCTION total RETURN INT AS
    n INT;
  BEGIN
    SELECT COUNT(*) INTO n FROM t;
    RETURN n;
  END;
  PROCEDURE add_one(v VARCHAR2) AS
  BEGIN
    INSERT INTO t VALUES (total() + 1, v || ' /* not */ ;');
  END;
END;
$$
CREATE PACKAGE a_spec_only AS
  FUNCTION f RETURN INT;
END;
$$
CREATE PROCEDURE ora_proc(a IN INT) AS
BEGIN
  INSERT INTO t VALUES (a, 'proc' || ';');
END;
$$
DELIMITER ;
SET sql_mode = DEFAULT;
EOF
db_defs $SRC >src.defs

dbsnap $C -R $SRC >s.rp 2>err
is "$?" 0 "dbsnap -R exits 0"
is "$(cat err)" "" "nothing on stderr"
framecat <s.rp >s.txt
is "$(grep -c '^OBJECT	package	' s.txt) $(grep -c '^OBJECT	package body	' s.txt)" \
    "2 1" "the packages and the package body are in the stream"
for kind in PACKAGE "PACKAGE BODY"; do
	want=$(sql -e "SHOW CREATE $kind $SRC.shop" | cut -f3)
	got=$(awk -F'\t' -v k="$(echo "$kind" | tr A-Z a-z)" \
	    '$1 == "OBJECT" && $2 == k && $4 == "shop" { print $5 }' s.txt)
	is "$got" "$want" "$kind shop: DDL byte-exact"
done
like "$(grep '^OBJECT	package body	' s.txt)" "sql_mode=[^	]*ORACLE" \
    "the package body carries its sql_mode"
is "$(awk -F'\t' '$1 == "OBJECT" { printf "%s:%s ", $2, $4 }' s.txt)" \
    "database:$SRC table:t package:a_spec_only package:shop package body:shop procedure:ora_proc " \
    "a package body after its package"

dbsnap $C $SRC 2>err >/dev/null
like "$(cat err)" "^dbsnap: left out: 1 procedure, 2 packages, 1 package body \(add -R\)$" \
    "without -R: the packages are named as left out"

# through the mariadb client
sql -e "DROP DATABASE IF EXISTS $DST"
rows2sql --rename-db $SRC=$DST <s.rp >s.sql
is "$?" 0 "rows2sql"
sql <s.sql 2>err
is "$?" 0 "the mariadb client loads it"
[ -s err ] && cut -c1-200 err | sed 's/^/# /'
is_file "$(db_defs $DST | sed "s/$DST/$SRC/g" >dst.defs; echo dst.defs)" src.defs \
    "client: the same definitions"
is "$(sql $DST -e "SET sql_mode = ORACLE; CALL shop.add_one('x');
    SELECT shop.total() FROM DUAL")" 2 "client: the package runs"
# again, over the copy (DROP PACKAGE ... IF EXISTS first)
sql <s.sql 2>err
is "$?" 0 "the same text loads over the copy"

# through sqlsplit | sqlexec
sql -e "DROP DATABASE $DST"
sqlsplit s.sql | sqlexec $C 2>err
is "$?" 0 "sqlsplit | sqlexec loads it"
grep -v '^sqlexec: [0-9]* statements' err | cut -c1-200 | sed 's/^/# /'
is_file "$(db_defs $DST | sed "s/$DST/$SRC/g" >dst.defs; echo dst.defs)" src.defs \
    "sqlsplit | sqlexec: the same definitions"

# the snapshot stream itself, into a server without the database
cp src.defs want.defs
sql -e "DROP DATABASE $SRC; DROP DATABASE $DST"
sqlexec $C <s.rp 2>err
is "$?" 0 "sqlexec loads the snapshot stream"
grep -v '^sqlexec: [0-9]* tables*,' err | cut -c1-200 | sed 's/^/# /'
is_file "$(db_defs $SRC >got.defs; echo got.defs)" want.defs \
    "snapshot path: the same definitions"
is "$(sql $SRC -e "SET sql_mode = ORACLE; SELECT shop.total() FROM DUAL")" 1 \
    "snapshot path: the package runs"

sql -e "DROP DATABASE IF EXISTS $SRC; DROP DATABASE IF EXISTS $DST"
done_testing
