# 128: --gen-suppressions names, for each reported leak, the first frame
# that is not an allocation wrapper - the program's own xmalloc and
# xstrdup, operator new and the C++ library's allocators, Rust's
# alloc::, cgo's C.malloc -
# and says each pattern once, after every process's report. Given back,
# the lines suppress every leak, and the report lists which suppression
# took how much (text: "suppressions used", JSON: suppressions_used).
. "$(dirname "$0")/../lib.sh"
v=$(victim wrappers) || exit
"$LEAKSCOPE" run --gen-suppressions -- "$v" > /dev/null 2> "$T/gen.txt"
expect_grep "$T/gen.txt" '^leakscope: suppressions for these leaks \(put them in a file for --suppressions\):$'
grep '^leak:' "$T/gen.txt" > "$T/supp"
printf 'leak:^make_table$\nleak:^worker$\nleak:^nest$\nleak:^make_name$\n' > "$T/want"
cmp -s "$T/supp" "$T/want" || { diff "$T/want" "$T/supp"; fail "not the suppressions wanted"; }
# the default --top cuts the text, not the suppressions: nest's 12 sites
# are one line, listed after the report
[ "$(grep -c ' allocated from:$' "$T/gen.txt")" -eq 10 ] || fail "not 10 sites listed"
tail -n 5 "$T/gen.txt" | head -n 1 | grep -q '^leakscope: suppressions for' ||
	fail "the suppressions are not at the end"

# given back: nothing lost is left, and each pattern says what it took
rc=0
"$LEAKSCOPE" run --suppressions "$T/supp" -- "$v" > /dev/null 2> "$T/used.txt" || rc=$?
expect_rc 0
expect_grep "$T/used.txt" '^leakscope: no leaks '
expect_grep "$T/used.txt" '^  suppressions used:$'
expect_grep "$T/used.txt" "^ +12 +1,200  \\^nest\\$ \\($T/supp\\)$"
expect_grep "$T/used.txt" "^ +2 +62  \\^make_name\\$ \\($T/supp\\)$"
expect_grep "$T/used.txt" "^ +1 +1,500  \\^make_table\\$ \\($T/supp\\)$"
expect_grep "$T/used.txt" '^ +1 +4,096  \^_IO_file_doallocate\$ \(builtin\)$'
ls_run "$T/used.json" --suppressions "$T/supp" -- "$v"
expect_rc 0
expect_json "$T/used.json" "root.suppressions_used | map(select(.source == \"$T/supp\")) | sort_by(.pattern) ==
	[{\"pattern\": \"^make_name\$\", \"source\": \"$T/supp\", \"matches\": 2, \"bytes\": 62},
	 {\"pattern\": \"^make_table\$\", \"source\": \"$T/supp\", \"matches\": 1, \"bytes\": 1500},
	 {\"pattern\": \"^nest\$\", \"source\": \"$T/supp\", \"matches\": 12, \"bytes\": 1200},
	 {\"pattern\": \"^worker\$\", \"source\": \"$T/supp\", \"matches\": 1, \"bytes\": 700}]"
expect_json "$T/used.json" 'root.suppressions_used | any(.[]; .pattern == "^_IO_file_doallocate$" and .source == "builtin")'
expect_json "$T/used.json" '(root.suppressions_used | map(.bytes) | add) == root.summary.suppressed_bytes'
# without suppressions of its own, the built-in ones are listed
ls_run "$T/plain.json" -- "$v"
expect_json "$T/plain.json" 'root.suppressions_used | length >= 1 and all(.[]; .source == "builtin")'

# C++: past operator new and std::vector's allocators; the indirectly lost
# buffer of the leaked vector needs the same line as the vector
c=$(victim cxx-leaks) || exit
"$LEAKSCOPE" run --gen-suppressions -- "$c" > /dev/null 2> "$T/cxx.txt"
grep '^leak:' "$T/cxx.txt" > "$T/cxx.supp"
printf 'leak:^shapes::make_buffer(unsigned long)$\nleak:^shapes::Widget::make(int)$\nleak:^shapes::leak_vector(int)$\n' > "$T/cxx.want"
cmp -s "$T/cxx.supp" "$T/cxx.want" || { diff "$T/cxx.want" "$T/cxx.supp"; fail "C++: not the suppressions wanted"; }
rc=0
"$LEAKSCOPE" run --suppressions "$T/cxx.supp" -- "$c" > /dev/null 2>&1 || rc=$?
expect_rc 0

# Rust: past alloc::raw_vec and alloc::vec
r=$(victim rs-leak) || exit
"$LEAKSCOPE" run --gen-suppressions -- "$r" > /dev/null 2> "$T/rs.txt"
printf 'leak:^rs_leak::make_table$\nleak:^rs_leak::Pool<T>::grow$\n' > "$T/rs.want"
grep '^leak:' "$T/rs.txt" | cmp -s - "$T/rs.want" || { cat "$T/rs.txt"; fail "Rust: not the suppressions wanted"; }

# cgo: past C.malloc's trampolines, to the Go function that called it
g=$(victim cgo-printed) || exit
"$LEAKSCOPE" run --gen-suppressions -- "$g" > /dev/null 2> "$T/go.txt"
[ "$(grep '^leak:' "$T/go.txt")" = 'leak:^main.leak$' ] || { cat "$T/go.txt"; fail "cgo: not leak:^main.leak\$"; }
exit 0
