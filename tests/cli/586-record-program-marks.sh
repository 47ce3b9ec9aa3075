# leakscope_mark/leakscope_snapshot (include/leakscope.h) under record:
# each is written into the program's trace in ring order, exactly between
# the allocations and frees before and after it, with the thread that made
# it (also from a signal handler; a long text cut to 495 bytes). report
# --from/--to and diff TRACE@NAME work on them.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/support/trace-check.sh"
v=$(victim marks) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/m.lstrace
rc=0
"$LEAKSCOPE" record -o "$tr" -- "$v" > "$T/out" 2> "$T/err" || rc=$?
expect_rc 0
expect_grep "$T/out" "under leakscope: 1"
grep -Eq 'Sanitizer|runtime error' "$T/err" && { cat "$T/err"; fail "sanitizer report"; }
pid=$(sed -n 's/^leakscope: recording pid \([0-9]*\) .*/\1/p' "$T/err")
ls_dump "$tr" "$T/d"; [ "$drc" = 0 ] || { cat "$T/d.err"; fail "dump"; }
consistent "$T/d"
# the blocks of 1000 and 2000 bytes, their frees, and the marks, in file order
awk -v tid="tid=$pid" '
	$2 == "alloc" && $5 == "size=1000" { a = $4; print "alloc a"; next }
	$2 == "alloc" && $5 == "size=2000" { b = $4; print "alloc b"; next }
	$2 == "free" && $4 == a { print "free a"; next }
	$2 == "free" && $4 == b { print "free b"; next }
	($2 == "mark" || $2 == "snapshot") && $3 != tid { print "wrong thread: " $0; next }
	$2 == "mark" || $2 == "snapshot" { t = $0; sub(/^[^"]*"/, "", t); print $2, substr(t, 1, 25) }
' "$T/d" > "$T/seq"
cat > "$T/seq.want" << 'EOF'
mark start"
alloc a
snapshot after a"
alloc b
mark after b"
free a
mark from a signal handler"
mark xxxxxxxxxxxxxxxxxxxxxxxxx
free b
snapshot end"
EOF
cmp -s "$T/seq" "$T/seq.want" || { diff "$T/seq.want" "$T/seq"; fail "marks out of order"; }
len=$(sed -n 's/^.* mark tid=[0-9]* text="\(xx*\)"$/\1/p' "$T/d" | awk '{ print length($0) }')
[ "$len" = 495 ] || fail "the long text has $len bytes in the trace, not 495"

"$LEAKSCOPE" report --format json --from "after a" --to "after b" "$tr" > "$T/r.json" ||
	fail "report --from 'after a' --to 'after b'"
expect_json "$T/r.json" '[.leaks[] | [.stack[0].function, .leaked_bytes, .leaked_objects]] == [["main", 2000, 1]]'
expect_json "$T/r.json" '.window.from.point == "after a" and .window.to.point == "after b"'
expect_json "$T/r.json" '.summary.markers == 4 and .summary.snapshots == 2'
"$LEAKSCOPE" report --format json --from start --to "mark:from a signal handler" "$tr" > "$T/r2.json" ||
	fail "report --from start"
expect_json "$T/r2.json" '[.leaks[] | [.leaked_bytes, .leaked_objects]] == [[2000, 1]]'
"$LEAKSCOPE" diff --format json "$tr@after a" "$tr@snapshot:end" > "$T/diff.json" || fail "diff"
expect_json "$T/diff.json" '.exact and .added_bytes == 0 and .removed_bytes == 1000 and .removed_objects == 1'
"$LEAKSCOPE" diff --format json "$tr@start" "$tr@after b" > "$T/diff2.json" || fail "diff 2"
expect_json "$T/diff2.json" '.added_bytes == 3000 and .added_objects == 2 and .removed_bytes == 0'
exit 0
