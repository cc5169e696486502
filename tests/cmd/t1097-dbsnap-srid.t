#!/bin/sh
# The SRID of a spatial column (REF_SYSTEM_ID=4326) survives a dump and a
# restore.  MariaDB's SHOW CREATE TABLE does not print it, so every tool
# that copies that text loses it; dbsnap reads it from
# information_schema.GEOMETRY_COLUMNS and sends it beside the definition
# (the table object's "srid" attribute, the DDL staying the server's text),
# and rows2sql and sqlexec put it back into the CREATE TABLE they run.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
SRC=t1097_src DST=t1097_dst

# srids DB: "table.column=SRID" for every spatial column of DB
srids() {
	sql -e "SELECT CONCAT(G_TABLE_NAME, '.', G_GEOMETRY_COLUMN, '=', SRID)
	    FROM information_schema.GEOMETRY_COLUMNS WHERE G_TABLE_SCHEMA = '$1'
	    ORDER BY 1" | tr '\n' ' '
}

fresh_db $SRC || exit 1
sql $SRC -e "CREATE TABLE g (id INT PRIMARY KEY,
        p POINT REF_SYSTEM_ID=4326 NOT NULL,
        q GEOMETRY REF_SYSTEM_ID=3857 DEFAULT NULL,
        r LINESTRING,
        \`a b\`\`c\` POLYGON REF_SYSTEM_ID=2154 COMMENT 'p REF_SYSTEM_ID',
        SPATIAL KEY (p));
    CREATE TABLE h (z MULTIPOINT REF_SYSTEM_ID=4258);
    INSERT INTO g VALUES (1, ST_GeomFromText('POINT(1 2)', 4326),
        ST_GeomFromText('POINT(3 4)', 3857), NULL,
        ST_GeomFromText('POLYGON((0 0,1 0,1 1,0 0))', 2154))" || exit 1
want=$(srids $SRC)
like "$want" "g.p=4326 .*g.q=3857 .*g.r=0 .*h.z=4258" "the source's SRIDs"
ddl=$(sql -e "SHOW CREATE TABLE $SRC.g" | cut -f2)

dbsnap $C $SRC >s.rp 2>err
is "$?" 0 "dbsnap"
framecat <s.rp >s.txt
is "$(awk -F'\t' '$1 == "OBJECT" && $4 == "g" { print $5 }' s.txt)" "$ddl" \
    "the stream's DDL is the server's text"
like "$(grep '^OBJECT	table	.*	g	' s.txt)" "srid=" \
    "the SRIDs travel beside it"

sql -e "DROP DATABASE IF EXISTS $DST"
rows2sql --rename-db $SRC=$DST <s.rp >s.sql
sql <s.sql 2>err
is "$?" 0 "rows2sql | mariadb restores"
cut -c1-200 err | sed 's/^/# /'
is "$(srids $DST)" "$want" "rows2sql: every column's SRID"
is "$(sql -e "SHOW CREATE TABLE $DST.g" | cut -f2)" "$ddl" "rows2sql: the same definition"
is "$(sql -e "SELECT ST_SRID(p), ST_SRID(q), ST_SRID(\`a b\`\`c\`) FROM $DST.g")" \
    "4326	3857	2154" "rows2sql: the values' SRIDs"

sql -e "DROP DATABASE $DST"
sqlexec $C --rename-db $SRC=$DST <s.rp 2>err
is "$?" 0 "sqlexec restores the stream"
grep -v '^sqlexec: [0-9]* tables*,' err | cut -c1-200 | sed 's/^/# /'
is "$(srids $DST)" "$want" "sqlexec: every column's SRID"
sql -e "DROP DATABASE $DST"
rows2sql <s.rp | sqlsplit | sqlexec $C --rename-db $SRC=$DST 2>err
is "$(srids $DST)" "$want" "sqlsplit | sqlexec: every column's SRID"

sql -e "DROP DATABASE $SRC; DROP DATABASE IF EXISTS $DST"
done_testing
