# 542: a server trace (gen_trace growth): one site leaks 1,024 B per
# request, with a marker per request; another allocates and frees, a
# third is a bounded cache. The report ranks the leaking site first by
# growth with a good fit and gives its bytes per marker interval within 5%.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" growth "$T/g.lstrace" 2000 || fail "gen_trace growth"
report --format json "$T/g.lstrace"
expect_rc 0
J=$T/out
expect_json "$J" '.growth[0].stack[0].function == "leak_request"'
expect_json "$J" '.growth[0] | .per_mark.fit > 0.99 and (.per_mark.bytes - 1024 | fabs) < 0.05 * 1024'
# 1,024 B per 1 ms request: about 1 MB/s
expect_json "$J" '.growth[0].growth | .fit > 0.99 and (.slope - 1024000 | fabs) < 0.05 * 1024000'
expect_json "$J" '[.growth[] | select(.growth.fit > 0.5 and .growth.slope > 1000) | .stack[0].function] == ["leak_request"]'
expect_json "$J" '(.times_ns | length) > 100 and (.times_ns | length) <= 256 and (.growth[0].timeline | length) == (.times_ns | length)'
expect_json "$J" '.leaks[0] | .stack[0].function == "leak_request" and .leaked_objects == 2000'
expect_json "$J" '.temporary[0] | .stack[0].function == "parse_request" and .temporaries == 2000'
report "$T/g.lstrace"
expect_grep "$T/out" "\+1024 B per mark, fit 1.00"
exit 0
