#!/bin/sh
# lib/conn --ssl-mode and --ssl-* against a second, TLS-enabled throwaway
# server of this test's own (the shared one has no TLS): certificates made
# here with openssl(1), server stopped by its pid on exit.
. "$(dirname "$0")/../lib.sh"
need_server
command -v conntest >/dev/null || skip_all "conntest not built (make units)"
command -v openssl >/dev/null || skip_all "no openssl(1)"
command -v mariadb-install-db >/dev/null || skip_all "no mariadb-install-db"
bin=
for b in /usr/sbin/mariadbd /usr/sbin/mysqld /usr/bin/mariadbd; do
	[ -x "$b" ] && { bin=$b; break; }
done
[ -n "$bin" ] || skip_all "no mariadbd"

HOME=$T_DIR; export HOME
unset MYSQL_PWD MARIADB_HOME MYSQL_HOME 2>/dev/null

# Certificates: a CA, a server certificate for localhost and 127.0.0.1
# signed by it, and an unrelated CA.
cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$1" \
	    -keyout "$1-key.pem" -out "$1.pem" >/dev/null 2>&1
}
cert ca && cert otherca &&
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
    -keyout server-key.pem -out server.csr >/dev/null 2>&1 &&
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >san.ext &&
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem \
    -CAcreateserial -days 2 -extfile san.ext -out server.pem >/dev/null 2>&1 ||
    skip_all "openssl could not make certificates"

# The TLS server, small; stopped on exit however the test ends.
mkdir srv
mariadb-install-db --no-defaults --datadir="$T_DIR/srv/data" \
    --user="$(id -un)" --auth-root-authentication-method=normal \
    --skip-test-db >srv/install.log 2>&1 || skip_all "mariadb-install-db failed"
PORT=$(perl -MIO::Socket::INET -e \
    'print IO::Socket::INET->new(Listen=>1,LocalAddr=>"127.0.0.1",LocalPort=>0)->sockport')
SOCK=$T_DIR/srv/sock
"$bin" --no-defaults --user="$(id -un)" --datadir="$T_DIR/srv/data" \
    --socket="$SOCK" --port="$PORT" --bind-address=127.0.0.1 \
    --pid-file="$T_DIR/srv/pid" --log-error="$T_DIR/srv/error.log" \
    --tmpdir="$T_DIR/srv" \
    --innodb-buffer-pool-size=16M --skip-name-resolve \
    --ssl-ca="$T_DIR/ca.pem" --ssl-cert="$T_DIR/server.pem" \
    --ssl-key="$T_DIR/server-key.pem" >srv/stdout.log 2>&1 &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; cd /; rm -rf "$T_DIR"' EXIT
n=0
until mariadb-admin --no-defaults -uroot -S "$SOCK" ping >/dev/null 2>&1; do
	n=$((n + 1))
	if [ $n -gt 600 ] || ! kill -0 $SRV 2>/dev/null; then
		sed 's/^/# /' srv/error.log
		skip_all "TLS server did not start"
	fi
	sleep 0.1
done

TCP="--no-defaults -uroot -h 127.0.0.1 -P $PORT"
CIPHER="SELECT IF(variable_value = '', 'none', 'tls') FROM information_schema.session_status WHERE variable_name = 'Ssl_cipher'"

out=$(conntest $TCP --ssl-mode=DISABLED -e "$CIPHER" 2>&1)
is "$out" none "--ssl-mode=DISABLED: no TLS"
out=$(conntest $TCP --ssl-mode=PREFERRED -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-mode=PREFERRED: TLS"
out=$(conntest $TCP --ssl-mode=REQUIRED -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-mode=REQUIRED: TLS"
out=$(conntest $TCP --ssl -e "$CIPHER" 2>&1)
is "$out" tls "--ssl: TLS"
# REQUIRED verifies nothing by itself, but a CA given is used (as mysql(1)).
conntest $TCP --ssl-mode=REQUIRED --ssl-ca=otherca.pem -e "$CIPHER" >/dev/null 2>err
is $? 1 "--ssl-mode=REQUIRED --ssl-ca=another CA: exit 1"
out=$(conntest $TCP --ssl-mode=REQUIRED --ssl-ca=ca.pem -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-mode=REQUIRED --ssl-ca=right CA"
out=$(conntest $TCP --ssl-mode=VERIFY_CA --ssl-ca=ca.pem -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-mode=VERIFY_CA with the right CA"
conntest $TCP --ssl-mode=VERIFY_CA --ssl-ca=otherca.pem -e "$CIPHER" >/dev/null 2>err
is $? 1 "--ssl-mode=VERIFY_CA with another CA: exit 1"
like "$(cat err)" "^conntest: .*\(2026, HY000\)$" "--ssl-mode=VERIFY_CA with another CA: TLS error"
out=$(conntest --no-defaults -uroot -h localhost -P $PORT --ssl-mode=VERIFY_IDENTITY --ssl-ca=ca.pem -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-mode=VERIFY_IDENTITY to localhost"
out=$(conntest $TCP --ssl-mode=DISABLED --ssl-ca=ca.pem -e "$CIPHER" 2>&1)
is "$out" none "--ssl-mode=DISABLED wins over --ssl-ca"

# The command line's --ssl-ca wins over an option file's.
printf '[client]\nssl-ca=%s/otherca.pem\n' "$T_DIR" >tls.cnf
conntest --defaults-file=tls.cnf -uroot -h 127.0.0.1 -P $PORT --ssl-mode=VERIFY_CA -e "$CIPHER" >/dev/null 2>err
is $? 1 "option file ssl-ca (wrong CA) is used"
out=$(conntest --defaults-file=tls.cnf -uroot -h 127.0.0.1 -P $PORT --ssl-mode=VERIFY_CA --ssl-ca="$T_DIR/ca.pem" -e "$CIPHER" 2>&1)
is "$out" tls "--ssl-ca on the command line wins over the option file"

# A client certificate the server asks for.
mariadb --no-defaults -uroot -S "$SOCK" -e "CREATE USER t0102x509@'127.0.0.1' REQUIRE X509"
openssl req -newkey rsa:2048 -nodes -subj "/CN=client" -keyout client-key.pem \
    -out client.csr >/dev/null 2>&1 &&
openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
    -days 2 -out client.pem >/dev/null 2>&1
conntest --no-defaults -ut0102x509 -h 127.0.0.1 -P $PORT --ssl-mode=REQUIRED -e "SELECT 1" >/dev/null 2>err
is $? 1 "REQUIRE X509 without a client certificate: exit 1"
out=$(conntest --no-defaults -ut0102x509 -h 127.0.0.1 -P $PORT --ssl-mode=VERIFY_CA --ssl-ca=ca.pem --ssl-cert=client.pem --ssl-key=client-key.pem -e "SELECT CURRENT_USER()" 2>&1)
is "$out" "t0102x509@127.0.0.1" "--ssl-cert and --ssl-key"

done_testing
