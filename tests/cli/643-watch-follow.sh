# What `leakscope watch` shows of a trace it follows (history/follow.h)
# equals `leakscope report` of the same bytes at every refresh: two real
# recordings, stress-reuse (a million allocations in 4 threads, freed by
# others; the scan's verdicts at the end) and window-growth (markers),
# copied piece by piece, cutting chunks, into a file that follow_test
# follows and reads again after each piece (tests/unit/follow_test.c:
# the report's JSON, with and without the page's cells, and the page);
# and the two 1.0 traces of tests/fixtures/trace (frees by address, the
# stacks decoded as they come).
. "$(dirname "$0")/../lib.sh"
t=$ROOT/build-san/unit/follow_test
[ -x "$t" ] || t=$ROOT/build/unit/follow_test
[ -x "$t" ] || skip "no follow_test built"
for name in stress-reuse window-growth; do
	v=$(victim $name) || exit
	"$LEAKSCOPE" record -q -o "$T/$name.lstrace" -- "$v" > /dev/null 2> "$T/rec.err" ||
		{ cat "$T/rec.err"; fail "recording $name failed"; }
	"$t" "$T/$name.lstrace" > "$T/$name.tap" 2>&1 || { cat "$T/$name.tap"; fail "$name: follow_test failed"; }
	grep -q "^ok .* $T/$name.lstrace (cells): [0-9]* snapshots of" "$T/$name.tap" ||
		{ cat "$T/$name.tap"; fail "$name: the recording was not followed"; }
done
for tr in basic growth; do
	f=$ROOT/tests/fixtures/trace/$tr-1.0.lstrace
	"$t" "$f" > "$T/$tr.tap" 2>&1 || { cat "$T/$tr.tap"; fail "$tr-1.0: follow_test failed"; }
	grep -q "^ok .* $f (cells): [0-9]* snapshots of" "$T/$tr.tap" ||
		{ cat "$T/$tr.tap"; fail "$tr-1.0: the trace was not followed"; }
done
exit 0
