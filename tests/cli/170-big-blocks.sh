# big-blocks: blocks glibc serves with mmap are tracked like any other -
# 1 MiB from malloc, 256 KiB from calloc, 2 MiB from a realloc of a small
# block - and the freed 4 MiB block is not reported.
. "$(dirname "$0")/../lib.sh"
v=$(victim big-blocks) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.leaks | sized(1048576) | length == 1 and (.[0].stack[0].function == "leak_big_malloc")'
expect_json "$j" 'root.leaks | sized(262144) | length == 1 and (.[0].stack[0].function == "leak_big_calloc")'
expect_json "$j" 'root.leaks | sized(2097152) | length == 1 and (.[0].stack[0].function == "leak_big_realloc")'
expect_json "$j" 'root.summary.leaked_bytes == 3407872 and root.summary.leaked_objects == 3'
expect_json "$j" 'root.stats.peak_bytes >= 7602176 and root.stats.bytes_allocated >= 7602176'
expect_json "$j" '[root.leaks[].bytes] | first == 2097152'
exit 0
