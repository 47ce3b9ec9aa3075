# 416: a heap census cut by the end of the file (a killed run) is left out
# of the report and its trends, with a warning, rather than read as a
# census where the growing band fell to 0.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
(cd "$T" && "$bin" +RTS -l -hT -i0.01 -ol"$T/full.eventlog" -RTS > /dev/null) || fail "victim failed"
"$LEAKSCOPE" eventlog --format json -o "$T/full.json" "$T/full.eventlog" || fail "full exit $?"
n_full=$(jq '.times_ns | length' "$T/full.json")
# the last census: its begin (162) and end (165) events
python3 "$ROOT/tests/support/eventlog_events.py" "$T/full.eventlog" > "$T/events" || fail "cannot list events"
begin=$(awk '$2 == 162 { b = $1 } END { print b }' "$T/events")
end=$(awk -v b="$begin" '$2 == 165 && $1 > b { print $1; exit }' "$T/events")
[ -n "$begin" ] && [ -n "$end" ] || fail "no census in the victim's eventlog"
# cut among its samples, and inside its end event
for cut in $(((begin + end) / 2)) $((end + 4)); do
	head -c $cut "$T/full.eventlog" > "$T/cut$cut.eventlog"
	"$LEAKSCOPE" eventlog --format json -o "$T/cut$cut.json" "$T/cut$cut.eventlog" 2> "$T/err" ||
		{ cat "$T/err"; fail "exit $? on a truncated file"; }
	cat "$T/err"
	j=$T/cut$cut.json
	expect_grep "$T/err" "^leakscope: warning: '.*cut$cut.eventlog': census at [0-9.]+ s is incomplete \(the file ends before its end\): left out of the report$"
	expect_json "$j" '.warnings[1] | test("^census at [0-9.]+ s is incomplete")'
	expect_json "$j" "(.times_ns | length) == $n_full - 1 and .meta.censuses == $n_full - 1"
	# every band as in the whole file, without its last census
	jq --slurpfile full "$T/full.json" -e '
		def seen: map(select(.values | any(. > 0))) | sort_by(.id);
		([.bands[] | {id, values}] | seen) ==
		([$full[0].bands[] | {id, values: .values[:-1]}] | seen)' "$j" > /dev/null ||
		fail "cut $cut: the bands differ from those of the whole file"
	expect_json "$j" '.bands[0].id == "THUNK_2_0" and .bands[0].stats.slope > 1000000 and .bands[0].values[-1] > 0'
done
exit 0
