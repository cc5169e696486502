#!/bin/sh
# The restore recipe on a terminal (tmux, 80 columns): the first program
# of the pipeline (lz -d, which knows the compressed size) shows percent
# and ETA, and no line runs into another: a warning from sqlexec in the
# middle and the summaries at the end each get a line of their own.
# Also: "1 statement", and sqlexec -q.
. "$(dirname "$0")/../lib.sh"
need_server
command -v tmux >/dev/null || skip_all "no tmux"
DB=t6040_db
fresh_db $DB

# 23 MiB of SQL that barely compresses and costs the server little: a
# SLEEP first (lz then waits, and is past one second when it goes on),
# and a SET that sqlexec -j 2 warns about in the middle.
{
	echo "SELECT SLEEP(1.5);"
	i=0
	while [ $i -lt 480 ]; do
		printf "SET @v = '"
		head -c 36000 /dev/urandom | base64 -w0
		printf "';\n"
		[ $i -eq 200 ] && echo "SET @x = ROW_COUNT();"
		i=$((i + 1))
	done
} >dump.sql
lz <dump.sql >dump.sql.lz4 || exit 1

# tmux on its own socket, a window of 80x24; the recipe starts once the
# pane's output is recorded (go), and says when it is done (EXIT=).
T="tmux -S $T_DIR/tmux.sock -f /dev/null"
cat >run.sh <<EOS
n=0; while [ ! -e go ] && [ \$n -lt 300 ]; do sleep 0.1; n=\$((n + 1)); done
lz -d <dump.sql.lz4 | sqlsplit | sqlexec -j 2 $(CONN) $DB
echo EXIT=\$?
sleep 600
EOS
$T new-session -d -x 80 -y 24 -s t "cd $T_DIR && PATH='$PATH' sh run.sh"
trap '$T kill-server 2>/dev/null; rm -rf "$T_DIR"' EXIT
$T pipe-pane -t t -o "cat >>$T_DIR/raw.log"
: >go
n=0
until $T capture-pane -p -t t | grep -q '^EXIT='; do
	n=$((n + 1))
	[ $n -lt 1200 ] || break		# 120 s
	sleep 0.1
done
$T capture-pane -p -J -t t >screen.txt
$T kill-server
sed 's/^/# /' screen.txt

like "$(grep '^EXIT=' screen.txt)" "^EXIT=0$" "the restore recipe: exit 0"
like "$(tr '\r' '\n' <raw.log)" "^lz: [0-9]+% ETA [0-9]+:[0-9][0-9], " \
    "lz -d showed percent and ETA first"
ok $(tr '\r' '\n' <raw.log | grep -q '^sqlsplit: [0-9]'; echo $((! $?))) \
    "sqlsplit, not first in the pipeline, showed no progress"
# On the screen as the user sees it: each line is one message.
like "$(grep '^sqlexec: warning' screen.txt)" "ROW_COUNT" \
    "sqlexec's warning on a line of its own"
like "$(grep '^lz: ' screen.txt)" "^lz: [0-9.]+ MiB in [0-9.]+ s" "lz's summary on a line of its own"
like "$(grep '^sqlexec: [0-9]' screen.txt)" "^sqlexec: 482 statements, " \
    "sqlexec's summary on a line of its own"
is "$(grep -v '^$' screen.txt | grep -Ecv '^(lz|sqlexec|sqlsplit): |^EXIT=')" 0 \
    "every line on the screen starts with one program's name"
is "$(grep -Ec '(lz|sqlexec|sqlsplit): .*(lz|sqlexec|sqlsplit): ' screen.txt)" 0 \
    "no line holds two programs' output"

# Singular counts, and -q.
echo "SELECT 1;" | sqlsplit --progress 2>err >one.rp
like "$(cat err)" "^sqlsplit: 1 statement, " "sqlsplit: 1 statement"
sqlexec $(CONN) <one.rp 2>err
like "$(cat err)" "^sqlexec: 1 statement, 0 rows affected, " "sqlexec: 1 statement"
sqlexec -q $(CONN) <one.rp 2>err
is "$?:$(cat err)" "0:" "sqlexec -q: no summary"
echo "SELECT nosuch;" | sqlsplit | sqlexec -q $(CONN) 2>err
is "$?" 1 "sqlexec -q, a failure: exit 1"
like "$(cat err)" "statement 1 .*1054" "sqlexec -q, a failure: the error"
like "$(cat err)" "^sqlexec: 1 statement, .*1 FAILED|sqlexec: 1 statement" \
    "sqlexec -q, a failure: the summary too"

done_testing
