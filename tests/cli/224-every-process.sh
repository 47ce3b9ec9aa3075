# every-process: a parent busy with signals forks 20 children, a third of
# them killed at once; every process is in the report, run after run:
# reported, or listed under "unreported" - a child killed before its
# interposer could announce it as "ended-unannounced" with its signal.
. "$(dirname "$0")/../lib.sh"
v=$(victim fork-killed) || exit
for run in 1 2 3 4 5 6 7 8; do
	ls_run "$T/r.json" -- "$v" 20
	expect_json "$T/r.json" '(.processes | length) + (.unreported | length) == 21'
	expect_json "$T/r.json" 'all(.unreported[]; .why == "ended-unannounced" and .end.signal == 9)'
	expect_json "$T/r.json" '[.processes[].pid] + [.unreported[].pid] | unique | length == 21'
done
"$LEAKSCOPE" run -- "$v" 20 2> "$T/text" > /dev/null
if grep -q 'before it could announce' "$T/text"; then
	expect_grep "$T/text" '^leakscope: pid [0-9]+ \(.*fork-killed 20\) was killed by signal 9 before it could announce itself \(it allocated nothing\): not reported$'
fi
exit 0
