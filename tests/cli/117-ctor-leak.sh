# ctor-leak: blocks leaked before main are leaks too - 12,001 bytes from
# the constructor of a linked library (lib_ctor_alloc in ctorlib.so),
# 12,002 from the program's own constructor, 12,003 from main. The
# constructors keep theirs in globals (still reachable, listed with
# --show-reachable); main's is definitely lost.
. "$(dirname "$0")/../lib.sh"
lib=$(victim_lib ctorlib) || exit
v=$(victim ctor-leak -L"$VICTIMS" -l:ctorlib.so -Wl,-rpath,"$VICTIMS") || exit
ls_run "$T/r.json" --show-reachable -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" 'root.leaks | sized(12003) | length == 1 and (.[0].stack[0].function == "main_leak")
	and .[0].class == "definitely-lost"'
expect_json "$j" 'root.leaks | sized(12002) | length == 1 and (.[0] | has_fn("exe_ctor_leak")
	and .class == "still-reachable")'
expect_json "$j" "root.leaks | sized(12001) | length == 1 and (.[0].stack[0] | .function == \"lib_ctor_alloc\"
	and .module == \"ctorlib.so\" and .line == $(marker "$ROOT/tests/victims/ctorlib.c" lib-ctor-malloc))
	and (.[0] | has_fn(\"lib_ctor_leak\") and .class == \"still-reachable\")"
expect_json "$j" 'root.summary.leaked_bytes == 12003 and root.summary.leaked_objects == 1
	and root.classes["still-reachable"] == {"bytes": 24003, "objects": 2}'
exit 0
