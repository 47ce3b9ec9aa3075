# sizeless-symbol: a zero-size symbol names no address past it. Code
# without a symbol of its own after one (GHC's code after crtstuff's
# frame_dummy) is shown as the module and an offset, in JSON and text;
# the leak it makes is still found, with main as its caller.
. "$(dirname "$0")/../lib.sh"
v=$(victim sizeless-symbol) || exit
ls_run "$T/r.json" --full-stacks -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.leaks | sized(4321) | length == 1 and .[0].class == "definitely-lost"'
expect_json "$j" '[root.leaks | sized(4321) | .[0].stack[] | select(.function == "sizeless_label")] == []'
expect_json "$j" 'root.leaks | sized(4321) | .[0].stack | any(.[]; .function == null and .module == "sizeless-symbol")'
expect_json "$j" 'root.leaks | sized(4321) | .[0].stack | any(.[]; .function == "main")'
"$LEAKSCOPE" run -- "$v" 2> "$T/text" > /dev/null
grep -q sizeless_label "$T/text" && fail "the zero-size symbol names code past it: $(cat "$T/text")"
expect_grep "$T/text" "sizeless-symbol\+0x[0-9a-f]+"
exit 0
