# A clean C++ hello world (iostream, std::string, std::vector, new/delete,
# new[]/delete[], an exception thrown and caught): nothing reported.
# libstdc++'s own start-up blocks (the exception emergency pool, iostream
# buffers) are runtime allocations kept until exit, not leaks of the program.
. "$(dirname "$0")/../lib.sh"
v=$(victim hello-cc) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 0
expect_grep "$T/stdout" '^hello, w+! 2$'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0 and root.leaks == []'
expect_json "$T/r.json" 'root.stats.allocations >= 5 and root.stats.unmatched_frees == 0'
exit 0
