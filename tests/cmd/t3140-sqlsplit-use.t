#!/bin/sh
# sqlsplit: a USE whose quoted database name spans lines
# (USE `a<newline>b`;) is one statement, as the mysql client reads it: a
# line whose argument's quote is not closed is no client command there
# (find_command() and get_arg() in client/mysql.cc).  rows2sql writes USE
# before every object, so a database with a newline in its name restores
# through rowpipe's own pipeline.
. "$(dirname "$0")/../lib.sh"
need_server
C=$(CONN)
NL='
'
A="t3140_a${NL}b" B='t3140_x`y'

# where TABLE...: the database each table is in, one line each
where() {
	for t in "$@"; do
		sql -e "SELECT CONCAT(table_name, '=', HEX(table_schema)) FROM
		    information_schema.tables WHERE table_name = '$t'"
	done
}
drop_both() {
	sql -e "DROP DATABASE IF EXISTS \`t3140_a${NL}b\`;
	    DROP DATABASE IF EXISTS \`t3140_x\`\`y\`"
}

cat >use.sql <<EOF
CREATE DATABASE \`t3140_x\`\`y\`;
CREATE DATABASE \`t3140_a
b\`;
USE \`t3140_x\`\`y\`
CREATE TABLE t3140_t1 (x INT);
USE \`t3140_a
b\`;
CREATE TABLE t3140_t2 (x INT);
use \`t3140_x\`\`y\`;
CREATE TABLE t3140_t3 (x INT);
  USE	\`t3140_a
b\` ;
CREATE TABLE t3140_t4 (x INT);
EOF

drop_both
mariadb --no-defaults -uroot -S "$RP_SOCK" <use.sql
is $? 0 "the client loads it"
where t3140_t1 t3140_t2 t3140_t3 t3140_t4 >client.where
drop_both
sqlsplit use.sql >use.rp 2>err
is $? 0 "sqlsplit splits it"
is "$(cat err)" "" "sqlsplit: nothing on stderr"
sqlexec $C <use.rp 2>err
is $? 0 "sqlexec runs it"
is_file "$(where t3140_t1 t3140_t2 t3140_t3 t3140_t4 >split.where; echo split.where)" \
    client.where "every table in the database the client puts it in"
like "$(cat client.where)" "t3140_t2=$(printf '%s' "$A" | od -An -tx1 | tr -d ' \n' |
    tr a-f A-F)" "(t3140_t2 is in the database with the newline)"
sqlsplit --print -0 use.sql | tr '\0' '|' >stmts
is "$(cat stmts)" "CREATE DATABASE \`t3140_x\`\`y\`|CREATE DATABASE \`t3140_a
b\`|USE \`t3140_x\`\`y\`|CREATE TABLE t3140_t1 (x INT)|USE \`t3140_a
b\`|CREATE TABLE t3140_t2 (x INT)|use \`t3140_x\`\`y\`|CREATE TABLE t3140_t3 (x INT)|USE	\`t3140_a
b\` |CREATE TABLE t3140_t4 (x INT)|" "the statements, each USE whole"
drop_both

# dbsnap | rows2sql | sqlsplit | sqlexec, a database with a newline in its
# name, into a server without it (and renamed to another such name)
sql -e "CREATE DATABASE \`$A\`" &&
sql "$A" -e "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO t SELECT seq, CONCAT('v', seq) FROM seq_1_to_500;
    CREATE VIEW w AS SELECT COUNT(*) AS n FROM t;
    CREATE PROCEDURE p() SELECT COUNT(*) FROM t;" || exit 1
sum=$(sql -e "CHECKSUM TABLE \`$A\`.t EXTENDED" | cut -f2)
dbsnap $C -R "$A" >a.rp 2>err
is $? 0 "dbsnap of a database with a newline in its name"
rows2sql <a.rp >a.sql
sql -e "DROP DATABASE \`$A\`"
sqlsplit a.sql 2>err | sqlexec $C 2>>err
is $? 0 "rows2sql | sqlsplit | sqlexec restores it"
grep -v '^sqlexec: [0-9]* statements' err | cut -c1-200 | sed 's/^/# /'
is "$(sql -e "CHECKSUM TABLE \`$A\`.t EXTENDED" | cut -f2)" "$sum" \
    "the same rows"
is "$(sql "$A" -e "SELECT n FROM w; CALL p()" 2>&1 | tr '\n' ' ')" "500 500 " \
    "its view and procedure"
R="t3140_r${NL}s"
rows2sql --rename-db "$A=$R" <a.rp | sqlsplit | sqlexec $C 2>err
is $? 0 "--rename-db to another name with a newline"
is "$(sql -e "CHECKSUM TABLE \`$R\`.t EXTENDED" | cut -f2)" "$sum" \
    "the renamed copy has the same rows"
sql -e "DROP DATABASE \`$A\`; DROP DATABASE IF EXISTS \`$R\`"
done_testing
