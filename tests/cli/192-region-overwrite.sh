# The program is untrusted input: a program that overwrites leakscope's
# shared region (tests/victims/region-overwrite.c: the header's offsets and
# sizes, the ring's head, counts, stack entries, module paths without NUL,
# a mark text's length, made-up events and roots, the region's memfd cut
# short, a module whose file is a FIFO, a file name that reads as a
# mapping in /proc/PID/maps) while `run` and `record` trace it. leakscope
# neither crashes nor hangs, the program's output and exit status are its
# own, and the report (text, JSON, the trace and the recording's summary)
# says the program overwrote leakscope's shared memory. Five cases
# overwrite nothing: the memfd is sealed against shrinking, made-up roots
# (most of the address space) are the API's business, a module's file and
# a mapping's name are the program's, and a fork after the stack table
# filled up is normal; bounded, with no such note (and the forked child
# exits 0, which the program prints).
. "$(dirname "$0")/../lib.sh"
v=$(victim region-overwrite) || exit
note="the program overwrote leakscope's shared memory"
cases="header-offsets header-sizes ring-ahead ring-back counts stacks paths marks events shrink roots
	fifo maps-name fork-full"
export TMPDIR=$T   # the victim's FIFO and long file name go there

# bounded: a hang is a failure (124), and so is a crash
bounded() { # out err command...
	o=$1 e=$2; shift 2
	rc=0
	timeout -k 5 60 "$@" > "$o" 2> "$e" || rc=$?
	[ "$rc" != 124 ] && [ "$rc" != 137 ] || { tail -n 5 "$e"; fail "hung: $*"; }
	if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$e"; then
		cat "$e"; fail "sanitizer report: $*"
	fi
}

same_output() { # case out
	cmp -s "$T/$1.plain" "$2" || { diff "$T/$1.plain" "$2"; fail "$1: the program's output changed"; }
}

for c in $cases; do
	"$v" "$c" > "$T/$c.plain" || fail "$c: the victim fails on its own"

	# run: JSON report
	bounded "$T/$c.out" "$T/$c.err" "$LEAKSCOPE" run -f json -o "$T/$c.json" -- "$v" "$c"
	[ "$rc" = 0 ] || { tail -n 5 "$T/$c.err"; fail "$c: run exited $rc, the program 0"; }
	same_output "$c" "$T/$c.out"
	[ -s "$T/$c.json" ] || fail "$c: no report"
	case $c in shrink|roots|fifo|maps-name|fork-full)
		expect_json "$T/$c.json" 'root.region_intact and (root | has("region_note") | not) and root.scanned'
		bounded "$T/$c.out" "$T/$c.rec" "$LEAKSCOPE" record -o "$T/$c.lstrace" -- "$v" "$c"
		[ "$rc" = 0 ] || fail "$c: record exited $rc"
		same_output "$c" "$T/$c.out"
		grep -q "$note" "$T/$c.rec" && fail "$c: a note about an overwrite"
		continue
	esac
	expect_json "$T/$c.json" "root.region_intact == false and (root.region_note | startswith(\"$note\"))"

	# run: text report
	bounded "$T/$c.out" "$T/$c.txt" "$LEAKSCOPE" run -- "$v" "$c"
	[ "$rc" = 0 ] || fail "$c: run (text) exited $rc"
	same_output "$c" "$T/$c.out"
	expect_grep "$T/$c.txt" "note: $note \\(.*\\): its report is incomplete"

	# record: the summary says so, the trace ends with a mark saying so
	bounded "$T/$c.out" "$T/$c.rec" "$LEAKSCOPE" record -o "$T/$c.lstrace" -- "$v" "$c"
	[ "$rc" = 0 ] || { tail -n 5 "$T/$c.rec"; fail "$c: record exited $rc"; }
	same_output "$c" "$T/$c.out"
	expect_grep "$T/$c.rec" "trace .*: $note"
	"$LEAKSCOPE" dump "$T/$c.lstrace" > "$T/$c.dump" 2>&1 || fail "$c: dump of the trace failed"
	expect_grep "$T/$c.dump" "mark tid=0 text=\"leakscope: $note"
	"$LEAKSCOPE" report "$T/$c.lstrace" > /dev/null 2>&1 || fail "$c: report of the trace failed"
done

# the collector built with ASan/UBSan, where there is one
SAN=$ROOT/build-san/leakscope
if [ -x "$SAN" ]; then
	for c in $cases; do
		bounded "$T/$c.out" "$T/$c.san" "$SAN" run -f json -o "$T/$c.san.json" -- "$v" "$c"
		[ "$rc" = 0 ] || { tail -n 5 "$T/$c.san"; fail "$c: run (sanitizers) exited $rc"; }
		same_output "$c" "$T/$c.out"
		bounded "$T/$c.out" "$T/$c.san" "$SAN" record -o "$T/$c.san.lstrace" -- "$v" "$c"
		[ "$rc" = 0 ] || { tail -n 5 "$T/$c.san"; fail "$c: record (sanitizers) exited $rc"; }
		same_output "$c" "$T/$c.out"
	done
fi
exit 0
