# 403: a -threaded run on two capabilities: per-capability blocks are not in
# time order in the file; samples, markers and series come out sorted, with
# the markers of both workers. (-qg: with GHC 9.0's parallel GC most
# censuses of a -N2 run are skipped; the workers pause after their GCs so
# that censuses land at them however fast the machine.)
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_threaded -threaded) || exit 1
(cd "$T" && "$bin" +RTS -N2 -qg -l -hT -i0.01 -ol"$T/thr.eventlog" -RTS > /dev/null) || fail "victim failed"
"$LEAKSCOPE" eventlog --format json -o "$T/thr.json" "$T/thr.eventlog" || fail "eventlog exit $?"
j=$T/thr.json
expect_json "$j" '.meta.rts | test("thr")'
expect_json "$j" '(.times_ns | length) >= 8 and .times_ns == (.times_ns | sort)'
expect_json "$j" '.markers | map(.t_ns) | . == sort'
expect_json "$j" '[.markers[].text] | contains(["worker 1 start", "worker 2 start", "worker 1 forcing", "worker 2 forcing", "done"])'
expect_json "$j" '.series[] | select(.name == "heap size") | .times_ns == (.times_ns | sort) and (.times_ns | length) > 10'
expect_json "$j" '.bands[0].label | startswith("THUNK")'
expect_json "$j" '.warnings == []'
exit 0
