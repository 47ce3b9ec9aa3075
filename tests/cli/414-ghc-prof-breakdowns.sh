# 414: the profiled-build breakdowns other than -hc on real eventlogs of
# this machine's GHC (Debian 12: 9.0.2 with ghc-prof): CostCentres.hs (the
# -hc fixture's source: `leaky` keeps every parsed Record, `tidy` drops
# its data at once) built with -prof -fprof-auto and run with -hm, -hd,
# -hy, -hr and -hb. Each report names its breakdown, carries the markers,
# and the band a person looks for is there and behaves as the program
# does: Main's module holds the most memory (-hm), Record closures grow
# (-hd, -hy), a retainer set of leaky holds over a megabyte (-hr), and
# the biography bands are GHC's five states, the never-used VOID growing
# (-hb). Censuses every 0.02 s: a fast machine runs the program in 0.3 s. (-he, era profiling, is newer than GHC 9.6.)
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

profile() { # breakdown letter: run with -hX, write $T/hX.json
	(cd "$T" && "$bin" +RTS -l -h"$1" -i0.02 -ol"h$1.eventlog" -RTS > "h$1.out") || fail "-h$1 run exit $?"
	"$LEAKSCOPE" eventlog --format json -o "$T/h$1.json" "$T/h$1.eventlog" || fail "eventlog -h$1 exit $?"
	expect_json "$T/h$1.json" ".warnings == [] and (.meta.rts | test(\"rts_p\"))
		and [.markers[].text] == [\"reading\", \"half the input\", \"read\"] and (.times_ns | length) >= 4"
}
grows() { # label: while the program keeps its records (censuses before the
	# "read" marker; the list dies after it), the band's last census holds
	# more than its first
	echo "((.markers[] | select(.text == \"read\") | .t_ns) as \$stop
		| [.times_ns, (.bands[] | select(.label == \"$1\") | .values)] | transpose
		| map(select(.[0] < \$stop) | .[1]) | length >= 2 and .[0] < .[-1])"
}

profile m
expect_json "$T/hm.json" '.meta.breakdown == "module (-hm)" and (.bands | max_by(.stats.integrated) | .label) == "Main"'
profile d
expect_json "$T/hd.json" ".meta.breakdown == \"closure description (-hd)\" and $(grows Record) and $(grows :)"
profile y
expect_json "$T/hy.json" ".meta.breakdown == \"type description (-hy)\" and $(grows Record)"
profile r
expect_json "$T/hr.json" '.meta.breakdown == "retainer set (-hr)"
	and any(.bands[]; (.label | test("^\\([0-9]+\\)(.*,)?leaky")) and .stats.peak > 1000000)'
profile b
expect_json "$T/hb.json" ".meta.breakdown == \"biography (-hb)\"
	and ([.bands[].label] - [\"LAG\", \"DRAG\", \"VOID\", \"USE\", \"INHERENT_USE\"] == [])
	and (.bands | max_by(.stats.integrated) | .label) == \"VOID\" and $(grows VOID)"
# the text report of one of them names the breakdown and the top band
"$LEAKSCOPE" eventlog --format text "$T/hr.eventlog" > "$T/hr.txt" || fail "text exit $?"
expect_grep "$T/hr.txt" 'retainer set \(-hr\)'
expect_grep "$T/hr.txt" '\([0-9]+\)leaky'
exit 0
