# privileged-child: an unprivileged user runs leakscope on a program whose
# child executes a setuid-root program. Under ptrace it would run without
# its privileges; leakscope lets go of the child first: the setuid program
# runs with effective uid 0, as without leakscope, and the report lists it
# as not traced, saying why.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (to install a setuid program)"
command -v setpriv > /dev/null || skip "no setpriv"
x=$(victim exec-child) || exit
p=$(victim print-ids) || exit
chmod 755 "$T"
mkdir "$T/w" && chmod 777 "$T/w"   # the reports, written as nobody
cp "$x" "$T/exec-child"
cp "$p" "$T/print-ids"
chown root:root "$T/print-ids"
chmod 4755 "$T/print-ids"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody "$T/print-ids" > "$T/alone" || fail "cannot run as nobody"
grep -q '^uid 65534 euid 0$' "$T/alone" || skip "setuid programs do not gain privileges here (nosuid?)"

as_nobody "$LEAKSCOPE" run -f json -o "$T/w/r.json" -- "$T/exec-child" "$T/print-ids" \
	> "$T/out" 2> "$T/err"
rc=$?
[ $rc = 0 ] || { cat "$T/err"; fail "status $rc"; }
grep -q '^uid 65534 euid 0$' "$T/out" || { cat "$T/out"; fail "the setuid program lost its privileges under leakscope"; }
grep -q '^child status 0$' "$T/out" || fail "the parent did not see its child end"
expect_json "$T/w/r.json" "[.unreported[] | select(.why == \"exec-privileged\" and .program == \"$T/print-ids\")] | length == 1"
as_nobody "$LEAKSCOPE" run -- "$T/exec-child" "$T/print-ids" > /dev/null 2> "$T/text"
expect_grep "$T/text" "exec'd '$T/print-ids', which gains privileges \(setuid, setgid or file capabilities\): not traced, so that it keeps them: not reported"
exit 0
