# leak-one under `leakscope run` with the default text report: one line per
# process on stderr, then the 1,000-byte leak with hello() as frame #0 and
# its file:line; the program's stdout and exit status pass through.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
line=$(marker "$ROOT/tests/victims/leak-one.c" hello-malloc)
rc=0
"$LEAKSCOPE" run -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 23 # it succeeded but leaked: LeakSanitizer's status
expect_grep "$T/stdout" '^hello 0x[0-9a-f]+$'
expect_grep "$T/stderr" "^leakscope: 1,000 bytes lost in 1 object \(pid [0-9]+, [^)]*leak-one\): 1,000 bytes in 1 object definitely, 0 bytes in 0 objects indirectly, 0 bytes in 0 objects possibly$"
expect_grep "$T/stderr" '^  1,000 bytes in 1 object definitely lost, allocated from:$'
expect_grep "$T/stderr" "^    #0 +hello +(.*/)?leak-one\.c:$line +\(leak-one\)$"
expect_grep "$T/stderr" "^    #1 +main +(.*/)?leak-one\.c:[0-9]+ +\(leak-one\)$"
# the pid in the header is the program's, which its pointer does not tell;
# at least it is not leakscope's own
pid=$(sed -n 's/^leakscope: .*(pid \([0-9]*\),.*/\1/p' "$T/stderr" | head -n 1)
[ "$pid" != "$$" ] || fail "reported pid is the shell's"
exit 0
