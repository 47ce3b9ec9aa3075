# record: a C++ program's trace carries demangled names with file:line:
# shapes::Widget::make(int) at its `new Widget` line, for the allocation of
# 1,112 bytes; no mangled _Z name is left in the frames of that stack.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim cxx-leaks) || exit
src=$ROOT/tests/victims/cxx-leaks.cc
rc=0
"$LEAKSCOPE" record -o "$T/x.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
ls_dump "$T/x.lstrace" "$T/d"; [ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump"; }
line=$(marker "$src" widget-new)
expect_grep "$T/d" "^- symbol addr=0x[0-9a-f]+ module=[0-9]+ frames=shapes::Widget::make\(int\) at .*cxx-leaks\.cc:$line in cxx-leaks\+0x"
expect_grep "$T/d" "frames=shapes::make_buffer\(unsigned long\) at "
addr=$(sed -n 's/^- symbol addr=\(0x[0-9a-f]*\) .*frames=shapes::Widget::make(int) at .*/\1/p' "$T/d")
sid=$(grep "^- stack id=[0-9]* frames=.*$addr" "$T/d" | sed -n 's/^- stack id=\([0-9]*\) .*/\1/p' | head -n 1)
[ -n "$sid" ] || fail "no stack through shapes::Widget::make(int)"
[ "$(count_allocs "$T/d" "$sid" 1112)" -ge 1 ] || fail "no allocation of 1112 bytes through Widget::make"
for a in $(sed -n "s/^- stack id=$sid frames=//p" "$T/d" | tr ',' ' '); do
	grep "^- symbol addr=$a " "$T/d" | grep -q 'frames=_Z' && fail "mangled name at $a"
done
consistent "$T/d"
exit 0
