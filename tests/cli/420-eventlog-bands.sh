# 420: --bands N keeps the N largest bands of a real -hc profile and sums
# the others into one band, "other (K bands)", last: at every census its
# value is the sum of the bands it replaces, so the totals stay whole; the
# kept bands are those of the full report, unchanged; text, JSON and HTML
# alike; not with --diff.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
ev=$FIX/cost-centres-hc.eventlog
"$LEAKSCOPE" eventlog --format json -o "$T/all.json" "$ev" || fail "eventlog exit $?"
"$LEAKSCOPE" eventlog --format json --bands 2 -o "$T/two.json" "$ev" || fail "--bands exit $?"
n=$(jq '.bands | length' "$T/all.json")
[ "$n" -gt 3 ] || fail "the fixture has $n bands: too few to sum"
expect_json "$T/two.json" ".bands | length == 3 and .[2].label == \"other ($((n - 2)) bands)\" and .[2].id == \"other\""
a=$(jq -c '[.bands[:2][] | {label, values, stats}]' "$T/all.json")
b=$(jq -c '[.bands[:2][] | {label, values, stats}]' "$T/two.json")
[ "$a" = "$b" ] || fail "the kept bands changed: $a vs $b"
sum=$(jq -c '[.bands[2:][].values] | transpose | map(add)' "$T/all.json")
other=$(jq -c '.bands[2].values' "$T/two.json")
[ "$sum" = "$other" ] || fail "other is not the sum of the bands it replaces: $sum vs $other"
# a band count at or above the bands there are, or one band short: unchanged
"$LEAKSCOPE" eventlog --format json --bands $((n - 1)) -o "$T/short.json" "$ev" || fail "exit $?"
expect_json "$T/short.json" "(.bands | length) == $n and all(.bands[]; .id != \"other\")"
# text and HTML
"$LEAKSCOPE" eventlog --format text --bands 2 "$ev" > "$T/two.txt" || fail "text exit $?"
expect_grep "$T/two.txt" "^ +3 .*other \\($((n - 2)) bands\\)"
"$LEAKSCOPE" eventlog --bands 2 -o "$T/two.html" "$ev" || fail "html exit $?"
expect_grep "$T/two.html" "other \\($((n - 2)) bands\\)"
# usage
rc=0; "$LEAKSCOPE" eventlog --bands 2 --diff "$ev" "$ev" > /dev/null 2>&1 || rc=$?
expect_rc 2
rc=0; "$LEAKSCOPE" eventlog --bands x "$ev" > /dev/null 2>&1 || rc=$?
expect_rc 2
exit 0
