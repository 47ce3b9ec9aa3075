# 603: a recording onto a disk that fills up. The trace of clean-million (a
# million allocations, several MB of trace) is written into a 64 KiB tmpfs:
# the write fails with ENOSPC, which is said at once, with the file and the
# cause, while the program runs; the program runs on to its end unharmed
# (its last line printed, its status 0); record then exits 125 and its
# summary says the trace stopped early. What was written reads back: dump
# and report say where it is cut. Skipped where mounting is not permitted.
. "$(dirname "$0")/../lib.sh"
v=$(victim clean-million) || exit
D=$T/disk
mkdir "$D"
mount -t tmpfs -o size=64k tmpfs "$D" 2> /dev/null || skip "cannot mount a tmpfs here (needs root)"
trap 'rc=$?; cd /; umount "$D"; [ $rc -eq 0 ] && rm -rf "$T"; exit $rc' EXIT
cd "$D" || exit 1
rc=0
"$LEAKSCOPE" record -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 125
expect_grep "$T/stdout" '^allocated [0-9]+ bytes in 1000000 blocks, all freed$'
pid=$(sed -n 's/^leakscope: recording pid \([0-9]*\) .*/\1/p' "$T/stderr")
t=leakscope.clean-million.$pid.lstrace
[ -n "$pid" ] && [ -f "$t" ] || { cat "$T/stderr"; fail "no trace announced"; }
expect_grep "$T/stderr" "^leakscope: cannot write '$t': no space left on device; the trace of pid $pid \(clean-million\) stops there\$"
[ "$(grep -c 'no space left' "$T/stderr")" = 1 ] || fail "the failure was said more than once"
expect_grep "$T/stderr" "^leakscope: trace $t: pid $pid \(clean-million\), .*, stopped early\$"
# said when it happened: before the summary
awk '/no space left/ { s = NR } /^leakscope: trace / { e = NR } END { exit !(s && e && s < e) }' \
	"$T/stderr" || fail "the failure was not said before the summary"
[ "$(stat -c %a "$t")" = 600 ] || fail "trace mode $(stat -c %a "$t")"

rc=0
"$LEAKSCOPE" dump "$t" > "$T/d" 2> "$T/stderr" || rc=$?
expect_rc 1
expect_grep "$T/d" "^# leakscope trace 2\.1 pid=$pid "
expect_grep "$T/stderr" "^leakscope: '$t': truncated at offset [0-9]+ .*no end record"
rc=0
"$LEAKSCOPE" report "$t" > "$T/r" 2> "$T/stderr" || rc=$?
expect_rc 0
expect_grep "$T/r" "^warning: truncated at offset [0-9]+"
cd "$T" || exit 1
exit 0
