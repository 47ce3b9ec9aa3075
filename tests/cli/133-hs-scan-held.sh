# The scan on a GHC program (issue: a Haskell mallocBytes leak is found,
# memory held by live Haskell objects is not called lost). hs-held ends with
# four mallocBytes blocks: the one only main's variables held is definitely
# lost, named Main.main1 at its line; the one in an IORef kept by a StablePtr
# and the one in a global IORef (a CAF) are still reachable; the one a
# ForeignPtr owned was freed by the runtime at exit. Dead copies of the
# pointer left in the GHC nursery do not hide the leak. Built at -O1, and at
# -O0 with the threaded runtime. (GHC's source notes put a malloc call at
# the line of the statement before it or its own: lines are checked as a
# range, as in 130.)
. "$(dirname "$0")/../lib.sh"
src=$ROOT/tests/victims/hs-held.hs

scan() { # victim -> $T/NAME.json
	v=$1
	rc=0
	"$LEAKSCOPE" run --show-reachable -f json -o "$T/${v##*/}.json" -- "$v" \
		> "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_leak_rc "$T/${v##*/}.json"
	expect_grep "$T/stdout" '^held \(0x[0-9a-f]+,0x[0-9a-f]+,0x[0-9a-f]+,0x[0-9a-f]+\)$'
	j=$T/${v##*/}.json
	expect_json "$j" 'root | .scanned == true
		and .classes["definitely-lost"] == {"bytes": 1024, "objects": 1}
		and .classes["indirectly-lost"].bytes == 0 and .classes["possibly-lost"].bytes == 0'
	expect_json "$j" '[root.leaks[] | select(.class == "definitely-lost")]
		| length == 1 and .[0].bytes == 1024'
	expect_json "$j" '[root.leaks[] | select(.class == "still-reachable") | .bytes] | add == 7000'
}

v=$(victim hs-held -O1) || exit
scan "$v"
expect_json "$T/hs-held.json" '[all_leaks[] | select(.bytes == 2000)] | length == 0'
for n in 3000 4000; do
	expect_json "$T/hs-held.json" "[root.leaks[] | select(.bytes == $n)] | length == 1
		and (.[0].class == \"still-reachable\")"
done
expect_json "$T/hs-held.json" "root.leaks[] | select(.bytes == 1024) | .stack[0]
	| .function == \"Main.main1\" and (.file | endswith(\"hs-held.hs\"))
	and .line > $(marker "$src" hs-global) and .line <= $(marker "$src" hs-lost)"
expect_json "$T/hs-held.json" "root.leaks[] | select(.bytes == 4000) | .stack[0]
	| .function == \"Main.main1\"
	and .line > $(marker "$src" hs-stable) and .line <= $(marker "$src" hs-global)"

v=$(victim hs-held@thr -O0 -threaded) || exit
scan "$v"
expect_json "$T/hs-held@thr.json" 'root.leaks[] | select(.class == "definitely-lost")
	| .stack[0].function == "base:Foreign.Marshal.Alloc.mallocBytes1"'
# the seed story's victim: its 1,024 bytes are definitely lost (exit 23)
v=$(victim hs-leak -O1) || exit
rc=0
"$LEAKSCOPE" run -f json -o "$T/hs-leak.json" -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
expect_json "$T/hs-leak.json" 'root | .classes["definitely-lost"] == {"bytes": 1024, "objects": 1}
	and .classes["still-reachable"].bytes == 0 and .leaks[0].stack[0].function == "Main.main1"'
exit 0
