# dlopen: dlopen-host loads dlleak.so (built here), calls dl_leak_fn(), which
# leaks 10,010 bytes, and dlcloses it. The leak is still symbolized to
# dl_leak_fn in dlleak.c at its line, module dlleak.so, although the library
# is gone when the program ends; it is definitely lost (exit status 23).
# (118 checks the library constructor's leak.)
. "$(dirname "$0")/../lib.sh"
v=$(victim dlopen-host) || exit
lib=$(victim_lib dlleak) || exit
ls_run "$T/r.json" -- "$v" "$lib"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.leaks | sized(10010) | length == 1 and .[0].objects == 1
	and .[0].class == "definitely-lost"'
expect_json "$j" "root.leaks | sized(10010)[0].stack[0] | .function == \"dl_leak_fn\"
	and (.file | endswith(\"dlleak.c\")) and .line == $(marker "$ROOT/tests/victims/dlleak.c" dl-malloc)
	and .module == \"dlleak.so\""
expect_json "$j" 'root.leaks | sized(10010)[0] | has_fn("main")'
expect_json "$j" 'all_leaks | sized(10020) | length == 0'
exit 0
