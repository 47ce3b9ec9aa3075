# Haskell call chains: an allocation from GHC code has the Haskell stack's
# frames after the C stack's. hs-chain's main calls Leaky.leakBuffers
# (tests/victims/hs-lib/Leaky.hs), which leaks 4 blocks each of 1000 bytes
# by mallocBytes (base's unsafe foreign call), 2000 by an unsafe foreign
# call of malloc and 3000 by a safe one. Built four ways - -O0 -g and -O2
# (no DWARF), each with the non-threaded and the threaded runtime - each
# kind is one record of 4 definitely lost blocks whose functions, in
# order, include the caller chain down to main:
#   -O0 -g: Leaky.leakBuffers.go <- Leaky.leakBuffers <- Main.main (main
#           and leakBuffers bind through base's bindIO, whose frames hold
#           the rest of their do-blocks), with the code that called malloc
#           first: leakBuffers.go, or base's mallocBytes1;
#   -O2:    Leaky.$wleakBuffers <- Main.main1 (the loop, local code, has
#           no symbol: it is an address before them);
#   -O2 -g: the loop too is named, by its source: Leaky.leakBuffers (its
#           go) <- Leaky.$wleakBuffers <- Main.main1.
# The Haskell stack's bottom is the runtime's catch frame of main.
. "$(dirname "$0")/../lib.sh"

# chain(names): the leak's named frames hold these names in this order
JQDEFS="$JQDEFS"'
def named: [.stack[].function // empty];
def chain($names): named as $f | reduce $names[] as $n ({at: 0, ok: true};
	if .ok then ([$f[.at:][] ] | index($n)) as $i
		| if $i == null then {at: 0, ok: false} else {at: (.at + $i + 1), ok: true} end
	else . end) | .ok;
def kind($bytes): [root.leaks[] | select(.bytes == 4 * $bytes)]
	| length == 1 and (.[0] | .objects == 4 and .class == "definitely-lost");
def leak($bytes): root.leaks[] | select(.bytes == 4 * $bytes);
'

check() { # victim flags...
	name=$1; shift
	v=$(victim "$name" "$@") || exit
	ls_run "$T/$name.json" -- "$v"
	expect_leak_rc "$T/$name.json"
	expect_grep "$T/stdout" '^leaked 12$'
	j=$T/$name.json
	expect_json "$j" 'root.scanned and (root.leaks | length == 3)'
	for b in 1000 2000 3000; do
		expect_json "$j" "kind($b) and (leak($b) | named[-1] == \"stg_catch_frame_info\")"
	done
}

for rts in "" -threaded; do
	check "hs-chain@O0$rts" -O0 -g $rts
	j=$T/hs-chain@O0$rts.json
	for b in 2000 3000; do
		expect_json "$j" "leak($b) | .stack[0].function == \"Leaky.leakBuffers.go\"
			and (.stack[0].file | endswith(\"Leaky.hs\"))
			and chain([\"Leaky.leakBuffers.go\", \"Leaky.leakBuffers\", \"Main.main\"])"
	done
	expect_json "$j" 'leak(1000) | .stack[0].function == "base:Foreign.Marshal.Alloc.mallocBytes1"
		and chain(["Leaky.leakBuffers.go", "Leaky.leakBuffers", "Main.main"])'

	check "hs-chain@O2$rts" -O2 -g0 $rts
	j=$T/hs-chain@O2$rts.json
	for b in 1000 2000 3000; do
		expect_json "$j" "leak($b) | .stack[0].function == null and .stack[0].module == \"hs-chain@O2$rts\"
			and named[0:2] == [\"Leaky.\$wleakBuffers\", \"Main.main1\"]"
	done
done

check hs-chain@O2g -O2 -g
for b in 1000 2000 3000; do
	expect_json "$T/hs-chain@O2g.json" "leak($b) | .stack[0].function == \"Leaky.leakBuffers\"
		and (.stack[0].file | endswith(\"Leaky.hs\"))
		and chain([\"Leaky.leakBuffers\", \"Leaky.\$wleakBuffers\", \"Main.main1\"])"
done

# the text report shows the chain in order
rc=0
"$LEAKSCOPE" run --exit-code 0 -- "$VICTIMS/hs-chain@O2" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 0
tr -s ' ' < "$T/stderr" | tr '\n' '|' > "$T/text"
expect_grep "$T/text" '\| #1 Leaky\.\$wleakBuffers \(hs-chain@O2\)\| #2 Main\.main1 \(hs-chain@O2\)\|'
exit 0
