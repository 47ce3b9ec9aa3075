#!/bin/sh
# eventlog-ghc.sh [MEGABYTES] - speed and memory of `leakscope eventlog`
# next to the ghc-events peer on an eventlog that a GHC program wrote
# (default about 100 MB), not a synthesized one: bench/ghc-pingpong, built
# with ghc -threaded and run with +RTS -N2 -l -hT -i0.02, pairs of threads
# handing a counter over MVars (the scheduler's events in cycles of
# three, at every hand-over) and a growing map (the censuses). The file is
# measured by bench/eventlog-throughput.sh (RUNS and PEER as there).
# Exit 77 without ghc.
set -eu
cd "$(dirname "$0")/.."
mb=${1:-100}
command -v ghc > /dev/null || { echo "no ghc" >&2; exit 77; }
tmp=$(mktemp -d /tmp/leakscope-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ghc -O2 -threaded -rtsopts -eventlog -v0 -outputdir "$tmp" -o "$tmp/pingpong" \
	bench/ghc-pingpong/Main.hs
rounds=$((mb * 4 / 3 + 1))   # a round of 4 pairs writes about 0.75 MB
(cd "$tmp" && ./pingpong "$rounds" 4 +RTS -N2 -l -hT -i0.02 -RTS > /dev/null)
EVENTLOG="$tmp/pingpong.eventlog" sh bench/eventlog-throughput.sh
