# hs-leak built with -O0: mallocBytes is not inlined into main, so the call
# to malloc is in the base package's code. The frame is named in decoded,
# package-qualified form - base:Foreign.Marshal.Alloc.mallocBytes1 (symbol
# base_ForeignziMarshalziAlloc_mallocBytes1_info) - and the leak is still
# exactly the 1,024 bytes.
. "$(dirname "$0")/../lib.sh"
v=$(victim hs-leak@O0 -O0) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 1024 and root.summary.leaked_objects == 1'
expect_json "$j" 'root.leaks[0] | .bytes == 1024 and .objects == 1
	and .stack[0].function == "base:Foreign.Marshal.Alloc.mallocBytes1"'
exit 0
