# 411: a real GHC 9.6 -hi eventlog cut inside its heap samples (they sit at
# the end, after the IPE events): the report keeps the censuses read before
# the cut, still joined with their IPE entries, and says where it stopped.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
full=$FIX/large-thunk-hi.eventlog
"$LEAKSCOPE" eventlog --format json -o "$T/full.json" "$full" || fail "full exit $?"
n_full=$(jq '.times_ns | length' "$T/full.json")
size=$(wc -c < "$full")
# the samples take the last ~8%: cut in their middle
head -c $((size - size / 25)) "$full" > "$T/cut.eventlog"
"$LEAKSCOPE" eventlog --format json -o "$T/cut.json" "$T/cut.eventlog" 2> "$T/err" ||
	{ cat "$T/err"; fail "exit $? on a truncated file"; }
expect_grep "$T/err" "^leakscope: cannot read '.*cut.eventlog': truncated at offset [0-9]+ \(last complete event at [0-9]+\.[0-9]{3} s\); the report shows what was read before"
j=$T/cut.json
expect_json "$j" '.warnings[0] | test("^truncated at offset [0-9]+ ")'
expect_json "$j" "(.times_ns | length) >= 2 and (.times_ns | length) < $n_full"
expect_json "$j" '.bands[0].details.closure_type == "THUNK_2_0" and (.bands[0].details.source_location | startswith("LargeThunk.hs:"))'
exit 0
