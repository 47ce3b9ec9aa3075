# record --paused: the recorded window starts closed. No allocation (and so
# no free, no stack, no symbol) is written, while samples of RSS and of the
# live heap go on: the last sample sees the 50 blocks record-pattern leaks.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim record-pattern) || exit
rc=0
"$LEAKSCOPE" record --paused --sample-interval 20 -o "$T/q.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
ls_dump "$T/q.lstrace" "$T/d"; [ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump"; }
expect_grep "$T/d" '^[0-9.]+ end events=[0-9]+ allocs=0 frees=0 bytes=0 stacks=0 modules=0 symbols=0 '
ns=$(grep -c '^[0-9.]* sample ' "$T/d")
[ "$ns" -ge 5 ] || fail "expected samples every 20 ms over ~300 ms, got $ns"
expect_grep "$T/d" '^[0-9.]+ sample rss=[1-9][0-9]* live_bytes=[0-9]{5,} live_blocks=(5[0-9]|[6-9][0-9]|1[0-9][0-9])$'
exit 0
