# A file without execute permission, and a directory: status 126 and one
# line on stderr starting with "leakscope: " that names it.
. "$(dirname "$0")/../lib.sh"
printf '#!/bin/sh\nexit 0\n' > "$T/script"
chmod 644 "$T/script"
mkdir "$T/dir"
for prog in "$T/script" "$T/dir"; do
	rc=0
	"$LEAKSCOPE" run -- "$prog" > "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_rc 126
	[ "$(wc -l < "$T/stderr")" -eq 1 ] || { cat "$T/stderr"; fail "expected one line on stderr"; }
	expect_grep "$T/stderr" "^leakscope: .*$(basename "$prog")"
done
exit 0
