# Haskell call chains while Haskell threads run in parallel: hs-threads has
# 4 threads on 2 capabilities (+RTS -N2, a small allocation area so that
# collections run while other threads are in safe foreign calls) make
# 80,000 safe calls of malloc, then each leaks one block of 5000 bytes
# from Main.worker. The program runs to its end, and the 4 blocks are one
# record whose chain ends at the thread's catch frame (forkIO's handler):
# Main.worker (its code that called malloc) <- ... <- Main.worker at
# -O0 -g; Main.worker1 (the IO code of worker) at -O2.
. "$(dirname "$0")/../lib.sh"
src=$ROOT/tests/victims/hs-threads.hs

check() { # victim -> $T/NAME.json
	v=$1
	ls_run "$T/${v##*/}.json" -- "$v" +RTS -N2 -A16k -RTS
	expect_leak_rc "$T/${v##*/}.json"
	expect_grep "$T/stdout" '^done$'
	j=$T/${v##*/}.json
	expect_json "$j" 'root.scanned and ([root.leaks[] | select(.class == "definitely-lost")]
		| length == 1 and (.[0] | .bytes == 20000 and .objects == 4
			and ([.stack[].function // empty][-1] == "stg_catch_frame_info")))'
}

v=$(victim hs-threads@O0 -O0 -g -threaded) || exit
check "$v"
expect_json "$T/${v##*/}.json" "root.leaks[0] | .stack[0].function == \"Main.worker\"
	and .stack[0].line == $(marker "$src" threads-leak)
	and ([.stack[].function // empty] | index(\"base:GHC.Base.\$fMonadIO1\") > 0)
	and ([.stack[].function // empty][-2] == \"Main.worker\")"

v=$(victim hs-threads@O2 -O2 -g0 -threaded) || exit
check "$v"
expect_json "$T/${v##*/}.json" 'root.leaks[0] | [.stack[].function // empty]
	== ["Main.worker1", "stg_catch_frame_info"]'
exit 0
