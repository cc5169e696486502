#!/bin/sh
# lz -o FILE stopped by a signal says so (issue 25, newuser 7d): Ctrl-C of
# `dbsnap | rows2sql | lz -o f.sql.lz4' on a terminal left no file, as it
# should, but printed nothing.  Now one line, "lz: FILE: not written
# (interrupted)", and lz still dies of the signal; a file that was named
# before the signal is not called unwritten.
. "$(dirname "$0")/../lib.sh"

awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "INSERT INTO t VALUES (%d,\x27row %d\x27);\n", i, i * 7 }' >text
mkfifo in
exec 3<>in
dir=$(pwd -P)
writing() { ls -l /proc/$pid/fd 2>/dev/null | grep -q "$dir/"; }

# (a background job of sh ignores SIGINT: env gives lz the default back)
for s in INT:interrupted:130 TERM:terminated:143 HUP:hangup:129; do
	sig=${s%%:*} why=${s#*:} why=${why%:*} code=${s##*:}
	env --default-signal=INT lz -o f.lz4 <in 2>err &
	pid=$!
	head -c 100000 text >&3
	wait_for writing
	ok $? "SIG$sig: lz -o f.lz4 has its output open"
	kill -$sig $pid
	wait $pid 2>/dev/null
	is "$?" $code "SIG$sig: lz dies of it"
	is "$(cat err)" "lz: f.lz4: not written ($why)" "SIG$sig: and says that f.lz4 was not written"
	ok $([ ! -e f.lz4 ]; echo $?) "SIG$sig: and there is no f.lz4"
done
exec 3>&-

# complete: nothing said, the file is there
lz -o f.lz4 <text 2>err
is "$? $(cat err)" "0 " "a complete run says nothing"
is "$(lz -d <f.lz4 | cksum)" "$(cksum <text)" "and f.lz4 is whole"
done_testing
