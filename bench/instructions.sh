#!/bin/sh
# instructions.sh [SCALE] - instructions the recorded program executes, by
# callgrind: stable where wall time on a shared machine is not.
#
# The three workloads of compare.sh, smaller (SCALE, default 1: 2 x 10^5
# allocations; 4,000 sqlite INSERTs; a 6,000-key CPython script), each run
# under `valgrind --tool=callgrind` alone, under `leakscope run` (the
# interposer loaded into the program; the collector is not counted) and
# under `leakscope run` with LEAKSCOPE_UNWIND=careful (the careful unwinder
# alone, the fast unwinder off). Prints millions of instructions and the overhead
# per allocation the program made. heaptrack's interposer records nothing
# under valgrind, so heaptrack is only in compare.sh's wall times.
#
#   LEAKSCOPE=path/to/leakscope sh bench/instructions.sh [SCALE]
set -u
cd "$(dirname "$0")/.." || exit 1
SCALE=${1:-1}
ROOT=$(pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
OUT=$ROOT/build/bench/instr
mkdir -p "$OUT"
say() { echo "instructions: $*" >&2; }
command -v valgrind > /dev/null || { say "valgrind is required"; exit 1; }
[ -x "$LEAKSCOPE" ] || { say "no leakscope at $LEAKSCOPE"; exit 1; }

cc -O2 -g -o "$OUT/workload" bench/workload.c -lpthread || exit 1
awk -v n=$((2 * SCALE)) 'BEGIN {
	print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, value REAL, tag TEXT);";
	print "CREATE INDEX t_name ON t(name);";
	for (b = 0; b < n; b++) {
		print "BEGIN;";
		for (i = 0; i < 2000; i++) {
			k = b * 2000 + i;
			printf "INSERT INTO t(name, value, tag) VALUES (%cname-%d-%x%c, %d.%d, %ctag%d%c);\n", 39, k, k * 2654435761 % 4294967296, 39, k, k % 97, 39, k % 13, 39;
		}
		print "COMMIT;";
	}
}' > "$OUT/inserts.sql"
cat > "$OUT/alloc.py" <<EOF_PY
import random
random.seed(7)
d = {}
for i in range($((6000 * SCALE))):
    d["k%d" % i] = [i, str(i) * 3, (i, i + 1)]
s = sorted(d.items(), key=lambda kv: kv[1][1])
t = [x[0].upper() + "!" for x in s if x[1][0] % 3]
del d, s
print(len(t))
EOF_PY
export PYTHONMALLOC=malloc # CPython allocates through malloc (others ignore it)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(python3 -c 'import sys; print(sys.executable)')

# count WORKLOAD TOOL: millions of instructions of the program (all threads)
count() {
	rm -f "$OUT/bench.db" "$OUT"/cg.*
	case "$1" in
	workload) set -- "$1" "$2" "$OUT/workload" $((100000 * SCALE)) ;;
	sqlite) set -- "$1" "$2" sqlite3 "$OUT/bench.db" ".read $OUT/inserts.sql" ;;
	python) set -- "$1" "$2" "$PY" "$OUT/alloc.py" ;;
	esac
	w=$1 tool=$2; shift 2
	cg="valgrind --tool=callgrind --callgrind-out-file=$OUT/cg.%p"
	ls="$LEAKSCOPE run --format json -o $OUT/report.json --"
	case "$tool" in
	plain) $cg "$@" ;;
	leakscope) $ls $cg "$@" ;;
	careful) LEAKSCOPE_UNWIND=careful $ls $cg "$@" ;;
	esac > "$OUT/$w-$tool.log" 2>&1
	grep -h '^summary:' "$OUT"/cg.* | awk '{ s += $2 } END { printf "%.1f\n", s / 1e6 }'
}

# allocations the program made, from leakscope's report
events() {
	grep -o '"allocations": *[0-9]*' "$OUT/report.json" | awk -F: '{ s += $2 } END { print s + 0 }'
}

TOOLS="plain leakscope careful"
printf '%-9s | %-10s | %12s | %8s | %s\n' workload tool "Minstr" "x plain" "instr/alloc over plain"
for w in workload sqlite python; do
	case "$w" in
	sqlite) command -v sqlite3 > /dev/null || continue ;;
	esac
	plain=
	for tool in $TOOLS; do
		m=$(count "$w" "$tool")
		[ "$tool" = plain ] && plain=$m
		[ "$tool" = leakscope ] && n=$(events)
		awk -v w="$w" -v t="$tool" -v m="$m" -v p="$plain" -v n="${n:-0}" 'BEGIN {
			printf "%-9s | %-10s | %12.1f | %8.2f | %s\n", w, t, m, m / p,
				(t != "plain" && n > 0 ? sprintf("%.0f", (m - p) * 1e6 / n) : "-") }'
	done
done
