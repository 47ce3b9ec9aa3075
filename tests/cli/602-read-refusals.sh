# 602: a reader given a device, a directory, a FIFO or an endless file
# refuses it or stops, at once, with a message - never spins, blocks or
# fills memory. --suppressions: /dev/zero and a directory are refused
# before the program runs; a FIFO is read (process substitution is one),
# up to 1 MiB: an endless writer is stopped there, a short one works; a
# huge sparse file stops at 1 MiB, a NUL byte is no text. report, diff,
# dump and eventlog refuse /dev/zero, /dev/urandom and a directory; report
# and diff refuse a FIFO without opening it (no writer: it would block);
# dump reads a pipe and stops at the first bad chunk of an endless one;
# eventlog reads a pipe up to 4 GiB, then stops.
# Every command runs under timeout: a regression fails, it does not hang.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/gen_trace.sh"
v=$(victim leak-one) || exit
"$GEN" growth "$T/g.lstrace" 40000 || fail "gen_trace growth"
mkfifo "$T/fifo" || fail "mkfifo"
ls_cmd() { rc=0; timeout 60 "$LEAKSCOPE" "$@" > "$T/stdout" 2> "$T/stderr" || rc=$?; }
said_once() { # the only line of $T/stderr
	[ "$(wc -l < "$T/stderr")" = 1 ] || { cat "$T/stderr"; fail "expected one line on stderr (exit $rc)"; }
	expect_grep "$T/stderr" "$1"
}
not_run() { [ -s "$T/stdout" ] && fail "the program ran: $(cat "$T/stdout")"; true; }

# --suppressions
ls_cmd run --suppressions /dev/zero -- "$v"
expect_rc 125; said_once "^leakscope: cannot open '/dev/zero': not a regular file\$"; not_run
ls_cmd run --suppressions "$T" -- "$v"
expect_rc 125; said_once "^leakscope: cannot open '$T': is a directory\$"; not_run
timeout 20 yes 'leak:nothing' > "$T/fifo" &
writer=$!
ls_cmd run --suppressions "$T/fifo" -- "$v"
expect_rc 125; said_once "^leakscope: cannot read suppressions '$T/fifo': longer than 1 MiB\$"; not_run
wait $writer 2> /dev/null
printf 'leak:hello\n' > "$T/fifo" &
ls_cmd run --suppressions "$T/fifo" -- "$v"
expect_rc 0; expect_grep "$T/stderr" "no leaks .* 2 allocations"; expect_grep "$T/stdout" '^hello 0x'
truncate -s 4G "$T/sparse.supp" || fail "truncate"
ls_cmd run --suppressions "$T/sparse.supp" -- "$v"
expect_rc 125; said_once "^leakscope: cannot read suppressions '$T/sparse.supp': longer than 1 MiB\$"
printf 'leak:a\000b\n' > "$T/nul.supp"
ls_cmd run --suppressions "$T/nul.supp" -- "$v"
expect_rc 125
said_once "^leakscope: cannot read suppressions '$T/nul.supp': a NUL byte at offset 6 \(not a text file\)\$"

# the trace and eventlog readers
for dev in /dev/zero /dev/urandom; do
	for cmd in report dump "eventlog --format text"; do
		ls_cmd $cmd $dev
		expect_rc 1; said_once "^leakscope: cannot open '$dev': not a regular file\$"
	done
	ls_cmd diff "$T/g.lstrace" $dev
	expect_rc 1; said_once "^leakscope: cannot open '$dev': not a regular file\$"
done
for cmd in report dump "eventlog --format text"; do
	ls_cmd $cmd "$T"
	expect_rc 1; said_once "^leakscope: cannot open '$T': is a directory\$"
done
ls_cmd report "$T/fifo"
expect_rc 1; said_once "^leakscope: cannot open '$T/fifo': not a regular file\$"
ls_cmd diff "$T/fifo" "$T/g.lstrace"
expect_rc 1; said_once "^leakscope: cannot open '$T/fifo': not a regular file\$"
# dump streams a pipe: a trace cut before its end, then endless zeros,
# stops at the damage
size=$(wc -c < "$T/g.lstrace")
{ head -c $((size * 2 / 3)) "$T/g.lstrace"; timeout 20 cat /dev/zero; } > "$T/fifo" 2> /dev/null &
writer=$!
ls_cmd dump "$T/fifo"
# the writer ends (SIGPIPE) before the FIFO has its next reader: else its
# zeros would go to that reader
wait $writer 2> /dev/null
expect_rc 1; said_once "^leakscope: cannot read '$T/fifo': corrupt trace at offset [0-9]+"
expect_grep "$T/stdout" "^[0-9.]+ alloc "
# eventlog reads a pipe too: an eventlog's header, then zeros for ever,
# reads as events of type 0; a pipe is read up to 4 GiB, then it stops
ev=$ROOT/tests/fixtures/eventlog/large-thunk-hT.eventlog
{ head -c 20000 "$ev"; timeout 60 cat /dev/zero; } > "$T/fifo" 2> /dev/null &
writer=$!
ls_cmd eventlog --format text "$T/fifo"
wait $writer 2> /dev/null
expect_rc 1
said_once "^leakscope: stopped reading '$T/fifo' after 4 GiB, the most read from a pipe \(a regular file is read whole\)\$"
# ... and a whole one through a pipe reads as from its file
cat "$ev" > "$T/fifo" &
ls_cmd eventlog --format text "$T/fifo"
expect_rc 0; expect_grep "$T/stdout" "^LargeThunk"
exit 0
