# live-roots: memory that is alive at the end is a root, at -O0 and -O2:
# a live thread's vector registers (a block whose only pointer is in
# %xmm7 stays reachable) and a program's own anonymous mapping that the
# kernel shows as one line with a block glibc mmapped by itself (a block
# held only from there stays reachable, as CPython's pymalloc arenas
# hold its objects). Nothing is lost: run exits 0.
. "$(dirname "$0")/../lib.sh"
for opt in O0 O2; do
	v=$(victim "vector-reg@$opt" "-$opt") || exit
	ls_run "$T/v.json" --show-reachable -- "$v"
	expect_rc 0
	expect_json "$T/v.json" 'root.classes["definitely-lost"].bytes == 0 and root.classes["possibly-lost"].bytes == 0'
	expect_json "$T/v.json" 'root.leaks | sized(4242) | .[0].class == "still-reachable"'

	v=$(victim "merged-mapping@$opt" "-$opt") || exit
	ls_run "$T/m.json" --show-reachable -- "$v"
	expect_rc 0
	grep -q '^merged 1$' "$T/stdout" || echo "note: the kernel did not merge the mappings here"
	expect_json "$T/m.json" 'root.classes["definitely-lost"].bytes == 0'
	expect_json "$T/m.json" 'root.leaks | sized(48) | .[0].class == "still-reachable"'
done
exit 0
