# 412: leakscope's reading of eventlogs agrees with an independent reader
# built on the Haskell ghc-events library (bench/ghc-events-peer): on every
# real GHC 9.6 fixture and on a synthesized two-capability eventlog, the
# same number of censuses, the same bands, and the same residency summed
# over all censuses for each band (bytes, exactly). Cost-centre stacks are
# compared by label (both render "Module.name/..." innermost first).
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
peer=$(sh "$ROOT/tools/build-ghc-events-peer.sh" 2> "$T/build.log")
case $? in
0) ;;
77) skip "$(cat "$T/build.log")" ;;
*) cat "$T/build.log"; fail "cannot build the ghc-events peer" ;;
esac
cc -O2 -I"$ROOT/tests/unit" -o "$T/gen" "$ROOT/bench/gen_eventlog.c" || fail "cannot build gen_eventlog"
"$T/gen" "$T/synth.eventlog" 2 40 || fail "gen_eventlog failed"

compare() { # eventlog
	name=$(basename "$1")
	"$peer" "$1" > "$T/peer.txt" || fail "peer failed on $name"
	"$LEAKSCOPE" eventlog --format json -o "$T/ls.json" "$1" || fail "leakscope failed on $name"
	jq -r '(.meta.breakdown // "" | test("-hi")) as $hi
		| [.bands[] | {k: (if $hi then .id else .label end), s: (.values | add)}]
		| group_by(.k) | .[] | "band\t\(map(.s) | add)\t\(.[0].k)"' "$T/ls.json" |
		LC_ALL=C sort > "$T/ls.bands"
	grep '^band' "$T/peer.txt" | LC_ALL=C sort > "$T/peer.bands"
	[ -s "$T/peer.bands" ] || fail "$name: the peer found no bands"
	diff "$T/peer.bands" "$T/ls.bands" > "$T/diff" ||
		{ head -n 20 "$T/diff"; fail "$name: per-band sums differ (< peer, > leakscope)"; }
	c_peer=$(sed -n 's/^censuses //p' "$T/peer.txt")
	c_ls=$(jq -r '.meta.censuses' "$T/ls.json")
	[ "$c_peer" = "$c_ls" ] || fail "$name: $c_peer censuses for the peer, $c_ls for leakscope"
	echo "$name: $c_ls censuses, $(wc -l < "$T/ls.bands") bands agree"
}
for f in "$ROOT"/tests/fixtures/eventlog/*.eventlog "$T/synth.eventlog"; do
	compare "$f"
done
exit 0
