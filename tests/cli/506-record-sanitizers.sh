# record with the ASan/UBSan build of leakscope (build-san/): a leaky
# program, and a forking one with threads; no sanitizer report, and the
# traces read back complete and consistent with the same allocations as
# the plain build's.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no sanitizer build (make SAN=1)"
v=$(victim record-pattern) || exit
f=$(victim fork-threads) || exit
"$SAN" record -o "$T/a.lstrace" -- "$v" > /dev/null 2> "$T/a.err" || { cat "$T/a.err"; fail "record-pattern failed"; }
"$SAN" record -o "$T/b.lstrace" -- "$f" > /dev/null 2> "$T/b.err" || { cat "$T/b.err"; fail "fork-threads failed"; }
for e in "$T/a.err" "$T/b.err"; do
	if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$e"; then
		cat "$e"; fail "sanitizer report in $e"
	fi
done
LEAKSCOPE=$SAN
ls_dump "$T/a.lstrace" "$T/a"; [ "$drc" = 0 ] || { cat "$T/a.err"; fail "dump a"; }
grep -Eq 'AddressSanitizer|runtime error' "$T/a.err" && fail "sanitizer report in dump"
[ "$(count_allocs "$T/a" "$(site_stack "$T/a" leaky_site)" 1000)" = 100 ] || fail "expected 100 allocations from leaky_site"
consistent "$T/a"
n=0
for t in "$T"/b*.lstrace; do
	ls_dump "$t" "$T/b$n"; [ "$drc" = 0 ] || { cat "$T/b$n.err"; fail "dump $t"; }
	consistent "$T/b$n"
	n=$((n + 1))
done
[ "$n" -ge 2 ] || fail "expected a trace per process of fork-threads, got $n"
exit 0
