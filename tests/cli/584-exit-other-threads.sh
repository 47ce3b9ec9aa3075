# The exit scan has the registers of every thread, not only of the
# thread that ended the process: a block another thread holds only in a
# register when main calls exit() is not lost; the lost one is. Repeated,
# since which thread reaches its exit stop first varies. (Before, every
# killed thread's exit stop made a scan of its own and the last one's
# verdicts stood, which here happened to be right too; now the first exit
# stop gathers the others and the process is scanned once.)
. "$(dirname "$0")/../lib.sh"
v=$(victim check-threads) || exit
for i in 1 2 3; do
	"$LEAKSCOPE" run --exit-code 0 -f json -o "$T/r$i.json" -- "$v" exit > /dev/null 2> "$T/err" ||
		{ cat "$T/err"; fail "run exited $?"; }
	expect_json "$T/r$i.json" 'root.scanned and root.classes["definitely-lost"] == {"bytes": 4321, "objects": 1}'
	expect_json "$T/r$i.json" 'root.classes["indirectly-lost"].bytes == 0 and root.classes["possibly-lost"].bytes == 0'
	expect_json "$T/r$i.json" '[all_leaks[] | select(.bytes == 8765)] | length == 0'
done
