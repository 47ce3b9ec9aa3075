# A statically linked program cannot be traced by an LD_PRELOAD interposer:
# status 125 and one line on stderr starting with "leakscope: " naming it,
# rather than a run that silently reports nothing.
. "$(dirname "$0")/../lib.sh"
printf '#include <stdlib.h>\nint main(void) { return malloc(10) == 0; }\n' > "$T/static.c"
cc -static -o "$T/static-prog" "$T/static.c" 2> "$T/cc.log" || skip "cannot link statically (no static libc)"
rc=0
"$LEAKSCOPE" run -- "$T/static-prog" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 125
[ "$(wc -l < "$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "expected one line on stderr"; }
expect_grep "$T/stderr" '^leakscope: .*static-prog'
exit 0
