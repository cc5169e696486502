#!/bin/sh
# A message of one program of a pipeline does not erase another
# program's password prompt on the same terminal (tmux, 80 columns).
# Messages on a terminal start by clearing the line (a progress line may
# be on it, lib/progress); while a prompt holds the terminal's lock
# (lib/prompt) they go below it instead.  Here sqlexec -p asks for the
# password, and only then lz -d, before it in the pipeline, fails.
. "$(dirname "$0")/../lib.sh"
need_server
command -v tmux >/dev/null || skip_all "no tmux"

T="tmux -S $T_DIR/tmux.sock -f /dev/null"
cat >run.sh <<EOS
{ n=0; while [ ! -e go ] && [ \$n -lt 300 ]; do sleep 0.1; n=\$((n + 1)); done
  echo junk | lz -d; } | sqlexec $(CONN) -p
echo EXIT=\$?
sleep 600
EOS
$T new-session -d -x 80 -y 24 -s t "cd $T_DIR && PATH='$PATH' sh run.sh"
trap '$T kill-server 2>/dev/null; rm -rf "$T_DIR"' EXIT
# screen_has ERE: until the pane shows a line that matches (30 s).
screen_has() {
	wait_for sh -c "$T capture-pane -p -t t | grep -Eq '$1'"
}
screen_has '^sqlexec: password for root@localhost:'
ok $? "sqlexec asks for its password"
: >go
screen_has '^lz: '
ok $? "lz -d fails while the prompt is shown"
$T capture-pane -p -J -t t >prompt.txt
sed 's/^/# /' prompt.txt
like "$(cat prompt.txt)" "^sqlexec: password for root@localhost: *$" \
    "the prompt is still on the screen"
like "$(cat prompt.txt)" "^lz: stdin: not an LZ4 stream$" \
    "lz's message on a line of its own"
is "$(grep -v '^$' prompt.txt | sed -n '1s/ *$//p')" "sqlexec: password for root@localhost:" \
    "the prompt first, the message below it"
$T send-keys -t t Enter			# the test server's root has none
screen_has '^EXIT='
ok $? "sqlexec goes on after the answer"
$T capture-pane -p -J -t t >end.txt
$T kill-server
sed 's/^/# /' end.txt
like "$(grep '^EXIT=' end.txt)" "^EXIT=1$" "sqlexec on lz's empty output: exit 1"
is "$(grep -Ec '(lz|sqlexec): .*(lz|sqlexec): ' end.txt)" 0 \
    "no line holds two programs' output"

done_testing
