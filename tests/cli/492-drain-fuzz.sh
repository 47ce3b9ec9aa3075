# 492: fuzz the collector's reading of a shared region a hostile program
# wrote (tests/fuzz/drain_fuzz.c: arbitrary region contents, and writes
# racing the drains; then the scan, the leak grouping and the reports)
# for ~20 s (libFuzzer + ASan/UBSan), from the harness's own seeds.
. "$(dirname "$0")/../lib.sh"
build_fuzzers
mkdir -p "$T/corpus"
LK_DRAIN_FUZZ_SEEDS=$T/corpus "$ROOT/build-fuzz/drain_fuzz" || fail "cannot write seeds"
run_fuzzer drain_fuzz -max_len=4096 -rss_limit_mb=2048 corpus
exit 0
