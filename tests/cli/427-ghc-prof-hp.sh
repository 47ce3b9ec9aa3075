# 427: the .hp files of a profiled build (-prof -fprof-auto) against the
# eventlogs of the same runs: with -hy, -hd and -hm the same censuses,
# bands and values; with -hc the same censuses and values, each band named
# as GHC names it in a .hp file ("(268)leaky.r/leaky/main", cut at 25
# characters) where the eventlog's names it by its cost centres in full.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "no ghc"
src=$ROOT/tests/fixtures/eventlog/src/CostCentres.hs
bin=$VICTIMS/cost-centres-prof
if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
	mkdir -p "$VICTIMS/hs-cost-centres-prof"
	ghc -O0 -prof -fprof-auto -rtsopts -eventlog -outputdir "$VICTIMS/hs-cost-centres-prof" \
		-o "$bin" "$src" > "$VICTIMS/hs-cost-centres-prof/log" 2>&1 || {
		grep -q "profiling librar\|Could not find module.*Prelude\|p_hi" "$VICTIMS/hs-cost-centres-prof/log" &&
			skip "no profiling libraries for ghc (Debian: ghc-prof)"
		cat "$VICTIMS/hs-cost-centres-prof/log"; fail "cannot build the profiled program"; }
fi
same='[.bands[] | {label: .label, values: .values}] | sort_by(.label)'
for h in y d m c; do
	(cd "$T" && "$bin" +RTS -l -h$h -i0.02 -olh$h.eventlog -RTS > /dev/null &&
		mv cost-centres-prof.hp h$h.hp) || fail "-h$h run"
	"$LEAKSCOPE" eventlog --format json -o "$T/e$h.json" "$T/h$h.eventlog" || fail "eventlog -h$h exit $?"
	"$LEAKSCOPE" eventlog --format json -o "$T/p$h.json" "$T/h$h.hp" || fail ".hp -h$h exit $?"
	n=$(jq '.times_ns | length' "$T/e$h.json")
	[ "$n" -ge 4 ] || fail "-h$h: $n censuses"
	expect_json "$T/p$h.json" "(.times_ns | length) == $n and .warnings == [] and (.bands | length) >= 5"
	[ $h = c ] && same='[.bands[].values] | sort'
	jq -c "$same" "$T/e$h.json" > "$T/e$h.b"
	jq -c "$same" "$T/p$h.json" > "$T/p$h.b"
	cmp -s "$T/e$h.b" "$T/p$h.b" || fail "-h$h: the .hp file's bands differ from the eventlog's"
done
expect_json "$T/pc.json" '.bands[0].label | test("^\\([0-9]+\\)leaky")'
expect_json "$T/ec.json" '.bands[0].label == "Main.leaky.r/Main.leaky/Main.main"'
expect_json "$T/py.json" '[.bands[].label] | index("Record") != null'
exit 0
