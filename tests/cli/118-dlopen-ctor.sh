# dlopen-ctor: the constructor of a dlopen'ed library (dlleak.so) leaks
# 10,030 bytes from dl_ctor_alloc while dlopen() runs. That is the library's
# leak, not the loader's: it must be reported (not suppressed as a dynamic
# loader allocation), next to dl_leak_fn's 10,010 bytes; the loader's own
# blocks are freed by dlclose and nothing else is reported.
. "$(dirname "$0")/../lib.sh"
v=$(victim dlopen-host) || exit
lib=$(victim_lib dlleak) || exit
ls_run "$T/r.json" -- "$v" "$lib"
expect_rc 23
j=$T/r.json
expect_json "$j" "root.leaks | sized(10030) | length == 1 and (.[0].stack[0] | .function == \"dl_ctor_alloc\"
	and .module == \"dlleak.so\" and .line == $(marker "$ROOT/tests/victims/dlleak.c" dl-ctor-malloc))"
expect_json "$j" 'root.leaks | sized(10030)[0] | has_fn("dl_ctor") and has_fn("main")'
expect_json "$j" '[root.suppressed[] | select(.bytes == 10030)] | length == 0'
expect_json "$j" 'root.summary.leaked_bytes == 20040 and root.summary.leaked_objects == 2'
exit 0
