# 421: eventlog --y-axis TEXT labels the byte axis of the HTML charts (as
# eventlog2html's --y-axis), as text; other formats refuse it (usage, 2).
. "$(dirname "$0")/../lib.sh"
in=$ROOT/tests/fixtures/eventlog/cost-centres-hc.eventlog
label='Live heap <b>bytes</b>'
"$LEAKSCOPE" eventlog --y-axis "$label" -o "$T/with.html" "$in" || fail "html exit $?"
"$LEAKSCOPE" eventlog -o "$T/without.html" "$in" || fail "html exit $?"
rc=0; "$LEAKSCOPE" eventlog --format json --y-axis x "$in" > /dev/null 2> "$T/err" || rc=$?
expect_rc 2
expect_grep "$T/err" "y-axis"
browser_check "the label" check_y_axis.mjs "$T/with.html" "$T/without.html" "$label"
exit 0
