# hs-leak (seed story: gperftools heapcheck for Haskell): mallocBytes 1024 in
# main, never freed. Exactly that leak is reported, from the Haskell code
# that calls malloc, named in decoded form - Main.main1 (its symbol is the
# z-encoded Main_main1_info) - at a line of main in hs-leak.hs. The GHC
# runtime's own blocks are suppressed.
# Whether GHC's heap still points to the block when the program ends is the
# scan's business (its GHC roots are tested on their own): the block is
# listed with --show-reachable whatever its class, and leakscope exits 23
# exactly when it is lost.
. "$(dirname "$0")/../lib.sh"
v=$(victim hs-leak -O1) || exit
src=$ROOT/tests/victims/hs-leak.hs
ls_run "$T/r.json" --show-reachable -- "$v"
expect_leak_rc "$T/r.json"
expect_grep "$T/stdout" '^leaked 0x[0-9a-f]+$'
j=$T/r.json
expect_json "$j" '(root.leaks | length == 1) and root.scanned'
expect_json "$j" "root.leaks[0] | .bytes == 1024 and .objects == 1 and .class != \"not-freed\" and (.stack[0] | .function == \"Main.main1\"
	and .module == \"hs-leak\" and (.file | endswith(\"hs-leak.hs\"))
	and .line >= $(marker "$src" hs-main) and .line <= $(marker "$src" hs-malloc))"
expect_json "$j" '[all_leaks[].stack[].function // ""] | all(startswith("Main_") | not)'
expect_json "$j" 'root.summary.suppressed_objects >= 1'
# the text report shows the decoded name too
rc=0
"$LEAKSCOPE" run --show-reachable --exit-code 0 -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 0
expect_grep "$T/stderr" '^    #0 +Main\.main1 +(.*/)?hs-leak\.hs:[0-9]+ +\(hs-leak\)$'
exit 0
