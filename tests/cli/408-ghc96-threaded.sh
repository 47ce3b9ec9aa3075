# 408: a GHC 9.6 -threaded -N2 -hi run: heap samples (global buffer) and
# markers and heap series (per-capability buffers) come from blocks of
# different capabilities, out of time order in the file; the report has
# them sorted, and the growing thunk named by its IPE entry as in 406.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
line=$(marker "$FIX/src/LargeThunk.hs" thunk) || exit 1
"$LEAKSCOPE" eventlog --format json -o "$T/thr.json" "$FIX/large-thunk-thr-hi.eventlog" || fail "eventlog exit $?"
j=$T/thr.json
expect_json "$j" '.warnings == [] and .meta.rts == "GHC-9.6.6 rts_thr"'
expect_json "$j" '.meta.program | test("-N2")'
expect_json "$j" '(.times_ns | length) >= 5 and .times_ns == (.times_ns | sort)'
expect_json "$j" '.markers | map(.t_ns) | . == sort'
expect_json "$j" '[.markers[].text] == ["start building", "halfway", "built", "forced"]'
expect_json "$j" '.series[] | .times_ns == (.times_ns | sort)'
expect_json "$j" ".bands[0].details.source_location | startswith(\"LargeThunk.hs:$line:\")"
expect_json "$j" '.bands[0].details.closure_type == "THUNK_2_0" and .bands[0].stats.fit > 0.9'
exit 0
