# why: --why lists still-reachable groups and says what keeps each - a
# global by its name, through the chain of blocks; a live thread's stack in
# the frame of its function - in text and JSON; lost groups have none.
# `leakscope check --why` says the same of a running process. -O0 and -O2.
. "$(dirname "$0")/../lib.sh"
for opt in O0 O2; do
	v=$(victim "why-kept@$opt" "-$opt") || exit
	ls_run "$T/w.json" --why -- "$v"
	expect_rc 23
	j=$T/w.json
	expect_json "$j" 'root.leaks | sized(96) | .[0].class == "still-reachable"
		and (.[0].why.root | test("^a global of why-kept@O.: cache$"))
		and (.[0].why.path | length >= 1 and .[-1].bytes == 32 and .[-1].function == "push_node")'
	expect_json "$j" 'root.leaks | sized(77) | .[0].class == "still-reachable"
		and (.[0].why.root | test("^the stack of thread #1, in the frame of worker$"))'
	expect_json "$j" 'root.leaks | sized(123) | .[0].class == "definitely-lost" and (.[0] | has("why") | not)'
	"$LEAKSCOPE" run --why -- "$v" 2> "$T/w.txt" > /dev/null
	expect_grep "$T/w.txt" '^  kept by a global of why-kept@O.: cache'
	expect_grep "$T/w.txt" '^  kept by the stack of thread #1, in the frame of worker$'
done
# a check of the running process
v=$(victim why-kept@O0 -O0) || exit
"$LEAKSCOPE" run --exit-code 0 -- "$v" wait > "$T/ready" 2> /dev/null &
i=0
until grep -q ready "$T/ready" 2> /dev/null; do
	i=$((i + 1)); [ $i -le 200 ] || fail "the victim did not start"; sleep 0.05
done
pid=$(pgrep -f -n "why-kept@O0 wait$")
"$LEAKSCOPE" check --why --format json "$pid" > "$T/c.json" || fail "check --why failed"
kill "$pid"
wait
expect_json "$T/c.json" '.processes[0].leaks | sized(96) | .[0].why.root | test("^a global of why-kept@O0: cache$")'
expect_json "$T/c.json" '.processes[0].leaks | sized(123) | .[0].class == "definitely-lost"'
exit 0
