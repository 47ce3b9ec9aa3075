# 601: every write error ends the command with one message that names the
# file and the cause, and a failure status: dump, report, eventlog, check
# and --help onto /dev/full; run's report onto /dev/full (125, or the
# program's own failure), into a directory that does not exist (said
# before the program runs, which then does not run) and onto a closed
# pipe (run ignores SIGPIPE: 125). dump onto a closed pipe is ended by
# SIGPIPE as cat is. Reports never go through a symbolic link of another
# user; /dev/stdout (a link of root's) works. A program under run gets
# SIGPIPE's default action back: `yes | head -n 1` ends quietly.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
v=$(victim leak-one) || exit
"$GEN" growth "$T/g.lstrace" 40000 || fail "gen_trace growth"
full="no space left on device"
ev=$ROOT/tests/fixtures/eventlog/large-thunk-hT.eventlog
said_once() { # what the only line of $T/stderr must be
	[ "$(wc -l < "$T/stderr")" = 1 ] || { cat "$T/stderr"; fail "expected one line on stderr"; }
	expect_grep "$T/stderr" "$1"
}
ls_cmd() { rc=0; "$LEAKSCOPE" "$@" 2> "$T/stderr" || rc=$?; }

ls_cmd dump "$T/g.lstrace" > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd report "$T/g.lstrace" > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd report --format json -o /dev/full "$T/g.lstrace"
expect_rc 1; said_once "^leakscope: cannot write '/dev/full': $full\$"
ls_cmd diff "$T/g.lstrace" "$T/g.lstrace" > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd eventlog --format text "$ev" > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd --help > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd report --help > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
ls_cmd run --help > /dev/full
expect_rc 125; said_once "^leakscope: cannot write 'standard output': $full\$"

# dump onto a pipe whose reader is gone: SIGPIPE ends it, as it does cat
{ "$LEAKSCOPE" dump "$T/g.lstrace" 2> "$T/stderr"; echo $? > "$T/status"; } | head -c 1 > /dev/null
[ "$(cat "$T/status")" = 141 ] || fail "dump onto a closed pipe exited $(cat "$T/status"), not 141 (SIGPIPE)"

# run: the report onto a full device is said, and the status is not 23
ls_cmd run -o /dev/full -- "$v" > "$T/stdout"
expect_rc 125; said_once "^leakscope: cannot write '/dev/full': $full\$"
expect_grep "$T/stdout" '^hello 0x'
# ... the program's own failure wins, the message stays
ls_cmd run -o /dev/full -- sh -c 'exit 3'
expect_rc 3; said_once "^leakscope: cannot write '/dev/full': $full\$"
# a report that cannot be created: said first, the program does not run
ls_cmd run -o "$T/no/such/dir/r.json" -- "$v" > "$T/stdout"
expect_rc 125; said_once "^leakscope: cannot write '$T/no/such/dir/r.json': no such file or directory\$"
[ -s "$T/stdout" ] && fail "the program ran although its report could not be written"
# the report on standard error, a pipe whose reader is gone
{ sleep 1; "$LEAKSCOPE" run -- "$v" 2>&1 > /dev/null; echo $? > "$T/status"; } | true
[ "$(cat "$T/status")" = 125 ] || fail "run's report onto a closed pipe: exit $(cat "$T/status"), not 125"

# reports and links: another user's is not followed, root's /dev/stdout is
echo precious > "$T/target"
ln -s "$T/target" "$T/theirs.txt"
if chown -h nobody "$T/theirs.txt" 2> /dev/null; then
	ls_cmd report -o "$T/theirs.txt" "$T/g.lstrace"
	expect_rc 1
	said_once "^leakscope: cannot write '$T/theirs.txt': a symbolic link of another user \(not followed\)\$"
	[ "$(cat "$T/target")" = precious ] || fail "the link of another user was followed"
	ls_cmd run -f json -o "$T/theirs.txt" -- "$v" > "$T/stdout"
	expect_rc 125
	[ -s "$T/stdout" ] && fail "run ran the program although its report could not be written"
	[ "$(cat "$T/target")" = precious ] || fail "run followed the link of another user"
else
	echo "not root: a link of another user cannot be made here; that case was not checked"
fi
ls_cmd report -o /dev/stdout "$T/g.lstrace" > "$T/out"
expect_rc 0; expect_grep "$T/out" "^leakscope report of "

# check's answer onto a full device (the program goes on and ends well)
c=$(victim check-threads) || exit
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
rm -f "$T/in" && mkfifo "$T/in"
"$LEAKSCOPE" run -f json -o "$T/c.json" -- "$c" < "$T/in" > "$T/c.out" 2> "$T/c.err" &
runpid=$!
exec 3> "$T/in"
i=0
until grep -q ready "$T/c.out"; do
	i=$((i + 1)); [ $i -lt 200 ] || fail "the victim never got ready"; sleep 0.05
done
pid=$(awk '/ready/ {print $2}' "$T/c.out")
ls_cmd check "$pid" > /dev/full
expect_rc 1; said_once "^leakscope: cannot write 'standard output': $full\$"
echo go >&3
exec 3>&-
rc=0; wait $runpid || rc=$?
[ $rc -eq 23 ] || { cat "$T/c.err"; fail "run exited $rc after the check"; }

# SIGPIPE as the program expects it
ls_cmd run --no-control -- sh -c 'yes | head -n 1' > "$T/stdout"
expect_grep "$T/stdout" '^y$'
grep -q 'Broken pipe' "$T/stderr" && { cat "$T/stderr"; fail "the program ran with SIGPIPE ignored"; }
exit 0
