# workloads.sh - the workloads of the comparisons (sourced by
# bench/compare.sh and bench/report-vs-heaptrack.sh, from the repository
# root, with OUT the scratch directory, HAVE_SQLITE 0/1 and PY the python3
# interpreter or empty): bench/workload.c built into $OUT/workload, an
# insert-heavy SQL script for sqlite3, an allocation-heavy CPython script.
#
#   prepare WORKLOAD        reset its files before each run
#   workload_argv WORKLOAD  set CMD (its command line) and ENVS (the
#                           environment it needs), both to be expanded by eval
cc -O2 -g -o "$OUT/workload" bench/workload.c -lpthread || exit 1

SQL=$OUT/inserts.sql
if [ "$HAVE_SQLITE" -eq 1 ] && [ ! -s "$SQL" ]; then
	awk 'BEGIN {
		print "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, value REAL, tag TEXT);";
		print "CREATE INDEX t_name ON t(name);";
		for (b = 0; b < 20; b++) {
			print "BEGIN;";
			for (i = 0; i < 2000; i++) {
				n = b * 2000 + i;
				printf "INSERT INTO t(name, value, tag) VALUES (%cname-%d-%x%c, %d.%d, %ctag%d%c);\n", 39, n, n * 2654435761 % 4294967296, 39, n, n % 97, 39, n % 13, 39;
			}
			print "COMMIT;";
		}
		print "SELECT count(*), sum(value) FROM t;";
	}' > "$SQL"
fi

PYSCRIPT=$OUT/alloc.py
cat > "$PYSCRIPT" <<'EOF_PY'
import random
random.seed(7)
d = {}
for i in range(60000):
    d["k%d" % i] = [i, str(i) * 3, (i, i + 1)]
s = sorted(d.items(), key=lambda kv: kv[1][1])
t = [x[0].upper() + "!" for x in s if x[1][0] % 3]
del d, s
print(len(t))
EOF_PY

# prepare WORKLOAD: reset its files before each run
prepare() {
	case "$1" in sqlite) rm -f "$OUT/bench.db" ;; esac
}

# workload_argv WORKLOAD: set CMD to its command line and ENVS to the
# environment it needs, both to be expanded by eval
workload_argv() {
	ENVS=
	case "$1" in
	workload) CMD='"$OUT/workload"' ;;
	sqlite) CMD='sqlite3 "$OUT/bench.db" ".read $SQL"' ;;
	python) CMD='"$PY" "$PYSCRIPT"' ENVS='PYTHONMALLOC=malloc' ;;
	esac
}

