#!/bin/sh
# compare.sh [RUNS] - leakscope next to other leak checkers, side by side.
#
# For each workload (bench/workload.c, sqlite3 running an insert-heavy
# script, CPython with PYTHONMALLOC=malloc doing allocation-heavy work) and
# each way of running it (plain, leakscope run, leakscope record, heaptrack
# recording, valgrind --leak-check=full, LeakSanitizer preloaded), run RUNS times
# (default 5) and print the median wall time, the slowdown against the
# plain run and the median peak RSS (the largest process of the run, from
# GNU time: with leakscope that is the collector or the program, whichever
# is larger). A last table gives leakscope's collector alone (its VmHWM).
#
# Measured, not asserted: nothing here fails because something is slow.
# As root, missing tools are installed with apt-get; otherwise a missing tool
# is skipped and shown as "-". Scratch files go to build/bench/.
#
#   LEAKSCOPE=path/to/leakscope sh bench/compare.sh [RUNS]
#   TOOLS="plain record heaptrack" WORKLOADS=workload sh bench/compare.sh 3
# A last table gives the trace bytes per event of `leakscope record` and of
# heaptrack (its compressed file over the allocations and frees it counted).
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${1:-5}
ROOT=$(pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
OUT=$ROOT/build/bench
mkdir -p "$OUT"

say() { echo "compare: $*" >&2; }

# --- tools -------------------------------------------------------------------
# need COMMAND DEBIAN-PACKAGE: install the package as root when COMMAND is missing.
need() {
	command -v "$1" > /dev/null 2>&1 && return 0
	if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
		say "installing $2"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" > "$OUT/apt.log" 2>&1 ||
			{ apt-get update -q > /dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" > "$OUT/apt.log" 2>&1; }
	fi
	command -v "$1" > /dev/null 2>&1 || { say "no $1: skipped"; return 1; }
}

[ -x /usr/bin/time ] || need /usr/bin/time time || { say "GNU time is required"; exit 1; }
LSAN=$(gcc -print-file-name=liblsan.so.0 2>/dev/null)
if [ ! -e "$LSAN" ] && [ "$(id -u)" -eq 0 ]; then
	say "installing liblsan0"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q liblsan0 > "$OUT/apt.log" 2>&1
	LSAN=$(gcc -print-file-name=liblsan.so.0)
fi
[ -e "$LSAN" ] || { say "no liblsan.so.0: skipped"; LSAN=; }

HAVE_HEAPTRACK=0; need heaptrack heaptrack && HAVE_HEAPTRACK=1
HAVE_VALGRIND=0; need valgrind valgrind && HAVE_VALGRIND=1
HAVE_SQLITE=0; need sqlite3 sqlite3 && HAVE_SQLITE=1
PY=
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3
elif command -v python3 > /dev/null; then
	# resolve version-manager shims: the tools must see the real interpreter
	PY=$(python3 -c 'import sys; print(sys.executable)')
fi
[ -n "$PY" ] || say "no python3: skipped"
HAVE_LEAKSCOPE=0
[ -x "$LEAKSCOPE" ] && HAVE_LEAKSCOPE=1 || say "no leakscope at $LEAKSCOPE: skipped"

# --- workloads ---------------------------------------------------------------
. bench/workloads.sh

# available WORKLOAD TOOL
available() {
	case "$1" in
	sqlite) [ "$HAVE_SQLITE" -eq 1 ] || return 1 ;;
	python) [ -n "$PY" ] || return 1 ;;
	esac
	case "$2" in
	leakscope|record) [ "$HAVE_LEAKSCOPE" -eq 1 ] ;;
	heaptrack) [ "$HAVE_HEAPTRACK" -eq 1 ] ;;
	valgrind) [ "$HAVE_VALGRIND" -eq 1 ] ;;
	lsan) [ -n "$LSAN" ] ;;
	*) true ;;
	esac
}

# run_once WORKLOAD TOOL: one run; prints "MILLISECONDS MAXRSS-KB STATUS"
run_once() {
	prepare "$1"
	workload_argv "$1"
	case "$2" in
	plain) pre= ;;
	leakscope) pre="\"\$LEAKSCOPE\" run --format json -o \"\$OUT/leakscope.json\" --" ;;
	record) rm -f "$OUT"/record.*; pre="\"\$LEAKSCOPE\" record -o \"\$OUT/record.lstrace\" --" ;;
	heaptrack) rm -f "$OUT"/heaptrack.*; pre="heaptrack -o \"\$OUT/heaptrack\"" ;;
	valgrind) pre="valgrind --leak-check=full --log-file=\"\$OUT/valgrind.log\"" ;;
	lsan) pre="env LD_PRELOAD=\"\$LSAN\" LSAN_OPTIONS=exitcode=0:log_path=\"\$OUT/lsan\"" ;;
	esac
	start=$(date +%s%N)
	eval "$ENVS /usr/bin/time -f %M -o \"\$OUT/rss\" $pre $CMD" > "$OUT/$1-$2.out" 2> "$OUT/$1-$2.err"
	status=$?
	end=$(date +%s%N)
	[ $status -eq 0 ] || say "$1 under $2 exited $status (see $OUT/$1-$2.err)"
	kb=$(tail -n 1 "$OUT/rss" | awk '/^[0-9]+$/ { print; exit } { print 0 }')
	echo "$(( (end - start) / 1000000 )) $kb $status"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

TOOLS=${TOOLS:-"plain leakscope record heaptrack valgrind lsan"}
WORKLOADS=${WORKLOADS:-"workload sqlite python"}
RESULTS=$OUT/results
: > "$RESULTS"
for w in $WORKLOADS; do
	for tool in $TOOLS; do
		available "$w" "$tool" || continue
		say "$w under $tool, $RUNS runs"
		: > "$OUT/times"
		for i in $(seq "$RUNS"); do
			run_once "$w" "$tool" >> "$OUT/times"
		done
		ms=$(cut -d' ' -f1 "$OUT/times" | median)
		kb=$(cut -d' ' -f2 "$OUT/times" | median)
		bad=$(awk '$3 != 0 { print $3; exit }' "$OUT/times")
		echo "$w $tool $ms $kb ${bad:-0}" >> "$RESULTS"
	done
done

# leakscope's collector alone: poll its peak RSS (VmHWM) while it runs
collector_peak() { # WORKLOAD
	prepare "$1"
	workload_argv "$1"
	eval "$ENVS \"\$LEAKSCOPE\" run --format json -o \"\$OUT/leakscope.json\" -- $CMD \
		> /dev/null 2>&1 &"
	pid=$!
	peak=0
	while kill -0 "$pid" 2> /dev/null; do
		v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2> /dev/null)
		[ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
		sleep 0.02
	done
	wait "$pid"
	echo "$peak"
}

echo
echo "Median of $RUNS runs; x = wall time / plain; RSS = peak RSS of the largest process (MB);"
echo "a run that failed shows its exit status instead of a time"
echo
printf '%-9s | %-10s | %9s | %8s | %8s\n' workload tool "wall (s)" "x plain" "RSS (MB)"
printf '%-9s-|-%-10s-|-%9s-|-%8s-|-%8s\n' --------- ---------- --------- -------- --------
while read -r w tool ms kb bad; do
	plain=$(awk -v w="$w" '$1 == w && $2 == "plain" { print $3 }' "$RESULTS")
	awk -v w="$w" -v t="$tool" -v ms="$ms" -v kb="$kb" -v p="$plain" -v bad="$bad" 'BEGIN {
		if (bad != 0) {
			printf "%-9s | %-10s | %9s | %8s | %8s\n", w, t, "exit " bad, "-", "-"
			exit
		}
		printf "%-9s | %-10s | %9.3f | %8s | %8.1f\n", w, t, ms / 1000,
			(p > 0 ? sprintf("%.1f", ms / p) : "-"), kb / 1024 }'
done < "$RESULTS"

# trace_size WORKLOAD TOOL: "EVENTS BYTES" of the trace of one run
trace_size() {
	run_once "$1" "$2" > /dev/null
	case "$2" in
	record)
		# the summary line of each trace: "N events in S s, B bytes"
		sed -n 's/^leakscope: trace .*), \([0-9]*\) events in .* s, \([0-9]*\) bytes .*/\1 \2/p' \
			"$OUT/$1-record.err" | awk '{ e += $1; b += $2 } END { print e, b }' ;;
	heaptrack)
		f=$(ls "$OUT"/heaptrack.* 2> /dev/null | head -n 1)
		[ -n "$f" ] || { echo "0 0"; return; }
		ev=$(heaptrack_print -f "$f" 2> /dev/null | awk '/^calls to allocation functions:/ { a = $5 }
			/^temporary memory allocations:/ { } END { print a }')
		# every allocation of these workloads is freed: events = 2 x calls
		echo "$(( ${ev:-0} * 2 )) $(wc -c < "$f")" ;;
	esac
}

case " $TOOLS " in *" record "*|*" heaptrack "*)
	echo
	printf '%-9s | %-10s | %12s | %12s | %s\n' workload tool events "file bytes" "bytes/event"
	printf '%-9s-|-%-10s-|-%12s-|-%12s-|-%s\n' --------- ---------- ------------ ------------ -----------
	for w in $WORKLOADS; do
		for tool in record heaptrack; do
			case " $TOOLS " in *" $tool "*) ;; *) continue ;; esac
			available "$w" "$tool" || continue
			set -- $(trace_size "$w" "$tool")
			awk -v w="$w" -v t="$tool" -v e="$1" -v b="$2" 'BEGIN {
				printf "%-9s | %-10s | %12d | %12d | %s\n", w, t, e, b,
					(e > 0 ? sprintf("%.2f", b / e) : "-") }'
		done
	done
	;;
esac

if [ "$HAVE_LEAKSCOPE" -eq 1 ]; then
	echo
	printf '%-9s | %s\n' workload "leakscope collector peak RSS (MB, VmHWM)"
	printf '%-9s-|-%s\n' --------- --------
	for w in $WORKLOADS; do
		available "$w" leakscope || continue
		kb=$(collector_peak "$w")
		awk -v w="$w" -v kb="$kb" 'BEGIN { printf "%-9s | %.1f\n", w, kb / 1024 }'
	done
fi
