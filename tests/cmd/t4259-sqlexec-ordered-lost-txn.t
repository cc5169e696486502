#!/bin/sh
# Ordered INSERTs in one transaction on connection 1 (ordered.c), with
# --force, on a server that rolls the whole transaction back on a lock
# wait timeout (innodb_rollback_on_timeout): the error packet carries no
# status, so the client's "in a transaction" flag was the last OK's and
# the next INSERT committed alone, before the run saw the transaction
# gone; the resume then loaded it a second time.  Now nothing of the
# rolled-back transaction is committed and the resume loads every row
# once.
. "$(dirname "$0")/../lib.sh"
. "$RP_TOP/tests/server.sh"
need_server
server_own LW --innodb-rollback-on-timeout=ON --innodb-lock-wait-timeout=1
C="--no-defaults -uroot -S $LW_SOCK"
lw() { mariadb $C --batch --skip-column-names "$@"; }
plan 5

lw -e "CREATE DATABASE ck; CREATE DATABASE lw;
    CREATE TABLE lw.a (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20));
    CREATE TABLE lw.c (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20));
    INSERT INTO lw.c VALUES (1, 'held')"
cat >lw.sql <<'EOF'
USE lw;
INSERT INTO a (v) VALUES ('a1');
INSERT INTO a (v) VALUES ('a2');
INSERT INTO a (v) VALUES ('a3');
INSERT INTO c (v) VALUES ('c1');
INSERT INTO a (v) VALUES ('a4');
INSERT INTO a (v) VALUES ('a5');
EOF
sqlsplit lw.sql >lw.rp

# Another session holds every row and gap of lw.c until it is killed.
lw -e "BEGIN; SELECT * FROM lw.c FOR UPDATE; SELECT SLEEP(600)" \
    >/dev/null 2>&1 &
blocker=$!
held() {
	[ "$(lw -e "SELECT COUNT(*) FROM information_schema.INNODB_TRX
	    WHERE trx_rows_locked > 0")" = 1 ]
}
wait_for held || fail_all "the blocking session holds no lock"

sqlexec $C -j 2 --force --checkpoint ck.k <lw.rp 2>run1.err
is $? 1 "the lock wait timeout fails the run"
sed 's/^/# /' run1.err
is "$(lw -e 'SELECT COUNT(*) FROM lw.a')" 0 \
    "nothing of the rolled-back transaction is committed"

lw -e "KILL $(lw -e "SELECT ID FROM information_schema.PROCESSLIST
    WHERE INFO LIKE 'SELECT SLEEP(600)%'")"
wait_for gone "$blocker"
sqlexec $C -j 2 --force --checkpoint ck.k --resume <lw.rp 2>run2.err
is $? 0 "the resume"
is "$(lw -e "SELECT GROUP_CONCAT(v ORDER BY id) FROM lw.a")" \
    "a1,a2,a3,a4,a5" "every row once, in order"
is "$(lw -e "SELECT GROUP_CONCAT(v ORDER BY id) FROM lw.c")" \
    "held,c1" "the INSERT that timed out, once"
done_testing
