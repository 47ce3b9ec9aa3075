#!/bin/sh
# trace-throughput.sh [EVENTS] - size and decode speed of a trace: writes
# EVENTS (default 10^8) realistic events (300 allocation sites on 2
# threads, addresses from this process's malloc; see tests/unit/trace_test.c)
# to a temporary trace, then reads every record back with the streaming
# reader. Prints bytes/event, write and read events/s, and the reader's
# peak RSS; needs /usr/bin/time.
set -eu
cd "$(dirname "$0")/.."
n=${1:-100000000}
tmp=$(mktemp -d /tmp/leakscope-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x build/unit/trace_test ] || make -s build/unit/trace_test
LEAKSCOPE_TRACE_BENCH=$n /usr/bin/time -v build/unit/trace_test --bench "$tmp/big.trace" \
	2> "$tmp/time"
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
awk -v r="$rss" 'BEGIN { printf "peak RSS     %.1f MB (writer and reader in one process)\n", r / 1024 }'
