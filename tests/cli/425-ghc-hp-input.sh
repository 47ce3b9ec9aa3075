# 425: a GHC .hp heap profile (+RTS -hT without -l) read by `leakscope
# eventlog`: one run writes both prog.hp and prog.eventlog (-hT -l), and the
# two readings hold the same censuses, the same bands and the same values
# (the .hp file's times are its own: GHC writes mutator time there). Every
# report works on it: text, HTML, --bands, --format hp (read back equal),
# --diff, several inputs on one page, a pipe; the HTML report's charts
# drawn in a browser.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
name=$(basename "$bin")
(cd "$T" && "$bin" +RTS -hT -l -i0.01 -ol"$T/run.eventlog" -RTS > /dev/null) || fail "victim failed"
hp=$T/$name.hp
[ -s "$hp" ] || fail "the run wrote no $name.hp"
"$LEAKSCOPE" eventlog --format json -o "$T/ev.json" "$T/run.eventlog" || fail "eventlog exit $?"
"$LEAKSCOPE" eventlog --format json -o "$T/hp.json" "$hp" 2> "$T/err" || { cat "$T/err"; fail "hp exit $?"; }
[ -s "$T/err" ] && { cat "$T/err"; fail "warnings on a whole .hp file"; }
j=$T/hp.json
expect_json "$j" '.warnings == [] and .markers == []'
expect_json "$j" ".meta.program == \"$name\" and .title == \"$name\""
expect_json "$j" '.meta.start | test("[0-9]{4}")'
n=$(jq '.times_ns | length' "$T/ev.json")
[ "$n" -ge 5 ] || fail "only $n censuses in the eventlog"
# GHC's .hp holds two more samples, empty, when profiling begins and ends
[ "$(grep -c '^BEGIN_SAMPLE' "$hp")" -eq $((n + 2)) ] || fail "not $n + 2 samples in the .hp file"
expect_json "$j" "(.times_ns | length) == $n and .meta.censuses == $n"
expect_json "$j" '.times_ns == (.times_ns | sort) and .times_ns[0] > 0'
# the same bands, each with the same value at each census
bands='[.bands[] | {id: .id, label: .label, values: .values, peak: .stats.peak}] | sort_by(.id)'
jq -S "$bands" "$T/ev.json" > "$T/ev.bands"
jq -S "$bands" "$j" > "$T/hp.bands"
[ "$(jq length "$T/hp.bands")" -ge 10 ] || fail "few bands in the .hp reading"
cmp -s "$T/ev.bands" "$T/hp.bands" || { diff "$T/ev.bands" "$T/hp.bands" | head -n 20; fail "bands differ"; }
# and the growing THUNK band first, growing
expect_json "$j" '.bands[0].label | startswith("THUNK")'
expect_json "$j" '.bands[0].stats.slope > 0 and .bands[0].stats.fit > 0.8'
expect_json "$T/ev.json" '.bands[0].label | startswith("THUNK")'
# text, HTML (default name FILE.hp.html), --bands
"$LEAKSCOPE" eventlog --format text --top 3 "$hp" > "$T/hp.txt" || fail "text exit $?"
expect_grep "$T/hp.txt" '^ +1 .*THUNK'
expect_grep "$T/hp.txt" "censuses +$n\$"
"$LEAKSCOPE" eventlog "$hp" 2> "$T/err" || fail "html exit $?"
expect_grep "$T/err" "wrote .*$name.hp.html"
expect_grep "$hp.html" 'THUNK_2_0'
"$LEAKSCOPE" eventlog --format json --bands 3 -o "$T/b3.json" "$hp" || fail "--bands exit $?"
expect_json "$T/b3.json" '(.bands | length) == 4 and (.bands[3].label | startswith("other"))'
# --format hp of it, read back: the same timeline
"$LEAKSCOPE" eventlog --format hp -o "$T/again.hp" "$hp" || fail "hp exit $?"
"$LEAKSCOPE" eventlog --format json -o "$T/again.json" "$T/again.hp" || fail "again exit $?"
jq -S "$bands" "$T/again.json" > "$T/again.bands"
cmp -s "$T/again.bands" "$T/hp.bands" || fail "written and read back, the bands differ"
expect_json "$T/again.json" "(.times_ns | length) == $n"
# --diff of the eventlog and the .hp file: the same bands on both sides
"$LEAKSCOPE" eventlog --diff --format json -o "$T/diff.json" "$T/run.eventlog" "$hp" || fail "diff exit $?"
expect_json "$T/diff.json" '(.bands | length) >= 10 and all(.bands[]; .side == "both" and .delta.peak == 0)'
# one page of both
"$LEAKSCOPE" eventlog -o "$T/page.html" "$T/run.eventlog" "$hp" || fail "page exit $?"
# from a pipe
cat "$hp" | "$LEAKSCOPE" eventlog --format json -o "$T/pipe.json" /dev/stdin || fail "pipe exit $?"
jq -S "$bands" "$T/pipe.json" | cmp -s - "$T/hp.bands" || fail "read from a pipe, the bands differ"
# the HTML report of it in a browser: its charts drawn, no console error
browser_check "the .hp file's HTML report" check_stream.mjs "$hp.html"
exit 0
