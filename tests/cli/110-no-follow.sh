# --no-follow: only the program itself is traced; the forked child's 8,008
# bytes appear nowhere, the parent's 7,007 still do, and the exit status
# passes through, or rather 23: the parent's block is definitely lost.
. "$(dirname "$0")/../lib.sh"
v=$(victim fork) || exit
ls_run "$T/r.json" --no-follow -- "$v"
expect_rc 23
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' "$T/stdout")
expect_grep "$T/stdout" '^child [0-9]+ '
j=$T/r.json
expect_json "$j" '.processes | length == 1'
expect_json "$j" "root.pid == $parent"
expect_json "$j" 'root.summary.leaked_bytes == 7007 and root.classes["definitely-lost"].bytes == 7007'
expect_json "$j" 'all_leaks | sized(8008) | length == 0'
expect_json "$j" '[all_leaks[] | select(has_fn("child_leak"))] | length == 0'
exit 0
