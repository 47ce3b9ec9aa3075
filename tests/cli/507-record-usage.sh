# record and dump: --help, usage errors and bad input get one clear message
# and the documented status, never a crash: no program, a bad number, a
# program that does not exist; a trace that does not exist, a file that is
# not a trace, a trace cut in the middle (records before the cut printed).
. "$(dirname "$0")/../lib.sh"
v=$(victim record-pattern) || exit
"$LEAKSCOPE" record --help > "$T/h" || fail "record --help failed"
expect_grep "$T/h" '^usage: leakscope record '
"$LEAKSCOPE" dump --help > "$T/h" || fail "dump --help failed"
expect_grep "$T/h" '^usage: leakscope dump '
run() { rc=0; "$LEAKSCOPE" "$@" > "$T/stdout" 2> "$T/stderr" || rc=$?; }
run record
expect_rc 2; expect_grep "$T/stderr" '^leakscope: record: no program given$'
run record --sample-interval 0 -- "$v"
expect_rc 2; expect_grep "$T/stderr" "^leakscope: record: --sample-interval wants a number from 1 to 3600000, not '0'\$"
run record --frames lots -- "$v"
expect_rc 2; expect_grep "$T/stderr" "^leakscope: record: --frames wants a number from 1 to 128, not 'lots'\$"
run record -o "$T/n.lstrace" -- "$T/no-such-program"
expect_rc 127; expect_grep "$T/stderr" "^leakscope: cannot run '$T/no-such-program'"
run record -o "$T/no-such-dir/x.lstrace" -- "$v"
expect_rc 125; expect_grep "$T/stderr" "^leakscope: cannot record pid [0-9]+ \(.*\): cannot create '$T/no-such-dir/x.lstrace'"
run dump
expect_rc 2; expect_grep "$T/stderr" '^leakscope: dump: no trace given$'
run dump "$T/missing.lstrace"
expect_rc 1; expect_grep "$T/stderr" "^leakscope: cannot open '$T/missing.lstrace': no such file"
echo "hello" > "$T/not-a-trace"
run dump "$T/not-a-trace"
expect_rc 1; expect_grep "$T/stderr" "^leakscope: cannot read '$T/not-a-trace': "
"$LEAKSCOPE" record -o "$T/p.lstrace" -- "$v" > /dev/null 2>&1 || fail "record failed"
size=$(wc -c < "$T/p.lstrace")
head -c $((size - 60)) "$T/p.lstrace" > "$T/cut.lstrace"
run dump "$T/cut.lstrace"
expect_rc 1
expect_grep "$T/stderr" "^leakscope: '$T/cut.lstrace': truncated at offset [0-9]+ .*no end record"
expect_grep "$T/stdout" '^[0-9.]+ alloc '
exit 0
