# rs-leak (Rust, std's System allocator = malloc): 1,000 bytes leaked from
# rs_leak::make_table (a vec!) and 480 bytes from the generic method
# rs_leak::Pool<T>::grow (reserve_exact), both definitely lost, each named
# at the line of its call; then the same binary without DWARF (strip -g):
# the names come from the symbol table, demangled (legacy or v0 mangling,
# whichever the rustc here uses), never a raw _ZN / _R symbol.
. "$(dirname "$0")/../lib.sh"
v=$(victim rs-leak) || exit
src=$ROOT/tests/victims/rs-leak.rs
ls_run "$T/r.json" --exit-code 0 -- "$v"
expect_rc 0
expect_grep "$T/stdout" '^leaked$'
j=$T/r.json
expect_json "$j" 'root.summary | .leaked_bytes == 1480 and .leaked_objects == 2'
expect_json "$j" "root.leaks[] | select(has_fn(\"rs_leak::make_table\")) | .bytes == 1000
	and .objects == 1 and .class == \"definitely-lost\"
	and (frame(\"rs_leak::make_table\") | (.file | endswith(\"rs-leak.rs\")) and .line == $(marker "$src" rs-table))"
expect_json "$j" "root.leaks[] | select(has_fn(\"rs_leak::Pool<T>::grow\")) | .bytes == 480
	and .objects == 1 and .class == \"definitely-lost\"
	and (frame(\"rs_leak::Pool<T>::grow\") | .line == $(marker "$src" rs-grow))"
expect_json "$j" 'root.leaks[] | select(.bytes == 1000) | has_fn("rs_leak::leak_both") and has_fn("rs_leak::main")'

cp "$v" "$T/nodwarf"
strip -g "$T/nodwarf"
ls_run "$T/s.json" --exit-code 0 -- "$T/nodwarf"
expect_rc 0
j=$T/s.json
expect_json "$j" 'root.summary | .leaked_bytes == 1480 and .leaked_objects == 2'
expect_json "$j" 'root.leaks[] | select(.bytes == 1000) | has_fn("rs_leak::make_table") and has_fn("rs_leak::leak_both")'
expect_json "$j" 'root.leaks[] | select(.bytes == 480) | has_fn("rs_leak::Pool<T>::grow")'
expect_json "$j" '[all_leaks[].stack[].function // "" | select(startswith("_ZN") or startswith("_R"))] | length == 0'
exit 0
