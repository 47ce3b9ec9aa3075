# 554: the HTML report of a real trace (the leaking server, 5 batches of
# 20 requests): its data holds remember_client first among the leaks with
# 100 x 640 bytes and a band per site; drawn in headless chromium when it
# is installed (tests/browser/check_real_trace.mjs: title, area chart,
# leak table row, its verdict and stack, one candidate dot per leaked
# block).
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.1 record_server "$T/s.lstrace" 5 20
H=$T/s.html
"$LEAKSCOPE" report --format html -o "$H" "$T/s.lstrace" 2> "$T/stderr" || fail "report --format html"
sed -n '/id="data">/,/<\/script>/p' "$H" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
line=$(marker "$ROOT/tests/victims/leakserver.c" leak)
expect_json "$T/data.json" "(.title | contains(\"leakserver serve\")) and .leaks[0].label == \"remember_client (leakserver.c:$line)\" and .leaks[0].b == 64000 and .leaks[0].n == 100"
expect_json "$T/data.json" '(.candidates.points | length) == .leaksTotal.n and .nBands >= 4 and ([.bands[].label] | any(startswith("serve_one")))'
dots=$(jq '.candidates.points | length' "$T/data.json")
# the verdicts of the scan at the server's end: its notes are lost
expect_json "$T/data.json" '.verdicts.scanned == true and ([.verdicts.groups[] | select(.[1] == "definitely-lost" and .[2] == 64000 and .[3] == 100)] | length) == 1'

browser_check "the page's data" check_real_trace.mjs "$H" "$ROOT/tests/out/screenshots" \
	"leakserver serve" remember_client serve_one 64000 100 "$dots"
exit 0
