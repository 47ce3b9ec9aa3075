# clean-million: 1,000,000 blocks through malloc, calloc and realloc, all
# freed: nothing is reported, and the statistics count them all.
. "$(dirname "$0")/../lib.sh"
v=$(victim clean-million) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
j=$T/r.json
expect_json "$j" 'root.summary.leaked_bytes == 0 and root.leaks == []'
expect_json "$j" 'root.stats | .allocations >= 1000000 and .frees >= 1000000
	and .unmatched_frees == 0 and .bytes_allocated > 300000000 and .peak_bytes < .bytes_allocated'
exit 0
