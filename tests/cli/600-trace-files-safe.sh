# 600: record writes its traces safely. The default name
# leakscope.PROG.PID.lstrace is one anybody can guess: a symbolic link
# planted there is not followed (its target keeps its bytes) and the trace
# takes the next free name, NAME-2.lstrace, which is announced. Every trace
# is created mode 0600, a forked child's too. -o naming a symbolic link of
# another user is refused with a message (the target kept); -o naming a
# link of our own is followed; -o naming an own longer file empties it
# (its mode kept) and the trace there reads back whole.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
f=$(victim fork) || exit
cd "$T" || exit 1
echo precious > "$T/target"
mode() { stat -c %a "$1"; }

# links at the default names of the next 20,000 pids: the program gets one
last=$(cat /proc/sys/kernel/ns_last_pid) || skip "no /proc/sys/kernel/ns_last_pid"
max=$(cat /proc/sys/kernel/pid_max)
perl -e 'my ($last, $max, $t) = @ARGV;
	for my $i (1 .. 20000) { my $p = ($last + $i) % $max;
		symlink($t, "leakscope.leak-one.$p.lstrace") or die "$!\n" }' \
	"$last" "$max" "$T/target" || fail "cannot plant the links"
rc=0
"$LEAKSCOPE" record -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
expect_grep "$T/stdout" '^hello 0x'
pid=$(sed -n 's/^leakscope: recording pid \([0-9]*\) .*/\1/p' "$T/stderr")
[ -n "$pid" ] || { cat "$T/stderr"; fail "no trace announced"; }
[ -L "leakscope.leak-one.$pid.lstrace" ] || fail "pid $pid is past the planted links"
expect_grep "$T/stderr" "^leakscope: recording pid $pid \(.*leak-one\) to leakscope\.leak-one\.$pid-2\.lstrace\$"
[ "$(cat "$T/target")" = precious ] || fail "the planted link was followed: its target was written"
t=leakscope.leak-one.$pid-2.lstrace
[ -f "$t" ] && [ ! -L "$t" ] || fail "$t is not a regular file"
[ "$(mode "$t")" = 600 ] || fail "$t has mode $(mode "$t"), not 600"
"$LEAKSCOPE" dump "$t" > "$T/d" 2> "$T/d.err" || { cat "$T/d.err"; fail "dump $t"; }
expect_grep "$T/d" "^[0-9.]+ alloc .* size=1000 "
find . -name 'leakscope.*' -newer "$T/target" ! -type l | grep -v "$t" && fail "another trace was written"

# -o: the parent's trace and the forked child's, both 0600
rc=0
"$LEAKSCOPE" record -o "$T/f.lstrace" -- "$f" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
child=$(sed -n 's/^child \([0-9]*\) .*/\1/p' "$T/stdout")
[ -n "$child" ] || fail "the fork victim printed no child pid"
for t in "$T/f.lstrace" "$T/f.$child.lstrace"; do
	[ "$(mode "$t")" = 600 ] || fail "$t has mode $(mode "$t"), not 600"
done

# -o naming a link of another user: refused, its target untouched
ln -s "$T/target" "$T/theirs.lstrace"
if chown -h nobody "$T/theirs.lstrace" 2> /dev/null; then
	rc=0
	"$LEAKSCOPE" record -o "$T/theirs.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_rc 125
	expect_grep "$T/stderr" "^leakscope: cannot record pid [0-9]+ \(.*leak-one\): cannot create '$T/theirs.lstrace': a symbolic link of another user \(not followed\)\$"
	expect_grep "$T/stdout" '^hello 0x'    # the program ran, untraced
	[ "$(cat "$T/target")" = precious ] || fail "the link of another user was followed"
else
	echo "not root: a link of another user cannot be made here; that case was not checked"
fi

# -o naming a link of our own: followed
ln -s "$T/mine.lstrace" "$T/link.lstrace"
"$LEAKSCOPE" record -o "$T/link.lstrace" -- "$v" > /dev/null 2> "$T/stderr" ||
	{ cat "$T/stderr"; fail "record through an own link"; }
[ -L "$T/link.lstrace" ] && [ -f "$T/mine.lstrace" ] || fail "the own link was not followed"
"$LEAKSCOPE" dump "$T/mine.lstrace" > /dev/null 2>&1 || fail "the trace through the link does not read"

# -o naming an own file, longer than the trace: emptied first, mode kept
head -c 200000 /dev/urandom > "$T/old.lstrace"
chmod 640 "$T/old.lstrace"
"$LEAKSCOPE" record -o "$T/old.lstrace" -- "$v" > /dev/null 2> "$T/stderr" ||
	{ cat "$T/stderr"; fail "record over an own file"; }
[ "$(mode "$T/old.lstrace")" = 640 ] || fail "the own file's mode changed to $(mode "$T/old.lstrace")"
[ "$(wc -c < "$T/old.lstrace")" -lt 100000 ] || fail "the old bytes are still there"
"$LEAKSCOPE" dump "$T/old.lstrace" > /dev/null 2> "$T/d.err" || { cat "$T/d.err"; fail "dump old.lstrace"; }
exit 0
