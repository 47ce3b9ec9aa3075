# 562: the names of allocation sites on the HTML report of
# tests/victims/sharedcaller.c (one allocating function, three stacks, two
# of which share its caller): in headless chromium
# (tests/browser/check_labels.mjs) every site has a name of its own, made
# of the callers that tell it apart, and its numbers are those of the JSON
# report's site of that stack.
. "$(dirname "$0")/../lib.sh"
v=$(victim sharedcaller) || exit
"$LEAKSCOPE" record -o "$T/s.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || fail "record"
"$LEAKSCOPE" report --format html -o "$T/s.html" "$T/s.lstrace" 2> "$T/stderr" || fail "report --format html"
"$LEAKSCOPE" report --format json --top 0 "$T/s.lstrace" > "$T/s.json" || fail "report --format json"
expect_json "$T/s.json" '[.leaks[] | .leaked_bytes] | sort == [1280, 2560, 5120]'
browser_check "the site names" check_labels.mjs "$T/s.html" "$T/s.json" "$ROOT/tests/out/screenshots"
exit 0
