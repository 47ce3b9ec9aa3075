# A setuid program run by another user: the loader ignores LD_PRELOAD for it,
# so leakscope refuses with status 125 and one line on stderr starting with
# "leakscope: ". Run as a non-root user; as root, the test becomes "nobody"
# through setpriv when it can, else it is skipped.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
if [ "$(id -u)" -ne 0 ]; then
	skip "needs a setuid copy owned by another user: run as root (with setpriv) to test"
fi
command -v setpriv > /dev/null || skip "running as root and no setpriv to drop privileges"
dir=$T/suid
mkdir "$dir" && chmod 755 "$T" "$dir"
cp "$v" "$dir/suid-prog"
chown root:root "$dir/suid-prog" && chmod 4755 "$dir/suid-prog"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
as_nobody "$LEAKSCOPE" --help > /dev/null 2>&1
as_nobody test -x "$LEAKSCOPE" || skip "user nobody cannot execute $LEAKSCOPE"
as_nobody "$dir/suid-prog" > /dev/null 2>&1 || skip "nobody cannot run the setuid copy"
rc=0
as_nobody "$LEAKSCOPE" run -- "$dir/suid-prog" > "$dir/stdout" 2> "$dir/stderr" || rc=$?
[ "$rc" = 125 ] || { cat "$dir/stderr"; fail "expected exit status 125, got $rc"; }
[ "$(wc -l < "$dir/stderr")" -eq 1 ] || { cat "$dir/stderr"; fail "expected one line on stderr"; }
expect_grep "$dir/stderr" '^leakscope: .*suid-prog'
exit 0
