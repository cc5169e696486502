#!/bin/sh
# dbsnap --users restored by an administrator that is not root (ALL
# PRIVILEGES WITH GRANT OPTION on *.*) (#25).  Before: the restore
# stopped at the GRANT PROXY of root's accounts (ERROR 1698) after every
# row, the error did not name the statement, and the helper role
# rowpipe_import_role stayed on the target.  Now dbsnap names the PROXY
# grants in a note and writes them last, the grants of roles (which
# need the helper role) come with the accounts before any row, so the
# helper role is gone before anything else can fail; the restore's error
# names the GRANT PROXY; --skip-proxy-grants leaves them out (named in
# the left-out line) and the restore completes.  A grant of privileges
# the administrator does not hold with GRANT OPTION gets advice that can
# work too (a resume by an account that holds them, or the skip of that
# frame).  Source and target:
# fresh servers of the test's own.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
# The source is a server of its own too: --users dumps every account of
# a server, and those of tests running beside this one (t1096) name
# databases this dump does not hold, so their grants failed the restore.
server_own SRC
RP_SOCK=$SRC_SOCK	# sql, CONN and fresh_db (tests/lib.sh) use it
server_own DST
dsql() { mariadb --no-defaults -uroot -S "$DST_SOCK" --batch --skip-column-names "$@"; }
ADM="--no-defaults -ut1103_adm -S $DST_SOCK"
DB=t1103_db
fresh_db $DB
sql <<SQL || exit 1
DROP USER IF EXISTS t1103_app@'%', t1103_ops@'%';
DROP ROLE IF EXISTS t1103_reader;
CREATE TABLE $DB.t (id int PRIMARY KEY);
INSERT INTO $DB.t VALUES (1), (2);
CREATE ROLE t1103_reader;
GRANT SELECT ON $DB.* TO t1103_reader;
CREATE USER t1103_app@'%';
GRANT t1103_reader TO t1103_app@'%';
SET DEFAULT ROLE t1103_reader FOR t1103_app@'%';
GRANT INSERT ON $DB.t TO t1103_app@'%';
CREATE USER t1103_ops@'%';
GRANT SHUTDOWN ON *.* TO t1103_ops@'%';
SQL
# fresh_target: the target without the source's accounts and database.
fresh_target() {
	dsql -e "DROP USER IF EXISTS t1103_app@'%', t1103_ops@'%', t1103_ed@'%', t1103_adm@localhost;
	    DROP ROLE IF EXISTS t1103_reader; DROP ROLE IF EXISTS rowpipe_import_role;
	    DROP DATABASE IF EXISTS $DB;
	    CREATE USER t1103_adm@localhost;
	    GRANT ALL PRIVILEGES ON *.* TO t1103_adm@localhost WITH GRANT OPTION"
}
helper() { dsql -e "SELECT COUNT(*) FROM mysql.user WHERE User = 'rowpipe_import_role'"; }
accounts() {
	dsql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader" 2>&1
}

dbsnap $(CONN) --users $DB >all.rp 2>err
is "$?" 0 "dbsnap --users: exit 0"
like "$(cat err)" "^dbsnap: note: [0-9]+ PROXY grants?, which only an account with PROXY WITH GRANT OPTION on the proxied account \(root\) can restore, come last \(--skip-proxy-grants leaves them out\): .*GRANT PROXY ON \`\`@\`%\` TO \`root\`@\`localhost\` WITH GRANT OPTION" \
    "... a note names the PROXY grants"
framecat <all.rp | awk -F'\t' '$1 == "OBJECT" { print $2, $5 }' |
    sed -n 's/^grant GRANT PROXY .*/PROXY/p; s/^table .*/TABLE/p' | uniq | tr '\n' ' ' >order
is "$(cat order)" "TABLE PROXY " "... and writes them last"

fresh_target
sqlexec $ADM <all.rp 2>err
is "$?" 1 "a non-root administrator's restore stops at a PROXY grant: exit 1"
like "$(grep ERROR err)" "^sqlexec: frame [0-9]+: grant \`root\`@\`[^\`]*\`: GRANT PROXY ON \`\`@\`%\` TO \`root\`@\`[^\`]*\` WITH GRANT OPTION: ERROR 1698 \(28000\)" \
    "... the error names the GRANT PROXY statement"
is "$(helper)" 0 "... no helper role is left (before: rowpipe_import_role stayed)"
is "$(grep -c 'helper role' err)" 0 "... and no line says one is"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... the accounts, roles and grants before it are restored"
is "$(dsql -e "SELECT COUNT(*) FROM $DB.t")" 2 "... and the rows"
# The advice: no plain resume (it runs the GRANT PROXY again and fails
# the same way: before, "resume with --skip-to fN:..." did); the skip of
# each GRANT PROXY, or a resume as root, or --skip-proxy-grants.
like "$(cat err)" "ERROR 1698 .*\(only an account with PROXY WITH GRANT OPTION on the proxied account, as root has, can give it: .*dbsnap --skip-proxy-grants leaves the PROXY grants out of a dump\)$" \
    "... the error says who can give it, and names --skip-proxy-grants"
like "$(cat err)" "^sqlexec: frames 1-[0-9]+ are committed; resume as an account that can give that GRANT PROXY \(root\) with --skip-to f[0-9,=]+:[0-9a-f]+, or skip it with --skip-to f[0-9]+ \(and each GRANT PROXY after it: dbsnap writes them last\)$" \
    "... the resume line says what a resume can do"
is "$(grep -c '; resume with --skip-to' err)" 0 "... and no plain resume"
# each skip as printed: the restore ends
n=0
while [ $n -lt 10 ] && skip=$(sed -n 's/.* or skip it with --skip-to \(f[0-9]*\) .*/\1/p' err) &&
    [ -n "$skip" ]; do
	sqlexec $ADM --skip-to $skip <all.rp 2>err
	n=$((n + 1))
done
is "$(grep -vc '^sqlexec: warning: --skip-to' err | tr -d ' ')" 1 "... skipping each GRANT PROXY as printed ends the restore ($n skips)"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... with the accounts"

# The restore fails elsewhere (a view t on the target: CREATE TABLE t
# fails), through SQL text too: no helper role either.
dbsnap $(CONN) --users --skip-proxy-grants $DB >noproxy.rp 2>err
is "$?" 0 "--skip-proxy-grants: exit 0"
like "$(cat err)" "^dbsnap: left out: [0-9]+ PROXY grants? \(--skip-proxy-grants\)$" \
    "... the left-out line counts the PROXY grants"
fresh_target
dsql -e "CREATE DATABASE $DB; CREATE VIEW $DB.t AS SELECT 1 AS id"
rows2sql <noproxy.rp | sqlsplit | sqlexec $ADM 2>err
is "$?" 1 "a restore that fails at a table: exit 1"
like "$(cat err)" "ERROR 1050" "... (table exists)"
is "$(helper)" 0 "... and leaves no helper role (before: it stayed)"

# --skip-proxy-grants: the restore completes.
fresh_target
sqlexec $ADM <noproxy.rp 2>err
is "$?" 0 "... restored by the non-root administrator: exit 0"
is "$(helper)" 0 "... no helper role"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... the same grants"

# An administrator that does not hold a privilege the dump grants (all
# of them WITH GRANT OPTION but SHUTDOWN; or grant option on the
# database only): the first such GRANT stops the restore (root's ALL
# PRIVILEGES, mariadb.sys's on mysql.global_priv).  Before: the error
# said nothing of who can give it, and the resume line was a plain
# resume, which runs it again and fails the same way.
# denied WHAT SQL GRANT-RE: after fresh_target, SQL takes from the
# administrator what it lacks (WHAT); noproxy.rp restored as it stops at
# a GRANT GRANT-RE (a regular expression).
denied() {
	fresh_target
	dsql -e "$2"
	sqlexec $ADM <noproxy.rp 2>err
	is "$?" 1 "an administrator $1: exit 1"
	like "$(grep ERROR err)" "^sqlexec: frame [0-9]+: grant \`[^\`]*\`@\`[^\`]*\`: GRANT $3 TO \`[^\`]*\`@\`[^\`]*\`.*: ERROR 1[0-9]{3} \([0-9A-Z]{5}\): " \
	    "... the error names the GRANT, its frame and the server's error"
	like "$(grep ERROR err)" "\(only an account that holds these privileges with GRANT OPTION can give them: a resume by this account runs it again and fails the same way\)$" \
	    "... and says who can give it"
	f=$(sed -n 's/^sqlexec: frame \([0-9]*\): grant .*/\1/p' err)
	like "$(cat err)" "^sqlexec: frames 1-$((f - 1)) are committed; resume as an account that holds that grant's privileges with GRANT OPTION \(root\) with --skip-to f$((f - 1)):[0-9a-f]+, or skip it with --skip-to f$f$" \
	    "... the resume line offers a resume by such an account, or the skip of that frame"
	is "$(grep -c '; resume with --skip-to' err)" 0 "... and no plain resume"
	is "$(helper)" 0 "... no helper role is left"
	is "$(grep -c 'helper role' err)" 0 "... and no line says one is"
	cp err denied.err
}
denied "without SHUTDOWN" "REVOKE SHUTDOWN ON *.* FROM t1103_adm@localhost" \
    "ALL PRIVILEGES ON \*\.\*"
# the resume as printed, as root: the restore completes
point=$(sed -n 's/.*resume as an account .* with --skip-to \([^ ,]*\),.*/\1/p' err)
sqlexec --no-defaults -uroot -S "$DST_SOCK" --skip-to "$point" <noproxy.rp 2>err
is "$?" 0 "... resumed as root with --skip-to $point: exit 0"
is "$(dsql -e "SHOW GRANTS FOR t1103_ops@'%'")" 'GRANT SHUTDOWN ON *.* TO `t1103_ops`@`%`' \
    "... with the grant of SHUTDOWN"
is "$(helper)" 0 "... and no helper role"
# with --checkpoint: the resume it offers is by such an account too
# (before: a plain --resume, which fails the same way)
fresh_target
dsql -e "REVOKE SHUTDOWN ON *.* FROM t1103_adm@localhost; CREATE DATABASE IF NOT EXISTS t1103_ck"
sqlexec $ADM --checkpoint t1103_ck.ck <noproxy.rp 2>err
is "$?" 1 "... with --checkpoint: exit 1"
like "$(cat err)" "^sqlexec: frames 1-[0-9]+ are committed; resume as an account that holds that grant's privileges with GRANT OPTION \(root\) with --resume \(checkpoint t1103_ck\.ck records it\)$" \
    "... the resume line offers --resume by such an account"
# as root: the GRANT failed, so the checkpoint's frame, begun and not
# transactional, did not take effect; its "if not" point completes it
sqlexec --no-defaults -uroot -S "$DST_SOCK" --checkpoint t1103_ck.ck --resume <noproxy.rp 2>err2
like "$(cat err2)" "not transactional .*resume with --skip-to f[0-9]+:[0-9a-f]+ if it took effect, or --skip-to f[0-9]+:[0-9a-f]+ if not" \
    "... --resume as root asks whether the GRANT, not transactional, took effect"
point=$(sed -n 's/.* or --skip-to \([^ ]*\) if not.*/\1/p' err2)
sqlexec --no-defaults -uroot -S "$DST_SOCK" --checkpoint t1103_ck.ck --skip-to "$point" <noproxy.rp 2>err2
is "$?" 0 "... it did not: --skip-to $point as root completes, exit 0"
is "$(dsql -e "SHOW GRANTS FOR t1103_ops@'%'")" 'GRANT SHUTDOWN ON *.* TO `t1103_ops`@`%`' \
    "... with the grant of SHUTDOWN"

denied "with grant option on its database only" \
    "REVOKE GRANT OPTION ON *.* FROM t1103_adm@localhost;
    GRANT ALL ON $DB.* TO t1103_adm@localhost WITH GRANT OPTION" \
    "SELECT, DELETE ON \`mysql\`\.\`global_priv\`"
# each skip as printed, by the same administrator: the restore ends,
# with what it could give
n=0 rc=
while [ $n -lt 20 ] && skip=$(sed -n 's/.* or skip it with --skip-to \(f[0-9]*\)$/\1/p' err) &&
    [ -n "$skip" ]; do
	sqlexec $ADM --skip-to $skip <noproxy.rp 2>err
	rc=$?
	cat err >>denied.err
	n=$((n + 1))
done
is "$rc" 0 "... skipping each such GRANT as printed ends the restore ($n skips): exit 0"
is "$(grep -vc '^sqlexec: warning: --skip-to' err | tr -d ' ')" 1 "... and no error"
like "$(cat denied.err)" "^sqlexec: frame [0-9]+: grant \`t1103_ops\`@\`%\`: GRANT SHUTDOWN ON \*\.\* TO \`t1103_ops\`@\`%\`: ERROR 1045 " \
    "... the grant of SHUTDOWN was one of them, named"
is "$(dsql -e "SHOW GRANTS FOR t1103_ops@'%'")" 'GRANT USAGE ON *.* TO `t1103_ops`@`%`' \
    "... and is not given"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... the grants on the database are"
is "$(helper)" 0 "... and no helper role"

# An administrator with no privilege on the mysql database (CREATE USER,
# RELOAD, and its database WITH GRANT OPTION): SET DEFAULT ROLE needs
# UPDATE on mysql.  Before, it came with the grants of roles, while the
# helper role was in use, and the restore stopped there with the helper
# role left on the target; now it comes with the grants at the end.
fresh_target
dsql -e "REVOKE ALL PRIVILEGES, GRANT OPTION FROM t1103_adm@localhost;
    GRANT CREATE USER, RELOAD ON *.* TO t1103_adm@localhost;
    GRANT ALL ON $DB.* TO t1103_adm@localhost WITH GRANT OPTION"
sqlexec $ADM <noproxy.rp 2>err
is "$?" 1 "an administrator without privileges on mysql: exit 1"
like "$(grep ERROR err)" "^sqlexec: frame [0-9]+: grant \`[^\`]*\`@\`[^\`]*\`: (GRANT|SET DEFAULT ROLE) .*: ERROR 1[0-9]{3} " \
    "... at a grant at the end, named"
is "$(dsql -e "SELECT COUNT(*) FROM $DB.t")" 2 "... after the rows"
is "$(helper)" 0 "... and no helper role is left (before: it stayed)"

# The restore stops while the helper role is in use: at the CREATE USER
# of an account whose authentication plugin the target lacks (ed25519,
# installed on the source only; dbsnap writes the users first, the
# helper role is made before the first).  The helper role stays, for the
# resume (dropped, the roles made before a stop would have no admin the
# resume could grant them with), and a line after the resume line says
# so: before, nothing did.  The resume as printed, once the target has
# the plugin, completes and drops it.
sql -e "INSTALL SONAME 'auth_ed25519';
    CREATE USER t1103_ed@'%' IDENTIFIED VIA ed25519 USING PASSWORD('t1103');
    GRANT t1103_reader TO t1103_ed@'%'" || exit 1
dbsnap $(CONN) --users --skip-proxy-grants $DB >ed.rp 2>err
is "$?" 0 "an account identified via ed25519: dbsnap exit 0"
fresh_target
is "$(dsql -e "SELECT COUNT(*) FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'ed25519'")" 0 \
    "... the target has no ed25519 plugin"
sqlexec $ADM <ed.rp 2>err
is "$?" 1 "... restored there: exit 1"
like "$(grep ERROR err)" "^sqlexec: frame [0-9]+: user \`t1103_ed\`@\`%\`: CREATE: ERROR 1524 " \
    "... at its CREATE USER (plugin not loaded)"
like "$(tail -n 2 err | head -n 1)" "^sqlexec: frames 1-[0-9]+ are committed; resume with --skip-to f[0-9,=]+:[0-9a-f]+$" \
    "... a plain resume line"
is "$(tail -n 1 err)" "sqlexec: the helper role rowpipe_import_role, which administers the dump's roles while they are made, stays on the target for the resume, which drops it at its end; DROP ROLE rowpipe_import_role if you will not resume" \
    "... then a line says the helper role stays on the target, for the resume"
is "$(helper)" 1 "... and it does"
point=$(sed -n 's/.*; resume with --skip-to \([^ ]*\)$/\1/p' err)
dsql -e "INSTALL SONAME 'auth_ed25519'"
sqlexec $ADM --skip-to "$point" <ed.rp 2>err
is "$?" 0 "... resumed as printed (--skip-to $point) once the target has the plugin: exit 0"
is "$(grep -c 'helper role' err)" 0 "... no line of the helper role"
is "$(helper)" 0 "... which is gone"
is "$(dsql -e "SHOW GRANTS FOR t1103_ed@'%'" 2>&1)" "$(sql -e "SHOW GRANTS FOR t1103_ed@'%'")" \
    "... the account is restored, with its role"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... and the other accounts"

# The input ends (cut) after the roles are made, before the grants of
# them: the helper role stays, the admin of the role made; the resume
# as printed, from the complete input, grants the role through it
# (its admin: the administrator is not) and drops it.
fresh_target
cut=$(grep -abo "GRANT \`t1103_reader\` TO \`t1103_app\`" noproxy.rp | sed -n '1s/:.*//p')
head -c "${cut:-0}" noproxy.rp >cut.rp
sqlexec $ADM <cut.rp 2>err
is "$?" 1 "an input cut before the grants of its roles: exit 1"
like "$(cat err)" "^sqlexec: stdin ended early, before its trailer" "... the input is cut"
is "$(tail -n 1 err)" "sqlexec: the helper role rowpipe_import_role, which administers the dump's roles while they are made, stays on the target for the resume, which drops it at its end; DROP ROLE rowpipe_import_role if you will not resume" \
    "... the last line says the helper role stays"
is "$(dsql -e "SELECT COUNT(*) FROM mysql.roles_mapping WHERE User = 'rowpipe_import_role' AND Role = 't1103_reader' AND Admin_option = 'Y'")" 1 \
    "... it is there, the admin of the role made"
point=$(sed -n 's/.*; resume with --skip-to \([^ ]*\)$/\1/p' err)
sqlexec $ADM --skip-to "$point" <noproxy.rp 2>err
is "$?" 0 "... resumed as printed (--skip-to $point) from the complete input: exit 0"
is "$(helper)" 0 "... the helper role is gone"
is "$(accounts)" "$(sql -e "SHOW GRANTS FOR t1103_app@'%'; SHOW GRANTS FOR t1103_reader")" \
    "... the roles are granted"

sql -e "DROP USER t1103_app@'%', t1103_ops@'%', t1103_ed@'%'; DROP ROLE t1103_reader; DROP DATABASE $DB"
done_testing
