# 407: the same GHC 9.6 program as 406 profiled by closure type (-hT): the
# THUNK_2_0 band grows first and steepest, next to the boxed Ints it holds
# (a constructor band named "pkg:Module.Con"); no detail columns.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
"$LEAKSCOPE" eventlog --format json -o "$T/ht.json" "$FIX/large-thunk-hT.eventlog" || fail "eventlog exit $?"
j=$T/ht.json
expect_json "$j" '.warnings == [] and .meta.breakdown == "closure type (-hT)"'
expect_json "$j" '.meta.rts == "GHC-9.6.6 rts_v" and .detail_columns == []'
expect_json "$j" '.bands[0].id == "THUNK_2_0" and .bands[0].label == "THUNK_2_0"'
expect_json "$j" '.bands[0].stats.fit > 0.9 and .bands[0].stats.peak > 10000000'
expect_json "$j" '(.bands | max_by(.stats.slope) | .id) == "THUNK_2_0"'
expect_json "$j" '.bands[1].id == "ghc-prim:GHC.Types.I#" and .bands[1].stats.slope > 1000000'
expect_json "$j" '[.bands[].id] | index("STACK") != null and index("ARR_WORDS") != null'
expect_json "$j" '[.markers[].text] == ["start building", "halfway", "built", "forced"]'
"$LEAKSCOPE" eventlog --format text "$FIX/large-thunk-hT.eventlog" > "$T/ht.txt" || fail "text exit $?"
expect_grep "$T/ht.txt" '^ +1 .* THUNK_2_0$'
expect_grep "$T/ht.txt" '^ +2 .* ghc-prim:GHC\.Types\.I#$'
exit 0
