#!/bin/sh
# eventlog-ghc.sh [MEGABYTES] [PROGRAM] - speed and memory of `leakscope
# eventlog` next to the ghc-events peer on an eventlog that a GHC program
# wrote (default about 100 MB), not a synthesized one. PROGRAM is
#   pingpong  (the default) bench/ghc-pingpong, built -threaded and run with
#             +RTS -N2 -l -hT -i0.02: pairs of threads handing a counter
#             over MVars, so the scheduler's events come in cycles of three
#             at every hand-over, and a growing map (the censuses);
#   churn     bench/ghc-churn, run with +RTS -l -hT -i0.05 -A64k: a cache
#             that keeps one request in a thousand, so the eventlog is
#             mostly the dozen events of each collection around a heap size;
#   churn-n2  the same built -threaded and run with -N2: each collection's
#             events on the capability that helps come in cycles of seven.
# The file is measured by bench/eventlog-throughput.sh (RUNS and PEER as
# there). Exit 77 without ghc.
set -eu
cd "$(dirname "$0")/.."
mb=${1:-100}
program=${2:-pingpong}
command -v ghc > /dev/null || { echo "no ghc" >&2; exit 77; }
tmp=$(mktemp -d /tmp/leakscope-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
case $program in
pingpong)
	ghc -O2 -threaded -rtsopts -eventlog -v0 -outputdir "$tmp" -o "$tmp/prog" \
		bench/ghc-pingpong/Main.hs
	# a round of 4 pairs writes about 0.75 MB
	(cd "$tmp" && ./prog $((mb * 4 / 3 + 1)) 4 +RTS -N2 -l -hT -i0.02 -RTS > /dev/null) ;;
churn)
	ghc -O2 -rtsopts -eventlog -v0 -outputdir "$tmp" -o "$tmp/prog" bench/ghc-churn/Main.hs
	# about 150,000 requests a MB
	(cd "$tmp" && ./prog $((mb * 150000)) +RTS -l -hT -i0.05 -A64k -RTS > /dev/null) ;;
churn-n2)
	ghc -O2 -threaded -rtsopts -eventlog -v0 -outputdir "$tmp" -o "$tmp/prog" \
		bench/ghc-churn/Main.hs
	# about 80,000 requests a MB
	(cd "$tmp" && ./prog $((mb * 80000)) +RTS -N2 -l -hT -i0.05 -A64k -RTS > /dev/null) ;;
*)
	echo "usage: eventlog-ghc.sh [MEGABYTES] [pingpong|churn|churn-n2]" >&2
	exit 2 ;;
esac
EVENTLOG="$tmp/prog.eventlog" sh bench/eventlog-throughput.sh
