# 125: the text report lists the --top largest allocation sites of each
# process (default 10) and says how many more there are; the summary and
# the JSON report count and list every site. Frames below main (libc's
# start-up, a thread's start, Go's runtime.main, Rust's std::rt) are left out of the
# text unless --full-stacks; the JSON keeps them.
. "$(dirname "$0")/../lib.sh"
v=$(victim wrappers) || exit
groups() { grep -c ' allocated from:$' "$1"; }

"$LEAKSCOPE" run -- "$v" > /dev/null 2> "$T/default.txt"
expect_grep "$T/default.txt" '^leakscope: 3,462 bytes lost in 16 objects '
[ "$(groups "$T/default.txt")" -eq 10 ] || fail "the default lists $(groups "$T/default.txt") sites, not 10"
expect_grep "$T/default.txt" '^  \.\.\. and 6 more allocation sites \(--top 0 lists them all\)$'
"$LEAKSCOPE" run --top 3 -- "$v" > /dev/null 2> "$T/top3.txt"
[ "$(groups "$T/top3.txt")" -eq 3 ] || fail "--top 3 lists $(groups "$T/top3.txt") sites"
expect_grep "$T/top3.txt" '^  \.\.\. and 13 more allocation sites \(--top 0 lists them all\)$'
expect_grep "$T/top3.txt" '^  1,500 bytes in 1 object definitely lost'   # the largest first
"$LEAKSCOPE" run --top=0 -- "$v" > /dev/null 2> "$T/all.txt"
[ "$(groups "$T/all.txt")" -eq 16 ] || fail "--top 0 lists $(groups "$T/all.txt") sites"
grep -q 'more allocation site' "$T/all.txt" && fail "--top 0 still says more sites"
"$LEAKSCOPE" run --top 15 -- "$v" > /dev/null 2> "$T/top15.txt"
expect_grep "$T/top15.txt" '^  \.\.\. and 1 more allocation site \(--top 0 lists them all\)$'
# JSON: every site, whatever --top says
for top in "" "--top 3"; do
	ls_run "$T/r.json" $top -- "$v"
	expect_rc 23
	expect_json "$T/r.json" 'root.leaks | length == 16'
	expect_json "$T/r.json" 'root.summary == {"leaked_bytes": 3462, "leaked_objects": 16,
		"suppressed_bytes": root.summary.suppressed_bytes, "suppressed_objects": root.summary.suppressed_objects}'
done
expect_json "$T/r.json" 'root.leaks | any(.[]; has_fn("__libc_start_call_main"))'
expect_json "$T/r.json" 'root.leaks | any(.[]; has_fn("start_thread"))'
run_usage() { rc=0; "$LEAKSCOPE" run "$@" -- "$v" > /dev/null 2> "$T/usage" || rc=$?; }
run_usage --top -1
expect_rc 2
expect_grep "$T/usage" "^leakscope: run: --top wants a number"

# start-up frames: hidden, unless --full-stacks
for f in __libc_start_call_main __libc_start_main _start start_thread clone3; do
	grep -Eq "#[0-9]+ +$f " "$T/all.txt" && fail "the text shows the start-up frame $f"
done
expect_grep "$T/all.txt" '#1  worker '       # the thread's function ends its stack
expect_grep "$T/all.txt" '#1  make_table '
expect_grep "$T/all.txt" '#2  main '
"$LEAKSCOPE" run --top 0 --full-stacks -- "$v" > /dev/null 2> "$T/full.txt"
expect_grep "$T/full.txt" '#3  __libc_start_call_main '
expect_grep "$T/full.txt" '#2  start_thread '
[ "$(groups "$T/full.txt")" -eq 16 ] || fail "--full-stacks changed the sites"

# Go: runtime.main below main.main
g=$(victim cgo-leak) || exit
"$LEAKSCOPE" run -- "$g" > /dev/null 2> "$T/go.txt"
expect_grep "$T/go.txt" '#4  main\.main '
grep -q 'runtime\.main' "$T/go.txt" && fail "the text shows runtime.main"
"$LEAKSCOPE" run --full-stacks -- "$g" > /dev/null 2> "$T/go-full.txt"
expect_grep "$T/go-full.txt" '#5  runtime\.main '

# Rust: its runtime (std::rt::lang_start ...) and C's main below rs_leak::main
r=$(victim rs-leak) || exit
"$LEAKSCOPE" run -- "$r" > /dev/null 2> "$T/rs.txt"
expect_grep "$T/rs.txt" '#6  rs_leak::main '
grep -Eq 'lang_start|#[0-9]+ +main ' "$T/rs.txt" && fail "the text shows Rust's start-up"
"$LEAKSCOPE" run --full-stacks -- "$r" > /dev/null 2> "$T/rs-full.txt"
expect_grep "$T/rs-full.txt" '#[0-9]+ +std::rt::lang_start '
expect_grep "$T/rs-full.txt" '#[0-9]+ +main '
exit 0
