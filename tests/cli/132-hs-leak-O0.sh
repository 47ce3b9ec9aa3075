# hs-leak built with -O0: mallocBytes is not inlined into main, so the call
# to malloc is in the base package's code. The frame is named in decoded,
# package-qualified form - base:Foreign.Marshal.Alloc.mallocBytes1 (symbol
# base_ForeignziMarshalziAlloc_mallocBytes1_info) - and the leak is still
# exactly the 1,024 bytes. The Haskell stack goes on to main: the frame of
# base's bind (GHC.Base.$fMonadIO1) holds the rest of main's do-block,
# Main.main at its line (DWARF of -g), then the runtime's catch frame.
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
expect_json "$j" "root.leaks[0] | [.stack[].function] == [\"base:Foreign.Marshal.Alloc.mallocBytes1\",
	\"base:GHC.Base.\$fMonadIO1\", \"Main.main\", \"stg_catch_frame_info\"]
	and (.stack[2] | (.file | endswith(\"hs-leak.hs\")) and .line >= $(marker "$ROOT/tests/victims/hs-leak.hs" hs-main))"
exit 0
