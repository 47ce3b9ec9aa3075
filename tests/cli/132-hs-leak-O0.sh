# hs-leak built with -O0: mallocBytes is not inlined into main, so the call
# to malloc is in the base package's code. The frame is named in decoded,
# package-qualified form - base:Foreign.Marshal.Alloc.mallocBytes1 (symbol
# base_ForeignziMarshalziAlloc_mallocBytes1_info) - and the leak is still
# exactly the 1,024 bytes.
# Whether GHC's heap still points to the block when the program ends is the
# scan's business (its GHC roots are tested on their own): the block is
# listed with --show-reachable whatever its class, and leakscope exits 23
# exactly when it is lost.
. "$(dirname "$0")/../lib.sh"
v=$(victim hs-leak@O0 -O0) || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_leak_rc "$T/r.json"
j=$T/r.json
expect_json "$j" '(root.leaks | length == 1) and root.scanned'
expect_json "$j" 'root.leaks[0] | .bytes == 1024 and .objects == 1 and .class != "not-freed"
	and .stack[0].function == "base:Foreign.Marshal.Alloc.mallocBytes1"'
exit 0
