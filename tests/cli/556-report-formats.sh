# 556: a real trace (the leaking server, 3 batches of 20 requests: 60 x 640
# bytes leaked by remember_client): its allocation size classes, and the
# formats other tools read, each checked with that tool where installed:
# - folded stacks: remember_client's line, outermost frame first, carries
#   its leaked bytes (and its allocation count with --cost allocations);
#   the leaked values add up to the JSON report's leaked bytes;
# - pprof: `go tool pprof` reads it and ranks remember_client first by
#   inuse_space with 38400 B, and counts its 60 allocations;
# - massif: ms_print reads it; the peak snapshot holds the report's peak
#   live bytes, and remember_client's branch in its tree.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/real-trace.sh"
v=$(victim leakserver) || exit
GAP=0.1 record_server "$T/s.lstrace" 3 20
S=$T/s.lstrace
"$LEAKSCOPE" report --format json -o "$T/r.json" "$S" 2> "$T/stderr" || fail "report json"
leaked=$(jq '.summary.leaked_bytes' "$T/r.json")
# the size classes (a histogram to choose --size by) add up to the totals,
# and remember_client's 60 blocks of 640 bytes are live in 512-1,023
expect_json "$T/r.json" '([.sizes[].allocations] | add) == .summary.allocations and ([.sizes[].bytes] | add) == .summary.bytes_allocated'
expect_json "$T/r.json" '([.sizes[].live_bytes] | add) == .summary.final_live_bytes and ([.sizes[].live_objects] | add) == .summary.final_live_objects'
expect_json "$T/r.json" '.sizes[] | select(.min == 512) | .max == 1023 and .live_objects >= 60 and .live_bytes >= 38400'
"$LEAKSCOPE" report "$S" > "$T/r.txt" 2> "$T/stderr" || fail "report text"
expect_grep "$T/r.txt" "^ +512 - 1,023 +B +[0-9,]+ allocations \\([0-9,]+ B\\), [0-9,]+ live at the end"
peak=$(jq '.summary.peak_live_bytes' "$T/r.json")

# folded
"$LEAKSCOPE" report --format folded -o "$T/f.txt" "$S" 2> "$T/stderr" || fail "report folded"
expect_grep "$T/f.txt" "^([^ ]*;)?main;serve;serve_one;remember_client 38400$"
sum=$(awk '{ s += $NF } END { print s }' "$T/f.txt")
[ "$sum" = "$leaked" ] || fail "folded values add up to $sum, the report's leaked bytes are $leaked"
"$LEAKSCOPE" report --format folded --cost allocations "$S" > "$T/fa.txt" 2> "$T/stderr" || fail "folded allocations"
expect_grep "$T/fa.txt" ";remember_client 60$"
"$LEAKSCOPE" report --cost peak "$S" > /dev/null 2> "$T/stderr" && fail "--cost without folded accepted"
expect_grep "$T/stderr" "--cost goes with --format folded"

# massif
"$LEAKSCOPE" report --format massif -o "$T/m.out" "$S" 2> "$T/stderr" || fail "report massif"
expect_grep "$T/m.out" "^heap_tree=peak$"
got=$(awk '/^mem_heap_B=/ { b = substr($0, 12) } /^heap_tree=peak$/ { print b }' "$T/m.out")
[ "$got" = "$peak" ] || fail "massif peak snapshot: $got bytes, the report's peak is $peak"
if command -v ms_print > /dev/null; then
	ms_print "$T/m.out" > "$T/ms.txt" 2> "$T/stderr" || fail "ms_print cannot read it"
	expect_grep "$T/ms.txt" "\(peak\)"
	expect_grep "$T/ms.txt" "^->[0-9.]+% \(38,400B\) 0x[0-9A-F]+: remember_client \(.*leakserver.c:[0-9]+\)"
fi

# a full disk is an error, said once
for f in folded massif pprof; do
	"$LEAKSCOPE" report --format $f -o /dev/full "$S" 2> "$T/stderr" && fail "$f: /dev/full accepted"
	expect_grep "$T/stderr" "^leakscope: cannot write '/dev/full'"
done

# pprof (default file TRACE.pb)
"$LEAKSCOPE" report --format pprof "$S" 2> "$T/stderr" || fail "report pprof"
expect_grep "$T/stderr" "wrote .*s.lstrace.pb"
[ -s "$S.pb" ] || fail "no $S.pb"
command -v go > /dev/null || skip "no go: pprof's file was written, not read"
export GOCACHE="$T/gocache" HOME="$T"
go tool pprof -top -unit=B -sample_index=inuse_space "$S.pb" > "$T/top.txt" 2> "$T/stderr" ||
	fail "go tool pprof cannot read it"
expect_grep "$T/top.txt" "^Type: inuse_space"
first=$(awk '/flat%/ { getline; print; exit }' "$T/top.txt")
echo "$first" | grep -Eq "^ *38400B .* remember_client$" || fail "pprof's first row: $first"
go tool pprof -top -sample_index=alloc_objects "$S.pb" > "$T/objs.txt" 2> "$T/stderr" || fail "pprof alloc_objects"
expect_grep "$T/objs.txt" "^ *60 .* remember_client$"
exit 0
