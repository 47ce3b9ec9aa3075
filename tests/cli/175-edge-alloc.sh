# edge-alloc: a realloc that fails leaves its block as it was (4,321 bytes
# leaked, allocated by the malloc in keep_after_failed_realloc - not the
# realloc, not the usable size); a leaked malloc(0) is one object of 0 bytes
# (leak_zero); failed allocations and free(NULL) record nothing (no
# unmatched frees); errno survives every successful call. Both are
# definitely lost: leakscope exits 23.
. "$(dirname "$0")/../lib.sh"
v=$(victim edge-alloc) || exit
ls_run "$T/r.json" -- "$v"
[ "$rc" != 9 ] || { cat "$T/stdout"; fail "leakscope's interposer changed errno"; }
expect_rc 23
j=$T/r.json
expect_json "$j" "root.leaks | sized(4321) | length == 1 and (.[0] | .objects == 1
	and .stack[0].function == \"keep_after_failed_realloc\"
	and .stack[0].line == $(marker "$ROOT/tests/victims/edge-alloc.c" edge-malloc))"
expect_json "$j" '[root.leaks[] | select(has_fn("leak_zero"))] | length == 1
	and (.[0] | .bytes == 0 and .objects == 1)'
expect_json "$j" 'root.summary.leaked_bytes == 4321 and root.summary.leaked_objects == 2
	and root.classes["definitely-lost"] == {"bytes": 4321, "objects": 2}'
expect_json "$j" 'root.stats.unmatched_frees == 0'
exit 0
