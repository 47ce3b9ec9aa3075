# leakscope run stays out of the program's way: stdin, stdout and stderr,
# arguments with spaces and quotes, the environment and the working
# directory all reach the program as without leakscope.
. "$(dirname "$0")/../lib.sh"
mkdir "$T/cwd"
printf 'line one\nline two\n' > "$T/in"
rc=0
(cd "$T/cwd" && LS_TEST_VAR='a b' "$LEAKSCOPE" run --format json -o "$T/r.json" -- \
	/bin/sh -c 'cat; echo "$LS_TEST_VAR|$1|$2|$(pwd)"; echo to-stderr >&2; exit 3' \
	sh "x y" "it's" < "$T/in" > "$T/stdout" 2> "$T/stderr") || rc=$?
expect_rc 3
printf 'line one\nline two\na b|x y|it'"'"'s|%s\n' "$T/cwd" > "$T/want"
cmp -s "$T/stdout" "$T/want" || { diff "$T/want" "$T/stdout"; fail "stdout differs"; }
expect_grep "$T/stderr" '^to-stderr$'
expect_json "$T/r.json" '.command[0] == "/bin/sh" and .command[-1] == "it'"'"'s" and (.command | length) == 6'
exit 0
