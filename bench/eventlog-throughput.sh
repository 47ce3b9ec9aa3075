#!/bin/sh
# eventlog-throughput.sh [MEGABYTES] [BANDS] - speed and memory of
# `leakscope eventlog --format json` on a synthesized eventlog (default
# 200 MB, 200 bands). Prints MB/s and peak RSS; needs /usr/bin/time.
set -eu
cd "$(dirname "$0")/.."
mb=${1:-200}
bands=${2:-200}
tmp=$(mktemp -d /tmp/leakscope-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x build/leakscope ] || make -s build/leakscope
cc -O2 -Itests/unit -o "$tmp/gen" bench/gen_eventlog.c
"$tmp/gen" "$tmp/big.eventlog" "$mb" "$bands"
size=$(wc -c < "$tmp/big.eventlog")
cat "$tmp/big.eventlog" > /dev/null  # warm the page cache
/usr/bin/time -v build/leakscope eventlog --format json -o "$tmp/out.json" \
	"$tmp/big.eventlog" 2> "$tmp/time"
secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time" |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
samples=$(jq '.times | length' "$tmp/out.json")
awk -v b="$size" -v s="$secs" -v r="$rss" -v n="$samples" -v k="$bands" 'BEGIN {
	printf "input      %.1f MB (%d censuses x %d bands)\n", b / 1048576, n, k
	printf "time       %.2f s\n", s
	printf "throughput %.0f MB/s\n", (s > 0 ? b / 1048576 / s : 0)
	printf "peak RSS   %.1f MB\n", r / 1024
}'
