# Test 620 (check of a program leakscope did not start) with the ASan/UBSan
# build of leakscope (build-san/): the heap reader and the scan run
# under the sanitizers, which must report nothing.
. "$(dirname "$0")/../lib.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no sanitizer build (make SAN=1)"
LEAKSCOPE=$SAN sh "$ROOT/tests/cli/620-check-unrecorded.sh" > "$T/620.log" 2>&1 ||
	{ cat "$T/620.log"; fail "620 with the sanitizer build"; }
grep -E "Sanitizer|runtime error" "$T/620.log" && fail "a sanitizer report"
exit 0
