# leakscope check PID where glibc's heap cannot be read: a program whose
# malloc is another allocator's (a preloaded library defines it) is
# refused with a message naming it, and goes on unharmed; so is one whose
# main heap is not contiguous (it moved the break itself); a pid that
# does not exist is said so. All exit 1.
. "$(dirname "$0")/../lib.sh"
v=$(victim attach-heap) || exit
lib=$(victim_lib tinyalloc) || exit

expect_fail() { # regex command...
	re=$1; shift
	rc=0; "$@" > "$T/o" 2> "$T/e" || rc=$?
	[ $rc -eq 1 ] || { cat "$T/e"; fail "'$*' exited $rc, not 1"; }
	[ -s "$T/o" ] && { cat "$T/o"; fail "'$*' wrote a report"; }
	expect_grep "$T/e" "$re"
}

start_waiting env LD_PRELOAD="$lib" "$v"
expect_fail "^leakscope: check: pid $vpid uses the malloc of .*/tinyalloc\\.so, not glibc's" \
	"$LEAKSCOPE" check "$vpid"
grep -q "State:.*[tT]" "/proc/$vpid/status" && fail "the victim was left stopped"
finish_waiting

v2=$(victim foreign-sbrk) || exit
start_waiting "$v2"
expect_fail "^leakscope: check: glibc's main heap is not contiguous at 0x[0-9a-f]+: something else moved the program break" \
	"$LEAKSCOPE" check "$vpid"
grep -q "State:.*[tT]" "/proc/$vpid/status" && fail "the victim was left stopped"
finish_waiting

expect_fail "^leakscope: check: no process 999999999$" "$LEAKSCOPE" check 999999999
expect_fail "^leakscope: check: no process 999999999$" "$LEAKSCOPE" check -f json 999999999
exit 0
