# 544: report and diff under ASan/UBSan (build-san/leakscope) on good,
# truncated and damaged traces, in every format (pprof, folded and massif
# too): no sanitizer report.
. "$(dirname "$0")/../lib.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no build-san/leakscope (make SAN=1)"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" basic "$T/b.lstrace" && "$GEN" growth "$T/g.lstrace" 3000 || fail "gen_trace"
size=$(wc -c < "$T/g.lstrace")
head -c $((size / 2)) "$T/g.lstrace" > "$T/cut.lstrace"
cp "$T/g.lstrace" "$T/bad.lstrace"
printf '\0\0\0' | dd of="$T/bad.lstrace" bs=1 seek=$((size / 3)) conv=notrunc 2> /dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
run_san() { # expected-status args...
	want=$1; shift
	rc=0
	"$SAN" "$@" > "$T/out" 2> "$T/stderr" || rc=$?
	grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error" "$T/stderr" && { cat "$T/stderr"; fail "sanitizer report: $*"; }
	[ "$rc" = "$want" ] || { cat "$T/stderr"; fail "status $rc, not $want: $*"; }
}
for f in text json html pprof folded massif; do
	run_san 0 report --format "$f" -o "$T/r.$f" "$T/b.lstrace"
	run_san 0 report --format "$f" -o "$T/g.$f" --from "request 10" --to "request 900" --size 1000-5000 "$T/g.lstrace"
	run_san 0 report --format "$f" -o "$T/c.$f" "$T/cut.lstrace"
done
run_san 1 report "$T/bad.lstrace"
run_san 1 report --to nothing "$T/b.lstrace"
run_san 0 diff --format json "$T/b.lstrace@before" "$T/b.lstrace@after"
run_san 0 diff "$T/b.lstrace" "$T/g.lstrace"
run_san 1 diff "$T/b.lstrace" "$T/bad.lstrace"
exit 0
