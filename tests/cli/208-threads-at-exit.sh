# The exit stop never hangs: threads-at-exit ends while two threads create
# threads as fast as they can, so the group exit kills threads just cloned,
# whose first stop may be their exit stop, reported before their creator's
# clone event (such a stop used to be left alone: the thread stayed stopped,
# the process a zombie, and run waited forever). Ten runs, each bounded;
# each reports the 3,030 bytes lost by lose() and exits 23.
. "$(dirname "$0")/../lib.sh"
v=$(victim threads-at-exit) || exit
line=$(marker "$ROOT/tests/victims/threads-at-exit.c" at-exit-malloc)
for i in 1 2 3 4 5 6 7 8 9 10; do
	rc=0
	timeout -k 5 60 "$LEAKSCOPE" run -f json -o "$T/r$i.json" -- "$v" > /dev/null 2> "$T/stderr" ||
		rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] || fail "run $i hung"
	expect_rc 23
	expect_json "$T/r$i.json" "root.scanned and root.classes[\"definitely-lost\"] == {\"bytes\": 3030,
		\"objects\": 1} and (root.leaks[0].stack[0] | .function == \"lose\" and .line == $line)"
done
exit 0
