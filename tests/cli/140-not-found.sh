# A program that does not exist: status 127 and one line on stderr starting
# with "leakscope: " that names it; no report.
. "$(dirname "$0")/../lib.sh"
for prog in "$T/no-such-program" no-such-program-leakscope-test; do
	rc=0
	"$LEAKSCOPE" run -- "$prog" > "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_rc 127
	[ "$(wc -l < "$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "expected one line on stderr"; }
	expect_grep "$T/stderr" "^leakscope: .*$(basename "$prog")"
	[ ! -s "$T/stdout" ] || fail "unexpected output on stdout"
done
# the same with a JSON report asked for: nothing is written
rc=0
"$LEAKSCOPE" run --format json -o "$T/r.json" -- "$T/no-such-program" 2> "$T/stderr" || rc=$?
expect_rc 127
expect_grep "$T/stderr" '^leakscope: '
exit 0
