# tests/server.sh: start and stop one throwaway MariaDB server; sourced.
#
# server_start DIR   installs a datadir under DIR, starts mariadbd on a unix
#                    socket DIR/sock and a loopback port, waits until it
#                    answers (deadline 60 s) and exports RP_SOCK, RP_PORT,
#                    RP_SERVER_DIR.  Returns non-zero with the error log on
#                    failure.
# server_stop        stops it by its pid (deadline 60 s, then SIGKILL).
#
# For a test that needs servers of its own (a primary and replicas):
# server_add NAME DIR [option ...]
#                    starts one more server as server_start does, with the
#                    mariadbd options given after the defaults (they win:
#                    --server-id=2, --log-slave-updates, ...); sets
#                    NAME_SOCK, NAME_PORT and NAME_PID, and leaves RP_* as
#                    they were.
# server_stop_pid PID
#                    stops the server with that pid (deadline 60 s, then
#                    SIGKILL); never by name, so that other servers live.
# server_own NAME [option ...]
#                    for a test (tests/lib.sh): a small server of its own,
#                    server_add NAME $T_DIR/name (NAME in lower case) with
#                    a 32 MiB buffer pool and a 16 MiB redo log before the
#                    options given; fail_all if it does not start.  It is
#                    stopped at exit with the others, the last started
#                    first (server_own_stop), and $T_DIR removed; a test
#                    that sets its own EXIT trap calls server_own_stop there.
# server_restart NAME DIR [option ...]
#                    starts NAME's server again on its datadir DIR (after
#                    kill -9 of NAME_PID, say) on the same socket and port,
#                    with the options it was added with; sets NAME_PID.
#
# The server runs with a non-UTC default time zone (+05:30) so that time
# zone bugs show, binary logging on (so dbsnap can record a position), and
# named time zones loaded for DST tests.  Its temporary files are in its
# own directory: in a /tmp shared with other servers it lost internal
# temporary tables ("Error on delete of '/tmp/#sql-temptable-...MAI'",
# errno 2; their names carry the server's pid, which a server in another
# pid namespace can have too).

RP_SERVER_PID=

server_bin() {
	for b in mariadbd mysqld; do
		for d in /usr/sbin /usr/bin /usr/local/sbin; do
			[ -x "$d/$b" ] && { echo "$d/$b"; return 0; }
		done
	done
	return 1
}

server_start() {
	dir=$1
	shift
	mkdir -p "$dir/data" "$dir/tmp" || return 1
	bin=$(server_bin) || { echo "server: mariadbd not found" >&2; return 1; }
	user=$(id -un)
	# its own tmpdir too: bootstraps sharing /tmp failed with ERROR 1051
	# "Unknown table 'mysql.tmp_user_sys'" when tests started servers
	mariadb-install-db --no-defaults --datadir="$dir/data" \
	    --tmpdir="$dir/tmp" --user="$user" \
	    --auth-root-authentication-method=normal --skip-test-db \
	    >"$dir/install.log" 2>&1 ||
	    { echo "server: mariadb-install-db failed:" >&2;
	      grep -i -m 10 'error' "$dir/install.log" >&2
	      tail -20 "$dir/install.log" >&2; return 1; }
	# A free loopback port: ask the kernel (bind to 0) through perl.
	RP_PORT=$(perl -MIO::Socket::INET -e \
	    'print IO::Socket::INET->new(Listen=>1,LocalAddr=>"127.0.0.1",LocalPort=>0)->sockport')
	server_run "$dir" "$@" || return 1
	for z in Europe/Berlin America/New_York; do
		mariadb-tzinfo-to-sql "/usr/share/zoneinfo/$z" "$z" 2>/dev/null
	done | mariadb --no-defaults -uroot -S "$RP_SOCK" mysql ||
	    { echo "server: loading time zones failed" >&2; return 1; }
	RP_SERVER_DIR=$dir
	export RP_SOCK RP_PORT RP_SERVER_DIR RP_SERVER_PID
}

# server_run DIR [option ...]: mariadbd on DIR's datadir, on $RP_PORT and
# DIR/sock; waits until it answers; sets RP_SOCK and RP_SERVER_PID.
server_run() {
	dir=$1
	shift
	bin=$(server_bin) || { echo "server: mariadbd not found" >&2; return 1; }
	user=$(id -un)
	RP_SOCK=$dir/sock
	"$bin" --no-defaults --user="$user" --datadir="$dir/data" \
	    --socket="$RP_SOCK" --port="$RP_PORT" --bind-address=127.0.0.1 \
	    --pid-file="$dir/mariadbd.pid" --log-error="$dir/error.log" \
	    --tmpdir="$dir/tmp" \
	    --default-time-zone=+05:30 --character-set-server=utf8mb4 \
	    --log-bin="$dir/data/binlog" --server-id=1 --binlog-format=ROW \
	    --innodb-buffer-pool-size=256M --innodb-log-file-size=256M \
	    --innodb-flush-log-at-trx-commit=2 --sync-binlog=0 \
	    --max-allowed-packet=16M --max-connections=300 \
	    --skip-name-resolve --event-scheduler=OFF "$@" \
	    >"$dir/stdout.log" 2>&1 &
	RP_SERVER_PID=$!
	n=0
	until mariadb-admin --no-defaults -uroot -S "$RP_SOCK" ping \
	    >/dev/null 2>&1; do
		n=$((n + 1))
		if [ $n -gt 600 ] || ! kill -0 "$RP_SERVER_PID" 2>/dev/null; then
			echo "server: did not start:" >&2
			tail -20 "$dir/error.log" >&2
			server_stop
			return 1
		fi
		sleep 0.1
	done
}

server_stop_pid() {
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	_n=0
	while kill -0 "$1" 2>/dev/null; do
		_n=$((_n + 1))
		if [ $_n -gt 600 ]; then
			kill -9 "$1" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	wait "$1" 2>/dev/null
	return 0
}

server_stop() {
	[ -n "$RP_SERVER_PID" ] || return 0
	server_stop_pid "$RP_SERVER_PID"
	RP_SERVER_PID=
}

server_add() {
	_name=$1
	shift
	_keep_sock=${RP_SOCK:-} _keep_port=${RP_PORT:-}
	_keep_dir=${RP_SERVER_DIR:-} _keep_pid=$RP_SERVER_PID
	server_start "$@"
	_rc=$?
	eval "${_name}_SOCK=\$RP_SOCK ${_name}_PORT=\$RP_PORT" \
	    "${_name}_PID=\$RP_SERVER_PID"
	RP_SOCK=$_keep_sock RP_PORT=$_keep_port RP_SERVER_DIR=$_keep_dir
	RP_SERVER_PID=$_keep_pid
	return $_rc
}

# replicate PRIMARY_SOCK PRIMARY_PORT REPLICA_SOCK...: GTID replication
# over loopback from the primary (its binary log reset, a user repl) to
# each replica (its state reset), started.  Non-zero if a step failed.
replicate() {
	_psock=$1 _pport=$2
	shift 2
	mariadb --no-defaults -uroot -S "$_psock" -e "
	    CREATE USER repl@'127.0.0.1' IDENTIFIED BY 'r';
	    GRANT REPLICATION SLAVE ON *.* TO repl@'127.0.0.1'; RESET MASTER" ||
	    return 1
	for _r; do
		mariadb --no-defaults -uroot -S "$_r" -e "RESET MASTER;
		    SET GLOBAL gtid_slave_pos = '';
		    CHANGE MASTER TO master_host = '127.0.0.1',
		    master_port = $_pport, master_user = 'repl',
		    master_password = 'r', master_use_gtid = slave_pos;
		    START SLAVE" || return 1
	done
}

server_restart() {
	_name=$1
	shift
	_keep_sock=${RP_SOCK:-} _keep_port=${RP_PORT:-}
	_keep_pid=$RP_SERVER_PID
	eval "RP_PORT=\$${_name}_PORT"
	server_run "$@"
	_rc=$?
	eval "${_name}_PID=\$RP_SERVER_PID"
	RP_SOCK=$_keep_sock RP_PORT=$_keep_port RP_SERVER_PID=$_keep_pid
	return $_rc
}

SERVER_OWN=
server_own() {
	_name=$1
	shift
	[ -n "$SERVER_OWN" ] || trap 'server_own_stop; rm -rf "$T_DIR"' EXIT
	SERVER_OWN="$_name $SERVER_OWN"
	server_add "$_name" "$T_DIR/$(printf %s "$_name" | tr A-Z a-z)" \
	    --innodb-buffer-pool-size=32M --innodb-log-file-size=16M "$@" \
	    >/dev/null || { eval "${_name}_PID="; fail_all "server $_name did not start"; }
}

# By name: NAME_PID is the server's pid after a server_restart too.
server_own_stop() {
	for _name in $SERVER_OWN; do
		eval "server_stop_pid \"\${${_name}_PID:-}\""
	done
	SERVER_OWN=
}
