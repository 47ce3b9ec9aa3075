# other-tracers: a debugger or strace run under leakscope takes the
# program it traces (strace's PTRACE_SEIZE, gdb's child's PTRACE_TRACEME):
# leakscope lets go of it and it is scanned from its exit hook instead. The
# traced program runs as without leakscope, strace and gdb work, and the
# program's leak is still reported, with a note saying why the scan was
# made from inside.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
command -v strace > /dev/null || skip "no strace"
command -v gdb > /dev/null || skip "no gdb"

# its leak: 1,000 bytes from hello, found from the exit hook
leak_found() { # report what
	expect_json "$1" "[.processes[] | select((.exe // \"\") | endswith(\"/leak-one\")) | select(.leaks |
		any(.[]; .bytes == 1000 and .class == \"definitely-lost\" and .stack[0].function == \"hello\"))]
		| length == 1"
	expect_json "$1" "[.processes[] | select((.exe // \"\") | endswith(\"/leak-one\"))][0].scan_note |
		startswith(\"another tracer (a debugger, strace) had the process: it was scanned from its exit hook\")"
}

timeout 60 "$LEAKSCOPE" run -f json -o "$T/s.json" -- strace -f -o "$T/strace.out" "$v" \
	> "$T/s.out" 2> "$T/s.err"
rc=$?
[ $rc = 23 ] || { cat "$T/s.err"; fail "strace under run: status $rc, not 23 (the leak)"; }
grep -q '^hello 0x' "$T/s.out" || fail "the program's output under strace: $(cat "$T/s.out")"
grep -q 'write(1, "hello 0x' "$T/strace.out" || { head "$T/strace.out"; fail "strace did not trace the program"; }
grep -q 'exited with 0' "$T/strace.out" || fail "strace did not see the program end"
leak_found "$T/s.json" strace

timeout 60 "$LEAKSCOPE" run -f json -o "$T/g.json" -- gdb -nx -batch -ex run --args "$v" \
	> "$T/g.out" 2> "$T/g.err"
rc=$?
grep -q '^hello 0x' "$T/g.out" || { cat "$T/g.out" "$T/g.err"; fail "the program's output under gdb"; }
grep -q 'exited normally' "$T/g.out" || { cat "$T/g.out" "$T/g.err"; fail "gdb could not run the program"; }
leak_found "$T/g.json" gdb
exit 0
