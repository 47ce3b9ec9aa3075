#!/bin/sh
# attach-vs-heaptrack.sh - attach leakscope and heaptrack (-p, through gdb)
# to the same running program (bench/attach-steady.c, 12 seconds), at its
# second 3, and compare: how long the attach takes until recording, the
# program's rate of malloc/free pairs before and while attached (median of
# its per-second figures), and what each reports as leaked at its end.
#
#   sh bench/attach-vs-heaptrack.sh          (RUNS=N: runs per tool, default 3)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
RUNS=${RUNS:-3}
W=$(mktemp -d /tmp/attach-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
cc -O2 -g -fno-omit-frame-pointer -o "$W/steady" "$ROOT/bench/attach-steady.c" || exit 1

median() { sort -n | awk '{a[NR] = $1} END {print NR ? a[int((NR + 1) / 2)] : "-"}'; }
ms() { date +%s%3N; }

run() { # tool n
	"$W/steady" 12 > "$W/out" &
	pid=$!
	sleep 3
	t0=$(ms)
	case $1 in
	leakscope)
		"$LEAKSCOPE" attach -o "$W/l.lstrace" $pid 2> "$W/err" &
		tool=$!
		until grep -q "attached" "$W/err" 2> /dev/null || ! kill -0 $tool 2> /dev/null; do
			sleep 0.01
		done
		;;
	heaptrack)
		(cd "$W" && timeout 30 heaptrack -p $pid > "$W/err" 2>&1) &
		tool=$!
		until grep -q "injection finished" "$W/err" 2> /dev/null ||
		      ! kill -0 $tool 2> /dev/null; do
			sleep 0.01
		done
		;;
	esac
	t1=$(ms)
	echo "$((t1 - t0))" >> "$W/$1.attach"
	wait $pid
	wait $tool 2> /dev/null
	sed -n 's/^second \([12]\): \([0-9]*\) pairs.*/\2/p' "$W/out" >> "$W/$1.before"
	sed -n 's/^second \([5-9]\|1[01]\): \([0-9]*\) pairs.*/\2/p' "$W/out" >> "$W/$1.during"
	case $1 in
	leakscope)
		"$LEAKSCOPE" report -f json -o "$W/l.json" "$W/l.lstrace" 2> /dev/null
		jq -r '[.exit_leaks.leaks[] | select(.stack[0].function == "leak_one")
			| "\(.class) \(.objects) x 64 B"] | join(", ")' "$W/l.json" > "$W/$1.found" ;;
	heaptrack)
		f=$(ls "$W"/heaptrack.steady.*.zst "$W"/heaptrack.steady.*.gz 2> /dev/null | head -n 1)
		if grep -q "No symbol \"heaptrack_inject\"\|Couldn't write" "$W/err"; then
			echo "did not attach: $(grep -m1 "Couldn't\|No symbol" "$W/err")" > "$W/$1.found"
		else
			heaptrack_print -f "$f" 2> /dev/null | grep -m1 -A2 "leak_one" \
				| tr '\n' ' ' | cut -c1-160 > "$W/$1.found"
		fi
		rm -f "$W"/heaptrack.steady.* ;;
	esac
}

for n in $(seq "$RUNS"); do
	run leakscope
	command -v heaptrack > /dev/null && run heaptrack
done
printf '%-10s %12s %14s %14s %7s  %s\n' tool "attach (ms)" "before (/s)" "attached (/s)" ratio "leak_one found"
for t in leakscope heaptrack; do
	[ -f "$W/$t.attach" ] || continue
	a=$(median < "$W/$t.attach"); b=$(median < "$W/$t.before"); d=$(median < "$W/$t.during")
	printf '%-10s %12s %14s %14s %7s  %s\n' "$t" "$a" "$b" "$d" \
		"$(awk -v b="$b" -v d="$d" 'BEGIN {printf "%.2fx", b / d}')" "$(cat "$W/$t.found")"
done
