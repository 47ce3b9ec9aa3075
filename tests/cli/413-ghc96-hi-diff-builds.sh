# 413: --diff of two -hi eventlogs of two builds of LargeThunk.hs (the
# plain and the -threaded binary of tests/fixtures/eventlog): every info
# table sits at another address, yet the growing thunk is one band on both
# sides, matched by its IPE entry (closure type, type, module, location).
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
line=$(marker "$FIX/src/LargeThunk.hs" thunk) || exit 1
a=$FIX/large-thunk-hi.eventlog
b=$FIX/large-thunk-thr-hi.eventlog
"$LEAKSCOPE" eventlog --diff "$a" "$b" --format json > "$T/diff.json" 2> "$T/stderr" ||
	{ cat "$T/stderr"; fail "diff exit $?"; }
d=$T/diff.json
thunk="[.bands[] | select(.label | test(\"^sat_.*_info\$\")) | select(.before.peak > 10000000)]"
expect_json "$d" "$thunk | length == 1"
expect_json "$d" "$thunk[0] | .side == \"both\" and .after_id != .id and .after_label == .label"
expect_json "$d" "$thunk[0] | .after.peak > 10000000 and .after.slope > 1000000"
# nothing of the program is both removed and added under its own name
expect_json "$d" '[.bands[] | select(.side != "both") | .label | select(startswith("0x") | not)] as $named
	| ($named | length) == ($named | unique | length)'
"$LEAKSCOPE" eventlog --diff "$a" "$b" > "$T/diff.txt" || fail "text diff exit $?"
[ "$(grep -Ec '^(removed|added) .* sat_s1lp_info$' "$T/diff.txt")" -eq 0 ] ||
	{ cat "$T/diff.txt"; fail "the thunk is split into removed and added"; }
# the band's source line is the same on both sides
"$LEAKSCOPE" eventlog --format json -o "$T/b.json" "$b" || fail "eventlog exit $?"
id=$(jq -r "$thunk[0].after_id" "$d")
expect_json "$T/b.json" "[.bands[] | select(.id == \"$id\")][0].details.source_location | test(\"^LargeThunk.hs:$line:\")"
exit 0
