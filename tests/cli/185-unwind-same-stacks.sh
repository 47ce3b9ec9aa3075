# unwind-same-stacks: the interposer's fast unwinder (src/preload/unwind.c)
# records the same stacks as libunwind alone (LEAKSCOPE_UNWIND=libunwind):
# on deep-stacks (40 leaks at the bottom of up to 90 frames through qsort,
# bsearch, dl_iterate_phdr, alloca and a big frame, in main and a thread,
# built -O2 so that most frames have no frame pointer), the C++ victim, and
# CPython when there is one. Reports are compared leak by leak: bytes,
# objects and every frame's function, file, line and module, on every
# block still allocated at the end (--no-scan: a class would split groups
# differently from one run to the next, and is not what is compared).
. "$(dirname "$0")/../lib.sh"
v=$(victim deep-stacks@O2 -O2) || exit
src=$ROOT/tests/victims/deep-stacks.c

# canonical JSON of every leak of a report
leaks_of() {
	jq -c '[.processes[] | .leaks[] | {bytes, objects,
		stack: [.stack[] | [.function, .file, .line, .module]]}] | sort_by(.bytes, .stack)' "$1"
}

# slow_run OUT ARGS...: ls_run with the fast unwinder off
slow_run() {
	export LEAKSCOPE_UNWIND=careful
	ls_run "$@"
	unset LEAKSCOPE_UNWIND
}

same_stacks() { # name fast.json slow.json
	leaks_of "$2" > "$T/$1.fast"
	leaks_of "$3" > "$T/$1.slow"
	[ "$(jq length "$T/$1.fast")" -gt 0 ] || fail "$1: no leaks to compare"
	cmp -s "$T/$1.fast" "$T/$1.slow" || {
		diff "$T/$1.fast" "$T/$1.slow" | head -c 3000
		fail "$1: the fast unwinder's stacks differ from libunwind's"
	}
}

ls_run "$T/fast.json" --no-scan --frames 128 -- "$v"
expect_rc 23 # --no-scan: not-freed blocks fail the run too
slow_run "$T/slow.json" --no-scan --frames 128 -- "$v"
expect_rc 23
same_stacks deep-stacks "$T/fast.json" "$T/slow.json"
# the stacks are whole: every leak starts at its malloc and ends in main or
# the thread function, deep ones pass through libc's qsort
j=$T/fast.json
expect_json "$j" '[root.leaks[] | select(.bytes >= 1000 and .bytes < 1040)] | length == 40'
expect_json "$j" "[root.leaks[] | select(.stack[0].function == \"leak_here\"
	and .stack[0].line == $(marker "$src" deep-malloc))] | length == 40"
expect_json "$j" '[root.leaks[] | select(has_fn("main") or has_fn("worker"))] | length == 40'
expect_json "$j" '[root.leaks[] | select(has_fn("cmp_down") and fn_prefix("via_qsort"))] | length >= 5'
expect_json "$j" '[root.leaks[].stack | length] | max > 64'

c=$(victim cxx-leaks) || exit
ls_run "$T/cxx-fast.json" --no-scan -- "$c"
slow_run "$T/cxx-slow.json" --no-scan -- "$c"
same_stacks cxx-leaks "$T/cxx-fast.json" "$T/cxx-slow.json"

py=$(command -v python3) || exit 0
py=$("$py" -c 'import sys; print(sys.executable)')
prog='import json; d = {str(i): [i] * 3 for i in range(3000)}; print(len(json.dumps(d)))'
export PYTHONHASHSEED=0 PYTHONMALLOC=malloc
ls_run "$T/py-fast.json" --no-scan -- "$py" -c "$prog"
slow_run "$T/py-slow.json" --no-scan -- "$py" -c "$prog"
same_stacks python "$T/py-fast.json" "$T/py-slow.json"
exit 0
