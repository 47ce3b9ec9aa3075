# leakscope check PID on a running program, with and without run's own exit
# stops (the default, and --no-scan): exactly the lost 4,321 bytes are definitely lost; the
# 8,765-byte block another thread holds only in a register is not (the
# registers of every stopped thread are roots). The program goes on and
# exits normally (run then exits 23 for the lost block); a mark sent
# meanwhile is in run's report.
. "$(dirname "$0")/../lib.sh"
v=$(victim check-threads) || exit
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 "$XDG_RUNTIME_DIR"

for mode in plain scan; do
	opt=; [ $mode = plain ] && opt=--no-scan
	rm -f "$T/in" && mkfifo "$T/in"
	"$LEAKSCOPE" run $opt -f json -o "$T/$mode-exit.json" -- "$v" < "$T/in" \
		> "$T/$mode.out" 2> "$T/$mode.err" &
	runpid=$!
	exec 3> "$T/in"
	i=0
	until grep -q ready "$T/$mode.out"; do
		i=$((i + 1)); [ $i -lt 200 ] || fail "$mode: the victim never got ready"; sleep 0.05
	done
	pid=$(awk '/ready/ {print $2}' "$T/$mode.out")
	"$LEAKSCOPE" check --format json "$pid" > "$T/$mode-check.json" 2> "$T/$mode-check.err" ||
		{ cat "$T/$mode-check.err"; fail "$mode: check failed"; }
	j=$T/$mode-check.json
	expect_json "$j" '.processes | length == 1'
	expect_json "$j" '.processes[0].scanned and .processes[0].pid == '"$pid"
	expect_json "$j" '.processes[0].classes["definitely-lost"] == {"bytes": 4321, "objects": 1}'
	expect_json "$j" '.processes[0].classes["indirectly-lost"].bytes == 0
		and .processes[0].classes["possibly-lost"].bytes == 0'
	expect_json "$j" '.processes[0].leaks | length == 1 and (.[0] | has_fn("lost_block"))'
	expect_json "$j" '.processes[0].classes["still-reachable"].bytes >= 8765'
	"$LEAKSCOPE" check "$pid" > "$T/$mode-check.txt" 2>&1 || fail "$mode: text check failed"
	expect_grep "$T/$mode-check.txt" "4,321 bytes in 1 object definitely lost"
	expect_grep "$T/$mode-check.txt" "lost_block +check-threads.c:"
	"$LEAKSCOPE" mark "$pid" "checked once" || fail "$mode: mark failed"
	# the program goes on: its thread wakes, frees, and it exits 0
	echo go >&3
	exec 3>&-
	rc=0; wait $runpid || rc=$?
	[ $rc -eq 23 ] || { cat "$T/$mode.err"; fail "$mode: run exited $rc"; }
	expect_grep "$T/$mode.out" "^done$"
	e=$T/$mode-exit.json
	expect_json "$e" 'root.end == {"code": 0}'
	expect_json "$e" '[root.marks[] | select(.text == "checked once" and .tid == 0)] | length == 1'
	expect_json "$e" '[all_leaks[] | select(.bytes == 8765)] | length == 0'
done
# at exit the scan still finds the lost block, and only it
expect_json "$T/scan-exit.json" 'root.classes["definitely-lost"] == {"bytes": 4321, "objects": 1}'
expect_json "$T/plain-exit.json" 'root.classes["not-freed"] == {"bytes": 4321, "objects": 1}'
