# A clean C hello world: nothing reported; stdout's buffer (kept by libc
# until exit) is listed under "suppressed", and with
# --no-default-suppressions it becomes a leak allocated from printf.
. "$(dirname "$0")/../lib.sh"
v=$(victim hello) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
expect_grep "$T/stdout" '^hello, world$'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0 and root.summary.leaked_objects == 0'
expect_json "$T/r.json" 'root.leaks == []'
expect_json "$T/r.json" 'root.summary.suppressed_objects >= 1 and root.summary.suppressed_bytes >= 1024'
expect_json "$T/r.json" 'root.suppressed | length >= 1 and all(.[]; (.suppression | type) == "string")'
expect_json "$T/r.json" 'root.suppressed | any(.[]; has_fn("main"))'
# the text report says nothing was leaked
rc=0
"$LEAKSCOPE" run -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 0
if grep -Eq 'allocated from' "$T/stderr"; then cat "$T/stderr"; fail "a leak was reported"; fi
# without the default suppressions, the buffer is a leak
ls_run "$T/all.json" --no-default-suppressions --show-reachable -- "$v"
expect_rc 0 # stdout's buffer is still reachable: not a leak
expect_json "$T/all.json" 'root.classes["still-reachable"].objects >= 1 and root.summary.suppressed_objects == 0'
expect_json "$T/all.json" 'root.leaks | any(.[]; has_fn("main") and .class == "still-reachable")'
exit 0
