# lib.sh - shared helpers for tests/cli/*.sh (sourced, POSIX sh).
#
#   LEAKSCOPE      the binary under test (build/leakscope)
#   T              a fresh scratch directory for this test, removed on success
#   victim NAME    build tests/victims/NAME.{c,cc,go,hs} (cached in build/victims)
#   fail MSG       print and exit 1;  skip MSG: print and exit 77
#   expect_json FILE JQ-EXPR  fail unless the jq expression is true on FILE
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LEAKSCOPE=${LEAKSCOPE:-$ROOT/build/leakscope}
VICTIMS=$ROOT/build/victims
mkdir -p "$VICTIMS"
T=$(mktemp -d /tmp/leakscope-test.XXXXXX)
trap 'rc=$?; [ $rc -eq 0 ] && rm -rf "$T"; exit $rc' EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }

expect_json() { # file jq-expression
	jq -e "$2" "$1" > /dev/null || { echo "--- $1:"; head -c 4000 "$1"; echo; fail "expected: $2"; }
}

expect_grep() { # file extended-regex
	grep -Eq -- "$2" "$1" || { echo "--- $1:"; head -c 4000 "$1"; echo; fail "expected /$2/ in $1"; }
}

# victim NAME [compiler flags...]: build tests/victims/NAME.* once; print path.
victim() {
	name=$1; shift
	src=$(ls "$ROOT/tests/victims/$name".* 2>/dev/null | head -n 1)
	[ -n "$src" ] || fail "no victim source for $name"
	bin=$VICTIMS/$name
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		case "$src" in
		*.c) cc -g -O0 -o "$bin" "$src" -lpthread -ldl "$@" ;;
		*.cc) c++ -g -O0 -o "$bin" "$src" -lpthread "$@" ;;
		*.go) (cd "$(dirname "$src")" && GOCACHE=$VICTIMS/gocache GOFLAGS=-mod=mod \
			go build -o "$bin" "$src") ;;
		*.hs) (mkdir -p "$VICTIMS/hs-$name" && ghc -O0 -g -rtsopts -eventlog \
			-outputdir "$VICTIMS/hs-$name" -o "$bin" "$src" "$@" > "$VICTIMS/hs-$name/log" 2>&1) ;;
		esac || fail "cannot build victim $name"
	fi
	echo "$bin"
}
