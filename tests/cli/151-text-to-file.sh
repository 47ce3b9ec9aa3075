# --format text -o FILE writes the text report to FILE; then nothing of it
# goes to stderr, and the program's own stderr still does.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
rc=0
"$LEAKSCOPE" run --format text -o "$T/report.txt" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 23
expect_grep "$T/report.txt" '^leakscope: 1,000 bytes lost in 1 object \(pid [0-9]+, '
expect_grep "$T/report.txt" '^    #0 +hello +'
if grep -q 'bytes lost in' "$T/stderr"; then cat "$T/stderr"; fail "report also on stderr"; fi
# JSON to stdout's neighbour file, text default untouched by -o of another run
rc=0
"$LEAKSCOPE" run --format json -o "$T/r.json" -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
if grep -q 'bytes lost in' "$T/stderr"; then cat "$T/stderr"; fail "text report on stderr with --format json -o"; fi
expect_json "$T/r.json" 'root.summary.leaked_bytes == 1000'
exit 0
