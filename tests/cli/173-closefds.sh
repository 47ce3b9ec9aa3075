# closefds: the program closes every descriptor above 2 and reopens 0-2 on
# /dev/null, as daemons do, between two leaks. leakscope's own channel to
# the program must survive that: both leaks (5,150 bytes before, 5,151
# after) are reported and the process is not cut short.
. "$(dirname "$0")/../lib.sh"
v=$(victim closefds) || exit
ls_run "$T/r.json" -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.end == {"code": 0}'
expect_json "$j" 'root.leaks | sized(5150) | length == 1 and (.[0].stack[0].function == "leak_before_close")'
expect_json "$j" 'root.leaks | sized(5151) | length == 1 and (.[0].stack[0].function == "leak_after_close")'
expect_json "$j" 'root.stats.allocations >= 1002 and root.stats.frees >= 1000'
exit 0
