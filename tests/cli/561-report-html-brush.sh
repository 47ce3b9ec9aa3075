# 561: the HTML report of a growing leak (tests/victims/growleak.c: one
# function called from three places, a spike, frees at exit) against the
# JSON report of the same trace: the page's data ends with the live bytes
# of the end (after the frees at exit) and carries the cells of every site
# with a block; in headless chromium (tests/browser/check_brush.mjs) the
# labels, tooltips, clipped axis, and brushed windows whose leak table,
# summary, trees and flame graph match `report --from A --to B`.
. "$(dirname "$0")/../lib.sh"
v=$(victim growleak) || exit
"$LEAKSCOPE" record -o "$T/g.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || fail "record"
"$LEAKSCOPE" report --format html -o "$T/g.html" "$T/g.lstrace" 2> "$T/stderr" || fail "report --format html"
"$LEAKSCOPE" report --format json --top 0 "$T/g.lstrace" > "$T/g.json" || fail "report --format json"
sed -n '/id="data">/,/<\/script>/p' "$T/g.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
# the first rounds keep their own times: at most 3 rounds (9 allocations) share one
most=$("$LEAKSCOPE" dump "$T/g.lstrace" | awk '$2 == "alloc" { n[$1]++ } END { m = 0; for (t in n) if (n[t] > m) m = n[t]; print m }')
[ "$most" -le 9 ] || fail "$most allocations share one time: the start was held up"
final=$(jq '.summary.final_live_bytes' "$T/g.json")
[ "$final" = 8000 ] || fail "8000 bytes left at exit, not $final"
expect_json "$T/data.json" "(.series[] | select(.name == \"live bytes\") | .v[-1]) == $final"
# RSS is sampled at the heap's peak too: it does not peak below the live bytes
expect_json "$T/g.json" '.summary.rss_peak_bytes >= .summary.peak_live_bytes'
expect_json "$T/data.json" '([.series[] | select(.name == "rss") | .v[]] | max) >= ([.series[] | select(.name == "live bytes") | .v[]] | max)'
expect_json "$T/data.json" '(.cells.sites | length) >= 3 and (.cells.t | length) == (.series[0].t | length)'
# the whole trace's window is the whole heap: the sizes' window numbers are theirs
expect_json "$T/g.json" '.sizes | all(.window == {allocations, bytes, live_objects, live_bytes, leaked_objects: .live_objects, leaked_bytes: .live_bytes})'
# the blocks for the leak candidates of any window: every block not freed is one
expect_json "$T/data.json" "([.cells.spans[] | select(.[4] == -1)] | length) == $(jq '.leak_candidates.blocks' "$T/g.json") and .cells.spansSampled == false"
# a report's own window: the blocks allocated before it are not in it
mid=$(jq '.summary.duration_ns / 2e9' "$T/g.json")
"$LEAKSCOPE" report --format html --from "$mid" -o "$T/w.html" "$T/g.lstrace" 2> "$T/stderr" || fail "report --from --format html"
leaked=$("$LEAKSCOPE" report --format json --from "$mid" "$T/g.lstrace" | jq '.summary.leaked_bytes')
sed -n '/id="data">/,/<\/script>/p' "$T/w.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/w.json"
expect_json "$T/w.json" "([.cells.sites[] | .[1:] | _nwise(5) | select(.[0] >= 0 and .[1] == -1) | .[3]] | add) == $leaked"
browser_check "the page's window" check_brush.mjs "$T/g.html" "$LEAKSCOPE" "$T/g.lstrace" "$ROOT/tests/out/screenshots"
exit 0
