# edge-verdicts: a lost zero-size block is a lost object (0 bytes in 1
# object definitely lost, counted in the headline, run exits 23); a
# program whose executable defines its own malloc gets a note saying that
# its allocations cannot be seen, not a silent "no leaks"; C++'s
# new T[0] of a type with a destructor is not a leak. At -O0 and -O2.
. "$(dirname "$0")/../lib.sh"
for opt in O0 O2; do
	v=$(victim "zero-size@$opt" "-$opt") || exit
	ls_run "$T/z.json" -- "$v"
	expect_rc 23
	expect_json "$T/z.json" 'root.classes["definitely-lost"] == {"bytes": 0, "objects": 1}'
	"$LEAKSCOPE" run -- "$v" 2> "$T/z.txt" > /dev/null
	expect_grep "$T/z.txt" '^leakscope: 0 bytes lost in 1 object '

	v=$(victim "own-malloc@$opt" "-$opt") || exit
	ls_run "$T/o.json" -- "$v"
	expect_json "$T/o.json" 'root.alloc_note | startswith("the program'"'"'s executable defines its own malloc")'
	"$LEAKSCOPE" run -- "$v" 2> "$T/o.txt" > /dev/null
	expect_grep "$T/o.txt" "note: the program's executable defines its own malloc"
done
if command -v c++ > /dev/null; then
	cat > "$T/arr0.cc" <<'EOF_CC'
#include <cstdio>
struct T { int x; ~T() { std::puts("gone"); } };
T *volatile keep;
int main() { keep = new T[0]; std::printf("%p\n", (void *)keep); return 0; }
EOF_CC
	for opt in O0 O2; do
		c++ -$opt -o "$T/arr0" "$T/arr0.cc" || fail "cannot build"
		ls_run "$T/a.json" -- "$T/arr0"
		expect_rc 0
		expect_json "$T/a.json" 'root.classes["definitely-lost"].objects == 0'
	done
fi
exit 0
