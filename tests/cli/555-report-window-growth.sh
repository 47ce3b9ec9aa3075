# 555: --from/--to restrict the growth ranking, the timelines and their
# statistics to the window, on a real recording (tests/victims/
# window-growth.c: grow_a grows in [a0, a5] and is freed, then grow_b
# grows to the end). The whole trace ranks grow_b alone; [a0, a5] ranks
# grow_a alone, its timeline and "times_ns" inside the window, 10000 bytes
# per marker over the window's 6 markers; [a5, b0], where grow_a is freed,
# ranks nothing.
. "$(dirname "$0")/../lib.sh"
v=$(victim window-growth) || exit
"$LEAKSCOPE" record -o "$T/g.lstrace" -- "$v" > "$T/out" 2> "$T/stderr" || fail "record"
fns='[.growth[] | .stack[] | select(.function == "grow_a" or .function == "grow_b") | .function]'

J=$T/all.json
"$LEAKSCOPE" report --format json -o "$J" "$T/g.lstrace" 2> "$T/stderr" || fail "report"
expect_json "$J" "$fns == [\"grow_b\"]"
expect_json "$J" '.times_ns[0] == 0'

J=$T/a.json
"$LEAKSCOPE" report --format json -o "$J" --from a0 --to a5 "$T/g.lstrace" 2> "$T/stderr" || fail "report --from a0 --to a5"
expect_json "$J" "$fns == [\"grow_a\"]"
expect_json "$J" '.window.from.t_ns as $f | .window.to.t_ns as $t | .times_ns[0] == $f and .times_ns[-1] <= $t and .times_ns[-1] > ($f + $t) / 2'
expect_json "$J" '.growth[0] | .growth.slope > 0 and .growth.peak <= 50000 and .growth.peak >= 40000 and .timeline[0] < .timeline[-1]'
expect_json "$J" '.growth[0].per_mark | (.bytes - 10000 | fabs) < 1e-6 and .fit > 0.999999'
"$LEAKSCOPE" report -o "$T/a.txt" --from a0 --to a5 "$T/g.lstrace" 2> "$T/stderr" || fail "report text"
expect_grep "$T/a.txt" "\+10000 B per mark, fit 1.00"

J=$T/gap.json
"$LEAKSCOPE" report --format json -o "$J" --from a5 --to b0 "$T/g.lstrace" 2> "$T/stderr" || fail "report --from a5 --to b0"
expect_json "$J" '.growth == []'
exit 0
