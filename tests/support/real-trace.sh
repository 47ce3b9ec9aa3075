# real-trace.sh - sourced by the report tests on real recordings (after
# lib.sh, with $v the leakserver victim for record_server).
#
#   record_server TRACE BATCHES PER_BATCH [--no-leak]
#       records the server into TRACE; after each batch of PER_BATCH
#       requests it sleeps GAP seconds (default 0.3) and writes the
#       wall-clock time of the middle of that gap (seconds since the epoch)
#       as one line of TRACE.gaps. Stdout of the server in $T/server.out.
#   gap_time TRACE REPORT_JSON I
#       the time of the I-th gap (from 1) in seconds of the trace (the
#       report's start_ns is the wall-clock time of trace time 0)
#   record_moved BIN TRACE [ARGS...]
#       records a copy of BIN, then removes the copy and puts the trace at
#       TRACE: a report can only name functions from the trace's records
GAP=${GAP:-0.3}
record_server() { # trace batches per-batch [--no-leak]
	trace=$1 batches=$2 per=$3; shift 3
	half=$(awk -v g="$GAP" 'BEGIN { print g / 2 }')
	rm -f "$T/port"
	: > "$trace.gaps"
	"$LEAKSCOPE" record -o "$trace" -- "$v" serve "$T/port" "$@" > "$T/server.out" 2> "$T/stderr" &
	spid=$!
	i=0; while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/port" ] || fail "the server did not start"
	port=$(cat "$T/port")
	b=1; while [ "$b" -le "$batches" ]; do
		"$v" get "$port" /hello "$per" || fail "requests failed"
		sleep "$half"
		date +%s.%N >> "$trace.gaps"
		sleep "$half"
		b=$((b + 1))
	done
	"$v" get "$port" /quit || fail "quit failed"
	wait $spid || fail "leakscope record exited with $?"
	expect_grep "$T/server.out" "served $((batches * per)) requests"
}

gap_time() { # trace report.json i
	w=$(sed -n "${3}p" "$1.gaps")
	[ -n "$w" ] || fail "no gap $3 in $1.gaps"
	s=$(jq -r '.start_ns' "$2")
	awk -v w="$w" -v s="$s" 'BEGIN { printf "%.6f\n", w - s / 1e9 }'
}

# record_moved BIN TRACE [ARGS...]: record a copy of BIN (in $T/bin), then
# remove the copy and move the trace to TRACE in another directory, so that
# a report can only name functions from the trace's own records.
record_moved() { # bin trace args...
	bin=$1 out=$2; shift 2
	rm -rf "$T/bin"; mkdir -p "$T/bin" "$(dirname "$out")"
	cp "$bin" "$T/bin/" || fail "cannot copy $bin"
	rc=0
	(cd "$T/bin" && "$LEAKSCOPE" record -o rec.lstrace -- "./$(basename "$bin")" "$@") \
		> "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_rc 0
	mv "$T/bin/rec.lstrace" "$out" && rm -rf "$T/bin" || fail "cannot move the trace"
}
