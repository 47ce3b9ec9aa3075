# 406: a real GHC 9.6 -hi eventlog (tests/fixtures/eventlog, made by its
# make-fixtures.sh): the growing thunk of LargeThunk.hs is ranked first, by
# size and by slope, named by its IPE entry (description, closure type,
# type, module, source location at the LINE:thunk line); RTS and program
# metadata, markers, the 9.6 series (blocks size) come through. Every IPE
# event of the file declares one byte too many: no warning may result.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
line=$(marker "$FIX/src/LargeThunk.hs" thunk) || exit 1
"$LEAKSCOPE" eventlog --format json -o "$T/hi.json" "$FIX/large-thunk-hi.eventlog" 2> "$T/stderr" ||
	{ cat "$T/stderr"; fail "eventlog exit $?"; }
[ -s "$T/stderr" ] && { cat "$T/stderr"; fail "unexpected diagnostics"; }
j=$T/hi.json
expect_json "$j" '.warnings == []'
expect_json "$j" '.meta.rts == "GHC-9.6.6 rts_v"'
expect_json "$j" '.meta.breakdown == "info table (-hi)"'
expect_json "$j" '.meta.program | startswith("./LargeThunk +RTS -l -hi -i0.05")'
expect_json "$j" '.meta.start | test("^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T")'
expect_json "$j" '.meta.sampling_interval_ns == 50000000'
expect_json "$j" '.title == "LargeThunk"'
expect_json "$j" '.detail_columns == ["description", "closure_type", "type", "module", "source_location"]'
expect_json "$j" '(.times_ns | length) >= 5 and .times_ns == (.times_ns | sort)'
b='.bands[0]'
expect_json "$j" "$b.id | test(\"^0x[0-9a-f]+\$\")"
expect_json "$j" "$b.label | test(\"^sat_.*_info\$\")"
expect_json "$j" "$b.details.description == $b.label"
expect_json "$j" "$b.details.closure_type == \"THUNK_2_0\""
expect_json "$j" "$b.details.type == \"Totals\""
expect_json "$j" "$b.details.module == \"Main\""
expect_json "$j" "$b.details.source_location | test(\"^LargeThunk.hs:$line:[0-9]+-[0-9]+\$\")"
# growth: the largest, the steepest, a good straight-line fit, >10 MB at the end
expect_json "$j" "$b.stats.fit > 0.9 and $b.stats.slope > 1000000 and $b.stats.peak > 10000000"
expect_json "$j" "(.bands | max_by(.stats.slope) | .id) == $b.id"
expect_json "$j" "$b.values | . == sort"
# bands without an IPE entry (RTS and library tables) keep their address
expect_json "$j" '[.bands[] | select(.details.module == null) | .label | test("^0x[0-9a-f]+$")] | all and length > 5'
expect_json "$j" '[.markers[].text] == ["start building", "halfway", "built", "forced"]'
expect_json "$j" '.markers[3].t_ns > .times_ns[-1]'  # no census once profiling stopped
expect_json "$j" '[.series[].name] == ["heap size", "live bytes", "blocks size"]'
expect_json "$j" '.series[] | (.values | length) > 10'

"$LEAKSCOPE" eventlog --format text --top 4 "$FIX/large-thunk-hi.eventlog" > "$T/hi.txt" || fail "text exit $?"
expect_grep "$T/hi.txt" '^  rts +GHC-9\.6\.6 rts_v$'
expect_grep "$T/hi.txt" "^ +1 .*sat_.*_info \\| THUNK_2_0 \\| Totals \\| Main \\| LargeThunk\\.hs:$line:"
expect_grep "$T/hi.txt" 'halfway'
[ "$(grep -Ec '^ +[0-9]+ ' "$T/hi.txt")" -eq 4 ] || fail "--top 4 shows 4 bands"

cp "$FIX/large-thunk-hi.eventlog" "$T/"
"$LEAKSCOPE" eventlog "$T/large-thunk-hi.eventlog" || fail "html exit $?"
h=$T/large-thunk-hi.eventlog.html
[ -s "$h" ] || fail "no HTML report next to the input"
expect_grep "$h" "LargeThunk\\.hs:$line:"
expect_grep "$h" 'GHC-9\.6\.6 rts_v'
expect_grep "$h" 'start building'
if grep -Eq '<script[^>]+src=|<link[^>]+href="http' "$h"; then fail "HTML loads something from outside"; fi
exit 0
