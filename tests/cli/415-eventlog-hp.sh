# 415: a GHC eventlog heap profile as GHC's own .hp file (--format hp, for
# hp2ps): one sample per census with the bands' bytes, equal to the JSON
# report's values; the markers as MARK lines; hp2ps (installed with ghc)
# draws it, naming the growing THUNK_2_0 band in its key.
. "$(dirname "$0")/../lib.sh"
FIX=$ROOT/tests/fixtures/eventlog
cp "$FIX/large-thunk-hT.eventlog" "$T/lt.eventlog"
"$LEAKSCOPE" eventlog --format json -o "$T/lt.json" "$T/lt.eventlog" || fail "json exit $?"
"$LEAKSCOPE" eventlog --format hp "$T/lt.eventlog" 2> "$T/stderr" || fail "hp exit $?"
expect_grep "$T/stderr" "wrote .*lt.eventlog.hp"
H=$T/lt.eventlog.hp
expect_grep "$H" '^JOB "\./LargeThunk \+RTS -l -hT'
expect_grep "$H" '^SAMPLE_UNIT "seconds"$'
n=$(jq '.times_ns | length' "$T/lt.json")
[ "$(grep -c '^BEGIN_SAMPLE ' "$H")" = "$n" ] || fail "$(grep -c '^BEGIN_SAMPLE ' "$H") samples, not $n"
[ "$(grep -c '^END_SAMPLE ' "$H")" = "$n" ] || fail "END_SAMPLE lines"
[ "$(grep -c '^MARK ' "$H")" = "$(jq '.markers | length' "$T/lt.json")" ] || fail "MARK lines"
# THUNK_2_0 in every sample of the file is the band's value in JSON
awk -F '\t' '$1 == "THUNK_2_0" { print $2 }' "$H" > "$T/hp.values"
jq -r '.bands[] | select(.id == "THUNK_2_0") | .values[] | select(. > 0) | round' "$T/lt.json" > "$T/json.values"
[ -s "$T/hp.values" ] || fail "no THUNK_2_0 in the .hp file"
cmp -s "$T/hp.values" "$T/json.values" || { paste "$T/hp.values" "$T/json.values"; fail "THUNK_2_0 values differ"; }
"$LEAKSCOPE" eventlog --format hp --diff "$T/lt.eventlog" "$T/lt.eventlog" 2> "$T/stderr" && fail "--diff with hp accepted"
command -v hp2ps > /dev/null || skip "no hp2ps (ghc): the .hp file was checked, not drawn"
(cd "$T" && hp2ps -c lt.eventlog.hp) 2> "$T/stderr" || fail "hp2ps cannot read it"
expect_grep "$T/lt.eventlog.ps" '\(THUNK_2_0\)'
exit 0
