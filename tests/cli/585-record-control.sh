# leakscope record served from its control socket, the targets named by
# trace path and by pid: mark and snapshot land in the trace between the
# events before and after them (tid 0); stop closes the recorded window:
# the 10 x 2222 bytes allocated while it is closed are not in the trace,
# nor are their frees, and the trace stays consistent; start opens it
# again; check reports the lost 4,321 bytes of the recorded running
# program (text and JSON) and the program goes on. Then report and diff
# work on the marks and snapshots the CLI made.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim phases) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/c.lstrace

wait_for() { # word
	i=0
	until grep -q "^$1" "$T/out"; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$T/err"; fail "the victim never said $1"; }
		sleep 0.05
	done
}
ctl() { # command args...
	"$LEAKSCOPE" "$@" > "$T/ctl.out" 2> "$T/ctl.err" ||
		{ cat "$T/ctl.err"; fail "leakscope $* failed"; }
}

rm -f "$T/in" && mkfifo "$T/in"
"$LEAKSCOPE" record -o "$tr" -- "$v" < "$T/in" > "$T/out" 2> "$T/err" &
recpid=$!
exec 3> "$T/in"
wait_for ready
pid=$(awk '/ready/ {print $2}' "$T/out")

ctl mark "$tr" "one"
ctl snapshot "$pid" snap1
ctl check --format json "$tr"
cp "$T/ctl.out" "$T/check.json"
expect_json "$T/check.json" '.processes | length == 1'
expect_json "$T/check.json" '.processes[0].scanned and .processes[0].pid == '"$pid"
expect_json "$T/check.json" '.processes[0].classes["definitely-lost"] == {"bytes": 4321, "objects": 1}'
expect_json "$T/check.json" '.processes[0].leaks | length == 1 and (.[0] | has_fn("lost_block"))'
expect_json "$T/check.json" '.processes[0].classes["still-reachable"].bytes >= 11110'
ctl check "$pid"
expect_grep "$T/ctl.out" "4,321 bytes in 1 object definitely lost"
expect_grep "$T/ctl.out" "lost_block +phases.c:"

ctl stop "$tr"
echo go >&3
wait_for two
ctl start "$pid"
ctl snapshot "$tr" snap2
echo go >&3
wait_for three
ctl snapshot "$pid" snap3
ctl mark "$tr" "three"
echo go >&3
exec 3>&-
rc=0; wait $recpid || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "record exited $rc"; }
expect_grep "$T/out" "^done$"
grep -Eq 'Sanitizer|runtime error' "$T/err" && { cat "$T/err"; fail "sanitizer report"; }
# once the recording ended, nobody answers for the trace
rc=0; "$LEAKSCOPE" mark "$tr" late 2> "$T/late.err" || rc=$?
[ $rc -eq 1 ] || fail "mark after the end exited $rc"
expect_grep "$T/late.err" "no running recording writes"

ls_dump "$tr" "$T/d"; [ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump"; }
consistent "$T/d"
[ "$(count_allocs "$T/d" "$(site_stack "$T/d" before_stop)" 1111)" = 10 ] || fail "1111-byte allocations"
[ "$(count_allocs "$T/d" "$(site_stack "$T/d" after_start)" 3333)" = 10 ] || fail "3333-byte allocations"
[ "$(count_allocs "$T/d" "$(site_stack "$T/d" lost_block)" 4321)" = 1 ] || fail "the lost block"
if grep -q ' size=2222 ' "$T/d" || grep -q 'frames=while_stopped ' "$T/d"; then
	fail "allocations made while the window was closed are in the trace"
fi
# the marks in file order, from outside (tid 0), between the right events
awk '$2 == "mark" || $2 == "snapshot" { print $2, $3, $4 }' "$T/d" > "$T/marks"
printf '%s\n' 'mark tid=0 text="one"' 'snapshot tid=0 name="snap1"' \
	'snapshot tid=0 name="snap2"' 'snapshot tid=0 name="snap3"' \
	'mark tid=0 text="three"' > "$T/marks.want"
cmp -s "$T/marks" "$T/marks.want" || { diff "$T/marks.want" "$T/marks"; fail "marks"; }
awk '$2 != "alloc" { $5 = "" }
	$5 == "size=1111" { last1 = NR } $5 == "size=3333" && !first3 { first3 = NR }
	$5 == "size=3333" { last3 = NR } $2 == "free" { lastfree = NR }
	$4 == "text=\"one\"" { one = NR } $4 == "name=\"snap2\"" { s2 = NR }
	$4 == "name=\"snap3\"" { s3 = NR } $4 == "text=\"three\"" { three = NR }
	END { exit !(last1 < one && s2 < first3 && last3 < s3 && s3 < three && three < lastfree) }' \
	"$T/d" || fail "a mark is not between the events before and after it"

# report on the CLI's marks: allocated in [one, three] and live at three
"$LEAKSCOPE" report --format json --from one --to three "$tr" > "$T/r.json" ||
	fail "report --from one --to three"
expect_json "$T/r.json" '[.leaks[] | [.stack[0].function, .leaked_bytes, .leaked_objects]] == [["after_start", 33330, 10]]'
expect_json "$T/r.json" '.summary.markers == 2 and .summary.snapshots == 3'
# diff between the CLI's snapshots: exact, per block
"$LEAKSCOPE" diff --format json "$tr@snap1" "$tr@snap2" > "$T/d12.json" || fail "diff snap1 snap2"
expect_json "$T/d12.json" '.exact and .added_bytes == 0 and .removed_bytes == 5555 and .removed_objects == 5'
expect_json "$T/d12.json" '[.sites[] | select(.removed_bytes > 0) | .stack[0].function] == ["before_stop"]'
"$LEAKSCOPE" diff --format json "$tr@snap2" "$tr@snap3" > "$T/d23.json" || fail "diff snap2 snap3"
expect_json "$T/d23.json" '.added_bytes == 33330 and .added_objects == 10 and .removed_bytes == 5555'
expect_json "$T/d23.json" '[.sites[] | select(.added_bytes > 0) | .stack[0].function] == ["after_start"]'
exit 0
