# 490: fuzz the eventlog reader, profile builder and writers for ~20 s
# (libFuzzer + ASan/UBSan) from a seed corpus of small written eventlogs
# and the real GHC 9.6 fixtures.
. "$(dirname "$0")/../lib.sh"
build_fuzzers
seeds=$ROOT/build/unit/eventlog_test
[ -x "$seeds" ] || fail "build/unit/eventlog_test missing (run make)"
mkdir -p "$T/corpus"
"$seeds" --write-seeds "$T/corpus" || fail "cannot write seeds"
# and the real GHC 9.6 eventlogs (their first -max_len bytes: a real header)
cp "$ROOT"/tests/fixtures/eventlog/*.eventlog "$T/corpus/"
run_fuzzer eventlog_fuzz -max_len=8192 -rss_limit_mb=1024 corpus
exit 0
