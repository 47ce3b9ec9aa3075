# Issue 5: what a possibly-lost block reaches is possibly lost, as valgrind's
# memcheck classes it. possible-tree keeps a tree only through a pointer into
# its root's middle, another only through a tagged pointer (address + 5, like
# an Emacs Lisp_Object); a lost block's child is indirectly lost, and a block
# that both a possible and a lost block point to is possibly lost. Where
# valgrind is installed, its loss records give the same class to every size.
. "$(dirname "$0")/../lib.sh"
v=$(victim possible-tree) || exit
rc=0
"$LEAKSCOPE" run -f json -o "$T/r.json" -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
j=$T/r.json
expect_leak_rc "$j"

class() { # bytes class
	expect_json "$j" "[root.leaks[] | select(.bytes == $1)] | length == 1
		and .[0].class == \"$2\" and .[0].objects == 1 and .[0].stack[0].function == \"block\""
}
for n in 1100 1200 1300 1400 1500 1800; do class $n possibly-lost; done
class 1600 definitely-lost
class 1700 indirectly-lost
expect_json "$j" 'root.classes | .["possibly-lost"] == {"bytes": 8300, "objects": 6}
	and .["definitely-lost"] == {"bytes": 1600, "objects": 1}
	and .["indirectly-lost"] == {"bytes": 1700, "objects": 1}'

command -v valgrind > /dev/null || exit 0
valgrind --leak-check=full --show-leak-kinds=all "$v" > /dev/null 2> "$T/vg.txt" ||
	{ cat "$T/vg.txt"; fail "valgrind failed"; }
# "N bytes in 1 blocks are possibly lost in loss record" -> "N possibly-lost"
sed -nE 's/^==[0-9]+== ([0-9,]+) bytes in 1 blocks are (possibly|indirectly) lost in loss record.*/\1 \2-lost/p
	s/^==[0-9]+== [0-9,]+ \(([0-9,]+) direct, [0-9,]+ indirect\) bytes in 1 blocks are definitely lost.*/\1 definitely-lost/p
	s/^==[0-9]+== ([0-9,]+) bytes in 1 blocks are definitely lost.*/\1 definitely-lost/p' "$T/vg.txt" |
	tr -d , | sort > "$T/vg.classes"
jq -r '.processes[] | select(.root) | .leaks[] | "\(.bytes) \(.class)"' "$j" | sort > "$T/ls.classes"
[ "$(wc -l < "$T/vg.classes")" -eq 8 ] || { cat "$T/vg.txt"; fail "valgrind: not 8 loss records"; }
cmp -s "$T/vg.classes" "$T/ls.classes" || {
	diff "$T/vg.classes" "$T/ls.classes"; fail "valgrind and leakscope class differently"; }
exit 0
