# 543: bad traces get clear messages, never a crash: truncated (reported
# up to its last complete chunk with a warning, exit 0), a flipped byte,
# a newer format version, not a trace at all, a missing file; usage errors.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
"$GEN" growth "$T/g.lstrace" 40000 || fail "gen_trace growth"
size=$(wc -c < "$T/g.lstrace")
[ "$size" -gt 20000 ] || fail "trace too small to cut ($size bytes)"

head -c $((size * 2 / 3)) "$T/g.lstrace" > "$T/cut.lstrace"
report --format json "$T/cut.lstrace"
expect_rc 0
expect_grep "$T/stderr" "warning: '.*cut.lstrace': truncated at offset [0-9]+"
expect_json "$T/out" '.truncated == true and (.warnings[0] | test("truncated at offset"))'
expect_json "$T/out" '.summary.events > 1000 and .leaks[0].stack[0].function == "leak_request"'
report "$T/cut.lstrace"
expect_rc 0
expect_grep "$T/out" "^warning: truncated at offset"

cp "$T/g.lstrace" "$T/bad.lstrace"
perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0; read F, $c, 1;
	seek F, $ARGV[1], 0; print F chr(ord($c) ^ 0xff)' "$T/bad.lstrace" $((size / 2)) || fail "flip"
cmp -s "$T/g.lstrace" "$T/bad.lstrace" && fail "no byte flipped"
report "$T/bad.lstrace"
expect_rc 1
expect_grep "$T/stderr" "^leakscope: cannot report on '.*bad.lstrace': corrupt trace at offset [0-9]+"

"$GEN" newer "$T/new.lstrace" || fail "gen_trace newer"
report "$T/new.lstrace"
expect_rc 1
expect_grep "$T/stderr" "cannot report on '.*new.lstrace': trace format version [0-9]*.[0-9]* is newer"

echo "hello, not a trace" > "$T/text.lstrace"
report "$T/text.lstrace"
expect_rc 1
expect_grep "$T/stderr" "cannot report on '.*text.lstrace': "
report "$T/missing.lstrace"
expect_rc 1
expect_grep "$T/stderr" "cannot open '.*missing.lstrace': no such file"
: > "$T/empty.lstrace"
report "$T/empty.lstrace"
expect_rc 1
head -c 30 "$T/g.lstrace" > "$T/header.lstrace"
report "$T/header.lstrace"
expect_rc 1
expect_grep "$T/stderr" "cannot report on '.*header.lstrace': truncated at offset [0-9]+ \\(inside the file header\\)"
report --format pdf "$T/g.lstrace"
expect_rc 2
report
expect_rc 2
expect_grep "$T/stderr" "no trace given"
exit 0
