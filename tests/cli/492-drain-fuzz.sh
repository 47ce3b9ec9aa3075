# 492: fuzz the collector's reading of a shared region a hostile program
# wrote (tests/fuzz/drain_fuzz.c: arbitrary region contents, and writes
# racing the drains; then the scan, the leak grouping and the reports)
# for ~20 s (libFuzzer + ASan/UBSan), from the harness's own seeds.
. "$(dirname "$0")/../lib.sh"
command -v clang > /dev/null || skip "clang is not installed"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$T/probe.c"
clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2> /dev/null || skip "clang has no libFuzzer"
make -C "$ROOT" fuzz > "$T/build.log" 2>&1 || { tail -n 20 "$T/build.log"; fail "make fuzz"; }
mkdir -p "$T/corpus"
LK_DRAIN_FUZZ_SEEDS=$T/corpus "$ROOT/build-fuzz/drain_fuzz" || fail "cannot write seeds"
cd "$T" || exit 1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	"$ROOT/build-fuzz/drain_fuzz" -max_total_time=20 -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 corpus > "$T/fuzz.log" 2>&1 || { tail -n 40 "$T/fuzz.log"; fail "the fuzzer found a crash"; }
tail -n 3 "$T/fuzz.log"
exit 0
