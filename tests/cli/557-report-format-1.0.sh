# 557: traces of format version 1.0 (frees name addresses) are still read:
# report and dump give what they give for the same records written in the
# current version (frees name allocation numbers), and the numbers of the
# scenario (tests/support/gen_trace.c) are right.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
FIX=$ROOT/tests/fixtures/trace
for name in basic growth; do
	old=$FIX/$name-1.0.lstrace
	"$GEN" copy "$old" "$T/$name.lstrace" || fail "gen_trace copy $name"
	report --format json -o "$T/$name-1.0.json" "$old"
	expect_rc 0
	expect_json "$T/$name-1.0.json" '.format_version == {"major": 1, "minor": 0}'
	report --format json -o "$T/$name.json" "$T/$name.lstrace"
	expect_rc 0
	expect_json "$T/$name.json" '.format_version != {"major": 1, "minor": 0}'
	jq -S 'del(.trace, .format_version)' "$T/$name-1.0.json" > "$T/a.json"
	jq -S 'del(.trace, .format_version)' "$T/$name.json" > "$T/b.json"
	cmp -s "$T/a.json" "$T/b.json" || { diff "$T/a.json" "$T/b.json" | head -20; fail "$name: reports differ"; }
	"$LEAKSCOPE" dump "$old" | grep -E '^[0-9.]+ (alloc|free|mark|snapshot|sample)' > "$T/a.dump" || fail "dump 1.0"
	"$LEAKSCOPE" dump "$T/$name.lstrace" | grep -E '^[0-9.]+ (alloc|free|mark|snapshot|sample)' > "$T/b.dump" ||
		fail "dump"
	cmp -s "$T/a.dump" "$T/b.dump" || { diff "$T/a.dump" "$T/b.dump" | head; fail "$name: events differ"; }
done
# basic: peak 1,040,960 B; 38,800 B in 29 blocks live at the end; 50 temporaries
expect_json "$T/basic-1.0.json" '.summary.peak_live_bytes == 1040960 and .summary.final_live_bytes == 38800 and
	.summary.final_live_objects == 29 and .summary.temporary_allocations == 50'
# growth: 200 requests, 1,024 B leaked by leak_request in each
expect_json "$T/growth-1.0.json" '.summary.markers == 200 and
	(.leaks[] | select(.stack[0].function == "leak_request") | .leaked_bytes) == 204800'
exit 0
