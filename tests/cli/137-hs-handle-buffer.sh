# A Handle's buffer is output, not a reference: hs-handle-buffer leaks a
# 3000-byte mallocBytes block after writing its address through stdout's
# buffer, whose byte array keeps those 8 bytes after the flush. The block is
# definitely lost, allocated from Main.main (a copy left in a live
# byte array of the GHC heap would keep it "still reachable" in a scan of
# every live object: GHC.IO.Buffer's arrays are left out). Built at -O0
# and at -O2 with the threaded runtime.
. "$(dirname "$0")/../lib.sh"

for build in "O0 -O0 -g" "O2 -O2 -threaded"; do
	set -- $build
	name=$1
	shift
	v=$(victim "hs-handle-buffer@$name" "$@") || exit
	ls_run "$T/$name.json" -- "$v"
	expect_leak_rc "$T/$name.json"
	[ "$(wc -c < "$T/stdout")" -eq 8 ] || fail "$name: stdout is not the 8 bytes of an address"
	expect_json "$T/$name.json" 'root.scanned
		and root.classes["definitely-lost"] == {"bytes": 3000, "objects": 1}
		and root.classes["still-reachable"].bytes == 0'
	expect_json "$T/$name.json" '[root.leaks[0].stack[].function // empty
		| select(startswith("Main.main"))] | length > 0'
done
exit 0
