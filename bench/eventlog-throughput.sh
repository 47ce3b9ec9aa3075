#!/bin/sh
# eventlog-throughput.sh [MEGABYTES] [BANDS] - speed and memory of
# `leakscope eventlog --format json` on a synthesized eventlog (default
# 200 MB, 200 bands), next to the peer: a reader built on the Haskell
# ghc-events library (bench/ghc-events-peer, built by
# tools/build-ghc-events-peer.sh) that parses the same file and sums each
# band over all censuses. Prints time, MB/s and peak RSS of each, and the
# ratio. The peer is left out when it cannot be built, or when
# PEER=0 is set (e.g. for 1 GB, where it takes minutes). Needs /usr/bin/time.
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

# measure NAME COMMAND... : one run under /usr/bin/time -v (peak RSS), wall
# time from date; appends "NAME SECONDS PEAK_KB" to $tmp/results
measure() {
	name=$1; shift
	t0=$(date +%s.%N)
	/usr/bin/time -v "$@" > "$tmp/$name.out" 2> "$tmp/$name.time" ||
		{ tail -n 30 "$tmp/$name.time" >&2; echo "$name failed" >&2; exit 1; }
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/$name.time")
	echo "$name $secs $rss" >> "$tmp/results"
}

measure leakscope build/leakscope eventlog --format json -o "$tmp/out.json" "$tmp/big.eventlog"
samples=$(jq '.times | length' "$tmp/out.json")
peer=
if [ "${PEER:-1}" != 0 ]; then
	peer=$(sh tools/build-ghc-events-peer.sh 2> "$tmp/peer-build.log") ||
		{ echo "(no peer: $(cat "$tmp/peer-build.log"))"; peer=; }
fi
if [ -n "$peer" ]; then
	measure ghc-events "$peer" "$tmp/big.eventlog"
	c=$(sed -n 's/^censuses //p' "$tmp/ghc-events.out")
	[ "$c" = "$samples" ] || echo "warning: the peer counted $c censuses, leakscope $samples" >&2
fi
awk -v b="$size" -v n="$samples" -v k="$bands" 'BEGIN {
	printf "input %.1f MB (%d censuses x %d bands)\n", b / 1048576, n, k
	printf "%-12s %10s %12s %12s\n", "reader", "time", "throughput", "peak RSS"
}
{
	mbs[$1] = ($2 > 0 ? b / 1048576 / $2 : 0)
	printf "%-12s %8.3f s %7.0f MB/s %9.1f MB\n", $1, $2, mbs[$1], $3 / 1024
}
END {
	if (mbs["ghc-events"] > 0)
		printf "leakscope / ghc-events throughput: %.1fx\n", mbs["leakscope"] / mbs["ghc-events"]
}' "$tmp/results"
