# 402: the strict fix has no growing THUNK band, and --diff of the lazy run
# against it shows the THUNK band removed or shrunk.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
lazy=$(victim hs_lazy_thunk) || exit 1
strict=$(victim hs_strict_fix) || exit 1
(cd "$T" && "$lazy" +RTS -l -hT -i0.05 -ol"$T/lazy.eventlog" -RTS > /dev/null) || fail "lazy victim failed"
(cd "$T" && "$strict" +RTS -l -hT -i0.05 -ol"$T/strict.eventlog" -RTS > /dev/null) || fail "strict victim failed"
"$LEAKSCOPE" eventlog --format json -o "$T/strict.json" "$T/strict.eventlog" || fail "eventlog exit $?"
expect_json "$T/strict.json" '[.bands[] | select(.label | startswith("THUNK")) | select(.stats.peak > 1000000 or .stats.slope > 100000)] == []'
expect_json "$T/strict.json" '[.markers[].text] == ["start building", "halfway", "built"]'

"$LEAKSCOPE" eventlog --diff "$T/lazy.eventlog" "$T/strict.eventlog" --format json > "$T/diff.json" || fail "diff exit $?"
d=$T/diff.json
expect_json "$d" '.schema == "leakscope-timeline-diff/2"'
expect_json "$d" '.bands[0].id | startswith("THUNK")'
expect_json "$d" '[.bands[] | select(.id == "THUNK_2_0")][0] | .side == "removed" or (.after.peak < .before.peak / 10)'
expect_json "$d" '.bands[0].delta.integrated < 0'
"$LEAKSCOPE" eventlog --diff "$T/lazy.eventlog" "$T/strict.eventlog" > "$T/diff.txt" || fail "text diff exit $?"
expect_grep "$T/diff.txt" '^(removed|shrunk) .*THUNK_2_0'
exit 0
