#!/bin/sh
# Every program: -V and --version, --help, and a failed write of either
# (a full disk, /dev/full) is an error.  No server needed.
. "$(dirname "$0")/../lib.sh"
[ -c /dev/full ] || skip_all "no /dev/full"

for p in dbsnap rows2sql sqlsplit sqlexec lz; do
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

done_testing
