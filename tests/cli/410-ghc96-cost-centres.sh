# 410: a GHC 9.6 profiled build (-prof -fprof-auto) run with -hc: the bands
# are cost-centre stacks from the cost-centre table, innermost first, with
# the innermost centre's module and source location (the LINE:leaky line);
# the leaking stack ranks first and grows at every census. In chromium
# (when installed), the HTML report's flame graph splits the stacks and
# draws the leaking centre as wide as its share of the integrated size.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
line=$(marker "$FIX/src/CostCentres.hs" leaky) || exit 1
"$LEAKSCOPE" eventlog --format json -o "$T/hc.json" "$FIX/cost-centres-hc.eventlog" || fail "eventlog exit $?"
j=$T/hc.json
expect_json "$j" '.warnings == [] and .meta.rts == "GHC-9.6.6 rts_p"'
expect_json "$j" '.meta.breakdown == "cost centre (-hc)" and .detail_columns == ["module", "source_location"]'
expect_json "$j" '(.times_ns | length) >= 4'
expect_json "$j" '.bands[0].label == "Main.leaky.r/Main.leaky/Main.main"'
expect_json "$j" ".bands[0].details == {\"module\": \"Main\", \"source_location\": \"CostCentres.hs:$line:7-17\"}"
expect_json "$j" '.bands[0].values | . == sort and .[0] < .[-1]'
expect_json "$j" '(.bands | max_by(.stats.slope) | .label) == "Main.leaky.r/Main.leaky/Main.main"'
expect_json "$j" '[.bands[].label] | index("Main.leaky/Main.main") != null and index("SYSTEM.SYSTEM") != null'
expect_json "$j" 'any(.bands[]; .details.source_location == "<entire-module>")'
expect_json "$j" '[.markers[].text] == ["reading", "half the input", "read"]'
"$LEAKSCOPE" eventlog --format text "$FIX/cost-centres-hc.eventlog" > "$T/hc.txt" || fail "text exit $?"
expect_grep "$T/hc.txt" "^ +1 .*Main\\.leaky\\.r/Main\\.leaky/Main\\.main \\| Main \\| CostCentres\\.hs:$line:"

# -hy of the same binary: type descriptions as sample strings
"$LEAKSCOPE" eventlog --format json -o "$T/hy.json" "$FIX/cost-centres-hy.eventlog" || fail "-hy exit $?"
expect_json "$T/hy.json" '.meta.breakdown == "type description (-hy)" and .warnings == []'
expect_json "$T/hy.json" '[.bands[:3][].label] == ["List", "Record", "Int"]'
expect_json "$T/hy.json" '.bands[1].stats.fit > 0.9 and .bands[1].stats.slope > 1000000'

"$LEAKSCOPE" eventlog -o "$T/hc.html" "$FIX/cost-centres-hc.eventlog" || fail "html exit $?"
share=$(jq '(.bands[0].stats.integrated) / ([.bands[].stats.integrated] | add)' "$j")
browser_check "the reports" check_flame_cc.mjs "$T/hc.html" "$ROOT/tests/out/screenshots" Main.leaky.r "$share"
exit 0
