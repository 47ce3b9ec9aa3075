# alloc-entry: every allocator entry point leaks one block of its own size
# from a function of its own; the other blocks from it are freed. Each leak
# must be reported once, with its size, from its function at the line of
# the call; realloc'ed blocks are reported at the realloc that sized them;
# realloc(p, 0) frees. Exactly 16 blocks leak, all definitely lost (no
# pointer to them is kept), so leakscope exits 23.
. "$(dirname "$0")/../lib.sh"
v=$(victim alloc-entry) || exit
src=$ROOT/tests/victims/alloc-entry.c
ls_run "$T/r.json" -- "$v"
expect_rc 23
j=$T/r.json

leak() { # function bytes-expression marker
	expect_json "$j" "[root.leaks[] | select(has_fn(\"$1\"))] | length == 1"
	expect_json "$j" "root.leaks[] | select(has_fn(\"$1\")) | .objects == 1 and (.bytes | $2)
		and .class == \"definitely-lost\""
	[ -n "${3:-}" ] || return 0
	n=$(marker "$src" "$3")
	expect_json "$j" "root.leaks[] | select(has_fn(\"$1\")) | frame(\"$1\")
		| (.file | endswith(\"alloc-entry.c\")) and .line == $n"
}
leak leak_malloc '. == 1001' malloc
leak leak_calloc '. == 1011' calloc
leak leak_realloc_grow '. == 3001' realloc-grow
leak leak_realloc_shrink '. == 3002' realloc-shrink
leak leak_realloc_move '. == 3003' realloc-move
leak leak_realloc_null '. == 3004' realloc-null
leak leak_reallocarray '. == 2107' reallocarray
leak leak_posix_memalign '. == 1104' posix_memalign
leak leak_aligned_alloc '. == 1280' aligned_alloc
leak leak_memalign '. == 1300' memalign
leak leak_valloc '. == 1400' valloc
leak leak_pvalloc '. == 1500 or . == 4096' pvalloc   # requested, or the page glibc gives
leak leak_strdup '. == 1600' strdup
leak leak_strndup '. == 1700' strndup
leak leak_getline '. >= 11' getline                   # glibc's first buffer is 120
leak leak_asprintf '. >= 1900' asprintf

# the first allocation of a realloc'ed block is not its allocation site
expect_json "$j" '[root.leaks[] | select(has_fn("prealloc_block"))] | length == 0'
# the moved block really moved, and the neighbour and realloc(p, 0) left nothing
expect_grep "$T/stdout" '^realloc-move moved=1$'
expect_json "$j" 'all_leaks | sized(3005) | length == 0'
expect_json "$j" '[root.leaks[] | select(has_fn("free_by_realloc_zero"))] | length == 0'
# freed siblings are not reported
for n in 1002 1003 1014 2114 3011 3012 3014 1105 1408 1301 1401 1501; do
	expect_json "$j" "all_leaks | sized($n) | length == 0"
done
expect_json "$j" 'root.summary.leaked_objects == 16 and root.classes["definitely-lost"].objects == 16'
expect_json "$j" 'root.summary.leaked_bytes == ([root.leaks[].bytes] | add)'
expect_json "$j" 'root.stats.unmatched_frees == 0'
# largest first
expect_json "$j" '[root.leaks[].bytes] | . == (sort | reverse)'
exit 0
