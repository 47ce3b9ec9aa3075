# 550: a Haskell program (mallocBytes 1024 never freed) recorded, its
# binary removed and the trace moved: the report names the decoded
# Main.main1 (symbol Main_main1_info) at a line of main in hs-leak.hs,
# from the trace's own records; no z-encoded Main_ name is left.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim hs-leak -O1) || exit
src=$ROOT/tests/victims/hs-leak.hs
record_moved "$v" "$T/away/h.lstrace"
expect_grep "$T/stdout" '^leaked 0x[0-9a-f]+$'
"$LEAKSCOPE" report --format json -o "$T/r.json" "$T/away/h.lstrace" 2> "$T/stderr" || fail "report failed"
J=$T/r.json
expect_json "$J" "[.leaks[] | select(.leaked_bytes == 1024)] | length == 1 and (.[0].stack[0] | .function == \"Main.main1\"
	and .module == \"hs-leak\" and (.file | endswith(\"hs-leak.hs\"))
	and .line >= $(marker "$src" hs-main) and .line <= $(marker "$src" hs-malloc))"
expect_json "$J" '[.leaks[].stack[].function // "" | select(startswith("Main_"))] == []'
"$LEAKSCOPE" report "$T/away/h.lstrace" > "$T/out" 2> "$T/stderr" || fail "text report failed"
expect_grep "$T/out" '#0  Main\.main1 +hs-leak\.hs:[0-9]+ +\(hs-leak\)'
exit 0
