# 424: heap profiles made of censuses agree with an independent reader
# built on the Haskell ghc-events library (bench/ghc-events-peer): the
# bench's generated program (bench/ghc-census/gen-main.sh, here with 120
# types, constructors and functions) built -prof -fprof-auto and run with
# a census every 2 ms by cost-centre stack (-hc), type (-hy) and closure
# description (-hd). Each report has a band for every one of the 120
# functions, types or constructors, and the same bands, censuses and
# residency summed over all censuses (bytes, exactly) as the peer.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "no ghc"
peer=$(sh "$ROOT/tools/build-ghc-events-peer.sh" 2> "$T/build.log")
case $? in
0) ;;
77) skip "$(cat "$T/build.log")" ;;
*) cat "$T/build.log"; fail "cannot build the ghc-events peer" ;;
esac
bin=$VICTIMS/ghc-census-120
gen=$ROOT/bench/ghc-census/gen-main.sh
if [ ! -x "$bin" ] || [ "$gen" -nt "$bin" ]; then
	mkdir -p "$VICTIMS/hs-ghc-census-120"
	sh "$gen" 120 > "$VICTIMS/hs-ghc-census-120/Main.hs"
	ghc -O1 -prof -fprof-auto -rtsopts -eventlog -outputdir "$VICTIMS/hs-ghc-census-120" \
		-o "$bin" "$VICTIMS/hs-ghc-census-120/Main.hs" > "$VICTIMS/hs-ghc-census-120/log" 2>&1 || {
		grep -q "profiling librar\|Could not find module.*Prelude\|p_hi" "$VICTIMS/hs-ghc-census-120/log" &&
			skip "no profiling libraries for ghc (Debian: ghc-prof)"
		cat "$VICTIMS/hs-ghc-census-120/log"; fail "cannot build the generated program"; }
fi

# check BREAKDOWN JQ-LABEL-REGEX: run with -hB; 120 distinct bands whose
# label matches, and every band's sum as the peer's
check() {
	(cd "$T" && "$bin" 1000 +RTS -l -h"$1" -i0.002 -ol"h$1.eventlog" -RTS > "h$1.out") ||
		fail "-h$1 run exit $?"
	"$LEAKSCOPE" eventlog --format json -o "$T/h$1.json" "$T/h$1.eventlog" || fail "eventlog -h$1 exit $?"
	expect_json "$T/h$1.json" ".warnings == [] and .meta.censuses >= 20 and (.times_ns | length) == .meta.censuses
		and ([.bands[].label | select(test(\"$2\")) | capture(\"$2\").n] | unique | length) == 120"
	"$peer" "$T/h$1.eventlog" > "$T/peer$1.txt" || fail "peer failed on -h$1"
	jq -r '[.bands[] | {k: .label, s: (.values | add)}] | group_by(.k) | .[]
		| "band\t\(map(.s) | add)\t\(.[0].k)"' "$T/h$1.json" | LC_ALL=C sort > "$T/ls$1.bands"
	grep '^band' "$T/peer$1.txt" | LC_ALL=C sort > "$T/peer$1.bands"
	diff "$T/peer$1.bands" "$T/ls$1.bands" > "$T/diff$1" ||
		{ head -n 20 "$T/diff$1"; fail "-h$1: per-band sums differ (< peer, > leakscope)"; }
	c_peer=$(sed -n 's/^censuses //p' "$T/peer$1.txt")
	expect_json "$T/h$1.json" ".meta.censuses == $c_peer"
	echo "-h$1: $c_peer censuses, $(wc -l < "$T/ls$1.bands") bands agree"
}
check c '^Main\\.f(?<n>[0-9]+)\\.go/'
check y '^T(?<n>[0-9]+)$'
check d '^C(?<n>[0-9]+)$'
exit 0
