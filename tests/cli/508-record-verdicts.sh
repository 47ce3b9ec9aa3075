# 508: `record` scans each process as it ends, like `run`, and keeps the
# verdicts in its trace; `report` then shows the same leaks as `run`:
# the same classes, bytes, objects and allocating functions, the same
# suppressions, blocks kept on purpose never listed. Without verdicts
# (--no-scan) the report says "not freed"
# and why (a program killed by SIGKILL: 501; leakscope killed: 502).
. "$(dirname "$0")/../lib.sh"
chains=$(victim chains) || exit
api=$(victim api) || exit
cxx=$(victim cxx-leaks) || exit

# the leak groups of a leakscope-leaks process object, one line each
groups() { # json jq-path-to-process
	jq -c "$2 | [.leaks[] | [.class, .bytes, .objects, .stack[0].function]] | sort" "$1"
}
classes() { jq -c "$2 | .classes" "$1"; }

same_as_run() { # name program args...
	name=$1; shift
	"$LEAKSCOPE" run -f json -o "$T/$name.run.json" -- "$@" > /dev/null 2>&1
	"$LEAKSCOPE" record -o "$T/$name.lstrace" -- "$@" > /dev/null 2> "$T/$name.rec.err" ||
		[ $? -lt 125 ] || fail "record $name failed: $(cat "$T/$name.rec.err")"
	"$LEAKSCOPE" report --format json -o "$T/$name.rep.json" "$T/$name.lstrace" ||
		fail "report $name failed"
	expect_json "$T/$name.rep.json" '.exit_leaks.scanned == true'
	a=$(classes "$T/$name.run.json" '.processes[0]')
	b=$(classes "$T/$name.rep.json" '.exit_leaks')
	[ "$a" = "$b" ] || fail "$name: classes differ: run $a, report $b"
	a=$(groups "$T/$name.run.json" '.processes[0]')
	b=$(groups "$T/$name.rep.json" '.exit_leaks')
	[ "$a" = "$b" ] || fail "$name: leak groups differ: run $a, report $b"
}

same_as_run list "$chains" list
expect_json "$T/list.rep.json" '.exit_leaks.classes | .["definitely-lost"].bytes == 2222 and .["indirectly-lost"] == {"bytes": 888, "objects": 4}'
same_as_run cycle "$chains" cycle
same_as_run interior "$chains" interior
expect_json "$T/interior.rep.json" '[.exit_leaks.leaks[] | select(.class == "possibly-lost" and .bytes == 4444)] | length == 1'
same_as_run global "$chains" global
expect_json "$T/global.rep.json" '.exit_leaks.classes["still-reachable"].bytes >= 5555 and .exit_leaks.classes["definitely-lost"].bytes == 0'
# kept on purpose (ignored, disabled): never listed; a registered root counts
same_as_run api "$api"
expect_json "$T/api.rep.json" '.exit_leaks.classes["definitely-lost"] == {"bytes": 1212, "objects": 1}'
expect_json "$T/api.rep.json" '[.exit_leaks.leaks[] | select(.bytes == 3434 or .bytes == 5656)] == []'
# C++: libstdc++'s emergency pool (72,704 bytes) is suppressed by the built-in list in both
same_as_run cxx "$cxx"
expect_json "$T/cxx.rep.json" '.exit_leaks.summary.suppressed_bytes >= 72704'
a=$(jq -c '.processes[0].summary' "$T/cxx.run.json")
b=$(jq -c '.exit_leaks.summary' "$T/cxx.rep.json")
[ "$a" = "$b" ] || fail "cxx: summaries differ: run $a, report $b"
# report takes run's suppression options, on the verdicts kept
printf 'leak:std::__cxx11::basic_string\nleak:shapes::leak_vector\n' > "$T/mine.supp"
"$LEAKSCOPE" report --format json -o "$T/cxx.sup.json" --suppressions "$T/mine.supp" \
	--show-suppressed "$T/cxx.lstrace" || fail "report --suppressions failed"
expect_json "$T/cxx.sup.json" '[.exit_leaks.leaks[].stack[] |
	select(.function == "shapes::leak_vector(int)")] == []'
expect_json "$T/cxx.sup.json" '[.exit_leaks.suppressed[] | select(.suppression == "shapes::leak_vector")
	| .bytes] | sort == [24, 4444]'
"$LEAKSCOPE" report --format json -o "$T/cxx.nodef.json" --no-default-suppressions \
	--show-reachable "$T/cxx.lstrace" || fail "report --no-default-suppressions failed"
expect_json "$T/cxx.nodef.json" '.exit_leaks.summary.suppressed_bytes == 0 and
	([.exit_leaks.leaks[] | select(.bytes == 72704 and .class == "still-reachable")] | length == 1)'
"$LEAKSCOPE" report --suppressions "$T/absent.supp" "$T/cxx.lstrace" > /dev/null 2> "$T/absent.err" &&
	fail "a missing suppressions file was accepted"
expect_grep "$T/absent.err" "absent.supp"
# Go with cgo: the Go heap is a graph, goroutine stacks are roots
cgo=$(victim cgo-leak) || exit
same_as_run cgo "$cgo"
expect_json "$T/cgo.rep.json" '.exit_leaks.classes["definitely-lost"] == {"bytes": 1000, "objects": 1}'

# the text is run's
"$LEAKSCOPE" report "$T/list.lstrace" > "$T/list.txt" || fail "text report failed"
expect_grep "$T/list.txt" "^leakscope: 3,110 bytes lost in 5 objects \(pid [0-9]+, .*chains list\): 2,222 bytes in 1 object definitely, 888 bytes in 4 objects indirectly"
expect_grep "$T/list.txt" "^  888 bytes in 4 objects indirectly lost, allocated from:"
# dump shows the verdicts
"$LEAKSCOPE" dump "$T/list.lstrace" > "$T/list.dump" || fail "dump failed"
expect_grep "$T/list.dump" " scan made$"
expect_grep "$T/list.dump" "^- verdict alloc=[0-9]+ addr=0x[0-9a-f]+ size=2222 class=definitely-lost$"
expect_grep "$T/list.dump" "class=indirectly-lost leader_stack=[0-9]+$"

# no scan: "not freed", and why
"$LEAKSCOPE" record --no-scan -o "$T/ns.lstrace" -- "$chains" list > /dev/null 2>&1
"$LEAKSCOPE" report --format json -o "$T/ns.json" "$T/ns.lstrace" || fail "report --no-scan trace"
expect_json "$T/ns.json" '.exit_leaks | .scanned == false and (.scan_note | contains("--no-scan")) and .classes["not-freed"].bytes == 3110'
exit 0
