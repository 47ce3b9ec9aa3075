# 129: `report`, `diff` and `check` write their text as `run` does: the leaks at
# the end cut at --top (default 10) with the count of the others, every
# list of sites ending with that count too, start-up frames left out
# unless --full-stacks, colours with --color=always; the JSON lists every
# leak and says which suppressions were used.
. "$(dirname "$0")/../lib.sh"
v=$(victim wrappers) || exit
"$LEAKSCOPE" record -o "$T/w.lstrace" -- "$v" > /dev/null 2> "$T/rec.err" ||
	[ $? -lt 125 ] || fail "record failed: $(cat "$T/rec.err")"
"$LEAKSCOPE" report "$T/w.lstrace" > "$T/r.txt" || fail "report failed"
sed -n '/^Leaks:/,/^$/p' "$T/r.txt" > "$T/leaks.txt"
expect_grep "$T/leaks.txt" '^leakscope: 3,462 bytes lost in 16 objects '
[ "$(grep -c ' allocated from:$' "$T/leaks.txt")" -eq 10 ] || fail "report lists not 10 leak sites"
expect_grep "$T/leaks.txt" '^  \.\.\. and 6 more allocation sites \(--top 0 lists them all\)$'
expect_grep "$T/leaks.txt" '^  suppressions used:$'
sed -n '/^Live at the peak/,/^$/p' "$T/r.txt" > "$T/peak.txt"
expect_grep "$T/peak.txt" '^Live at the peak \(10 of 18 sites\):$'
expect_grep "$T/peak.txt" '^  \.\.\. and 8 more allocation sites \(--top 0 lists them all\)$'
grep -Eq '#[0-9]+ +(__libc_start_call_main|_start|start_thread|clone3) ' "$T/r.txt" &&
	fail "report shows start-up frames"
"$LEAKSCOPE" report --top 0 --full-stacks "$T/w.lstrace" > "$T/full.txt" || fail "report --full-stacks failed"
grep -q 'more allocation site' "$T/full.txt" && fail "report --top 0 says more sites"
expect_grep "$T/full.txt" '#[0-9]+ +__libc_start_call_main '
expect_grep "$T/full.txt" '#2  start_thread '
esc=$(printf '\033')
"$LEAKSCOPE" report --color=always "$T/w.lstrace" > "$T/color.txt" || fail "report --color failed"
expect_grep "$T/color.txt" "^$esc\\[1;31mleakscope: 3,462 bytes lost"
grep -q "$esc" "$T/r.txt" && fail "report paints into a file by default"
"$LEAKSCOPE" report -f json "$T/w.lstrace" > "$T/r.json" || fail "report -f json failed"
expect_json "$T/r.json" '.exit_leaks.leaks | length == 16'
expect_json "$T/r.json" '.exit_leaks.suppressions_used | any(.[]; .pattern == "^_IO_file_doallocate$"
	and .source == "builtin" and .matches == 1 and .bytes == 4096)'

# diff: its changes cut at --top with the same line, start-up frames too
"$LEAKSCOPE" diff --top 2 "$T/w.lstrace@0" "$T/w.lstrace" > "$T/d.txt" || fail "diff failed"
[ "$(grep -c '^  +' "$T/d.txt")" -eq 2 ] || fail "diff --top 2 shows not 2 changes"
expect_grep "$T/d.txt" '^  \.\.\. and 16 more allocation sites \(--top 0 lists them all\)$'
grep -Eq '#[0-9]+ +(__libc_start_call_main|_start|start_thread) ' "$T/d.txt" && fail "diff shows start-up frames"
"$LEAKSCOPE" diff --top 0 --full-stacks "$T/w.lstrace@0" "$T/w.lstrace" > "$T/d-full.txt" || fail "diff --full-stacks failed"
[ "$(grep -c '^  +' "$T/d-full.txt")" -eq 18 ] || fail "diff --top 0 shows not 18 changes"
grep -q 'more allocation site' "$T/d-full.txt" && fail "diff --top 0 says more sites"
expect_grep "$T/d-full.txt" '#[0-9]+ +__libc_start_call_main '

# check: the same options, passed to the running program's collector
c=$(victim check-threads) || exit
export XDG_RUNTIME_DIR=$T/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
mkfifo "$T/in"
"$LEAKSCOPE" run -o "$T/exit.txt" -- "$c" < "$T/in" > "$T/c.out" 2> "$T/c.err" &
runpid=$!
exec 3> "$T/in"
i=0
until grep -q ready "$T/c.out"; do
	i=$((i + 1)); [ $i -lt 200 ] || fail "the victim never got ready"; sleep 0.05
done
pid=$(awk '/ready/ {print $2}' "$T/c.out")
"$LEAKSCOPE" check "$pid" > "$T/check.txt" || fail "check failed"
"$LEAKSCOPE" check --full-stacks --color=always --top 0 "$pid" > "$T/check-full.txt" ||
	fail "check --full-stacks failed"
echo go >&3
exec 3>&-
wait $runpid
expect_grep "$T/check.txt" '4,321 bytes in 1 object definitely lost'
grep -Eq '#[0-9]+ +(__libc_start_call_main|_start) ' "$T/check.txt" && fail "check shows start-up frames"
grep -q "$esc" "$T/check.txt" && fail "check paints into a file by default"
sed "s/$esc\[[0-9;]*m//g" "$T/check-full.txt" > "$T/check-plain.txt"
expect_grep "$T/check-plain.txt" '#[0-9]+ +__libc_start_call_main '
expect_grep "$T/check-full.txt" "^$esc\\[1;31mleakscope: 4,321 bytes lost"
rc=0; "$LEAKSCOPE" check --top x "$pid" > /dev/null 2> "$T/usage" || rc=$?
expect_rc 2
exit 0
