# libleakscope.so exports only the allocator entry points it interposes,
# dlclose, the execve family, _exit and _Exit (the exit call-back where
# ptrace is not permitted), ptrace (to hand a process over to another
# tracer), the leakscope_* program API and leakscope_attached_start (what
# `leakscope attach` calls in libleakscope-attach.so, built from the same
# sources), and needs
# nothing beyond libc: the program sees no library of ours but this one.
. "$(dirname "$0")/../lib.sh"
so=$ROOT/build/libleakscope.so
command -v nm > /dev/null || skip "nm (binutils) is not installed"
nm -D --defined-only "$so" | awk '{print $3}' | sed 's/@.*//' | sort > "$T/got"
cat > "$T/want" <<'LIST'
_Exit
__libc_start_main
_exit
aligned_alloc
calloc
dlclose
execv
execve
execvp
execvpe
exit
free
leakscope_add_mark
leakscope_add_snapshot
leakscope_attached_start
leakscope_disable_thread
leakscope_enable_thread
leakscope_ignore_object
leakscope_root_add
leakscope_root_remove
malloc
memalign
posix_memalign
ptrace
pvalloc
realloc
reallocarray
valloc
LIST
diff "$T/want" "$T/got" || fail "exported symbols differ (< expected, > found)"
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
case "$needed" in
"libc.so.6 ") ;;
*) fail "unexpected DT_NEEDED: $needed" ;;
esac
