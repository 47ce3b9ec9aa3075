# 401: a lazy accumulator's growing THUNK band is ranked first, grows with a
# good fit, and the traceMarker markers come through with their text.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
(cd "$T" && "$bin" +RTS -l -hT -i0.01 -ol"$T/lazy.eventlog" -RTS > /dev/null) || fail "victim failed"
"$LEAKSCOPE" eventlog --format json -o "$T/lazy.json" "$T/lazy.eventlog" 2> "$T/err" || { cat "$T/err"; fail "eventlog exit $?"; }
j=$T/lazy.json
expect_json "$j" '.schema == "leakscope-timeline/2"'
expect_json "$j" '.meta.breakdown == "closure type (-hT)"'
expect_json "$j" '.meta.rts | startswith("GHC-")'
expect_json "$j" '.meta.program | test("hs_lazy_thunk")'
expect_json "$j" '(.times_ns | length) >= 5'
expect_json "$j" '.times_ns == (.times_ns | sort)'
expect_json "$j" '.bands[0].label | startswith("THUNK")'
expect_json "$j" '.bands[0].stats.slope > 1000000 and .bands[0].stats.fit > 0.8'
expect_json "$j" '.bands[0].stats.peak > 10000000'
expect_json "$j" '[.bands[].stats.integrated] == ([.bands[].stats.integrated] | sort | reverse)'
expect_json "$j" '[.markers[].text] == ["start building", "halfway", "built"]'
expect_json "$j" '.markers | map(.t_ns) | . == sort'
expect_json "$j" '[.series[].name] | index("heap size") != null and index("live bytes") != null'
expect_json "$j" '.warnings == []'
"$LEAKSCOPE" eventlog --format text --top 3 "$T/lazy.eventlog" > "$T/lazy.txt" || fail "text exit $?"
expect_grep "$T/lazy.txt" '^ +1 .*THUNK'
expect_grep "$T/lazy.txt" 'halfway'
[ "$(grep -Ec '^ +[0-9]+ ' "$T/lazy.txt")" -eq 3 ] || fail "--top 3 shows 3 bands"
exit 0
