# Where ptrace is not permitted (here: a seccomp filter, inherited by
# leakscope and the program, makes every ptrace call fail with EPERM), each
# process scans itself at its exit hook (exit, _exit) through the collector:
# the same classes as with ptrace, and a note saying raw exit paths could
# not be scanned. A raw exit_group (the syscall, and Go's end) passes no
# hook: its blocks are "not freed" with a clear note, and nothing hangs.
. "$(dirname "$0")/../lib.sh"
np=$(victim no-ptrace) || exit
chains=$(victim chains) || exit
paths=$(victim exit-paths) || exit
"$np" true 2> "$T/np.err" || skip "cannot deny ptrace here: $(cat "$T/np.err")"

np_run() { # out.json leakscope-run-args... (like ls_run, under no-ptrace, bounded)
	out=$1; shift
	rc=0
	timeout 120 "$np" "$LEAKSCOPE" run -f json -o "$out" "$@" > "$T/stdout" 2> "$T/stderr" || rc=$?
	[ "$rc" != 124 ] || fail "leakscope hung without ptrace: $*"
}
hooked='root.scanned and (root.scan_note | test("ptrace is not permitted.*exit hook.*raw exit paths"))'

# exit from main: the lost list, classed as with ptrace (200)
np_run "$T/list.json" -- "$chains" list
expect_rc 23
expect_json "$T/list.json" "$hooked"
expect_json "$T/list.json" 'root.classes["definitely-lost"] == {"bytes": 2222, "objects": 1}
	and root.classes["indirectly-lost"] == {"bytes": 888, "objects": 4}
	and root.classes["not-freed"].objects == 0'
expect_json "$T/list.json" 'root.leaks | length == 2 and all(.[]; .stack[0].function == "list")'
# a still-reachable block stays reachable: the program's globals are roots
np_run "$T/global.json" --show-reachable -- "$chains" global
expect_rc 0
expect_json "$T/global.json" "$hooked"' and root.classes["definitely-lost"].bytes == 0
	and (root.leaks | any(.[]; .bytes == 5555 and .class == "still-reachable"))'

# _exit(): the interposed _exit scans first; main's frame holds the block
np_run "$T/_exit.json" --show-reachable -- "$paths" _exit
expect_rc 5
expect_json "$T/_exit.json" "$hooked"
expect_json "$T/_exit.json" 'root.leaks | sized(4100) | length == 1
	and (.[0] | .class == "still-reachable" and .stack[0].function == "leak_before_end")'

# a raw exit_group: no hook, no scan, the block reported as not freed
np_run "$T/raw.json" -- "$paths" exit_group
expect_rc 6
expect_json "$T/raw.json" '.exit == {"code": 6, "signal": null} and (root.scanned | not)
	and (root.scan_note | test("ptrace is not permitted.*raw exit path.*could not be scanned"))'
expect_json "$T/raw.json" 'root.leaks | sized(4100) | length == 1
	and (.[0] | .class == "not-freed" and .stack[0].function == "leak_before_end")'
rc=0
timeout 120 "$np" "$LEAKSCOPE" run -- "$paths" exit_group > /dev/null 2> "$T/raw.txt" || rc=$?
expect_rc 6
expect_grep "$T/raw.txt" '^  note: no reachability scan: ptrace is not permitted here, and the process ended by a raw exit path'
expect_grep "$T/raw.txt" '^leakscope: 4,100 bytes in 1 object not freed at exit '

# threads: one still blocked in read() when main returns (its stack is a
# root, whole), another joined; the call-back neither hangs nor loses them
th=$(victim threads) || exit
np_run "$T/threads.json" --show-reachable -- "$th"
expect_leak_rc "$T/threads.json"
expect_json "$T/threads.json" "$hooked"' and ([root.leaks[] | select(.bytes == 5005 or .bytes == 6006)]
	| length == 2 and all(.[]; .objects == 1 and .class != "not-freed"))'

# fork: parent and child each call back (the child re-arms after fork)
fork=$(victim fork) || exit
np_run "$T/fork.json" --show-reachable -- "$fork"
expect_rc 23
expect_json "$T/fork.json" '(.processes | length == 2) and all(.processes[];
	.scanned and (.scan_note | test("exit hook")))'
expect_json "$T/fork.json" 'root.classes["definitely-lost"] == {"bytes": 7007, "objects": 1}'
expect_json "$T/fork.json" '[.processes[] | select(.forked) | .leaks[] | select(.bytes == 8008)]
	| length == 1 and .[0].class == "still-reachable"'

# the collector built with ASan/UBSan serves the call-back cleanly (its
# LeakSanitizer needs ptrace itself: off)
if [ -x "$ROOT/build-san/leakscope" ]; then
	rc=0
	ASAN_OPTIONS=detect_leaks=0 timeout 120 "$np" "$ROOT/build-san/leakscope" run -f json \
		-o "$T/san.json" -- "$chains" list > /dev/null 2> "$T/stderr" || rc=$?
	expect_rc 23
	if grep -Eq 'AddressSanitizer|runtime error' "$T/stderr"; then cat "$T/stderr"; fail "sanitizer report"; fi
	expect_json "$T/san.json" "$hooked"' and root.classes["indirectly-lost"] == {"bytes": 888, "objects": 4}'
fi

# Go ends with a raw exit_group: reported as not freed, with the note
if command -v go > /dev/null; then
	go=$(victim cgo-leak) || exit
	np_run "$T/go.json" -- "$go"
	expect_rc 23
	expect_json "$T/go.json" '(root.scanned | not) and (root.scan_note | test("raw exit path"))'
	expect_json "$T/go.json" 'root.leaks | length == 1 and (.[0] | .bytes == 1000
		and .class == "not-freed" and .stack[0].function == "hello")'
fi
exit 0
