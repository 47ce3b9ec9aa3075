# The reachability scan (--scan): one victim run per pointer-chain shape,
# asserting class, bytes, objects and the allocating function.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit 1

scan() { # mode -> $T/MODE.json
	"$LEAKSCOPE" run --scan -f json -o "$T/$1.json" -- "$v" "$1" > /dev/null 2> "$T/$1.err" ||
		{ cat "$T/$1.err"; fail "run $1 exited $?"; }
	expect_json "$T/$1.json" '.processes[0].scanned == true'
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
"$LEAKSCOPE" run --scan --show-reachable -f json -o "$T/r.json" -- "$v" global 2> /dev/null
expect_json "$T/r.json" '[.processes[0].leaks[] | select(.class == "still-reachable" and .bytes == 5555)] | length == 1'

# CI semantics: --exit-code N only when definitely/indirectly lost bytes remain
"$LEAKSCOPE" run --scan --exit-code 23 -- "$v" direct 2> /dev/null; rc=$?
[ $rc -eq 23 ] || fail "direct leak with --exit-code 23 gave $rc"
"$LEAKSCOPE" run --scan --exit-code 23 -- "$v" global 2> /dev/null; rc=$?
[ $rc -eq 0 ] || fail "reachable only with --exit-code 23 gave $rc"
exit 0
