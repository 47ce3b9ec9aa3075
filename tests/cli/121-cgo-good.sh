# cgo-good: hello() in C mallocs 1,000 bytes and frees them; the program
# ends without C.exit(0). Nothing is reported, and the 1,000-byte block was
# seen (it counts in the statistics).
. "$(dirname "$0")/../lib.sh"
v=$(victim cgo-good) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
expect_grep "$T/stdout" '^calling free\(\) \.\.\. 0x[0-9a-f]+$'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0 and root.leaks == []'
expect_json "$T/r.json" 'root.stats.bytes_allocated >= 1000 and root.stats.frees >= 1'
exit 0
