#!/bin/sh
# eventlog-throughput.sh [MEGABYTES] [BANDS] - speed and memory of
# `leakscope eventlog --format json` (and, in the row "html", of the
# self-contained HTML report) on a synthesized eventlog (default 200 MB,
# 200 bands), next to the peer: a reader built on the Haskell
# ghc-events library (bench/ghc-events-peer, built by
# tools/build-ghc-events-peer.sh) that parses the same file and sums each
# band over all censuses. Prints wall and CPU time (user + system, of the
# reader's process alone: bench/cputime.c), MB/s of CPU time and peak RSS
# of each, and the ratio of CPU throughputs (the one to read on a shared
# machine, where wall time counts the waits for a core). RUNS=N runs each
# N times and keeps the fastest (default 1). The peer is left out when it
# cannot be built, or when PEER=0 is set. The row "floor" is
# bench/touch_file.c, built statically: a process that maps the file and
# reads every cache line of it and does nothing else, the least any
# reader can spend here; the last line says what ratio to the peer that
# floor would reach. EVENTLOG=FILE measures on FILE instead (an eventlog
# a GHC program wrote: bench/eventlog-ghc.sh); MEGABYTES and BANDS are
# then not used.
set -eu
cd "$(dirname "$0")/.."
mb=${1:-200}
bands=${2:-200}
tmp=$(mktemp -d /tmp/leakscope-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -x build/leakscope ] || make -s build/leakscope
cc -O2 -Itests/unit -o "$tmp/gen" bench/gen_eventlog.c
cc -O2 -o "$tmp/cputime" bench/cputime.c
cc -O2 -static -o "$tmp/touch_file" bench/touch_file.c 2> /dev/null ||
	cc -O2 -o "$tmp/touch_file" bench/touch_file.c
if [ -n "${EVENTLOG:-}" ]; then
	ln -s "$(realpath "$EVENTLOG")" "$tmp/big.eventlog"
else
	"$tmp/gen" "$tmp/big.eventlog" "$mb" "$bands"
fi
size=$(wc -c < "$tmp/big.eventlog")
cat "$tmp/big.eventlog" > /dev/null  # warm the page cache
sync "$tmp/big.eventlog"   # its writeback would fall on the first reader's runs

# measure NAME COMMAND... : RUNS runs under bench/cputime (wall time, CPU
# time of the command alone to the microsecond, peak RSS); appends "NAME
# WALL CPU PEAK_KB" of the run with the least CPU time to $tmp/results
measure() {
	name=$1; shift
	best=
	for _ in $(seq "${RUNS:-1}"); do
		"$tmp/cputime" "$tmp/$name.time" "$@" > "$tmp/$name.out" ||
			{ echo "$name failed" >&2; exit 1; }
		run=$(awk '{ printf "%s %.6f %s", $1, $2 + $3, $4 }' "$tmp/$name.time")
		if [ -z "$best" ] || awk -v a="$run" -v b="$best" \
			'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[2] < y[2]) }'; then
			best=$run
		fi
	done
	echo "$name $best" >> "$tmp/results"
}

measure leakscope build/leakscope eventlog --format json -o "$tmp/out.json" "$tmp/big.eventlog"
measure html build/leakscope eventlog --format html -o "$tmp/out.html" "$tmp/big.eventlog"
measure floor "$tmp/touch_file" "$tmp/big.eventlog"
samples=$(jq -r '.meta.censuses' "$tmp/out.json")
bands=$(jq -r '.bands | length' "$tmp/out.json")
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
awk -v b="$size" -v k="$bands" -v runs="${RUNS:-1}" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
	printf "input %.1f MB (%d bands), best of %d run(s), load average %s\n", b / 1048576, k, runs, load
	printf "%-12s %9s %9s %14s %10s\n", "reader", "wall", "cpu", "MB/s of cpu", "peak RSS"
}
{
	mbs[$1] = ($3 > 0 ? b / 1048576 / $3 : 0)
	printf "%-12s %7.3f s %8.4f s %9.0f MB/s %7.1f MB\n", $1, $2, $3, mbs[$1], $4 / 1024
}
END {
	if (mbs["ghc-events"] > 0) {
		printf "leakscope / ghc-events throughput (cpu): %.1fx\n", mbs["leakscope"] / mbs["ghc-events"]
		printf "floor / ghc-events (the most any reader could reach here): %.1fx\n",
			mbs["floor"] / mbs["ghc-events"]
	}
}' "$tmp/results"
echo "censuses: $samples; drawn points: $(jq -r '.times_ns | length' "$tmp/out.json") (at most 1024; fewer past 8,192 bands)"
