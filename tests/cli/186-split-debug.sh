# split-debug built -O2: its leak comes from make_buffer, inlined into fill.
# The frames keep function, file:line and the [inlined] mark when the debug
# info lives in a separate file found by .gnu_debuglink (next to the
# binary) or by build-id (DIR/.build-id/xx/rest.debug, DIR from
# LEAKSCOPE_DEBUGINFO_PATH); a binary stripped of everything shows
# module+offset, never a bare address.
. "$(dirname "$0")/../lib.sh"
v=$(victim split-debug -O2) || exit
src=$ROOT/tests/victims/split-debug.c
command -v objcopy > /dev/null || skip "no objcopy (binutils)"
malloc_line=$(marker "$src" split-malloc)
call_line=$(marker "$src" split-call)

# the two frames every symbolized report must show for module $1
expect_symbolized() { # json module
	expect_json "$1" "root.leaks | length == 1 and (.[0] | .bytes == 777 and .objects == 1)"
	expect_json "$1" "root.leaks[0].stack[0] | .function == \"make_buffer\" and .inlined == true
		and (.file | endswith(\"split-debug.c\")) and .line == $malloc_line and .module == \"$2\""
	expect_json "$1" "root.leaks[0].stack[1] | .function == \"fill\" and .inlined == false
		and .line == $call_line and .module == \"$2\""
}

# debuglink: the debug file next to the stripped binary
cp "$v" "$T/linked"
objcopy --only-keep-debug "$T/linked" "$T/linked.debug"
strip --strip-debug --strip-unneeded "$T/linked"
objcopy --add-gnu-debuglink="$T/linked.debug" "$T/linked"
readelf -S "$T/linked" | grep -q debug_info && fail "linked still carries DWARF"
ls_run "$T/linked.json" --exit-code 0 -- "$T/linked"
expect_rc 0
expect_symbolized "$T/linked.json" linked

# stripped of everything: module+offset
cp "$v" "$T/bare"
strip --strip-all "$T/bare"
ls_run "$T/bare.json" --exit-code 0 -- "$T/bare"
expect_rc 0
expect_json "$T/bare.json" 'root.leaks[0].stack[0] | .function == null and .module == "bare"
	and (.offset | test("^0x[0-9a-f]+$"))'
rc=0
"$LEAKSCOPE" run --exit-code 0 -- "$T/bare" > /dev/null 2> "$T/stderr" || rc=$?
expect_grep "$T/stderr" '^    #0 +bare\+0x[0-9a-f]+ +\(bare\)$'

# build-id: the same stripped binary, its debug file under a build-id tree
id=$(readelf -n "$v" | awk '/Build ID/ { print $3 }')
[ -n "$id" ] || skip "the toolchain wrote no build-id"
mkdir -p "$T/dbg/.build-id/$(echo "$id" | cut -c1-2)"
cp "$T/linked.debug" "$T/dbg/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
cp "$T/bare" "$T/byid"
LEAKSCOPE_DEBUGINFO_PATH=$T/dbg ls_run "$T/byid.json" --exit-code 0 -- "$T/byid"
expect_rc 0
expect_symbolized "$T/byid.json" byid
exit 0
