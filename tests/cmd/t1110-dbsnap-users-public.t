#!/bin/sh
# dbsnap --users with grants to PUBLIC (MariaDB 10.11's role of every
# account, a row of mysql.user with is_role Y): dumped as its grants,
# without a CREATE ROLE PUBLIC, which the server refuses (before: the
# restore failed there, after the accounts before it), and not counted
# as a role by -A's left-out note.  Two servers of the test's own: a
# PUBLIC grant on tests/run's server would reach every other test.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own SRC
server_own DST
src() { mariadb --no-defaults -uroot -S "$SRC_SOCK" --batch --skip-column-names "$@"; }
dst() { mariadb --no-defaults -uroot -S "$DST_SOCK" --batch --skip-column-names "$@"; }
for f in src dst; do
	$f -e "CREATE DATABASE t1110_db; CREATE TABLE t1110_db.t (id int)" || exit 1
done
src -e "GRANT SELECT ON t1110_db.t TO PUBLIC" || exit 1

dbsnap --no-defaults -uroot -S "$SRC_SOCK" --users >u.rp 2>err
is "$?" 0 "dbsnap --users: exit 0"
framecat <u.rp >u.txt
is "$(grep -c '^OBJECT	role		`PUBLIC`' u.txt)" 0 "... no role object for PUBLIC"
is "$(grep -c '^OBJECT	grant		`PUBLIC`	GRANT SELECT ON `t1110_db`.`t` TO PUBLIC' u.txt)" 1 \
    "... its grant"
sqlexec --no-defaults -uroot -S "$DST_SOCK" <u.rp 2>err
is "$?" 0 "restored: exit 0 (before: CREATE ROLE PUBLIC failed)"
is "$(dst -e "SHOW GRANTS FOR PUBLIC")" "GRANT SELECT ON \`t1110_db\`.\`t\` TO PUBLIC" \
    "... PUBLIC has its grant"
dbsnap --no-defaults -uroot -S "$SRC_SOCK" -A 2>err | framecat >/dev/null
like "$(cat err)" "^dbsnap: left out: [0-9]+ users? \(add --users\)" \
    "-A: PUBLIC is not counted as a role"
done_testing
