# 558: reports under limits of address space and data (ulimit -v, -d):
# the analysis commands size their reservations (the live blocks' ring, the
# heap's huge-page pad) to the limits, and give the same report as without
# them. A real trace (the leaking server: 60 x 640 bytes leaked by
# remember_client) and a real eventlog (the LargeThunk fixture).
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.1 record_server "$T/s.lstrace" 3 20
S=$T/s.lstrace
"$LEAKSCOPE" report --format json -o "$T/free.json" "$S" 2> "$T/stderr" || fail "report json"
expect_json "$T/free.json" '.summary.leaked_bytes >= 38400'
for limit in "-v 150000" "-d 60000"; do
	(ulimit $limit && "$LEAKSCOPE" report --format json -o "$T/limited.json" "$S") 2> "$T/stderr" ||
		fail "report under ulimit $limit: $(cat "$T/stderr")"
	cmp -s "$T/free.json" "$T/limited.json" || fail "the report under ulimit $limit differs"
done
E=$ROOT/tests/fixtures/eventlog/large-thunk-hT.eventlog
"$LEAKSCOPE" eventlog --format json -o "$T/e-free.json" "$E" 2> "$T/stderr" || fail "eventlog json"
(ulimit -v 150000 && "$LEAKSCOPE" eventlog --format json -o "$T/e-limited.json" "$E") 2> "$T/stderr" ||
	fail "eventlog under ulimit -v: $(cat "$T/stderr")"
cmp -s "$T/e-free.json" "$T/e-limited.json" || fail "the eventlog report under ulimit -v differs"
exit 0
