# 491: fuzz the trace reader and the analysis of `report` for ~20 s
# (libFuzzer + ASan/UBSan) from a seed corpus of small traces written by
# the unit test and the version 1.0 fixtures.
. "$(dirname "$0")/../lib.sh"
command -v clang > /dev/null || skip "clang is not installed"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$T/probe.c"
clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2> /dev/null || skip "clang has no libFuzzer"
seeds=$ROOT/build/unit/trace_test
[ -x "$seeds" ] || fail "build/unit/trace_test missing (run make)"
make -C "$ROOT" fuzz > "$T/build.log" 2>&1 || { tail -n 20 "$T/build.log"; fail "make fuzz"; }
mkdir -p "$T/corpus"
"$seeds" --write-seeds "$T/corpus" || fail "cannot write seeds"
cp "$ROOT"/tests/fixtures/trace/*.lstrace "$T/corpus/" || fail "cannot copy the 1.0 fixtures"
cd "$T" || exit 1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	"$ROOT/build-fuzz/trace_fuzz" -max_total_time=20 -max_len=16384 -timeout=10 \
	-rss_limit_mb=1024 corpus > "$T/fuzz.log" 2>&1 || { tail -n 40 "$T/fuzz.log"; fail "the fuzzer found a crash"; }
tail -n 3 "$T/fuzz.log"
exit 0
