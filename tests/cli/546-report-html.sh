# 546: `leakscope report --format html`: one self-contained page whose data
# carries the per-site timelines (bands with stacks), the leak table and
# the leak candidates and the flame graph's stacks (each frame written
# once: 700 sites of 3 frames sharing main and _start make a table of 702
# frames), and of 700 sites the 500 of largest integrated size; drawn in
# chromium when it is installed
# (tests/browser/check_trace.mjs: leak table, stacks, scatter chart).
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" basic "$T/b.lstrace" || fail "gen_trace basic"
"$LEAKSCOPE" report --format html "$T/b.lstrace" 2> "$T/stderr" || fail "report --format html"
expect_grep "$T/stderr" "wrote .*b.lstrace.html"
H=$T/b.lstrace.html
expect_grep "$H" "Content-Security-Policy"
sed -n 's/.*<script type="application\/json" id="data">\(.*\)<\/script>.*/\1/p' "$H" > "$T/data.json"
[ -s "$T/data.json" ] || sed -n '/id="data">/,/<\/script>/p' "$H" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
expect_json "$T/data.json" '.title == "genprog --serve" and .nBands == 5'
expect_json "$T/data.json" '[.leaks[] | [.label, .b, .n]] == [["leak_early (genprog.c:21)",30720,10],["cache_grow (genprog.c:41)",7680,15],["make_node (genprog.c:50)",400,4]]'
expect_json "$T/data.json" '(.candidates.points | length) == 29 and .leaksTotal.b == 38800'
expect_json "$T/data.json" '[.markers[][1]] == ["frame 1","frame 9","snapshot before","snapshot after"]'
expect_json "$T/data.json" '[.series[].name] == ["live bytes","rss"]'
expect_json "$T/data.json" '[.bands[] | select(.label | startswith("keep")) | .f[0][0]] == ["keep"]'
expect_json "$T/data.json" '([.flame.stacks[][0][0]] | add) == .leaksTotal.b and .flame.other == 0'
"$GEN" wide "$T/w.lstrace" 700 || fail "gen_trace wide"
"$LEAKSCOPE" report --format html -o "$T/w.html" "$T/w.lstrace" 2> "$T/stderr" || fail "report wide"
sed -n '/id="data">/,/<\/script>/p' "$T/w.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/w.json"
expect_json "$T/w.json" '(.flame.stacks | length) == 700 and (.flame.frames | length) == 702'
expect_json "$T/w.json" '[.flame.stacks[] | .[0][0]] | all(. == 100)'
expect_json "$T/w.json" '.flame.frames as $f | [.flame.stacks[] | [.[1][] | $f[.][0]]] | all(length == 3 and .[1] == "main" and (.[2] | startswith("leaf_")))'

# 700 sites, site K's block 100 K B from 10 K us: charted are the 500 of
# largest integrated size (size x time live, largest at K = 350), not the
# 500 that allocated most (K = 201..700)
"$GEN" wide "$T/wb.lstrace" 700 1 || fail "gen_trace wide, bigger"
"$LEAKSCOPE" report --format html -o "$T/wb.html" "$T/wb.lstrace" 2> "$T/stderr" || fail "report wide, bigger"
sed -n '/id="data">/,/<\/script>/p' "$T/wb.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/wb.json"
expect_json "$T/wb.json" '.nBands == 500 and ([.bands[].label | capture("leaf_(?<k>[0-9]+)").k | tonumber] | unique | length == 500 and min >= 90 and max <= 610 and index(350) != null)'

browser_check "the page's data" check_trace.mjs "$H" "$ROOT/tests/out/screenshots"
exit 0
