# lib.sh - shared helpers for tests/cli/*.sh (sourced, POSIX sh).
#
#   LEAKSCOPE      the binary under test (build/leakscope)
#   T              a fresh scratch directory for this test, removed on success
#   victim NAME [FLAGS...]     (use as: v=$(victim NAME) || exit)
#                  build a victim once (cached in build/victims) and print its
#                  path. NAME is tests/victims/NAME.{c,cc,hs,rs} or a directory
#                  tests/victims/NAME/ holding a Go module (go.mod, *.go and
#                  any cgo C files). FLAGS go to the compiler; a victim is
#                  always built with the same flags by every test using it.
#                  Haskell victims may import the modules of
#                  tests/victims/hs-lib/ (built -O0 -g unless FLAGS say
#                  otherwise: -O2 -g0).
#   victim_lib NAME
#                  build tests/victims/NAME.c as a shared library NAME.so
#   ls_run OUT ARGS...
#                  leakscope run --format json -o OUT ARGS...; sets $rc, keeps
#                  stdout in $T/stdout and stderr in $T/stderr
#   fail MSG       print and exit 1;  skip MSG: print and exit 77
#   expect_json FILE JQ-EXPR  fail unless the jq expression is true on FILE
#                  (the helpers in $JQDEFS below may be used in JQ-EXPR)
#   expect_grep FILE RE       fail unless the extended regex matches FILE
#   expect_rc N    fail unless $rc (from ls_run) is N
#   expect_leak_rc FILE  fail unless $rc is what run must exit with for the
#                  JSON report FILE: 23 when the program succeeded and
#                  definitely or indirectly lost (or unscanned) bytes
#                  remain, else the program's own status
#   marker FILE TAG           the line number of the comment "LINE:TAG"
#   start_waiting CMD...      start CMD, a program that prints "ready PID" and
#                  waits for a line on stdin, in the background: stdin a FIFO
#                  held open on fd 3, stdout $T/out, stderr $T/err; returns
#                  once it is ready, with its pid in $vpid
#   finish_waiting            send it its line; fail unless it then exits 0
#                  and prints "done"
#   wait_for_line FILE REGEX [SECONDS]
#                  wait until a line of FILE (written by a program in the
#                  background) matches the extended regex; fail after
#                  SECONDS (whole, default 10), showing FILE's last lines
#   wait_attached ERRFILE PID [APID]
#                  wait until `leakscope attach` (stderr ERRFILE; pid APID,
#                  whose end fails at once) says "attached to pid PID"; fail
#                  after 15 s, showing ERRFILE's last lines
#   build_fuzzers  skip unless clang builds libFuzzer targets here; make fuzz
#                  (fail showing the build's last lines)
#   run_fuzzer NAME ARGS...
#                  run build-fuzz/NAME in $T for 20 s (one input: 10 s at
#                  most; UBSan halts on its first error) with ARGS
#                  (libFuzzer's options, then the corpus); fail showing the
#                  log's last lines when it finds a crash, else print its
#                  summary
#   browser_check WHAT SCRIPT ARGS...
#                  run tests/browser/SCRIPT (node, playwright-core, Debian's
#                  chromium) with ARGS; skip, saying that WHAT was checked,
#                  when chromium or node is missing; fail unless every
#                  check it printed is "ok" (screenshots: tests/out/screenshots)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
VICTIMS=$ROOT/build/victims
mkdir -p "$VICTIMS"
T=$(mktemp -d /tmp/leakscope-test.XXXXXX)
trap 'rc=$?; [ $rc -eq 0 ] && rm -rf "$T"; exit $rc' EXIT

# Messages go to stderr so that they survive $(victim ...); use
#   v=$(victim NAME) || exit
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }

[ -x "$LEAKSCOPE" ] || skip "no leakscope binary at $LEAKSCOPE (build it first)"

# jq helpers for report assertions:
#   root            the root process object
#   proc($pid)      the process object with that pid
#   all_leaks       every leak of every process
#   has_fn($f)      (on a leak) some frame is function $f
#   fn_prefix($p)   (on a leak) some frame's function starts with $p
#   frame($f)       (on a leak) the first frame of function $f
#   sized($n)       (on a leak list) the leaks of $n bytes
JQDEFS='
def root: .processes[] | select(.root);
def proc($p): .processes[] | select(.pid == $p);
def all_leaks: [.processes[].leaks[]];
def has_fn($f): any(.stack[]; .function == $f);
def fn_prefix($p): any(.stack[]; (.function // "") | startswith($p));
def frame($f): first(.stack[] | select(.function == $f));
def sized($n): map(select(.bytes == $n));
'

expect_json() { # file jq-expression
	jq -e "$JQDEFS $2" "$1" > /dev/null || {
		echo "--- $1:"; head -c 6000 "$1"; echo
		[ -s "$T/stderr" ] && { echo "--- stderr:"; head -c 2000 "$T/stderr"; }
		fail "expected: $2"
	}
}

expect_grep() { # file extended-regex
	grep -Eq -- "$2" "$1" || { echo "--- $1:"; head -c 4000 "$1"; echo; fail "expected /$2/ in $1"; }
}

expect_rc() { # status
	[ "$rc" = "$1" ] || {
		echo "--- stderr:"; head -c 3000 "$T/stderr"
		fail "expected exit status $1, got $rc"
	}
}

expect_leak_rc() { # report.json
	expect_rc "$(jq '.exit.code as $c | if $c == 0 and any(.processes[].classes;
		.["definitely-lost"].objects + .["indirectly-lost"].objects + .["not-freed"].objects > 0)
		then 23 else $c end' "$1")"
}

ls_run() { # out.json leakscope-run-args...
	out=$1; shift
	rc=0
	"$LEAKSCOPE" run --format json -o "$out" "$@" > "$T/stdout" 2> "$T/stderr" || rc=$?
	[ -s "$out" ] || [ "$rc" -ge 125 ] || {
		echo "--- stderr:"; head -c 3000 "$T/stderr"
		fail "no JSON report written to $out (exit $rc)"
	}
}

marker() { # file tag
	n=$(grep -nE "LINE:$2([^A-Za-z0-9_-]|\$)" "$1" | head -n 1 | cut -d: -f1)
	[ -n "$n" ] || fail "no marker LINE:$2 in $1"
	echo "$n"
}

start_waiting() { # command...
	rm -f "$T/in" "$T/out" "$T/err" && mkfifo "$T/in"   # no line of an earlier one
	"$@" < "$T/in" > "$T/out" 2> "$T/err" &
	vpid=$!
	exec 3> "$T/in"
	wait_for_line "$T/out" ready
}

finish_waiting() {
	echo go >&3
	exec 3>&-
	rc=0; wait $vpid || rc=$?
	[ $rc -eq 0 ] || { cat "$T/err"; fail "the program exited $rc"; }
	expect_grep "$T/out" "^done$"
}

wait_for_line() { # file extended-regex [seconds]
	wl_left=$((${3:-10} * 50))
	until grep -Eq -- "$2" "$1" 2> /dev/null; do
		wl_left=$((wl_left - 1))
		[ $wl_left -gt 0 ] || {
			echo "--- $1 (last lines):"; tail -n 20 "$1" 2> /dev/null
			fail "no line /$2/ in $1 after ${3:-10} s"
		}
		sleep 0.02
	done
}

wait_attached() { # errfile pid [attach-pid]
	wa_left=750
	until grep -q "attached to pid $2 " "$1" 2> /dev/null; do
		wa_left=$((wa_left - 1))
		if [ -n "${3:-}" ] && ! kill -0 "$3" 2> /dev/null; then
			grep -q "attached to pid $2 " "$1" 2> /dev/null && return 0
			wa_why="attach ended before it attached to pid $2"
		elif [ $wa_left -le 0 ]; then
			wa_why="attach never said it was attached to pid $2 (15 s)"
		else
			sleep 0.02
			continue
		fi
		echo "--- $1 (last lines):"; tail -n 20 "$1" 2> /dev/null
		fail "$wa_why"
	done
}

# Go builds use only the standard library, offline, with caches under build/.
go_env() {
	GOCACHE=$VICTIMS/gocache GOPATH=$VICTIMS/gopath GOFLAGS=-mod=mod \
	GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1 \
	CGO_CFLAGS="-g -O0" "$@"
}

# victim NAME [compiler flags...]: build tests/victims/NAME once; print path.
victim() {
	name=$1; shift
	base=${name%@*}
	bin=$VICTIMS/$name
	if [ -d "$ROOT/tests/victims/$base" ]; then
		src=$ROOT/tests/victims/$base
		if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin" | head -n 1)" ]; then
			command -v go > /dev/null || skip "no go compiler"
			(cd "$src" && go_env go build -o "$bin" . > "$VICTIMS/$name.log" 2>&1) || {
				cat "$VICTIMS/$name.log" >&2; fail "cannot build victim $name"; }
		fi
		echo "$bin"
		return
	fi
	src=$(ls "$ROOT/tests/victims/$base".c "$ROOT/tests/victims/$base".cc \
		"$ROOT/tests/victims/$base".hs "$ROOT/tests/victims/$base".rs 2>/dev/null | head -n 1)
	[ -n "$src" ] || fail "no victim source for $name"
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] ||
		{ [ "${src%.hs}" != "$src" ] && [ -n "$(find "$ROOT/tests/victims/hs-lib" -newer "$bin")" ]; }; then
		case "$src" in
		*.c) cc -g -O0 -I"$ROOT/include" -o "$bin" "$src" -lpthread -ldl "$@" ;;
		*.cc) c++ -g -O0 -o "$bin" "$src" -lpthread "$@" ;;
		*.hs)
			command -v ghc > /dev/null || skip "no ghc"
			(mkdir -p "$VICTIMS/hs-$name" && ghc -O0 -g -rtsopts -eventlog \
			-i"$ROOT/tests/victims/hs-lib" \
			-outputdir "$VICTIMS/hs-$name" -o "$bin" "$src" "$@" \
			> "$VICTIMS/hs-$name/log" 2>&1) ||
			{ cat "$VICTIMS/hs-$name/log" >&2; false; } ;;
		*.rs)
			command -v rustc > /dev/null || skip "no rustc"
			rustc -g -C opt-level=0 -o "$bin" "$src" "$@" ;;
		esac || fail "cannot build victim $name"
	fi
	echo "$bin"
}

# victim_lib NAME: build tests/victims/NAME.c as build/victims/NAME.so.
victim_lib() {
	src=$ROOT/tests/victims/$1.c
	lib=$VICTIMS/$1.so
	[ -f "$src" ] || fail "no library source for $1"
	if [ ! -f "$lib" ] || [ "$src" -nt "$lib" ]; then
		cc -g -O0 -shared -fPIC -Wl,-soname,"$1.so" -o "$lib" "$src" || fail "cannot build library $1"
	fi
	echo "$lib"
}

build_fuzzers() {
	command -v clang > /dev/null || skip "clang is not installed"
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$T/probe.c"
	clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2> /dev/null ||
		skip "clang has no libFuzzer"
	make -C "$ROOT" fuzz > "$T/build.log" 2>&1 || { tail -n 20 "$T/build.log"; fail "make fuzz"; }
}

run_fuzzer() { # name libfuzzer-args...
	rf_name=$1; shift
	(cd "$T" && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$ROOT/build-fuzz/$rf_name" -max_total_time=20 -timeout=10 "$@") > "$T/fuzz.log" 2>&1 ||
		{ tail -n 40 "$T/fuzz.log"; fail "the fuzzer found a crash"; }
	tail -n 3 "$T/fuzz.log"
}

browser_check() { # what script args...
	what=$1 script=$2; shift 2
	[ -x /usr/bin/chromium ] || skip "chromium is not installed ($what was checked)"
	command -v node > /dev/null || skip "node is not installed ($what was checked)"
	B=$ROOT/tests/browser
	if [ ! -d "$B/node_modules/playwright-core" ]; then
		(cd "$B" && npm install --no-audit --no-fund --silent > "$T/npm.log" 2>&1) ||
			{ cat "$T/npm.log"; skip "npm cannot install playwright-core here ($what was checked)"; }
	fi
	SHOTS=$ROOT/tests/out/screenshots
	brc=0
	(cd "$B" && timeout 180 node "$script" "$@") > "$T/check.log" 2>&1 || brc=$?
	cat "$T/check.log"
	# the failed checks again, last: a runner shows only a log's end
	[ $brc -eq 0 ] || fail "browser checks failed (exit $brc)$(grep '^not ok' "$T/check.log" |
		head -n 5 | sed 's/^/\n  /')"
	grep -q '^not ok' "$T/check.log" && fail "a browser check failed"
	grep -q '^ok ' "$T/check.log" || fail "no browser check ran"
}
