# run --format folded: the leak report as folded stacks for flame graphs,
# on the lost list of the chains victim (a 2,222-byte head definitely lost
# holding 4 x 222 bytes indirectly lost): one line per leak group under the
# process and the class, outermost frame first, ending in the allocating
# function and the group's bytes; the same groups and bytes as the JSON
# report, and the same exit status.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit 1
rc=0
"$LEAKSCOPE" run -f folded -o "$T/f.txt" -- "$v" list > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
name=$(basename "$v")
expect_grep "$T/f.txt" "^[^;]*$name list \\(pid [0-9]+\\);definitely lost;([^ ]*;)?main;([^ ]*;)?list 2222\$"
expect_grep "$T/f.txt" "^[^;]*$name list \\(pid [0-9]+\\);indirectly lost;([^ ]*;)?main;([^ ]*;)?list 888\$"
ls_run "$T/r.json" -- "$v" list
expect_rc 23
want=$(jq -r '[.processes[].leaks[] | "\(.class) \(.bytes)"] | sort | join(",")' "$T/r.json" | sed 's/-/ /g')
got=$(sed 's/^[^;]*;\([^;]*\);.* \([0-9]*\)$/\1 \2/' "$T/f.txt" | sort | paste -sd, -)
[ "$got" = "$want" ] || fail "folded groups '$got', JSON groups '$want'"
"$LEAKSCOPE" run -f xml -- "$v" list > /dev/null 2> "$T/stderr" && fail "-f xml accepted"
expect_grep "$T/stderr" "unknown format 'xml' \\(text, json, folded or html\\)"
exit 0
