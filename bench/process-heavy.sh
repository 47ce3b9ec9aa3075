#!/bin/sh
# process-heavy.sh [RUNS] - programs that fork, exec and start threads, under
# leakscope next to heaptrack, valgrind and LeakSanitizer.
#
# Workloads (bench/proc-loops.c, bench/cgo-alloc/, bench/gen-cproject.sh,
# bench/git-scenario.sh):
#   fork    1,000 fork + waitpid of a child that mallocs, frees and _exits
#   exec    1,000 fork + exec of /bin/true + waitpid
#   thread  5,000 pthread_create + pthread_join of a thread that mallocs
#   cgo     1,000,000 C.malloc(64) + C.free from Go (cgo)
#   cloop   the same 1,000,000 malloc(64) + free in C
#   make    `make -j2` of a generated C project of 50 modules (cleaned,
#           not timed, before each run)
#   git     a scratch repository: init, 200 commits through a pre-commit
#           and a post-commit hook (sh pipelines), a refused commit, a merge,
#           log, status, gc, fsck
# Tools:
#   plain      the program alone
#   leakscope  leakscope run --exit-code 0 -o FILE -- (every process, scanned)
#   heaptrack  heaptrack -o FILE (records; it follows neither forks nor execs:
#              only the first process is recorded)
#   valgrind   valgrind --tool=memcheck --leak-check=full --trace-children=yes
#   lsan       LD_PRELOAD=liblsan.so (every process that exits normally)
# Each pair runs RUNS times (default 5) and the median wall time is printed
# with the ratio to plain, then the cost per operation (ms per fork, exec or
# thread; ns per cgo or C allocation) and what the tool adds to it. A run
# is capped at TIMEOUT seconds (default 300): it shows "timeout", and the
# pair is not tried again. Last, `strace -f -c` counts the system calls of
# the cgo loop under leakscope at 10^5 and 10^6 calls: the difference over
# 900,000 is the system calls per cgo allocation in steady state.
#
# Measured, not asserted (a run that fails shows "exit N"). Scratch files go
# to build/bench/ph/. As root, missing tools are installed with apt-get
# (tools/install-deps.sh bench installs them all). Never run two benchmarks
# at once on a shared machine.
#
#   sh bench/process-heavy.sh            # everything, 5 runs each (about 30 min:
#                                        # valgrind's three timeouts are 15 of them)
#   RUNS=3 TOOLS="plain leakscope" WORKLOADS="fork exec" sh bench/process-heavy.sh
#   LEAKSCOPE=path/to/leakscope TIMEOUT=120 sh bench/process-heavy.sh 3
set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${1:-${RUNS:-5}}
ROOT=$(pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
TIMEOUT=${TIMEOUT:-300}
TOOLS=${TOOLS:-"plain leakscope heaptrack valgrind lsan"}
WORKLOADS=${WORKLOADS:-"fork exec thread cgo cloop make git"}
FORKS=1000 EXECS=1000 THREADS=5000 CALLS=1000000 MODULES=50 COMMITS=200
OUT=$ROOT/build/bench/ph
mkdir -p "$OUT"

say() { echo "process-heavy: $*" >&2; }

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

need cc gcc || exit 1
need make make || exit 1
need timeout coreutils || exit 1
HAVE_LEAKSCOPE=0; [ -x "$LEAKSCOPE" ] && HAVE_LEAKSCOPE=1 || say "no leakscope at $LEAKSCOPE: skipped"
HAVE_HEAPTRACK=0; need heaptrack heaptrack && HAVE_HEAPTRACK=1
HAVE_VALGRIND=0; need valgrind valgrind && HAVE_VALGRIND=1
HAVE_GIT=0; need git git && HAVE_GIT=1
HAVE_GO=0; need go golang-go && HAVE_GO=1
LSAN=$(cc -print-file-name=liblsan.so 2> /dev/null)
[ -e "$LSAN" ] || { say "no liblsan.so: skipped (apt-get install liblsan0)"; LSAN=; }

# --- the programs ------------------------------------------------------------
cc -O2 -g -o "$OUT/proc-loops" bench/proc-loops.c -lpthread || exit 1
if [ "$HAVE_GO" -eq 1 ]; then
	# the standard library only, offline, caches under build/
	(cd bench/cgo-alloc && GOCACHE="$ROOT/build/bench/gocache" GOPATH="$ROOT/build/bench/gopath" \
		GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GO111MODULE=on \
		CGO_ENABLED=1 go build -o "$OUT/cgo-alloc" .) || { say "cannot build bench/cgo-alloc"; HAVE_GO=0; }
fi
sh bench/gen-cproject.sh "$OUT/cproject" "$MODULES" || exit 1

# available WORKLOAD TOOL
available() {
	case "$1" in
	cgo) [ "$HAVE_GO" -eq 1 ] || return 1 ;;
	git) [ "$HAVE_GIT" -eq 1 ] || return 1 ;;
	esac
	case "$2" in
	leakscope) [ "$HAVE_LEAKSCOPE" -eq 1 ] ;;
	heaptrack) [ "$HAVE_HEAPTRACK" -eq 1 ] ;;
	valgrind) [ "$HAVE_VALGRIND" -eq 1 ] ;;
	lsan) [ -n "$LSAN" ] ;;
	*) true ;;
	esac
}

# command_of WORKLOAD: its command line, to be expanded by eval
command_of() {
	case "$1" in
	fork) echo '"$OUT/proc-loops" fork $FORKS' ;;
	exec) echo '"$OUT/proc-loops" exec $EXECS' ;;
	thread) echo '"$OUT/proc-loops" thread $THREADS' ;;
	cgo) echo '"$OUT/cgo-alloc" $CALLS' ;;
	cloop) echo '"$OUT/proc-loops" malloc $CALLS' ;;
	make) echo 'make -s -j2 -C "$OUT/cproject"' ;;
	git) echo 'sh bench/git-scenario.sh "$OUT/git" $COMMITS' ;;
	esac
}

# prefix_of TOOL: what goes before the command, to be expanded by eval
prefix_of() {
	case "$1" in
	plain) echo '' ;;
	leakscope) echo '"$LEAKSCOPE" run --exit-code 0 -o "$OUT/leakscope.txt" --' ;;
	heaptrack) echo 'heaptrack -o "$OUT/tool/heaptrack"' ;;
	valgrind) echo 'valgrind --tool=memcheck --leak-check=full --trace-children=yes --log-file="$OUT/tool/vg.%p"' ;;
	lsan) echo 'env LD_PRELOAD="$LSAN" LSAN_OPTIONS=exitcode=0:log_path="$OUT/tool/lsan"' ;;
	esac
}

# run_once WORKLOAD TOOL: one run; prints its milliseconds, "timeout" or "exit N"
run_once() {
	[ "$1" = make ] && make -s -C "$OUT/cproject" clean > /dev/null
	rm -rf "$OUT/tool" "$OUT/git"
	mkdir -p "$OUT/tool"
	start=$(date +%s%N)
	eval "timeout -k 10 \"\$TIMEOUT\" $(prefix_of "$2") $(command_of "$1")" \
		> "$OUT/$1-$2.out" 2> "$OUT/$1-$2.err" < /dev/null
	status=$?
	end=$(date +%s%N)
	case $status in
	0) echo $(( (end - start) / 1000000 )) ;;
	124|137) echo timeout ;;
	*) say "$1 under $2 exited $status (see $OUT/$1-$2.err)"; echo "exit $status" ;;
	esac
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

RESULTS=$OUT/results
: > "$RESULTS"
say "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in $WORKLOADS; do
	for tool in $TOOLS; do
		available "$w" "$tool" || continue
		say "$w under $tool, $RUNS runs"
		: > "$OUT/times"
		verdict=
		for i in $(seq "$RUNS"); do
			r=$(run_once "$w" "$tool")
			case $r in
			timeout|exit*) verdict=$r; break ;;
			esac
			echo "$r" >> "$OUT/times"
		done
		[ -n "$verdict" ] || verdict=$(median < "$OUT/times")
		echo "$w $tool $verdict" >> "$RESULTS"
	done
done
say "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# ops WORKLOAD: how many operations one run makes
ops() {
	case "$1" in
	fork) echo $FORKS ;; exec) echo $EXECS ;; thread) echo $THREADS ;;
	cgo|cloop) echo $CALLS ;; *) echo 0 ;;
	esac
}

echo
echo "Median of $RUNS runs, wall time in seconds; x = time / plain; \"timeout\": over ${TIMEOUT} s"
echo
printf '%-8s' workload
for tool in $TOOLS; do printf ' | %-17s' "$tool"; done
echo
printf '%-8s' --------
for tool in $TOOLS; do printf -- '-|-%-17s' -----------------; done
echo
for w in $WORKLOADS; do
	printf '%-8s' "$w"
	plain=$(awk -v w="$w" '$1 == w && $2 == "plain" { print $3 }' "$RESULTS")
	for tool in $TOOLS; do
		v=$(awk -v w="$w" -v t="$tool" '$1 == w && $2 == t { $1 = $2 = ""; print substr($0, 3) }' "$RESULTS")
		awk -v v="$v" -v p="$plain" 'BEGIN {
			if (v == "") s = "-"
			else if (v !~ /^[0-9]+$/) s = v
			else if (p ~ /^[0-9]+$/ && p > 0) s = sprintf("%.3f (%.1fx)", v / 1000, v / p)
			else s = sprintf("%.3f", v / 1000)
			printf " | %-17s", s }'
	done
	echo
done

echo
echo "Per operation (median run / operations): ms per fork, exec or thread;"
echo "ns per allocation (cgo, cloop); + = added to the plain figure"
echo
printf '%-8s' workload
for tool in $TOOLS; do printf ' | %-19s' "$tool"; done
echo
for w in $WORKLOADS; do
	n=$(ops "$w")
	[ "$n" -gt 0 ] || continue
	printf '%-8s' "$w"
	plain=$(awk -v w="$w" '$1 == w && $2 == "plain" { print $3 }' "$RESULTS")
	for tool in $TOOLS; do
		v=$(awk -v w="$w" -v t="$tool" '$1 == w && $2 == t { $1 = $2 = ""; print substr($0, 3) }' "$RESULTS")
		awk -v v="$v" -v p="$plain" -v n="$n" -v w="$w" 'BEGIN {
			ns = (w == "cgo" || w == "cloop")
			if (v == "") s = "-"
			else if (v !~ /^[0-9]+$/) s = v
			else {
				per = ns ? v * 1e6 / n : v / n
				s = sprintf(ns ? "%.0f" : "%.3f", per)
				if (p ~ /^[0-9]+$/ && v != p)
					s = s sprintf(ns ? " (+%.0f)" : " (+%.3f)", per - (ns ? p * 1e6 / n : p / n))
			}
			printf " | %-19s", s }'
	done
	echo
done

# --- system calls per cgo allocation under leakscope ---------------------------
if [ "$HAVE_GO" -eq 1 ] && [ "$HAVE_LEAKSCOPE" -eq 1 ] && need strace strace; then
	for n in 100000 1000000; do
		"$LEAKSCOPE" run --exit-code 0 -o "$OUT/strace-leakscope.$n.txt" -- \
			strace -f -c -o "$OUT/strace.$n" "$OUT/cgo-alloc" "$n" > /dev/null 2>&1
		strace -f -c -o "$OUT/strace-plain.$n" "$OUT/cgo-alloc" "$n" > /dev/null 2>&1
	done
	# the total line reads "100.00 SECONDS USECS CALLS [ERRORS] total"
	total() { awk '$NF == "total" { print $4 }' "$1"; }
	a=$(total "$OUT/strace.100000") b=$(total "$OUT/strace.1000000")
	pa=$(total "$OUT/strace-plain.100000") pb=$(total "$OUT/strace-plain.1000000")
	echo
	echo "System calls of the cgo loop (strace -f -c, every thread), 10^5 and 10^6 calls:"
	echo "  plain:     $pa and $pb"
	echo "  leakscope: $a and $b"
	awk -v a="$a" -v b="$b" 'BEGIN { printf "  under leakscope, per cgo allocation in steady state: %.5f\n", (b - a) / 900000 }'
	echo "  (the calls of each: $OUT/strace.1000000)"
fi
