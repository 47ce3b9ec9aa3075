# The control socket's security: a private directory created 0700, a
# socket 0600 in it; a directory another user could enter, or that is not
# a directory, is refused with a clear message (run goes on without a
# socket). Without XDG_RUNTIME_DIR the directory is /tmp/leakscope-UID.
. "$(dirname "$0")/../lib.sh"
v=$(victim check-threads) || exit

start() { # run the victim; sets runpid, pid
	# (no out of the run before: its "ready" would be read before the new
	# run's redirection empties the file)
	rm -f "$T/in" "$T/out" && mkfifo "$T/in"
	"$LEAKSCOPE" run -f json -o "$T/exit.json" -- "$v" < "$T/in" > "$T/out" 2> "$T/err" &
	runpid=$!
	exec 3> "$T/in"
	i=0
	until grep -q ready "$T/out"; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "the victim never got ready"; sleep 0.05
	done
	pid=$(awk '/ready/ {print $2}' "$T/out")
}
finish() {
	echo go >&3; exec 3>&-
	rc=0; wait $runpid || rc=$?
	# it succeeded but lost a block (582): 23
	[ $rc -eq 23 ] || { cat "$T/err"; fail "run exited $rc"; }
}

export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
start
d=$XDG_RUNTIME_DIR/leakscope
[ "$(stat -c %a "$d")" = 700 ] || fail "directory mode $(stat -c %a "$d")"
[ "$(stat -c %a "$d/$runpid.sock")" = 600 ] || fail "socket mode $(stat -c %a "$d/$runpid.sock")"
[ "$(stat -c %U "$d/$runpid.sock")" = "$(id -un)" ] || fail "socket owner"
"$LEAKSCOPE" mark "$pid" "perms" || fail "mark failed"
finish
[ ! -e "$d/$runpid.sock" ] || fail "the socket outlived its run"

# a directory open to others is refused, by run and by the client
chmod 755 "$d"
start
expect_grep "$T/err" "warning: no control socket.*accessible by other users \\(mode 0755\\)"
rc=0; "$LEAKSCOPE" check "$pid" > "$T/c.out" 2> "$T/c.err" || rc=$?
[ $rc -eq 1 ] || fail "check in an open directory exited $rc"
expect_grep "$T/c.err" "^leakscope: '.*/leakscope' is accessible by other users"
finish

# not a directory
rm -rf "$d" && : > "$d"
start
expect_grep "$T/err" "warning: no control socket.*is not a directory"
finish

# XDG_RUNTIME_DIR unset: /tmp/leakscope-UID
unset XDG_RUNTIME_DIR
start
u=/tmp/leakscope-$(id -u)
[ "$(stat -c %a "$u")" = 700 ] && [ -S "$u/$runpid.sock" ] || fail "no socket in $u"
"$LEAKSCOPE" mark "$pid" "in tmp" || fail "mark through /tmp failed"
finish
