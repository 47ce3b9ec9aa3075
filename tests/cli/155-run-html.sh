# run --format html: the leak report of a run as a self-contained page
# (the chains victim: a 2,222-byte head definitely lost holding 4 x 222
# bytes indirectly lost): its data holds both groups with their verdicts,
# like the JSON report of the same program; without -o it is a usage
# error; in chromium (tests/browser/check_run.mjs) the Leaks tab, stacks
# with source lines, trees and flame graph hold the same numbers.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit 1
rc=0
"$LEAKSCOPE" run -f html -o "$T/r.html" -- "$v" list > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
sed -n '/id="data">/,/<\/script>/p' "$T/r.html" | sed '1s/.*id="data">//; $s/<\/script>.*//' > "$T/data.json"
expect_json "$T/data.json" '.run == true and .verdicts.classes["definitely-lost"] == [2222, 1] and .verdicts.classes["indirectly-lost"] == [888, 4]'
expect_json "$T/data.json" '([.leaks[].b] | sort) == [888, 2222] and (.flame.stacks | length) == 2'
ls_run "$T/r.json" -- "$v" list
expect_rc 23
rc=0
"$LEAKSCOPE" run -f html -- "$v" list > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 2
expect_grep "$T/stderr" "needs -o FILE"
browser_check "the run's page" check_run.mjs "$T/r.html" "$T/r.json" "$ROOT/tests/out/screenshots"
exit 0
