# 405: command-line use and errors: --help, bad options, missing and
# non-eventlog files (one clear line, exit 1), text output.
. "$(dirname "$0")/../lib.sh"
"$LEAKSCOPE" eventlog --help > "$T/help" || fail "--help exit $?"
expect_grep "$T/help" '^usage: leakscope eventlog'
expect_grep "$T/help" '--diff'
"$LEAKSCOPE" eventlog --bogus x 2> "$T/err"; [ $? -eq 2 ] || fail "bad option should exit 2"
expect_grep "$T/err" "unknown option '--bogus'"
"$LEAKSCOPE" eventlog --format svg x 2> "$T/err"; [ $? -eq 2 ] || fail "bad format should exit 2"
"$LEAKSCOPE" eventlog --format json "$T/none.eventlog" 2> "$T/err"; [ $? -eq 1 ] || fail "missing file should exit 1"
expect_grep "$T/err" "^leakscope: cannot open '.*none.eventlog': no such file"
printf 'hello, not an eventlog\n' > "$T/text.eventlog"
"$LEAKSCOPE" eventlog --format json "$T/text.eventlog" > "$T/out" 2> "$T/err"; [ $? -eq 1 ] || fail "text file should exit 1"
expect_grep "$T/err" "^leakscope: cannot read '.*text.eventlog': not a GHC eventlog"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "one line of error"
: > "$T/empty.eventlog"
"$LEAKSCOPE" eventlog --format text "$T/empty.eventlog" 2> "$T/err"; [ $? -eq 1 ] || fail "empty file should exit 1"
expect_grep "$T/err" "not a GHC eventlog \(empty file\)"
# default: a self-contained html file written next to the input
"$ROOT/build/unit/eventlog_test" --write-seeds "$T" > /dev/null || fail "cannot write seeds"
"$LEAKSCOPE" eventlog "$T/seed0.eventlog" 2> "$T/err" || { cat "$T/err"; fail "html exit $?"; }
[ -s "$T/seed0.eventlog.html" ] || fail "no html written"
expect_grep "$T/seed0.eventlog.html" '<script type="application/json" id="data">'
if grep -Eq '(src|href)="https?:' "$T/seed0.eventlog.html"; then fail "html loads from the network"; fi
"$LEAKSCOPE" eventlog --format text -o "$T/seed.txt" "$T/seed0.eventlog" || fail "text exit $?"
expect_grep "$T/seed.txt" '^ +1 .*THUNK_2_0'
# a report written over an existing file holds the report and nothing
# more, whether the file was longer or shorter (it is overwritten in
# place and cut at the end, not truncated first)
"$LEAKSCOPE" eventlog --format json -o - "$T/seed0.eventlog" > "$T/stdout.json" || fail "json exit $?"
head -c 100000 /dev/zero | tr '\0' x > "$T/over.json"
"$LEAKSCOPE" eventlog --format json -o "$T/over.json" "$T/seed0.eventlog" || fail "json over a longer file: exit $?"
cmp "$T/stdout.json" "$T/over.json" || fail "a longer file's tail left in the report"
printf 'x' > "$T/over.json"
"$LEAKSCOPE" eventlog --format json -o "$T/over.json" "$T/seed0.eventlog" || fail "json over a shorter file: exit $?"
cmp "$T/stdout.json" "$T/over.json" || fail "report over a shorter file differs"
"$LEAKSCOPE" eventlog 2> "$T/err"; [ $? -eq 2 ] || fail "no input should exit 2"
exit 0
