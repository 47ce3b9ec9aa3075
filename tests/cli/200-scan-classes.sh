# The reachability scan (the default of run): one victim run per
# pointer-chain shape, asserting class, bytes, objects and the allocating
# function, and the exit status: 23 exactly when definitely or indirectly
# lost bytes remain.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit 1

scan() { # mode -> $T/MODE.json
	rc=0
	"$LEAKSCOPE" run -f json -o "$T/$1.json" -- "$v" "$1" > /dev/null 2> "$T/$1.err" || rc=$?
	expect_json "$T/$1.json" '.processes[0].scanned == true'
	lost=$(jq '.processes[0].classes | .["definitely-lost"].bytes + .["indirectly-lost"].bytes' "$T/$1.json")
	if [ "$lost" -gt 0 ]; then expect_rc 23; else expect_rc 0; fi
}

# class BYTES OBJECTS FUNCTION of the leak group of that class and size
has() { # mode class bytes objects function
	expect_json "$T/$1.json" "[.processes[0].leaks[] | select(.class == \"$2\" and .bytes == $3
		and .objects == $4 and any(.stack[]; .function == \"$5\"))] | length == 1"
}

scan direct;   has direct definitely-lost 1111 1 direct
scan list;     has list definitely-lost 2222 1 list; has list indirectly-lost 888 4 list
scan cycle
expect_json "$T/cycle.json" '.processes[0].classes["definitely-lost"] == {"bytes": 333, "objects": 1}
	and .processes[0].classes["indirectly-lost"] == {"bytes": 666, "objects": 2}'
scan interior; has interior possibly-lost 4444 1 interior
scan freed;    has freed definitely-lost 8888 1 freed

for m in global stack tls chain; do
	scan $m
	expect_json "$T/$m.json" '.processes[0].classes["definitely-lost"].bytes == 0
		and .processes[0].classes["indirectly-lost"].bytes == 0'
done
expect_json "$T/global.json" '.processes[0].classes["still-reachable"].bytes >= 5555'
expect_json "$T/chain.json" '.processes[0].classes["still-reachable"].bytes >= 10998'

# still-reachable blocks are listed only when asked
"$LEAKSCOPE" run --show-reachable -f json -o "$T/r.json" -- "$v" global 2> /dev/null
expect_json "$T/r.json" '[.processes[0].leaks[] | select(.class == "still-reachable" and .bytes == 5555)] | length == 1'

# a possibly lost block alone does not fail the run (206 tests the codes)
expect_json "$T/interior.json" '.processes[0].classes["definitely-lost"].bytes == 0'
exit 0
