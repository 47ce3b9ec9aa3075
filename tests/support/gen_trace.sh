# gen_trace.sh - sourced by the report/diff CLI tests after lib.sh: builds
# tests/support/gen_trace.c against build/libcore.a into $T and sets GEN.
#   GEN basic OUT [SCALE [SWAP]] | growth OUT N | big OUT N | newer OUT
[ -f "$ROOT/build/libcore.a" ] || skip "build/libcore.a missing (run make)"
GEN=$T/gen_trace
cc -std=gnu11 -D_GNU_SOURCE -I"$ROOT/src" -O1 -g -o "$GEN" "$ROOT/tests/support/gen_trace.c" \
	"$ROOT/build/libcore.a" -ldw -lelf -lzstd -lz -liberty -lm -lpthread || fail "cannot build gen_trace"

# report ARGS...: leakscope report, stdout in $T/out, stderr in $T/stderr, status in $rc
report() {
	rc=0
	"$LEAKSCOPE" report "$@" > "$T/out" 2> "$T/stderr" || rc=$?
}
