# 559: every JSON document leakscope writes - run, report, diff,
# eventlog, eventlog --diff - has numbers without binary noise: each
# number token as written has at most 4 decimals and no exponent; times
# (keys ending in _ns, arrays times_ns) and bytes are integers (not bytes
# per mark, a rate); metadata
# holds numbers as numbers; every object key is an identifier.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
E=$ROOT/tests/fixtures/eventlog

# the number tokens of FILE as written (strings removed first), one a line
numbers() {
	sed -E 's/"([^"\\]|\\.)*"/""/g' "$1" | grep -oE -- '-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?'
}

check() { # file
	[ -s "$1" ] || fail "$1 is empty"
	jq empty "$1" || fail "$1 is not JSON"
	bad=$(numbers "$1" | grep -E '\.[0-9]{5,}|[eE]' | head -3)
	[ -z "$bad" ] || fail "$(basename "$1"): numbers with noise or an exponent: $bad"
	expect_json "$1" '[paths(numbers) as $p | select($p | map(tostring) | join(".")
		| test("(_ns|bytes|objects)(\\.[0-9]+)?$|times_ns\\.|values\\.[0-9]+$|timeline\\.[0-9]+$")
		and (test("per_mark") | not))
		| getpath($p) | select(. != floor)] == []'
	expect_json "$1" '[.. | objects | keys[] | select(test("^[A-Za-z0-9_-]+$") | not)] == []'
	expect_json "$1" '[.meta? // {} | .[] | strings | select(test("^[0-9.]+( s)?$"))] == []'
	echo "$(basename "$1"): $(numbers "$1" | wc -l) numbers"
}

# run
v=$(victim leak-one) || exit
ls_run "$T/run.json" -- "$v"
check "$T/run.json"

# report and diff: a generated trace, a 1.0 trace, a growth scenario
"$GEN" basic "$T/b.lstrace" || fail "gen_trace basic"
for t in "$T/b.lstrace" "$ROOT/tests/fixtures/trace/growth-1.0.lstrace"; do
	n=$(basename "$t" .lstrace)
	"$LEAKSCOPE" report --format json -o "$T/report-$n.json" "$t" || fail "report $n"
	check "$T/report-$n.json"
done
"$LEAKSCOPE" report --format json --from "frame 1" -o "$T/report-window.json" "$T/b.lstrace" ||
	fail "report --from"
check "$T/report-window.json"
"$LEAKSCOPE" diff --format json "$T/b.lstrace@before" "$T/b.lstrace@0.0045s" > "$T/diff.json" ||
	fail "diff"
check "$T/diff.json"

# eventlog: every fixture, and a diff of two
for f in "$E"/*.eventlog; do
	n=$(basename "$f" .eventlog)
	"$LEAKSCOPE" eventlog --format json -o "$T/eventlog-$n.json" "$f" || fail "eventlog $n"
	check "$T/eventlog-$n.json"
done
"$LEAKSCOPE" eventlog --diff "$E/large-thunk-hT.eventlog" "$E/large-thunk-hi.eventlog" \
	--format json > "$T/eventlog-diff.json" || fail "eventlog --diff"
check "$T/eventlog-diff.json"
expect_json "$T/eventlog-large-thunk-hi.json" '.meta.sampling_interval_ns == 50000000 and (.meta.censuses | type) == "number"'
exit 0
