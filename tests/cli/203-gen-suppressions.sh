# --gen-suppressions prints leak: lines that, given back with --suppressions,
# suppress exactly what was reported; the summary counts them.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit
"$LEAKSCOPE" run --gen-suppressions -- "$v" list 2> "$T/err"
grep '^leak:' "$T/err" > "$T/supp" || { cat "$T/err"; fail "no suppression lines"; }
expect_grep "$T/supp" '^leak:\^list\$$'
rc=0
"$LEAKSCOPE" run --suppressions "$T/supp" -f json -o "$T/r.json" -- "$v" list 2> /dev/null || rc=$?
expect_rc 0 # nothing lost is left after suppressions
expect_json "$T/r.json" '.processes[0].summary.leaked_bytes == 0
	and .processes[0].summary.suppressed_bytes >= 3110
	and ([.processes[0].suppressed[] | select(.suppression == "^list$")] | map(.bytes) | add) == 3110'
