#!/bin/sh
# Every program: -V and --version, --help, and a failed write of either
# (a full disk, /dev/full) is an error, and so is a failed write of the
# data; a missing option file named by
# --defaults-file or --defaults-extra-file is a usage error, found
# before connecting.  No server needed.
. "$(dirname "$0")/../lib.sh"
[ -c /dev/full ] || skip_all "no /dev/full"

for p in dbsnap rows2sql sqlsplit sqlexec lz rows2json json2rows rowmap; do
	out=$($p --version </dev/null 2>err)
	is "$?" 0 "$p --version: exit 0"
	like "$out" "^$p [0-9]+\.[0-9]+\.[0-9]+" "$p --version: version line"
	is "$($p -V </dev/null 2>&1)" "$out" "$p -V: as --version"
	like "$($p --help </dev/null 2>/dev/null)" "^usage: $p " "$p --help: usage on stdout"
	for a in --version -V --help; do
		$p $a </dev/null >/dev/full 2>err
		is "$?" 1 "$p $a >/dev/full: exit 1"
		is "$(cat err)" "$p: stdout: No space left on device" \
		    "$p $a >/dev/full: one line saying why"
	done
done

# A failed write of the data says so once, naming stdout, and names no
# input position (an output error is not a position in the input).
printf 'SELECT 1;\n' | sqlsplit -f >stmt.rp
printf '%s\n' '{"type":"header","version":1,"meta":{"producer":"dbsnap 0.1.0"}}' \
    '{"type":"trailer","frames":1,"rows":0,"stmts":0,"objects":0,"bytes":0}' >snap.jsonl
json2rows -f <snap.jsonl >snap.rp
for c in "sqlsplit -f <stmt.rp" "rowmap -f <stmt.rp" "rows2json <stmt.rp" \
    "json2rows -f <snap.jsonl" "rows2sql <snap.rp"; do
	p=${c%% *}
	eval "$c" >/dev/full 2>err
	is "$?" 1 "$c >/dev/full: exit 1"
	is "$(cat err)" "$p: stdout: write: No space left on device" \
	    "$c >/dev/full: one line, stdout named once"
done

# The option file check comes first: no connection (the socket does not
# exist), and no password prompt (setsid: no terminal to prompt on, so a
# prompt would fail with another message instead of hanging the test).
for p in dbsnap sqlexec; do
	for f in defaults-file defaults-extra-file; do
		$p --$f=missing.cnf -S nosuch.sock db </dev/null >out 2>err
		is "$?" 2 "$p --$f=missing.cnf: exit 2"
		is "$(cat err)" "$p: --$f missing.cnf: No such file or directory" \
		    "$p --$f=missing.cnf: one line saying why"
		is "$(wc -c <out | tr -d ' ')" 0 "$p --$f=missing.cnf: no output"
	done
	if command -v setsid >/dev/null; then
		setsid -w $p -p --defaults-file=missing.cnf -S nosuch.sock db \
		    </dev/null >/dev/null 2>err
		is "$(cat err)" \
		    "$p: --defaults-file missing.cnf: No such file or directory" \
		    "$p -p: option file checked before the password prompt"
	else
		ok 0 "# SKIP no setsid(1)"
	fi
	: >plain
	$p --defaults-file=plain/my.cnf -S nosuch.sock db </dev/null >out 2>err
	is "$?" 2 "$p --defaults-file that cannot be opened: exit 2"
	is "$(cat err)" "$p: --defaults-file plain/my.cnf: Not a directory" \
	    "$p --defaults-file that cannot be opened: the reason"
	# --no-defaults: no file is read, so none is checked; the
	# connection is then tried, and fails (exit 1).
	$p --no-defaults --defaults-file=missing.cnf -S nosuch.sock db \
	    </dev/null >out 2>err
	is "$?" 1 "$p --no-defaults: missing --defaults-file not checked"
	like "$(cat err)" "nosuch\.sock" "$p --no-defaults: the connection failed"
done
# Every program reads its [program] group, so even sqlexec -n, which
# connects to nothing, and the programs without a connection check it.
sqlsplit </dev/null | sqlexec -n --defaults-file=missing.cnf >/dev/null 2>err
is "$?" 2 "sqlexec -n: a missing --defaults-file is a usage error too"
for p in rows2sql sqlsplit lz rows2json json2rows rowmap; do
	$p --defaults-file=missing.cnf </dev/null >out 2>err
	is "$?" 2 "$p --defaults-file=missing.cnf: exit 2"
	is "$(cat err)" "$p: --defaults-file missing.cnf: No such file or directory" \
	    "$p --defaults-file=missing.cnf: one line saying why"
done

done_testing
