# record: record-pattern allocates 100 blocks of 1,000 bytes from
# leaky_site over ~300 ms, frees every second one and leaks 50. The trace,
# read back with `leakscope dump`, has those allocations with leaky_site's
# stack, the 50 frees, leaky_site's name and file:line in a SYMBOL record,
# samples at increasing times, allocation times spread over the sleeps, and
# END totals that agree with the records.
. "$(dirname "$0")/../lib.sh"
v=$(victim record-pattern) || exit
src=$ROOT/tests/victims/record-pattern.c
cd "$T" || exit 1
rc=0
"$LEAKSCOPE" record -o "$T/p.lstrace" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
expect_rc 0
expect_grep "$T/stdout" '^done$'
expect_grep "$T/stderr" "^leakscope: recording pid [0-9]+ \(.*record-pattern\) to $T/p.lstrace\$"
expect_grep "$T/stderr" "^leakscope: trace $T/p.lstrace: pid [0-9]+ \(record-pattern\), [0-9]+ events in [0-9.]+ s, [0-9]+ bytes \([0-9.]+ bytes/event\)\$"
"$LEAKSCOPE" dump "$T/p.lstrace" > "$T/d" 2> "$T/derr" || { cat "$T/derr"; fail "dump failed"; }
d=$T/d
expect_grep "$d" '^# leakscope trace 2\.1 pid=[0-9]+ .* resolution_ns=5000000 '
line=$(marker "$src" leaky-malloc)
expect_grep "$d" "^- symbol addr=0x[0-9a-f]+ module=[1-9][0-9]* frames=leaky_site at .*record-pattern\.c:$line in record-pattern\+0x"
expect_grep "$d" "^[0-9.]+ module id=1 path=.*record-pattern bias=0x[0-9a-f]+ build_id=[0-9a-f]+ "
# the stack whose innermost frame is leaky_site's address
addr=$(sed -n "s/^- symbol addr=\(0x[0-9a-f]*\) .*frames=leaky_site at .*/\1/p" "$d")
sid=$(sed -n "s/^- stack id=\([0-9]*\) frames=$addr,.*/\1/p" "$d")
[ -n "$sid" ] || fail "no stack starting at leaky_site ($addr)"
n=$(grep -c "^[0-9.]* alloc tid=[0-9]* addr=0x[0-9a-f]* size=1000 stack=$sid\$" "$d")
[ "$n" = 100 ] || fail "expected 100 allocations of 1000 bytes from leaky_site, got $n"
# the 50 frees are of blocks of that site, the even ones
awk -v sid="$sid" '$2 == "alloc" && $6 == "stack=" sid { a[$4] = ++k }
	$2 == "free" { if (!($4 in a) || a[$4] % 2 != 1) bad++; f++ }
	END { exit !(f == 50 && bad == 0) }' "$d" || fail "expected 50 frees of the odd-numbered allocations"
# every event time is in order; allocations spread over the sleeps (9 x 30 ms)
awk '$2 ~ /^(alloc|free|sample|mark|snapshot)$/ { if ($1 + 0 < last) exit 1; last = $1 + 0 }' "$d" || fail "times go backwards"
awk -v sid="$sid" '$2 == "alloc" && $6 == "stack=" sid { if (!n++) first = $1; last = $1 }
	END { exit !(last - first >= 0.2 && last - first < 5) }' "$d" || fail "allocation times do not span the sleeps"
# samples: at least two, at increasing times, the last one sees live blocks
ns=$(grep -c '^[0-9.]* sample rss=[1-9][0-9]* live_bytes=[0-9]* live_blocks=[0-9]*$' "$d")
[ "$ns" -ge 2 ] || fail "expected at least 2 samples, got $ns"
awk '$2 == "sample" { if (n++ && $1 + 0 <= t) exit 1; t = $1 + 0 }' "$d" || fail "sample times do not increase"
# END totals agree with the records
na=$(grep -c '^[0-9.]* alloc ' "$d"); nf=$(grep -c '^[0-9.]* free ' "$d")
nst=$(grep -c '^- stack ' "$d"); nsy=$(grep -c '^- symbol ' "$d")
expect_grep "$d" "^[0-9.]+ end events=[0-9]+ allocs=$na frees=$nf bytes=[0-9]+ stacks=$nst modules=[0-9]+ symbols=$nsy chunks=[0-9]+\$"
[ "$nf" = 50 ] || fail "expected 50 frees in all, got $nf"
# every frame of every stack has its symbol
for a in $(sed -n 's/^- stack id=[0-9]* frames=//p' "$d" | tr ',' '\n' | sort -u); do
	grep -q "^- symbol addr=$a " "$d" || fail "frame $a has no SYMBOL record"
done
# default name: leakscope.PROG.PID.lstrace in the current directory
rc=0
"$LEAKSCOPE" record -- "$v" > /dev/null 2> "$T/stderr2" || rc=$?
expect_rc 0
pid=$(sed -n 's/^leakscope: recording pid \([0-9]*\) .*/\1/p' "$T/stderr2")
[ -s "$T/leakscope.record-pattern.$pid.lstrace" ] || { ls "$T"; fail "no leakscope.record-pattern.$pid.lstrace"; }
exit 0
