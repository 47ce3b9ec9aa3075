# 560: diff --format html, two points of one recording of the growing leak
# (tests/victims/growleak.c): between the middle and the end, load_config's
# strings were removed (freed at exit) and parse_line's added; the page's
# data and, in chromium (tests/browser/check_diff.mjs), its Added tab and
# Summary, Added tab and trees hold the numbers of the JSON diff of the
# same points; each side's totals are those of its trace up to its point.
. "$(dirname "$0")/../lib.sh"
v=$(victim growleak) || exit
"$LEAKSCOPE" record -o "$T/g.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || fail "record"
mid=$("$LEAKSCOPE" report --format json "$T/g.lstrace" | jq '.summary.duration_ns / 2e9')
"$LEAKSCOPE" diff --format html -o "$T/d.html" "$T/g.lstrace@$mid" "$T/g.lstrace" 2> "$T/stderr" || fail "diff --format html"
"$LEAKSCOPE" diff --format json "$T/g.lstrace@$mid" "$T/g.lstrace" > "$T/d.json" || fail "diff --format json"
expect_json "$T/d.json" '.added_bytes > 0 and .removed_bytes > 0'
# each side's totals up to its point: A's as the start-to-A diff's B has them,
# B's (the end) as the report's summary
"$LEAKSCOPE" diff --format json "$T/g.lstrace@0" "$T/g.lstrace@$mid" > "$T/a.json" || fail "diff to the middle"
"$LEAKSCOPE" report --format json "$T/g.lstrace" > "$T/r.json" || fail "report --format json"
[ "$(jq -c '.a | del(.point)' "$T/d.json")" = "$(jq -c '.b | del(.point)' "$T/a.json")" ] || fail "A's totals differ from the start-to-A diff's B"
s=$(jq -c '.summary | [.peak_live_bytes, .peak_t_ns, .allocations, .bytes_allocated, .temporary_allocations, .final_live_bytes, .final_live_objects]' "$T/r.json")
expect_json "$T/d.json" "[.b.peak_bytes, .b.peak_t_ns, .b.allocations, .b.bytes_allocated, .b.temporary_allocations, .b.live_bytes, .b.live_objects] == $s"
expect_json "$T/d.json" '.a.allocations < .b.allocations and .a.temporary_allocations < .b.temporary_allocations'
sed -n '/id="data">/,/<\/script>/p' "$T/d.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
expect_json "$T/data.json" '.diff == true and .leaksTotal.b > 0 and (.flame.stacks | length) >= 2'
browser_check "the diff's page" check_diff.mjs "$T/d.html" "$T/d.json" "$ROOT/tests/out/screenshots"
# two traces (a copy of the same recording): each side's totals read from its own trace
cp "$T/g.lstrace" "$T/g2.lstrace"
"$LEAKSCOPE" diff --format json "$T/g.lstrace@$mid" "$T/g2.lstrace" > "$T/d2.json" || fail "diff of two traces"
expect_json "$T/d2.json" '.exact == false'
[ "$(jq -c '[.a, .b] | map(del(.point))' "$T/d2.json")" = "$(jq -c '[.a, .b] | map(del(.point))' "$T/d.json")" ] || fail "two traces: the sides' totals differ from one trace's"
"$LEAKSCOPE" diff --format html -o "$T/d2.html" "$T/g.lstrace@$mid" "$T/g2.lstrace" 2> "$T/stderr" || fail "diff --format html of two traces"
browser_check "the page of a diff of two traces" check_diff.mjs "$T/d2.html" "$T/d2.json" "$ROOT/tests/out/screenshots"
exit 0
