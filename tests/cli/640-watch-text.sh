# leakscope watch with standard output not a terminal: one block a
# refresh. watch-grow keeps 1000 bytes every 50 ms from grow_cache and
# marks "second N" after each second. Followed by the pid of the program
# (the trace asked from the recording's control socket), the blocks show
# the live bytes growing, grow_cache as the growing site, each mark once,
# and watch ends by itself when the recording ends, with the numbers of
# `leakscope report` on the same trace. A finished trace is shown once,
# on a terminal drawn to its width; a pid no recording traces is an error;
# --serve off the loopback warns.
. "$(dirname "$0")/../lib.sh"
v=$(victim watch-grow) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/w.lstrace

"$LEAKSCOPE" record -o "$tr" -- "$v" 4 2> "$T/rec.err" &
recpid=$!
i=0
until grep -q "recording pid" "$T/rec.err" && [ -s "$tr" ]; do
	i=$((i + 1)); [ $i -lt 200 ] || { cat "$T/rec.err"; fail "the recording never started"; }
	sleep 0.05
done
pid=$(sed -n 's/.*recording pid \([0-9]*\) .*/\1/p' "$T/rec.err")

rc=0
timeout 60 "$LEAKSCOPE" watch --interval 500 --top 3 "$pid" > "$T/out" 2> "$T/err" || rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "watch exited $rc"; }
wait $recpid || fail "the recording failed"
# watch returned when the trace ended: the recording was over by then
kill -0 $recpid 2> /dev/null && fail "watch ended before the recording"

blocks=$(grep -c "^watch '" "$T/out")
[ "$blocks" -ge 4 ] || { cat "$T/out"; fail "only $blocks blocks for a 4 s recording"; }
[ "$(grep -c '^$' "$T/out")" -eq "$blocks" ] || fail "blocks do not each end with an empty line"
grep -q "^watch '$tr': .*watch-grow 4 (pid $pid), .* recording\$" "$T/out" ||
	{ cat "$T/out"; fail "no block while the program ran"; }
tail -n +1 "$T/out" | grep "^watch '" | tail -n 1 | grep -q ", ended\$" ||
	{ cat "$T/out"; fail "the last block does not say the trace ended"; }
[ "$(grep -c ', ended$' "$T/out")" -eq 1 ] || fail "more than one block after the end"

# the live bytes of the blocks never drop, and grow at least 3 times
grep '^  live ' "$T/out" | awk '{ gsub(",", "", $2); print $2 }' > "$T/live"
awk 'NR > 1 && $1 < prev { exit 1 } { prev = $1 }' "$T/live" ||
	{ cat "$T/out"; fail "live bytes dropped between blocks"; }
[ "$(sort -un "$T/live" | wc -l)" -ge 3 ] || { cat "$T/out"; fail "live bytes did not grow"; }
# the growing site, by its first frame and caller, from the first block with one
grep -q '^ *[0-9.]* KiB/s  fit [01]\.[0-9]*  live [0-9,]* B  grow_cache watch-grow.c:[0-9]* < main$' "$T/out" ||
	{ cat "$T/out"; fail "grow_cache is not shown as the growing site"; }
grep -A1 'growing sites' "$T/out" | grep -q scratch && fail "scratch (freed at once) shown as growing"
for s in 1 2 3 4; do
	[ "$(grep -c "^  mark [0-9.]* s second $s\$" "$T/out")" -eq 1 ] ||
		{ cat "$T/out"; fail "mark 'second $s' not printed exactly once"; }
done

# the last block agrees with the report of the finished trace
"$LEAKSCOPE" report "$tr" > "$T/report" 2> /dev/null || fail "report failed"
final=$(sed -n 's/^  live at the end *\([0-9,]*\) bytes.*/\1/p' "$T/report")
peak=$(sed -n 's/^  peak live *\([0-9,]*\) bytes.*/\1/p' "$T/report")
[ "$final" = 80,000 ] || fail "the report says $final bytes live at the end"
grep '^  live ' "$T/out" | tail -n 1 | grep -q "^  live *$final B  peak *$peak B " ||
	{ tail -n 12 "$T/out"; fail "the last block is not the report's $final / $peak"; }
slope=$(sed -n '/^Growing sites/{n;s/^  \([0-9.]* KiB\/s\),.*/\1/p}' "$T/report")
grep -B1 -A2 'growing sites' "$T/out" | tail -n 2 | grep -q "^ *$slope  " ||
	{ cat "$T/out" "$T/report"; fail "the last block's slope is not the report's $slope"; }

# a finished trace: one block, at once
rc=0
timeout 20 "$LEAKSCOPE" watch "$tr" > "$T/once" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "watch of a finished trace exited $rc"
[ "$(grep -c "^watch '" "$T/once")" -eq 1 ] || { cat "$T/once"; fail "not one block"; }
[ "$(grep -c '^  mark ' "$T/once")" -eq 4 ] || fail "not the 4 marks"

# on a terminal (script(1)'s, 100 columns): drawn from the top-left
# corner, the sparklines fill the width but its last column, no line is
# wider
if command -v script > /dev/null; then
	script -qec "stty cols 100 rows 30; '$LEAKSCOPE' watch '$tr'" /dev/null > "$T/tty" 2>&1 ||
		{ cat "$T/tty"; fail "watch on a terminal failed"; }
	esc=$(printf '\033')
	grep -q "$esc\[Hwatch '" "$T/tty" || fail "the screen is not drawn from its top"
	sed "s/$esc\[[HKJ]//g; s/\r//" "$T/tty" > "$T/screen"
	for g in rss live; do
		w=$(grep "^  $g " "$T/screen" | tr -d '\n' | LC_ALL=C.UTF-8 wc -m)
		[ "$w" -eq 99 ] || { cat "$T/screen"; fail "the $g line is $w columns wide, not 99"; }
	done
	while IFS= read -r line; do
		w=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)
		[ "$w" -le 99 ] || fail "a line of $w columns: $line"
	done < "$T/screen"
	[ "$(grep -c '^  mark ' "$T/screen")" -eq 4 ] || fail "not the 4 marks on the terminal"
	# 40 columns: the long lines are cut
	script -qec "stty cols 40 rows 30; '$LEAKSCOPE' watch '$tr'" /dev/null > "$T/tty40" 2>&1 ||
		fail "watch on a narrow terminal failed"
	sed "s/$esc\[[HKJ]//g; s/\r//" "$T/tty40" > "$T/screen40"
	grep -q "^watch '" "$T/screen40" || fail "nothing drawn on 40 columns"
	while IFS= read -r line; do
		w=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -m)
		[ "$w" -le 39 ] || fail "a line of $w columns on 40: $line"
	done < "$T/screen40"
fi

# errors: no such recording (1), usage (2)
rc=0
"$LEAKSCOPE" watch "$pid" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 1 ] || fail "watch of an ended pid exited $rc"
grep -q "no running recording records pid $pid" "$T/err" || { cat "$T/err"; fail "no message"; }
rc=0
"$LEAKSCOPE" watch > /dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "watch without a target exited $rc"
rc=0
"$LEAKSCOPE" watch --serve nowhere:x "$tr" > /dev/null 2> "$T/err" || rc=$?
[ $rc -eq 2 ] && grep -q "serve wants" "$T/err" || fail "a bad --serve was not refused ($rc)"
# an address off the loopback only when named, with a warning; a finished
# trace's view is served until SIGINT, which ends watch with 0
"$LEAKSCOPE" watch --serve 0.0.0.0:0 "$tr" > /dev/null 2> "$T/err0" &
w0=$!
i=0
until grep -q "serving http" "$T/err0"; do
	i=$((i + 1)); [ $i -lt 100 ] || { kill $w0; fail "watch --serve 0.0.0.0:0 never served"; }
	sleep 0.05
done
grep -q "warning: serving on 0.0.0.0, not on the loopback" "$T/err0" || { kill $w0; fail "no warning"; }
kill -INT $w0
rc=0
wait $w0 || rc=$?
[ $rc -eq 0 ] || fail "watch --serve exited $rc on SIGINT"
exit 0
