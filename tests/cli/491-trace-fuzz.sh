# 491: fuzz the trace reader and the analysis of `report` for ~20 s
# (libFuzzer + ASan/UBSan) from a seed corpus of small traces written by
# the unit test and the version 1.0 fixtures.
. "$(dirname "$0")/../lib.sh"
build_fuzzers
seeds=$ROOT/build/unit/trace_test
[ -x "$seeds" ] || fail "build/unit/trace_test missing (run make)"
mkdir -p "$T/corpus"
"$seeds" --write-seeds "$T/corpus" || fail "cannot write seeds"
cp "$ROOT"/tests/fixtures/trace/*.lstrace "$T/corpus/" || fail "cannot copy the 1.0 fixtures"
run_fuzzer trace_fuzz -max_len=16384 -rss_limit_mb=1024 corpus
exit 0
