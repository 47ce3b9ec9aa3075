#!/bin/sh
# report-vs-heaptrack.sh [RUNS] - `leakscope report` next to heaptrack_print
# on traces of the same workloads.
#
# Records each workload of bench/workloads.sh (bench/workload.c, sqlite3,
# CPython) once with `leakscope record` and once with heaptrack, then runs
# RUNS times (default 5) each of
#     leakscope report -o /dev/null TRACE                 (text)
#     leakscope report --format json -o /dev/null TRACE   (json)
#     heaptrack_print -f FILE -l 1 > /dev/null            (its default
#         peaks, allocators and temporaries, plus the leaks)
# and prints median wall time, user CPU, user+system CPU, events/s (the
# workload's allocations and frees, as counted by the report, per second of
# user+system CPU) and peak RSS (bench/cputime.c: getrusage, microseconds),
# with the speed-up of report over heaptrack_print in CPU time (wall time
# is not comparable on a shared machine). Runs alternate between the readers, so that a change of the
# machine's load falls on all of them; the load average is printed before
# and after. Traces are kept in build/bench/rvh/ and reused; FRESH=1
# records them again.
#
#   sh bench/report-vs-heaptrack.sh 5
#   WORKLOADS=workload LEAKSCOPE=build/leakscope sh bench/report-vs-heaptrack.sh 3
# Measured, not asserted. As root, a missing heaptrack is installed with apt-get.
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${1:-5}
ROOT=$(pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
OUT=$ROOT/build/bench/rvh
WORKLOADS=${WORKLOADS:-"workload sqlite python"}
mkdir -p "$OUT"
say() { echo "report-vs-heaptrack: $*" >&2; }

need() { # command debian-package
	command -v "$1" > /dev/null 2>&1 && return 0
	[ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" > "$OUT/apt.log" 2>&1
	command -v "$1" > /dev/null 2>&1 || { say "no $1"; return 1; }
}
[ -x "$LEAKSCOPE" ] || { say "no leakscope at $LEAKSCOPE (run make)"; exit 1; }
cc -O2 -o "$OUT/cputime" bench/cputime.c || { say "cannot build bench/cputime.c"; exit 1; }
need heaptrack_print heaptrack || exit 1
HAVE_SQLITE=0; need sqlite3 sqlite3 && HAVE_SQLITE=1
PY=
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3
elif command -v python3 > /dev/null; then PY=$(python3 -c 'import sys; print(sys.executable)')
fi
. bench/workloads.sh

# record WORKLOAD: $OUT/W.lstrace and $OUT/W.heaptrack.zst
record() {
	[ "${FRESH:-0}" = 1 ] || { [ -s "$OUT/$1.lstrace" ] && [ -s "$OUT/$1.heaptrack.zst" ] && return 0; }
	case "$1" in sqlite) [ "$HAVE_SQLITE" -eq 1 ] || return 1 ;; python) [ -n "$PY" ] || return 1 ;; esac
	rm -f "$OUT/$1.lstrace" "$OUT/$1".heaptrack.*
	say "recording $1"
	workload_argv "$1"
	prepare "$1"
	eval "$ENVS \"\$LEAKSCOPE\" record -o \"\$OUT/\$1.lstrace\" -- $CMD" > /dev/null 2> "$OUT/$1.record.err" ||
		{ say "record $1 failed (see $OUT/$1.record.err)"; return 1; }
	prepare "$1"
	eval "$ENVS heaptrack -o \"\$OUT/\$1.heaptrack\" $CMD" > "$OUT/$1.heaptrack.out" 2>&1 ||
		{ say "heaptrack $1 failed (see $OUT/$1.heaptrack.out)"; return 1; }
	[ -s "$OUT/$1.heaptrack.zst" ] || { say "no $OUT/$1.heaptrack.zst"; return 1; }
}

# timed TOOL WORKLOAD: one run; prints "WALL-S CPU-S MAXRSS-KB STATUS USER-S"
timed() {
	case "$1" in
	text) set -- "$LEAKSCOPE" report -o /dev/null "$OUT/$2.lstrace" ;;
	json) set -- "$LEAKSCOPE" report --format json -o /dev/null "$OUT/$2.lstrace" ;;
	heaptrack_print) set -- heaptrack_print -f "$OUT/$2.heaptrack.zst" -l 1 ;;
	esac
	"$OUT/cputime" "$OUT/time" "$@" > /dev/null 2> "$OUT/err"
	awk '{ printf "%s %.4f %s %d %s\n", $1, $2 + $3, $4, $5, $2 }' "$OUT/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

RESULTS=$OUT/results
: > "$RESULTS"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
TOOLS="text json heaptrack_print"
for w in $WORKLOADS; do
	record "$w" || continue
	events=$("$LEAKSCOPE" report --format json -o - "$OUT/$w.lstrace" 2> /dev/null | jq '.summary.events')
	say "$w: $TOOLS, $RUNS runs each, alternating"
	for tool in $TOOLS; do : > "$OUT/times.$tool"; done
	for i in $(seq "$RUNS"); do
		for tool in $TOOLS; do timed "$tool" "$w" >> "$OUT/times.$tool"; done
	done
	for tool in $TOOLS; do
		f=$OUT/times.$tool
		bad=$(awk '$4 != 0 { print $4; exit }' "$f")
		echo "$w $tool $events $(cut -d' ' -f1 "$f" | median) $(cut -d' ' -f2 "$f" | median) $(cut -d' ' -f3 "$f" | median) ${bad:-0} $(cut -d' ' -f5 "$f" | median)" >> "$RESULTS"
	done
done

echo
echo "Median of $RUNS runs; events = allocations + frees + marks/samples of the trace;"
echo "events/s per second of user+sys CPU; x = heaptrack_print CPU / this CPU (user+sys)."
echo "Load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores)"
echo
printf '%-9s | %-15s | %10s | %8s | %8s | %8s | %7s | %11s | %8s\n' workload reader events "wall (s)" "user (s)" "cpu (s)" x "events/s" "RSS (MB)"
printf '%-9s-|-%-15s-|-%10s-|-%8s-|-%8s-|-%8s-|-%7s-|-%11s-|-%8s\n' --------- --------------- ---------- -------- -------- -------- ------- ----------- --------
while read -r w tool ev wall cpu kb bad user; do
	hp=$(awk -v w="$w" '$1 == w && $2 == "heaptrack_print" { print $5 }' "$RESULTS")
	awk -v w="$w" -v t="$tool" -v e="$ev" -v s="$wall" -v u="$user" -v c="$cpu" -v kb="$kb" -v h="$hp" -v bad="$bad" 'BEGIN {
		if (bad != 0) { printf "%-9s | %-15s | exit %s\n", w, t, bad; exit }
		printf "%-9s | %-15s | %10d | %8.4f | %8.4f | %8.4f | %7s | %11.0f | %8.1f\n", w, t, e, s, u, c,
			(c > 0 ? sprintf("%.1f", h / c) : "-"), (c > 0 ? e / c : 0), kb / 1024 }'
done < "$RESULTS"
echo
for w in $WORKLOADS; do
	[ -s "$OUT/$w.lstrace" ] || continue
	printf '%-9s trace sizes: leakscope %d bytes, heaptrack %d bytes\n' "$w" \
		"$(wc -c < "$OUT/$w.lstrace")" "$(wc -c < "$OUT/$w.heaptrack.zst")"
done
