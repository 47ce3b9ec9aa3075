# record: every traced process image has its own trace. fork: the parent
# (the program that was run) writes FILE with parent_leak's 7,007 bytes; the
# child writes FILE.CHILDPID.lstrace with child_leak's 8,008 bytes and no
# parent_leak. exec: exec-first's image writes FILE (first_leak, 9,009
# bytes), the exec'd exec-second writes FILE.PID.lstrace (second_leak,
# 9,119 bytes) and its status 7 passes through. Each start is announced.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim fork) || exit
rc=0
"$LEAKSCOPE" record -o "$T/f.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' "$T/stdout")
child=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/stdout")
[ -n "$parent" ] && [ -n "$child" ] || { cat "$T/stdout"; fail "victim did not print its pids"; }
expect_grep "$T/stderr" "^leakscope: recording pid $parent \(.*fork\) to $T/f.lstrace\$"
expect_grep "$T/stderr" "^leakscope: recording pid $child \(.*fork\) to $T/f.$child.lstrace\$"
ls_dump "$T/f.lstrace" "$T/p"; [ "$drc" = 0 ] || fail "dump parent"
ls_dump "$T/f.$child.lstrace" "$T/c"; [ "$drc" = 0 ] || fail "dump child"
expect_grep "$T/p" "^# leakscope trace 2\.1 pid=$parent "
expect_grep "$T/c" "^# leakscope trace 2\.1 pid=$child "
[ "$(count_allocs "$T/p" "$(site_stack "$T/p" parent_leak)" 7007)" = 1 ] || fail "parent_leak not in the parent's trace"
[ "$(count_allocs "$T/c" "$(site_stack "$T/c" child_leak)" 8008)" = 1 ] || fail "child_leak not in the child's trace"
! grep -q 'frames=parent_leak' "$T/c" || fail "the child's trace has the parent's allocation"
! grep -q 'frames=child_leak' "$T/p" || fail "the parent's trace has the child's allocation"
consistent "$T/p"; consistent "$T/c"

first=$(victim exec-first) || exit
second=$(victim exec-second) || exit
rc=0
"$LEAKSCOPE" record -o "$T/e.lstrace" -- "$first" "$second" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 7
pid=$(sed -n 's/^second image \([0-9]*\) .*/\1/p' "$T/stdout")
expect_grep "$T/stderr" "^leakscope: recording pid $pid \(.*exec-second\) to $T/e.$pid.lstrace\$"
ls_dump "$T/e.lstrace" "$T/e1"; [ "$drc" = 0 ] || fail "dump first image"
ls_dump "$T/e.$pid.lstrace" "$T/e2"; [ "$drc" = 0 ] || fail "dump second image"
[ "$(count_allocs "$T/e1" "$(site_stack "$T/e1" first_leak)" 9009)" = 1 ] || fail "first_leak not in the first image's trace"
[ "$(count_allocs "$T/e2" "$(site_stack "$T/e2" second_leak)" 9119)" = 1 ] || fail "second_leak not in the second image's trace"
expect_grep "$T/e2" "^[0-9.]+ module id=[0-9]+ path=.*/exec-second "
exit 0
