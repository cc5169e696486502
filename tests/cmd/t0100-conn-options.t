#!/bin/sh
# lib/conn through tests/tools/conntest: socket and TCP, passwords from -p,
# MYSQL_PWD and option files, groups, precedence, errors.
. "$(dirname "$0")/../lib.sh"
need_server
command -v conntest >/dev/null || skip_all "conntest not built (make units)"

# Only our own option files: HOME is the scratch dir, nothing inherited.
HOME=$T_DIR; export HOME
unset MYSQL_PWD MARIADB_HOME MYSQL_HOME MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT 2>/dev/null

U=t0100user
PW='pw0100;#x"y\z'		# ; # quote and backslash: file escaping
for h in localhost 127.0.0.1; do
	sql -e "DROP USER IF EXISTS '$U'@'$h'; CREATE USER '$U'@'$h' IDENTIFIED BY 'pw0100;#x\"y\\\\z'; GRANT USAGE ON *.* TO '$U'@'$h'"
done
HOSTQ="SELECT CURRENT_USER(), IF(host LIKE '127.0.0.1:%', 'tcp', host) FROM information_schema.processlist WHERE id = CONNECTION_ID()"

out=$(conntest --no-defaults -uroot -S "$RP_SOCK" -e "SELECT 1, NULL, 'a b'")
is "$out" "$(printf '1\tNULL\ta b')" "root by socket, rows printed"

out=$(conntest --no-defaults -uroot -S "$RP_SOCK" -e "$HOSTQ")
is "$out" "$(printf 'root@localhost\tlocalhost')" "-S: unix socket"

out=$(conntest --no-defaults -uroot -h 127.0.0.1 -P "$RP_PORT" -e "$HOSTQ")
is "$out" "$(printf 'root@127.0.0.1\ttcp')" "-h 127.0.0.1 -P: TCP"

# TCP keepalive (lib/conn.c set_keepalive: first probe after 30 s, every
# 10 s, 9 probes; TCP_USER_TIMEOUT 120 s), read back with getsockopt(2).
out=$(conntest --no-defaults -uroot -h 127.0.0.1 -P "$RP_PORT" -K -e "SELECT 1")
is "$out" "$(printf 'keepalive=1 idle=30 intvl=10 cnt=9 user_timeout=120000 connect_timeout=30\n1')" \
    "TCP: keepalive on, with its idle, interval, count and user timeout; connect timeout 30 s"

# The connect timeout: 30 s unless an option file says (it wins over the
# default), and the command line wins over the file.
printf '[client]\nconnect-timeout=7\n' >ct.cnf
out=$(conntest --defaults-file=ct.cnf -uroot -h 127.0.0.1 -P "$RP_PORT" -K -e "SELECT 1")
like "$out" " connect_timeout=7\$" "an option file's connect-timeout wins over the default"
out=$(conntest --defaults-file=ct.cnf --connect-timeout=5 -uroot -h 127.0.0.1 -P "$RP_PORT" -K -e "SELECT 1")
like "$out" " connect_timeout=5\$" "--connect-timeout wins over the option file's"
# A peer that accepts and never sends the handshake (a stalled proxy):
# the connect timeout ends the wait with a message (it waited forever).
stallproxy 0 127.0.0.1 "$RP_PORT" >pport &
proxy=$!
wait_for test -s pport
kill -USR1 $proxy
dbsnap --no-defaults -uroot -h 127.0.0.1 -P "$(cat pport)" --connect-timeout=2 mysql >/dev/null 2>err &
pid=$!
wait_for gone $pid
ok $? "a stalled handshake: dbsnap ends (deadline 30 s)"
gone $pid || kill -9 $pid
wait $pid
is $? 1 "a stalled handshake: exit 1"
diag "$(cat err)"
like "$(cat err)" "^dbsnap: connect: Lost connection to server at 'handshake: reading initial communication packet', system error: 110 \\(2013, HY000\\)$" \
    "a stalled handshake: the connect error names the handshake"
kill $proxy
wait $proxy
out=$(conntest --no-defaults -uroot -S "$RP_SOCK" -K -e "SELECT 1")
like "$out" "idle=-1 intvl=-1 cnt=-1 user_timeout=-1" \
    "unix socket: no TCP options (set_keepalive() leaves it alone)"

out=$(conntest --no-defaults -uroot -h localhost -P "$RP_PORT" -e "$HOSTQ" 2>&1)
like "$out" "	tcp$" "-h localhost -P: TCP, as the mariadb client does"

out=$(conntest --no-defaults -uroot --protocol=TCP -P "$RP_PORT" -e "$HOSTQ" 2>&1)
like "$out" "	tcp$" "--protocol=TCP"

out=$(conntest --no-defaults -u$U -p"$PW" -S "$RP_SOCK" -e "$HOSTQ" 2>&1)
is "$out" "$(printf "$U@localhost\tlocalhost")" "-pPASSWORD"

out=$(conntest --no-defaults -u$U --password="$PW" -h 127.0.0.1 -P "$RP_PORT" -e "$HOSTQ" 2>&1)
is "$out" "$(printf "$U@127.0.0.1\ttcp")" "--password=PASSWORD over TCP"

out=$(MYSQL_PWD=$PW conntest --no-defaults -u$U -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "MYSQL_PWD"

# Wrong password: exit 1, the server's words with (errno, SQLSTATE),
# and the password tried is not echoed.
conntest --no-defaults -u$U -pWr0ngSecret0100 -S "$RP_SOCK" -e "SELECT 1" >out 2>err
is $? 1 "wrong password: exit 1"
like "$(cat err)" "^conntest: Access denied for user '$U'@'localhost' \(using password: YES\) \(1045, 28000\)$" \
    "wrong password: one line with (1045, 28000)"
grep -q Wr0ngSecret0100 err; isnt $? 0 "wrong password not in stderr"
is "$(cat out)" "" "nothing on stdout"

# --defaults-file: [client] password (quoted, escaped as option files are).
cat >client.cnf <<EOC
[client]
user=$U
password="pw0100;#x\\"y\\\\z"
EOC
out=$(conntest --defaults-file=client.cnf -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "--defaults-file with [client] user and password"

# [conntest] group (the program's name), other groups ignored.
cat >prog.cnf <<EOC
[mysqldump]
password=wrong
[conntest]
user=$U
password="pw0100;#x\\"y\\\\z"
[mysql]
password=wrong
EOC
out=$(conntest --defaults-file=prog.cnf -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "[conntest] group read, [mysql] and [mysqldump] not"

# ~/.my.cnf is read by default; --no-defaults ignores it.
cat >.my.cnf <<EOC
[client]
user=$U
password=WrongInMyCnf
EOC
conntest -S "$RP_SOCK" -e "SELECT 1" >/dev/null 2>err
is $? 1 "~/.my.cnf read by default (its wrong password fails)"
like "$(cat err)" "\(1045, 28000\)" "~/.my.cnf: access denied"
grep -q WrongInMyCnf err; isnt $? 0 "file password not in stderr"
out=$(conntest --no-defaults -uroot -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "root@localhost" "--no-defaults ignores ~/.my.cnf"

# Precedence, as mysql(1): command line over files; --defaults-extra-file
# over ~/.my.cnf; option file password over MYSQL_PWD.
out=$(conntest -p"$PW" -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "-p wins over ~/.my.cnf password"
out=$(conntest --defaults-extra-file=prog.cnf -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "--defaults-extra-file read after ~/.my.cnf"
out=$(conntest --defaults-file=client.cnf --defaults-extra-file=prog.cnf -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$U@localhost" "--defaults-file and --defaults-extra-file together"
out=$(MYSQL_PWD=$PW conntest -S "$RP_SOCK" -e "SELECT 1" 2>&1)
like "$out" "\(1045, 28000\)" "option file password wins over MYSQL_PWD"
rm .my.cnf

# A file's protocol and port lose to a socket on the command line.
printf '[client]\nprotocol=1\nport=1\nuser=root\n' >tcp.cnf
out=$(conntest --defaults-file=tcp.cnf -S "$RP_SOCK" -e "$HOSTQ" 2>&1)
is "$out" "$(printf 'root@localhost\tlocalhost')" "-S wins over the file's protocol=tcp"
out=$(conntest --defaults-file=tcp.cnf -h 127.0.0.1 -P "$RP_PORT" -e "$HOSTQ" 2>&1)
is "$out" "$(printf 'root@127.0.0.1\ttcp')" "-P wins over the file's port"

conntest --defaults-file=missing.cnf -uroot -S "$RP_SOCK" -e "SELECT 1" 2>err
is $? 2 "missing --defaults-file: exit 2 (a usage error, as in every program)"
like "$(cat err)" "^conntest: --defaults-file missing.cnf: No such file or directory$" "missing --defaults-file: said so"
conntest --defaults-extra-file=missing.cnf -uroot -S "$RP_SOCK" -e "SELECT 1" 2>err
is $? 2 "missing --defaults-extra-file: exit 2"
like "$(cat err)" "^conntest: --defaults-extra-file missing.cnf: No such file or directory$" "missing --defaults-extra-file: said so"
out=$(conntest --no-defaults --defaults-file=missing.cnf -uroot -S "$RP_SOCK" -e "SELECT 1" 2>&1)
is "$out" 1 "--no-defaults: --defaults-file not read, so not checked"

# --ssl-mode=REQUIRED on TCP to a server without TLS fails; DISABLED works.
conntest --no-defaults -uroot -h 127.0.0.1 -P "$RP_PORT" --ssl-mode=required -e "SELECT 1" >/dev/null 2>err
is $? 1 "--ssl-mode=REQUIRED without TLS on the server: exit 1"
like "$(cat err)" "SSL is required.*\(2026, HY000\)" "--ssl-mode=REQUIRED: TLS error"
out=$(conntest --no-defaults -uroot -h 127.0.0.1 -P "$RP_PORT" --ssl-mode=DISABLED -e "SELECT 1" 2>&1)
is "$out" 1 "--ssl-mode=DISABLED"

# Usage errors: exit 2, naming the option.
for a in "-P 0|--port 0: too small" "-P 70000|--port 70000: too large" \
    "-P x|--port x: invalid" "--protocol=udp|--protocol udp: unknown" \
    "--ssl-mode=maybe|--ssl-mode maybe: unknown" \
    "--connect-timeout=0|--connect-timeout 0: too small"; do
	opt=${a%%|*} msg=${a#*|}
	conntest --no-defaults $opt -e "SELECT 1" >/dev/null 2>err
	is $? 2 "$opt: exit 2"
	like "$(cat err)" "^conntest: $msg" "$opt: message"
done
out=$(conntest --no-defaults -uroot -S "$RP_SOCK" --connect-timeout=5 -e "SELECT 2" 2>&1)
is "$out" 2 "--connect-timeout=5"

# conn_open() from many threads at once, with option files in play.
out=$(conntest --defaults-file=client.cnf -T 16 -S "$RP_SOCK" -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "$(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do echo "$U@localhost"; done)" \
    "16 threads connect at once"

sql -e "DROP USER '$U'@'localhost'; DROP USER '$U'@'127.0.0.1'"
done_testing
