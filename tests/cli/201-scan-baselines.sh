# The scan's verdicts on seed 001's cgo trio (no C.exit(0) hack: Go ends with
# a raw exit_group) and on clean programs: exactly one definitely lost
# 1,000-byte block for cgo-leak, nothing lost for cgo-noop, cgo-good, the
# clean C and C++ programs.
. "$(dirname "$0")/../lib.sh"

lost() { # victim [args] -> $T/NAME.json; prints nothing
	name=$1; shift
	v=$(victim "$name") || exit
	"$LEAKSCOPE" run --exit-code 0 -f json -o "$T/$name.json" -- "$v" "$@" > /dev/null \
		2> "$T/$name.err" || { cat "$T/$name.err"; fail "$name exited $?"; }
	expect_json "$T/$name.json" '[.processes[] | select(.root)][0].scanned == true'
}

for clean in cgo-noop cgo-good hello hello-cc; do
	lost $clean
	expect_json "$T/$clean.json" '[.processes[] | select(.root)][0].classes
		| .["definitely-lost"].bytes == 0 and .["indirectly-lost"].bytes == 0'
done

lost cgo-leak
expect_json "$T/cgo-leak.json" '[.processes[] | select(.root)][0]
	| .classes["definitely-lost"] == {"bytes": 1000, "objects": 1}
	and .classes["indirectly-lost"].bytes == 0
	and (.leaks[0] | .class == "definitely-lost" and .stack[0].function == "hello"
	     and any(.stack[]; .function == "main.main"))'
