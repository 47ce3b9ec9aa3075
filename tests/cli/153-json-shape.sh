# The leakscope-leaks/1 document has exactly the documented shape - every
# key with its type, for the top level, each process, stats, summary, each
# leak and suppressed group and each frame - on a report with several
# processes, leaks and suppressions.
. "$(dirname "$0")/../lib.sh"
v=$(victim fork) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 23
j=$T/r.json
num='(type == "number" and . >= 0 and floor == .)'
expect_json "$j" 'keys == ["command", "exit", "processes", "schema", "unreported"]'
expect_json "$j" '(.command | type == "array" and all(.[]; type == "string"))
	and (.exit | keys == ["code", "signal"]) and (.exit.signal == null or (.exit.signal | type == "number"))'
expect_json "$j" "all(.processes[]; keys == [\"classes\", \"command\", \"end\", \"exe\", \"forked\",
	\"leaks\", \"marks\", \"marks_dropped\", \"pid\", \"ppid\", \"region_intact\", \"root\",
	\"scanned\", \"stats\", \"summary\", \"suppressed\", \"suppressions_used\"])"
expect_json "$j" 'all(.processes[]; .region_intact == true)'
expect_json "$j" "all(.processes[]; .marks == [] and (.marks_dropped | $num))"
expect_json "$j" 'all(.processes[]; .scanned == true and (.classes | keys == ["definitely-lost",
	"indirectly-lost", "not-freed", "possibly-lost", "still-reachable"])
	and .classes["not-freed"].bytes == 0 and .summary.leaked_bytes == .classes["definitely-lost"].bytes
	+ .classes["indirectly-lost"].bytes + .classes["possibly-lost"].bytes)'
expect_json "$j" "all(.processes[]; (.pid | $num) and (.ppid | $num) and (.command | type == \"string\")
	and (.exe | startswith(\"/\")) and (.root | type == \"boolean\") and (.forked | type == \"boolean\")
	and (.end == {} or (.end | keys == [\"code\"] or keys == [\"signal\"])))"
expect_json "$j" '[.processes[] | select(.root)] | length == 1'
expect_json "$j" "all(.processes[].stats; (.allocations | $num) and (.frees | $num) and (.unmatched_frees | $num)
	and (.bytes_allocated | $num) and (.peak_bytes | $num))"
expect_json "$j" "all(.processes[].summary; keys == [\"leaked_bytes\", \"leaked_objects\", \"suppressed_bytes\",
	\"suppressed_objects\"] and all(.[]; $num))"
expect_json "$j" 'all(.processes[]; .summary.leaked_bytes == ([.leaks[].bytes] | add // 0)
	and .summary.leaked_objects == ([.leaks[].objects] | add // 0)
	and .summary.suppressed_bytes == ([.suppressed[].bytes] | add // 0)
	and .summary.suppressed_objects == ([.suppressed[].objects] | add // 0))'
expect_json "$j" "all(.processes[].leaks[]; keys == [\"bytes\", \"class\", \"objects\", \"stack\"]
	and (.bytes | $num) and (.objects | $num) and .objects >= 1
	and (.class | IN(\"definitely-lost\", \"indirectly-lost\", \"possibly-lost\")))"
expect_json "$j" "all(.processes[].suppressed[]; keys == [\"bytes\", \"class\", \"objects\", \"stack\", \"suppression\"]
	and (.suppression | type == \"string\"))"
expect_json "$j" "all(.processes[].suppressions_used[]; keys == [\"bytes\", \"matches\", \"pattern\", \"source\"]
	and (.pattern | type == \"string\") and .source == \"builtin\" and (.matches | $num) and .matches >= 1
	and (.bytes | $num))"
expect_json "$j" 'all(.processes[]; ([.suppressions_used[].bytes] | add // 0) == .summary.suppressed_bytes
	and ([.suppressions_used[].matches] | add // 0) == .summary.suppressed_objects)'
expect_json "$j" "all(.processes[] | (.leaks[], .suppressed[]) | .stack[];
	keys == [\"file\", \"function\", \"inlined\", \"line\", \"module\", \"offset\"]
	and (.function == null or (.function | type == \"string\")) and (.file == null or (.file | type == \"string\"))
	and (.line == null or (.line | $num)) and (.module | type == \"string\")
	and (.offset | test(\"^0x[0-9a-f]+\$\")) and (.inlined | type == \"boolean\"))"
expect_json "$j" '.processes | length >= 2 and any(.[]; .suppressed != [])'
expect_json "$j" 'all(.unreported[]; (keys - ["program"]) == ["command", "pid", "why"]
	and (.why | IN("running", "exec-untraced", "exec-privileged")))'
exit 0
