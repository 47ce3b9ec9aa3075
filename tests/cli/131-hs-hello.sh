# hs-hello: a clean Haskell program built with the threaded RTS: nothing
# reported; what the RTS keeps until exit is suppressed.
. "$(dirname "$0")/../lib.sh"
v=$(victim hs-hello -threaded) || exit
ls_run "$T/r.json" -- "$v" +RTS -N2 -RTS
expect_rc 0
expect_grep "$T/stdout" '^hello, world$'
expect_json "$T/r.json" 'root.summary.leaked_bytes == 0 and root.leaks == []'
expect_json "$T/r.json" 'root.stats.allocations >= 1 and root.summary.suppressed_objects >= 1'
exit 0
