# Tests 620 and 623 (checks of programs leakscope did not start, at rest
# and churning) with the ASan/UBSan build of leakscope (build-san/): the
# heap reader and the scan run under the sanitizers, which must report
# nothing.
. "$(dirname "$0")/../lib.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no sanitizer build (make SAN=1)"
for t in 620-check-unrecorded 623-check-unrecorded-churn; do
	LEAKSCOPE=$SAN sh "$ROOT/tests/cli/$t.sh" > "$T/$t.log" 2>&1 ||
		{ cat "$T/$t.log"; fail "$t with the sanitizer build"; }
	grep -E "Sanitizer|runtime error" "$T/$t.log" && fail "a sanitizer report in $t"
done
exit 0
