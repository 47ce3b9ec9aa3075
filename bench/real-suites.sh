#!/bin/sh
# real-suites.sh [WORKLOAD...] - real programs and their own test suites
# give the same output and exit status under `leakscope run` as without
# it. Every difference is a bug of leakscope, unless the
# filter below missed something that legitimately differs between two runs.
#
# Each workload runs twice from the same scratch directory: plain, then as
#     leakscope run --exit-code 0 -o REPORT -- COMMAND
# (every process it forks or execs traced and scanned at its end). Its
# stdout and stderr (together, as the terminal would show them) pass
# through a filter that removes what differs from one run to the next
# anyway - timings, load averages, pids, temporary names - and are compared
# with the exit status. One line per workload: name, same/DIFFERENT, plain
# seconds, leakscope seconds, ratio; for a difference, the diff of the
# filtered outputs follows (the raw outputs are kept in
# build/bench/suites/NAME.{plain,leakscope}.out, the reports in
# NAME.report). Exits 1 if any workload differs, 0 otherwise.
#
# Workloads (names to pick a subset):
#   python    CPython's own regression tests (Debian's /usr/bin/python3 and
#             libpython3.11-testsuite), sequentially: test_subprocess
#             test_signal test_threading test_os test_posix test_fork1
#             test_wait4 test_select test_pty test_json test_re
#             test_faulthandler test_tempfile test_shutil (Debian's test
#             suite has no test_sqlite3: test_faulthandler, whose children
#             crash on purpose, takes its place; sqlite has its own
#             workload); compared: which tests ran, passed, failed or were
#             skipped, and the final result (not timings)
#   git       bench/git-scenario.sh: 200 commits through sh hooks that run
#             pipelines, a refused commit, a merge, log, gc, fsck (fixed
#             names and dates: same hashes every run)
#   sqlite    sqlite3 -bail: the INSERT script of bench/workloads.sh, then
#             bench/suites/queries.sql (joins, window functions, JSON,
#             VACUUM, a failing statement: status 1)
#   make      make -j2 of the project of bench/gen-cproject.sh (make's
#             status and output, the program's output), a second make (up
#             to date), a make of a missing target (status 2)
#   node      bench/suites/workers.js: 4 worker_threads, SharedArrayBuffer
#   go        bench/suites/goprog: goroutines, channels, cgo, os/exec of
#             itself and of sh, SIGUSR1 to itself through os/signal, exit 2
#   gotest    Go's own tests of os/signal, os/exec, os and syscall (Debian's
#             Go source; bench/suites/go-stdlib-tests.sh): helper processes,
#             signals to itself, stopped children, a shell on a terminal;
#             compared: each test's result and each package's status
#   bash      bench/suites/pipelines.bash: pipes and PIPESTATUS, process
#             substitution, subshells, traps on EXIT and TERM, jobs and wait,
#             kill -TERM $$, here-documents, a coprocess, exit 5
#   perl      bench/suites/forks.pl: fork and pipes, regexes, hashes, sort,
#             qx, system, a signal to itself, exit 4
#   state     bench/suites/procstate.sh: what a program sees of its process
#             (environment names, umask, limits, signal mask and
#             dispositions, capabilities, descriptors, process group and
#             session); LD_PRELOAD, LEAKSCOPE_* and TracerPid are what
#             leakscope must change, and are filtered out
#
#   sh bench/real-suites.sh                     # all of them (about 10 minutes)
#   sh bench/real-suites.sh bash perl go        # a few
#   PYTESTS="test_socket test_io" sh bench/real-suites.sh python   # other CPython tests
#   LEAKSCOPE=path/to/leakscope sh bench/real-suites.sh
# Needs the packages of `tools/install-deps.sh bench`; a workload whose
# program is missing is skipped (said so), not failed. Run nothing else
# heavy at the same time: the ratios are wall times.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
OUT=$ROOT/build/bench/suites
mkdir -p "$OUT"
ALL="python git sqlite make node go gotest bash perl state"
WORKLOADS=${*:-$ALL}
PYTESTS=${PYTESTS:-"test_subprocess test_signal test_threading test_os test_posix test_fork1
test_wait4 test_select test_pty test_json test_re test_faulthandler test_tempfile test_shutil"}

say() { echo "real-suites: $*" >&2; }
[ -x "$LEAKSCOPE" ] || { say "no leakscope at $LEAKSCOPE (run make)"; exit 2; }

# --- preparing each workload -------------------------------------------------
# prepare NAME: build what it needs; set CMD (to be expanded by eval, run
# from $W, the workload's scratch directory); return 1 to skip it
prepare() {
	W=$OUT/$1.dir
	case $1 in
	python)
		[ -x /usr/bin/python3 ] && [ -f /usr/lib/python3.11/test/test_os.py ] ||
			{ say "python: no /usr/bin/python3 with libpython3.11-testsuite: skipped"; return 1; }
		# -u: unbuffered, so stdout and stderr interleave the same way each run
		# --junit-xml: the result of every test case, skips with their reason
		CMD="/usr/bin/python3 -u -m test --tempdir \"\$W/tmp\" --junit-xml \"\$OUT/python.\$MODE.xml\" $(echo $PYTESTS)" ;;
	git)
		command -v git > /dev/null || { say "git: no git: skipped"; return 1; }
		CMD='sh "$ROOT/bench/git-scenario.sh" "$W/scenario" 200' ;;
	sqlite)
		command -v sqlite3 > /dev/null || { say "sqlite: no sqlite3: skipped"; return 1; }
		[ -s "$OUT/inserts.sql" ] || ( HAVE_SQLITE=1 PY= OUT=$OUT; . bench/workloads.sh ) || return 1
		CMD='sqlite3 -bail "$W/db" ".read $OUT/inserts.sql" ".read $ROOT/bench/suites/queries.sql"' ;;
	make)
		CMD='sh "$ROOT/bench/suites/make-project.sh"' ;;
	node)
		command -v node > /dev/null || { say "node: no node: skipped"; return 1; }
		CMD='node "$ROOT/bench/suites/workers.js"' ;;
	go)
		command -v go > /dev/null || { say "go: no go compiler: skipped"; return 1; }
		(cd bench/suites/goprog && GOCACHE="$ROOT/build/bench/gocache" GOPATH="$ROOT/build/bench/gopath" \
			GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GO111MODULE=on \
			CGO_ENABLED=1 go build -o "$OUT/goprog" .) || { say "go: cannot build bench/suites/goprog"; return 1; }
		CMD='"$OUT/goprog"' ;;
	gotest)
		command -v go > /dev/null || { say "gotest: no go compiler: skipped"; return 1; }
		mkdir -p "$OUT/gotest"
		for pkg in os/signal os/exec os syscall; do
			# linked externally, so that every test binary is dynamic (os's
			# would be static, out of LD_PRELOAD's reach)
			GOCACHE="$ROOT/build/bench/gocache" GOPATH="$ROOT/build/bench/gopath" \
			GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GO111MODULE=on \
			CGO_ENABLED=1 go test -c -ldflags=-linkmode=external \
				-o "$OUT/gotest/$(echo "$pkg" | tr / _).test" "$pkg" ||
				{ say "gotest: cannot build the tests of $pkg"; return 1; }
		done
		CMD='sh "$ROOT/bench/suites/go-stdlib-tests.sh" "$OUT/gotest"' ;;
	bash)
		command -v bash > /dev/null || { say "bash: no bash: skipped"; return 1; }
		CMD='bash "$ROOT/bench/suites/pipelines.bash"' ;;
	perl)
		command -v perl > /dev/null || { say "perl: no perl: skipped"; return 1; }
		CMD='perl "$ROOT/bench/suites/forks.pl"' ;;
	state)
		CMD='sh "$ROOT/bench/suites/procstate.sh"' ;;
	*)
		say "unknown workload '$1' (known: $ALL)"; return 1 ;;
	esac
}

# --- what legitimately differs -------------------------------------------------
# cases NAME MODE: what the workload left besides its output, to compare
# too: for python, each test case and its result (from the JUnit XML)
cases() {
	[ "$1" = python ] && [ -s "$OUT/python.$2.xml" ] || return 0
	echo "test cases:"
	/usr/bin/python3 - "$OUT/python.$2.xml" <<'EOF_PY'
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    verdict = "ok"
    for child in case:
        if child.tag in ("skipped", "failure", "error"):
            text = (child.get("message") or child.text or "").strip().splitlines()
            verdict = child.tag + (": " + text[0][:200] if text else "")
    print(case.get("name"), verdict)
EOF_PY
}

# filter NAME < raw output > what is compared
filter() {
	case $1 in
	python)
		# regrtest: "0:01:02 load avg: 1.23 [ 3/14] test_x" and, after a
		# test slower than 30 s, "-- test_w passed in 31.2 sec"; the summary
		# lists "10 slowest tests" with durations and "Total duration";
		# a test's own output may name pids, temporary paths, addresses.
		sed -e 's/^[0-9]*:[0-9][0-9]:[0-9][0-9] load avg: [0-9.]* //' \
		    -e 's/^[0-9]*:[0-9][0-9]:[0-9][0-9] //' \
		    -e '/^Total duration: /d' \
		    -e 's/ -- test_[a-z0-9_]* passed in .*$//' \
		    -e 's/ passed in [0-9.]* \(min \)*[0-9.]* *\(sec\|ms\)$/ passed/' \
		    -e 's/ (\([0-9.]* \(min \)*\)*[0-9.]* *\(sec\|ms\))$//' \
		    -e '/^[0-9]* slowest tests:$/,/^$/d' \
		    -e '/^- test_[a-z0-9_]*: [0-9.]* \(min \)*[0-9.]* *\(sec\|ms\)$/d' \
		    -e '/^- test_[a-z0-9_]*: [0-9.]* \(sec\|ms\)$/d' |
		common_filter ;;
	gotest)
		# parallel tests interleave: keep each test's verdict (sorted,
		# without its duration) and each package's status
		sed -n -e 's/^ *--- \(PASS\|FAIL\|SKIP\): \([^ ]*\) .*/\2 \1/p' \
		       -e '/^[a-z/]*: exit [0-9]*$/p' -e '/^\(PASS\|FAIL\)$/p' | sort | common_filter ;;
	state)
		# preloading needs LD_PRELOAD (LEAKSCOPE_* tell the interposer
		# where its collector is); the collector traces every process
		sed -e '/^environment names: /s/ \(LD_PRELOAD\|LEAKSCOPE_[A-Z_]*\)//g' \
		    -e 's/^\( *TracerPid:\).*/\1 (filtered)/' | common_filter ;;
	*) common_filter ;;
	esac
}

# pids in bash's job messages ("line 70:  2292 Killed"), the scratch
# directory, temporary names, hexadecimal addresses
common_filter() {
	sed -e "s|$OUT|SCRATCH|g" \
	    -e 's/^\(.*: line [0-9]*: *\)[0-9][0-9]* /\1PID /' \
	    -e 's|/tmp/[A-Za-z0-9._-]*|/tmp/TMP|g' \
	    -e 's/0x[0-9a-f]\{6,16\}/0xADDR/g'
}

# --- running ---------------------------------------------------------------------
# run NAME MODE: run the workload plainly (MODE plain) or under leakscope;
# writes $OUT/NAME.MODE.{out,status,ms}
run() {
	rm -rf "$W" "$OUT/$1.$2.xml"
	mkdir -p "$W/tmp"
	case $2 in
	plain) pre= ;;
	leakscope) rm -f "$OUT/$1.report"
		pre='"$LEAKSCOPE" run --exit-code 0 -o "$OUT/$1.report" --' ;;
	esac
	MODE=$2
	start=$(date +%s%N)
	(cd "$W" && eval "$pre $CMD") > "$OUT/$1.$2.out" 2>&1 < /dev/null
	echo $? > "$OUT/$1.$2.status"
	end=$(date +%s%N)
	echo $(( (end - start) / 1000000 )) > "$OUT/$1.$2.ms"
}

printf '%-8s | %-9s | %9s | %9s | %s\n' workload result "plain (s)" "lksc. (s)" "ratio"
printf '%-8s-|-%-9s-|-%9s-|-%9s-|-%s\n' -------- --------- --------- --------- -----
differ=0
say "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in $WORKLOADS; do
	prepare "$w" || continue
	run "$w" plain
	run "$w" leakscope
	for m in plain leakscope; do
		{ filter "$w" < "$OUT/$w.$m.out"; echo "exit status $(cat "$OUT/$w.$m.status")"
		  cases "$w" "$m" | common_filter; } > "$OUT/$w.$m.cmp"
	done
	if cmp -s "$OUT/$w.plain.cmp" "$OUT/$w.leakscope.cmp"; then
		result=same
	else
		result=DIFFERENT
		differ=1
	fi
	p=$(cat "$OUT/$w.plain.ms") l=$(cat "$OUT/$w.leakscope.ms")
	awk -v w="$w" -v r="$result" -v p="$p" -v l="$l" 'BEGIN {
		printf "%-8s | %-9s | %9.2f | %9.2f | %.2f\n", w, r, p / 1000, l / 1000, (p > 0 ? l / p : 0) }'
	if [ "$result" = DIFFERENT ]; then
		diff -u --label "$w plain" --label "$w leakscope" "$OUT/$w.plain.cmp" "$OUT/$w.leakscope.cmp" |
			head -n 80 | sed 's/^/    /'
	fi
done
say "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $differ
