# 418: a marker after the last census (a program that stops its censuses,
# then goes on) is inside the HTML charts' time axis, so it is drawn: the
# axis ends at the last census, marker or series point, whichever is last.
. "$(dirname "$0")/../lib.sh"
in=$ROOT/tests/fixtures/eventlog/large-thunk-hT.eventlog
"$LEAKSCOPE" eventlog --format json -o "$T/r.json" "$in" || fail "json exit $?"
"$LEAKSCOPE" eventlog -o "$T/r.html" "$in" || fail "html exit $?"
sed -n '/id="data">/,/<\/script>/p' "$T/r.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
# "forced" comes after stopHeapProfTimer: later than every census
expect_json "$T/r.json" '(.markers[-1].text == "forced") and (.markers[-1].t_ns > .times_ns[-1])'
expect_json "$T/data.json" '.markers[-1][1] == "forced"'
expect_json "$T/data.json" '.t1 >= ([.markers[][0]] | max)'
expect_json "$T/data.json" '.t1 >= ([.series[]? | .t[-1]?] + [0] | max)'
exit 0
