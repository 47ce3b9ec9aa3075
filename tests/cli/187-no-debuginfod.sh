# The command is linked statically and loads no shared library
# (src/cli/no_dlopen.c): with DEBUGINFOD_URLS set, a program stripped of
# everything is still reported, as module+offset, and libdw's debuginfod
# client never runs (it would load libdebuginfod into the static program
# and ask the server; its first act is to make its cache directory).
. "$(dirname "$0")/../lib.sh"
v=$(victim split-debug -O2) || exit
PATH=$PATH:/sbin:/usr/sbin ldconfig -p 2> /dev/null | grep -q 'libdebuginfod\.so\.1 ' ||
	skip "no libdebuginfod on this machine: nothing could load it"
cp "$v" "$T/bare"
strip --strip-all "$T/bare"
DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_CACHE_PATH=$T/cache DEBUGINFOD_TIMEOUT=2 \
	ls_run "$T/bare.json" --exit-code 0 -- "$T/bare"
expect_rc 0
expect_json "$T/bare.json" 'root.leaks | length == 1 and (.[0] | .bytes == 777)'
expect_json "$T/bare.json" 'root.leaks[0].stack[0] | .function == null and .module == "bare"'
[ -e "$T/cache" ] && fail "the debuginfod client ran: $(ls -R "$T/cache" | head -n 5)"
exit 0
