# 409: a GHC 9.6 -hi profile of a Data.Map cache that is never evicted: the
# Entry constructor and its String thunk grow, each named with its IPE
# columns at the LINE:entry line; the Map's Bin nodes (containers is built
# without an info-table map) grow too but stay a bare address; a boxed Int
# whose IPE has no location (GHC 9.6 writes ":") shows an empty location.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
line=$(marker "$FIX/src/MapLeak.hs" entry) || exit 1
"$LEAKSCOPE" eventlog --format json -o "$T/map.json" "$FIX/map-leak-hi.eventlog" || fail "eventlog exit $?"
j=$T/map.json
expect_json "$j" '.warnings == [] and .meta.breakdown == "info table (-hi)"'
expect_json "$j" '[.markers[].text] == ["serving", "cache warm", "done serving"]'
entry='first(.bands[] | select(.details.type == "Entry"))'
expect_json "$j" "$entry | .details.closure_type == \"CONSTR_1_1\" and .details.module == \"Main\""
expect_json "$j" "$entry | .details.source_location | test(\"^MapLeak.hs:$line:[0-9]+-[0-9]+\$\")"
expect_json "$j" "$entry | .label | test(\"^Entry_Main_[0-9]+_con_info\$\")"
expect_json "$j" "$entry | .stats.fit > 0.9 and .stats.slope > 1000000 and .rank <= 4"
str='first(.bands[] | select(.details.type == "[Char]" and .details.closure_type == "THUNK_0_1"))'
expect_json "$j" "$str | .details.source_location | startswith(\"MapLeak.hs:$line:\")"
# the largest band has no IPE entry: an address, details null, still growing
expect_json "$j" '.bands[0].label | test("^0x[0-9a-f]+$")'
expect_json "$j" '.bands[0].details | [.[]] | all(. == null)'
expect_json "$j" '.bands[0].stats.fit > 0.9'
expect_json "$j" '[.bands[] | select(.details.module != null) | .details.source_location] | all(. != ":")'
expect_json "$j" 'any(.bands[]; .details.type == "Int" and .details.source_location == "")'
exit 0
