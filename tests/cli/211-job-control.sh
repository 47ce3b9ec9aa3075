# job-control: in an interactive shell (bash under tmux), Ctrl-Z, fg and
# Ctrl-C act on a program under `leakscope run` as on the program alone:
# the shell reports the job stopped, fg continues it with its input, Ctrl-C
# reaches its handler and its status is the shell's $?. For a program that
# handles Ctrl-Z itself (as editors do) and for cat (the default action),
# with and without the scan.
. "$(dirname "$0")/../lib.sh"
command -v tmux > /dev/null || skip "no tmux"
command -v bash > /dev/null || skip "no bash"
v=$(victim tstp-handler) || exit
S=lk-jc-$$
export TMUX_TMPDIR=$T
tmux_keys() { tmux send-keys -t "$S" "$@"; sleep 0.5; }
session() { # command line: Ctrl-Z, jobs, fg, a line of input, end
	tmux kill-server 2> /dev/null
	tmux new-session -d -s "$S" -x 150 -y 50 "bash --norc --noprofile -i"
	sleep 0.5
	tmux_keys "PS1='$ '; $1" Enter
	tmux_keys C-z
	tmux_keys "jobs; echo JOBS_DONE" Enter
	tmux_keys fg Enter
	tmux_keys "hello" Enter
	tmux_keys "$2"
	sleep 1
	tmux_keys 'echo STATUS=$?' Enter
	tmux capture-pane -t "$S" -p -S -100 > "$T/pane"
	tmux kill-server
}
check() { # what
	grep -q 'Stopped' "$T/pane" || { cat "$T/pane"; fail "$1: the shell did not see the job stopped"; }
	grep -q '^hello$' "$T/pane" || { cat "$T/pane"; fail "$1: no echo after fg: the program did not continue"; }
}

session "$v" C-d
grep -q '^\[cont\]$' "$T/pane" && grep -q '^STATUS=0$' "$T/pane" || { cat "$T/pane"; fail "the victim alone"; }
for how in "run --exit-code 0" "run --no-scan --exit-code 0"; do
	session "$LEAKSCOPE $how -- $v" C-d
	check "$how, Ctrl-Z handled"
	grep -q '^\[cont\]$' "$T/pane" || { cat "$T/pane"; fail "$how: the program's Ctrl-Z handler never saw SIGCONT"; }
	grep -q '^STATUS=0$' "$T/pane" || { cat "$T/pane"; fail "$how: wrong status"; }
	session "$LEAKSCOPE $how -- $v" C-c
	check "$how, Ctrl-C"
	grep -q '\[int\]' "$T/pane" && grep -q '^STATUS=7$' "$T/pane" ||
		{ cat "$T/pane"; fail "$how: Ctrl-C did not reach the program's handler (status 7)"; }
	session "$LEAKSCOPE $how -- cat" C-d
	check "$how, cat"
	grep -q '^STATUS=0$' "$T/pane" || { cat "$T/pane"; fail "$how: cat's status"; }
done
exit 0
